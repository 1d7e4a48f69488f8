import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reportSlug } from '../../src/model/slug';

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

describe('reportSlug with --repeat-each', () => {
  const parts = { file: 'e2e/login.spec.ts', titles: ['Login', 'shows an error'] };

  it('repeat 0 (or no repeat index) keeps the slug exactly as without repeats', () => {
    const plain = reportSlug(parts);
    // Pinned: the slug of a test without repeats is a contract (links, failure messages, tools).
    assert.equal(plain, 'e2e-login-login-shows-an-error-' + plain.slice(-8));
    assert.equal(reportSlug({ ...parts, repeatEachIndex: 0 }), plain);
    assert.equal(reportSlug({ ...parts, repeatEachIndex: undefined }), plain);
  });

  it('repeat N > 0 ends in -repeatN-<hash>, each repeat with its own hash', () => {
    const slugs = [0, 1, 2, 10].map((repeatEachIndex) => reportSlug({ ...parts, repeatEachIndex }));
    assert.equal(new Set(slugs).size, 4);
    assert.match(slugs[1]!, /^e2e-login-login-shows-an-error-repeat1-[0-9a-f]{8}$/);
    assert.match(slugs[3]!, /^e2e-login-login-shows-an-error-repeat10-[0-9a-f]{8}$/);
    assert.notEqual(slugs[1]!.slice(-8), slugs[0]!.slice(-8));
    // A repeat never takes the slug of a test whose title happens to end in "repeat1".
    assert.notEqual(reportSlug({ file: parts.file, titles: ['Login', 'shows an error repeat1'] }), slugs[1]);
  });

  it('the repeat suffix survives truncation of a long title and the slug stays within 120 characters', () => {
    const slug = reportSlug({ file: 'a.spec.ts', titles: ['x'.repeat(300)], project: 'p', repeatEachIndex: 3 });
    assert.ok(slug.length <= 120, `${slug.length}`);
    assert.match(slug, /-repeat3-[0-9a-f]{8}$/);
    assert.match(reportSlug({ file: '!!!.spec.ts', titles: ['!!!'], repeatEachIndex: 1 }), /^[a-z0-9._-]*repeat1-[0-9a-f]{8}$/);
  });
});
