import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeData, escapeProperty, workflowCommand } from '../../src/format/github-commands';
import { annotationLocation, omittedAnnotations, testAnnotations } from '../../src/ci/annotations';
import { sourceInRepo } from '../../src/ci/repo-source';
import { formatStepSummary } from '../../src/format/github-summary';
import { resolveReporterOptions } from '../../src/reporter/options';
import { GitHubOutput } from '../../src/reporter/github';
import type { DaebugEvent, Report } from '../../src/model/schema';

function event(fields: Partial<DaebugEvent>): DaebugEvent {
  return { type: 'error', source: 'window.onerror', realm: 'page', ts: '10:00:00', time: '2026-01-01T10:00:00.000Z', message: 'Error: boom', expected: false, unexpected: true, ...fields };
}

function report(events: DaebugEvent[], strict = false): Report {
  return {
    schemaVersion: 1,
    test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 1, strict },
    jobs: [],
    events,
    summary: { errors: events.length, unexpected: events.length, console: 0, dropped: 0 },
  };
}

const root = path.resolve('/repo');
const files = new Set([path.join(root, 'src', 'cart.ts'), path.join(root, 'apps', 'web', 'src', 'app.ts'), path.join(root, 'index.ts')]);
const paths = { root, cwd: path.join(root, 'e2e'), isFile: (file: string) => files.has(file) };

describe('workflow command escaping', () => {
  it('escapes %, CR and LF in messages, and leaves : and , alone there', () => {
    assert.equal(escapeData('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext: a, b');
    assert.equal(escapeData('%0A'), '%250A');
  });

  it('escapes : and , in properties as well', () => {
    assert.equal(escapeProperty('a.spec.ts › t: x, y%\n'), 'a.spec.ts › t%3A x%2C y%25%0A');
  });

  it('formats a command with its properties in order and skips empty ones', () => {
    assert.equal(workflowCommand('error', { title: 'T: 1,2', line: 12, file: 'src/a b.ts', col: 5 }, 'Error: x\nat y'), '::error file=src/a b.ts,line=12,col=5,title=T%3A 1%2C2::Error: x%0Aat y');
    assert.equal(workflowCommand('warning', {}, 'm'), '::warning::m');
    assert.equal(workflowCommand('notice', { title: '' }, '50%'), '::notice::50%25');
  });
});

describe('sourceInRepo', () => {
  it('resolves relative, absolute and file: sources that exist inside the repository', () => {
    assert.equal(sourceInRepo('../src/cart.ts', paths), 'src/cart.ts');
    assert.equal(sourceInRepo(path.join(root, 'src', 'cart.ts'), paths), 'src/cart.ts');
    assert.equal(sourceInRepo(pathToFileURL(path.join(root, 'src', 'cart.ts')).href, paths), 'src/cart.ts');
  });

  it('finds bundler and server sources by their tail', () => {
    assert.equal(sourceInRepo('webpack://web/./src/cart.ts', paths), 'src/cart.ts');
    assert.equal(sourceInRepo('webpack://web/./src/app.ts', { ...paths, cwd: path.join(root, 'apps', 'web') }), 'apps/web/src/app.ts');
    assert.equal(sourceInRepo('webpack://web/./src/app.ts', paths), undefined);
    assert.equal(sourceInRepo('http://127.0.0.1:3000/apps/web/src/app.ts?v=3', paths), 'apps/web/src/app.ts');
    assert.equal(sourceInRepo('webpack://web/./web/src/app.ts', paths), undefined);
  });

  it('gives undefined for files outside the repository or missing, and never matches a bare file name by its tail', () => {
    assert.equal(sourceInRepo('/elsewhere/src/cart.ts', paths), undefined);
    assert.equal(sourceInRepo('../../outside.ts', paths), undefined);
    assert.equal(sourceInRepo('http://127.0.0.1/vendor/index.ts', paths), undefined);
    assert.equal(sourceInRepo('http://127.0.0.1/index.ts', paths), 'index.ts');
  });
});

describe('annotations', () => {
  const test = { file: 'e2e/a.spec.ts', line: 3 };
  const inRepo = (source: string) => sourceInRepo(source, paths);

  it("sits at the first user frame's original source when that file is in the repository", () => {
    const e = event({
      frames: [
        { url: 'http://h/vendor.js', line: 1, column: 1, original: { source: 'webpack://web/node_modules/lib/x.js', line: 9, column: 9 } },
        { url: 'http://h/app.js', line: 1, column: 200, userCode: true, original: { source: 'webpack://web/./src/cart.ts', line: 12, column: 5 } },
      ],
    });
    assert.deepEqual(annotationLocation(e, { test, sourceInRepo: inRepo }), { file: 'src/cart.ts', line: 12, col: 5 });
  });

  it("falls back to the test's location", () => {
    const e = event({ frames: [{ url: 'http://h/app.js', line: 1, column: 2, userCode: true }], location: { url: 'http://h/app.js', line: 1, column: 2 } });
    assert.deepEqual(annotationLocation(e, { test, sourceInRepo: inRepo }), { file: 'e2e/a.spec.ts', line: 3 });
  });

  it('is an error in strict mode and a warning otherwise, titled by the test, with the first line as message', () => {
    const events = [event({ message: 'TypeError: x is undefined\n    at f (http://h/app.js:1:2)' }), event({ message: 'b', expected: true, unexpected: false })];
    assert.deepEqual(testAnnotations({ report: report(events, true), titlePath: ['a.spec.ts', 'cart', 'adds: 1, 2'], test, sourceInRepo: inRepo }), [
      '::error file=e2e/a.spec.ts,line=3,title=daebug%3A a.spec.ts › cart › adds%3A 1%2C 2::TypeError: x is undefined',
    ]);
    assert.match(testAnnotations({ report: report(events), titlePath: ['t'], test, sourceInRepo: inRepo })[0]!, /^::warning /);
  });

  it('counts what it left out in one notice', () => {
    assert.equal(omittedAnnotations(3, 1, 10, 'reports/index.md'), '::notice title=daebug%3A more unexpected errors::3 more unexpected browser errors in 1 test not annotated (maxAnnotations: 10); see reports/index.md');
  });
});

describe('formatStepSummary', () => {
  it('lists the tests with unexpected errors in a table whose cells page text cannot break', () => {
    const md = formatStepSummary({
      rows: [{ location: 'e2e/a.spec.ts:3', title: 'a › b', status: 'failed', strict: true, unexpected: 2, firstError: '[window.onerror] Error: <b>a|b</b>\nnext', report: 'reports/a-1.md' }],
      tests: 4,
      index: 'reports/index.md',
    });
    const lines = md.split('\n');
    assert.equal(lines[0], '### daebug: unexpected browser errors');
    assert.equal(lines[2], '1 of 4 tests had 2 unexpected browser errors. Index: `reports/index.md`');
    assert.equal(lines[4], '| Test | Status | Unexpected | First error | Report |');
    assert.equal(lines[6], '| a › b<br>`e2e/a.spec.ts:3` | failed (strict) | 2 | [window.onerror] Error: &lt;b&gt;a\\|b&lt;/b&gt; next | `reports/a-1.md` |');
  });

  it('says so when no test had unexpected errors, and counts rows over the cap', () => {
    assert.match(formatStepSummary({ rows: [], tests: 1, index: 'i.md' }), /No unexpected browser errors in 1 test\./);
    const row = { location: 'a:1', title: 't', status: 'passed', strict: false, unexpected: 1, firstError: 'e', report: 'r.md' };
    const md = formatStepSummary({ rows: [row, row, row], tests: 3, index: 'i.md', maxRows: 2 });
    assert.equal(md.split('\n').filter((l) => l.startsWith('| t')).length, 2);
    assert.match(md, /… and 1 more tests with unexpected errors/);
  });
});

describe('reporter options for GitHub Actions', () => {
  it('default to on, with 10 annotations', () => {
    assert.deepEqual(
      (({ githubAnnotations, githubSummary, maxAnnotations }) => ({ githubAnnotations, githubSummary, maxAnnotations }))(resolveReporterOptions({}, '/x')),
      { githubAnnotations: true, githubSummary: true, maxAnnotations: 10 },
    );
  });

  it('reject bad values, naming the option and what it accepts', () => {
    assert.throws(() => resolveReporterOptions({ githubAnnotations: 'no' }, '/x'), (e: Error & { code?: string }) => e.code === 'DAEBUG_OPTIONS_INVALID' && /githubAnnotations/.test(e.message) && /true, false, 'all' or 'new'/.test(e.message));
    assert.throws(() => resolveReporterOptions({ maxAnnotations: -1 }, '/x'), /maxAnnotations[\s\S]*at least 0/);
  });
});

describe('GitHubOutput with a baseline', () => {
  function output(annotations: 'auto' | 'all' | 'new') {
    const written: string[] = [];
    const github = new GitHubOutput({ annotations, summary: false, maxAnnotations: 10, root, outputDir: path.join(root, 'reports'), summaryFile: undefined, write: (text) => written.push(text) });
    return { github, commands: () => written.join('').split('\n').filter((l) => l.startsWith('::')) };
  }
  const known = event({ message: 'Error: known one', fingerprint: 'aaaaaaaaaaaa', known: true });
  const fresh = (n: number) => event({ message: `Error: new one ${n}`, fingerprint: 'bbbbbbbbbbbb' });
  const other = event({ message: 'Error: another new', fingerprint: 'cccccccccccc' });
  const test = (events: DaebugEvent[]) => ({ report: report(events), titlePath: ['a.spec.ts', 't'], file: path.join(root, 'e2e', 'a.spec.ts'), line: 3 });

  it('annotates each new group once, at its first occurrence, and no known error', () => {
    const { github, commands } = output('auto');
    github.testEnded(test([known, fresh(1)]), true);
    github.testEnded(test([fresh(2), other, known]), true);
    assert.deepEqual(commands().map((c) => c.slice(c.lastIndexOf('::') + 2)), ['Error: new one 1', 'Error: another new']);
  });

  it("annotates every unexpected error with 'all', saying which are known", () => {
    const { github, commands } = output('all');
    github.testEnded(test([known, fresh(1)]), true);
    assert.deepEqual(commands().map((c) => c.slice(c.lastIndexOf('::') + 2)), ['known (in baseline): Error: known one', 'Error: new one 1']);
  });

  it('annotates a known error of a strict test as a warning: strict mode does not fail on it', () => {
    const commands = testAnnotations({ report: report([known, fresh(1)], true), titlePath: ['a.spec.ts', 't'], test: { file: path.join(root, 'e2e', 'a.spec.ts'), line: 3 }, sourceInRepo: () => undefined });
    assert.deepEqual(commands.map((c) => c.slice(0, c.indexOf(' '))), ['::warning', '::error']);
  });

  it('annotates every unexpected error without a baseline', () => {
    const { github, commands } = output('auto');
    github.testEnded(test([fresh(1), fresh(2)]), false);
    assert.equal(commands().length, 2);
  });
});

describe('formatStepSummary with groups', () => {
  it('lists the distinct errors before the tests, new ones first', () => {
    const group = (fingerprint: string, message: string, isNew: boolean, tests: number) => ({ fingerprint, message, source: 'window.onerror', count: tests, tests, reports: [`${fingerprint}.md`], origin: 'app' as const, unexpected: true, new: isNew, intermittent: false, attempts: { seen: tests, total: tests } });
    const rows = [{ location: 'a.spec.ts:3', title: 't', status: 'passed', strict: false, unexpected: 1, firstError: 'x', report: 'reports/t.md' }];
    const text = formatStepSummary({ rows, tests: 5, index: 'reports/index.md', groups: [group('aaaaaaaaaaaa', 'Error: old', false, 4), group('bbbbbbbbbbbb', 'Error: fresh', true, 1)], report: (name) => `reports/${name}` });
    assert.match(text, /\*\*2 distinct errors\*\*, 1 new since the baseline/);
    assert.ok(text.indexOf('Error: fresh') < text.indexOf('Error: old'));
    assert.ok(text.indexOf('Error: old') < text.indexOf('| Test | Status |'));
    assert.match(text, /`reports\/bbbbbbbbbbbb\.md`/);
  });
});
