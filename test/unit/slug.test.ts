import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reportSlug } from '../../src/slug';

describe('reportSlug', () => {
  it('is readable: file without the spec extension, then titles', () => {
    const slug = reportSlug({ file: 'e2e/login.spec.ts', titles: ['Login', 'shows an error'] });
    assert.match(slug, /^e2e-login-login-shows-an-error-[0-9a-f]{8}$/);
  });

  it('uses only [a-z0-9._-] and stays within 120 characters', () => {
    const hostile = ['../../etc/passwd', 'a\\b/c', 'nul\u0000byte', 'ctrl\u0007\u001b[31m', '🚀 émoji ünïcode 漢字', 'x'.repeat(300), 'CON', 'aux.txt'];
    for (const title of hostile) {
      const slug = reportSlug({ file: 'a.spec.ts', titles: [title] });
      assert.match(slug, /^[a-z0-9._-]+$/, title);
      assert.ok(slug.length <= 120, `${slug.length}`);
      assert.ok(!slug.startsWith('.') && !slug.includes('..'), slug);
    }
  });

  it('keeps titles that differ only by case, or clean to the same text, apart', () => {
    const a = reportSlug({ file: 'a.spec.ts', titles: ['Title'] });
    const b = reportSlug({ file: 'a.spec.ts', titles: ['title'] });
    const c = reportSlug({ file: 'a.spec.ts', titles: ['title!'] });
    assert.equal(new Set([a, b, c]).size, 3);
  });

  it('adds the project when given and is stable across calls', () => {
    const withProject = reportSlug({ file: 'a.spec.ts', titles: ['t'], project: 'Mobile Chrome' });
    assert.match(withProject, /-t-mobile-chrome-[0-9a-f]{8}$/);
    assert.equal(withProject, reportSlug({ file: 'a.spec.ts', titles: ['t'], project: 'Mobile Chrome' }));
    assert.notEqual(withProject, reportSlug({ file: 'a.spec.ts', titles: ['t'] }));
  });
});
