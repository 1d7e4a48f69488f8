import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeFileName, normalizeMessage, normalizeSource, normalizeUrl } from '../../src/run/normalize';
import { fingerprintOf, isFingerprinted, originOf } from '../../src/run/fingerprint';
import { RunGroups, testKeyOf } from '../../src/run/groups';
import { formatBaseline, makeBaseline, parseBaseline } from '../../src/run/baseline';
import { markEvents } from '../../src/run/mark-events';
import { formatIndexMarkdown, type IndexEntry } from '../../src/format/index-markdown';
import type { DaebugEvent, Frame } from '../../src/model/schema';

function frame(url: string, functionName: string, line = 10, extra: Partial<Frame> = {}): Frame {
  return { url, functionName, line, column: 5, userCode: true, ...extra };
}

function event(message: string, fields: Partial<DaebugEvent> = {}): DaebugEvent {
  return { type: 'error', source: 'window.onerror', realm: 'page', ts: '10:00:00', time: '2026-11-24T10:00:00.000Z', message, expected: false, unexpected: true, ...fields };
}

describe('normalizeMessage', () => {
  it('replaces numbers, quoted values, UUIDs, hashes, hex, dates and URL ids with placeholders', () => {
    assert.equal(normalizeMessage('Invoice 3310 not found'), normalizeMessage('Invoice 7 not found'));
    assert.equal(normalizeMessage('Invoice 3310 not found'), 'Invoice <n> not found');
    assert.equal(normalizeMessage('User "alice" has no role'), normalizeMessage('User "bob" has no role'));
    assert.equal(normalizeMessage('order 3f2c1a9e-1b2c-4d5e-8f90-123456789abc failed'), 'order <uuid> failed');
    assert.equal(normalizeMessage('object 5f3a9c21d7e8 detached'), 'object <hash> detached');
    assert.equal(normalizeMessage('bad pointer 0xdeadBEEF'), 'bad pointer <hex>');
    assert.equal(normalizeMessage('expired at 2026-11-24T10:00:00.123Z'), 'expired at <date>');
    assert.equal(
      normalizeMessage('GET http://127.0.0.1:4517/api/invoices/3310?token=abc#x failed'),
      normalizeMessage('GET http://127.0.0.1:9999/api/invoices/7?token=zzz failed'),
    );
    assert.equal(normalizeMessage('Timeout after 3000ms'), normalizeMessage('Timeout after 5000ms'));
  });

  it('keeps what names code: property names V8 quotes, identifiers with digits, and different wording', () => {
    assert.notEqual(normalizeMessage("Cannot read properties of undefined (reading 'id')"), normalizeMessage("Cannot read properties of undefined (reading 'name')"));
    assert.equal(normalizeMessage("Cannot read properties of undefined (reading 'id')"), "Cannot read properties of undefined (reading 'id')");
    assert.equal(normalizeMessage('h1 missing in utf8 text'), 'h1 missing in utf8 text');
    assert.notEqual(normalizeMessage('alpha broke'), normalizeMessage('beta broke'));
  });

  it('reads only the first line, without Chromium\'s "Uncaught" prefix or the truncation mark', () => {
    assert.equal(normalizeMessage('Uncaught TypeError: x is not a function\n    at f (a.js:1:2)'), 'TypeError: x is not a function');
    assert.equal(normalizeMessage('Error: long …[truncated, 5000 chars]'), 'Error: long');
  });
});

describe('normalizeUrl and file names', () => {
  it('drops the bundle hash of a file name, the port, the query and id segments', () => {
    assert.equal(normalizeFileName('app.91d2e0.js'), 'app.js');
    assert.equal(normalizeFileName('app.4c7b13.js'), 'app.js');
    assert.equal(normalizeFileName('app-4c7b13.js'), 'app.js');
    assert.equal(normalizeFileName('index-DiwrgTda.js'), 'index.js');
    assert.equal(normalizeFileName('app.js'), 'app.js');
    assert.equal(normalizeFileName('user-settings.js'), 'user-settings.js');
    assert.equal(normalizeFileName('BrokenWidget.tsx'), 'BrokenWidget.tsx');
    assert.equal(normalizeUrl('http://127.0.0.1:4517/assets/app.91d2e0.js?v=3'), 'http://127.0.0.1/assets/app.js');
    assert.equal(normalizeUrl('https://shop.test/api/orders/3310/items'), 'https://shop.test/api/orders/<id>/items');
    assert.equal(normalizeUrl('data:image/svg+xml;base64,AAAA'), 'data:image/svg+xml');
    assert.equal(normalizeSource('webpack://shop/./src/cart.ts'), 'src/cart.ts');
  });
});

describe('fingerprintOf', () => {
  const invoice = (id: number, bundle: string) => event(`Error: Invoice ${id} not found`, { frames: [frame(`http://127.0.0.1:4517/${bundle}`, 'loadInvoice', id % 7)] });

  it('is the same for one error with other data, from another build, line or test', () => {
    assert.equal(fingerprintOf(invoice(3310, 'app.91d2e0.js')), fingerprintOf(invoice(7, 'app.4c7b13.js')));
    assert.match(fingerprintOf(invoice(1, 'app.js')), /^[0-9a-f]{12}$/);
  });

  it('is the same for an uncaught error whichever way the browser reported it', () => {
    assert.equal(fingerprintOf(invoice(1, 'app.js')), fingerprintOf({ ...invoice(1, 'app.js'), source: 'pageerror' }));
    assert.notEqual(fingerprintOf(invoice(1, 'app.js')), fingerprintOf({ ...invoice(1, 'app.js'), source: 'console.error', type: 'console' }));
  });

  it('differs for two messages thrown on one line, and for one message in two functions', () => {
    const at = [frame('http://h/app.js', 'boom', 3)];
    assert.notEqual(fingerprintOf(event('TypeError: alpha broke', { frames: at })), fingerprintOf(event('TypeError: beta broke', { frames: at })));
    assert.notEqual(fingerprintOf(event('E', { frames: [frame('http://h/app.js', 'a')] })), fingerprintOf(event('E', { frames: [frame('http://h/app.js', 'b')] })));
  });

  it('uses the mapped original source and function, and the library package when no frame is the user\'s', () => {
    const mapped = (bundle: string, line: number) => event('E', { frames: [frame(`http://h/${bundle}`, 'x', line, { original: { source: 'src/cart.ts', line: 12, column: 3, functionName: 'addItem' } })] });
    assert.equal(fingerprintOf(mapped('a.111111a.js', 1)), fingerprintOf(mapped('a.222222b.js', 900)));
    const lib = (pkg: string) => event('E', { frames: [frame(`http://h/node_modules/${pkg}/index.js`, 'f', 1, { userCode: false, library: pkg })] });
    assert.notEqual(fingerprintOf(lib('react-dom')), fingerprintOf(lib('vue')));
  });

  it('groups failed requests by method, URL shape and status', () => {
    const failed = (id: number, status: number) => event(`GET /api/invoices/${id} ${status}`, { type: 'console', source: 'network', unexpected: false, network: { method: 'GET', url: `http://127.0.0.1:1/api/invoices/${id}`, status, resourceType: 'fetch' } });
    assert.equal(fingerprintOf(failed(1, 404)), fingerprintOf(failed(2, 404)));
    assert.notEqual(fingerprintOf(failed(1, 404)), fingerprintOf(failed(1, 500)));
  });

  it('is given to errors, warnings, failed requests and browser error lines, not to plain output', () => {
    assert.equal(isFingerprinted(event('x')), true);
    assert.equal(isFingerprinted(event('x', { type: 'console', source: 'console.warn' })), true);
    assert.equal(isFingerprinted(event('x', { type: 'console', source: 'console.log' })), false);
    assert.equal(isFingerprinted(event('x', { type: 'console', source: 'navigation' })), false);
  });
});

describe('originOf', () => {
  const pages = new Set(['http://127.0.0.1:4517']);
  it('is third-party when every URL is of another origin, browser for browser lines, else app', () => {
    assert.equal(originOf(event('x', { frames: [frame('http://cdn.test/w.js', 'w')] }), pages), 'third-party');
    assert.equal(originOf(event('x', { frames: [frame('http://cdn.test/w.js', 'w'), frame('http://127.0.0.1:4517/app.js', 'a')] }), pages), 'app');
    assert.equal(originOf(event('x', { source: 'browser.security', type: 'console' }), pages), 'browser');
    assert.equal(originOf(event('x'), pages), 'app');
  });
});

describe('markEvents', () => {
  it('sets fingerprint and origin once per event, and known for baseline fingerprints', () => {
    const nav = event('http://127.0.0.1:4517/index.html', { type: 'console', source: 'navigation', unexpected: false });
    const thrown = event('Error: a', { frames: [frame('http://127.0.0.1:4517/app.js', 'f')] });
    const counts = markEvents([[nav, thrown], [thrown]], new Set([fingerprintOf(thrown)]));
    assert.equal(counts.known, 1);
    assert.equal(thrown.known, true);
    assert.equal(thrown.origin, 'app');
    assert.equal(nav.fingerprint, undefined);
  });
});

function attemptOf(test: string, report: string) {
  return { testKey: testKeyOf({ project: '', file: 'a.spec.ts', titlePath: ['a.spec.ts', test] }), report };
}

describe('RunGroups', () => {
  const boom = () => event('Error: boom 1', { fingerprint: 'aaaaaaaaaaaa', origin: 'app', frames: [frame('http://h/app.js', 'f')] });
  const other = () => event('Error: other', { fingerprint: 'bbbbbbbbbbbb', origin: 'third-party' });

  it('counts occurrences and distinct tests, lists reports first-seen first, largest first', () => {
    const groups = new RunGroups();
    groups.addAttempt(attemptOf('t1', 't1.md'), [boom(), boom(), other()]);
    groups.addAttempt(attemptOf('t2', 't2.md'), [boom()]);
    groups.addAttempt(attemptOf('t3', 't3.md'), []);
    const [first, second] = groups.groups();
    assert.equal(first!.fingerprint, 'aaaaaaaaaaaa');
    assert.equal(first!.count, 3);
    assert.equal(first!.tests, 2);
    assert.deepEqual(first!.reports, ['t1.md', 't2.md']);
    assert.equal(first!.where, 'http://h/app.js:10 in f');
    assert.equal(first!.new, undefined);
    assert.equal(second!.origin, 'third-party');
  });

  it('leaves out expected events', () => {
    const groups = new RunGroups();
    groups.addAttempt(attemptOf('t1', 't1.md'), [{ ...boom(), expected: true, unexpected: false }]);
    assert.deepEqual(groups.groups(), []);
  });

  it('marks a group intermittent when some attempts of its test did not have it', () => {
    const groups = new RunGroups();
    groups.addAttempt(attemptOf('t1', 't1.md'), [boom()]);
    groups.addAttempt(attemptOf('t1', 't1-repeat1.md'), []);
    groups.addAttempt(attemptOf('t1', 't1-repeat2.md'), []);
    groups.addAttempt(attemptOf('t2', 't2.md'), [other()]);
    const byFp = new Map(groups.groups().map((g) => [g.fingerprint, g]));
    assert.equal(byFp.get('aaaaaaaaaaaa')!.intermittent, true);
    assert.deepEqual(byFp.get('aaaaaaaaaaaa')!.attempts, { seen: 1, total: 3 });
    assert.equal(byFp.get('bbbbbbbbbbbb')!.intermittent, false);
  });

  it('says new and fixed against a baseline', () => {
    const groups = new RunGroups();
    groups.setBaseline(makeBaseline([{ fingerprint: 'aaaaaaaaaaaa', source: 'window.onerror', message: 'boom', count: 1, tests: 1 }, { fingerprint: 'cccccccccccc', source: 'console.error', message: 'gone', count: 2, tests: 1 }]));
    groups.addAttempt(attemptOf('t1', 't1.md'), [boom(), other()]);
    const byFp = new Map(groups.groups().map((g) => [g.fingerprint, g]));
    assert.equal(byFp.get('aaaaaaaaaaaa')!.new, false);
    assert.equal(byFp.get('bbbbbbbbbbbb')!.new, true);
    assert.deepEqual(groups.fixed()!.map((f) => f.fingerprint), ['cccccccccccc']);
  });

  it('gives the same groups whatever order the attempts come in (shards)', () => {
    const a = new RunGroups();
    const b = new RunGroups();
    a.addAttempt(attemptOf('t1', 't1.md'), [boom()]);
    a.addAttempt(attemptOf('t2', 't2.md'), [other()]);
    b.addAttempt(attemptOf('t2', 't2.md'), [other()]);
    b.addAttempt(attemptOf('t1', 't1.md'), [boom()]);
    const strip = (groups: ReturnType<RunGroups['groups']>) => groups.map(({ message: _m, ...g }) => g);
    assert.deepEqual(strip(a.groups()), strip(b.groups()));
  });
});

describe('baseline file', () => {
  it('is sorted, stable text without dates, and parses back', () => {
    const text = formatBaseline(makeBaseline([{ fingerprint: 'bbbbbbbbbbbb', source: 's', message: 'two\nlines', count: 1, tests: 1 }, { fingerprint: 'aaaaaaaaaaaa', source: 's', message: 'one', count: 2, tests: 2, where: 'src/a.ts in f' }]));
    assert.ok(text.indexOf('aaaaaaaaaaaa') < text.indexOf('bbbbbbbbbbbb'));
    assert.doesNotMatch(text, /\d{4}-\d\d-\d\d/);
    assert.match(text, /"message": "two"/);
    const parsed = parseBaseline(text);
    assert.ok(parsed.ok);
    assert.equal(formatBaseline(parsed.baseline), text);
  });

  it('says what is wrong with a malformed file', () => {
    const notJson = parseBaseline('{ nope');
    assert.ok(!notJson.ok && /not valid JSON/.test(notJson.reason));
    const wrong = parseBaseline('{"daebugBaseline":1,"groups":[{"fingerprint":"zz"}]}');
    assert.ok(!wrong.ok && /groups\.0/.test(wrong.reason));
  });
});

describe('index.md', () => {
  function entry(i: number, unexpected: number, status = 'passed'): IndexEntry {
    return { title: `t${i}`, titlePath: ['a.spec.ts', `t${i}`], file: 'a.spec.ts', line: i, project: '', status, expectedStatus: 'passed', retry: 0, attempts: 1, duration: 1, summary: { errors: unexpected, unexpected, console: 0, dropped: 0 }, markdown: `t${i}.md`, json: `t${i}.json` };
  }

  it('opens with the groups, lists tests that need a look, and counts the rest in one line, bounded for 5,000 tests', () => {
    const tests = Array.from({ length: 5000 }, (_, i) => entry(i, i < 300 ? 1 : 0, i === 4999 ? 'failed' : 'passed'));
    const groups = new RunGroups();
    for (let i = 0; i < 300; i++) groups.addAttempt(attemptOf(`t${i}`, `t${i}.md`), [boom(i)]);
    const text = formatIndexMarkdown({ schemaVersion: 1, status: 'failed', interrupted: false, startedAt: '', updatedAt: '', outputDir: '/r', tests, groups: groups.groups() });
    const errorsAt = text.indexOf('## Errors across the run');
    assert.ok(errorsAt > 0 && errorsAt < text.indexOf('## Tests'));
    assert.match(text, /1 distinct unexpected error/);
    assert.match(text, /300 tests, 300 times/);
    assert.match(text, /\*\*failed\*\* \| a\.spec\.ts › t4999/);
    assert.match(text, /and 101 more such tests/);
    assert.match(text, /4699 other tests ended as expected/);
    assert.ok(text.split('\n').length < 260, `index.md has ${text.split('\n').length} lines`);
  });

  it('lists every test of a run of up to 100 tests, as the README says, and past that only those that need a look', () => {
    const run = (count: number) => {
      const tests = Array.from({ length: count }, (_, i) => entry(i, i === 7 ? 1 : 0, i === 3 ? 'failed' : 'passed'));
      return formatIndexMarkdown({ schemaVersion: 1, status: 'failed', interrupted: false, startedAt: '', updatedAt: '', outputDir: '/r', tests });
    };
    const rows = (text: string) => text.split('\n').filter((line) => /^\| .* \| \[t\d+\.md\]/.test(line));
    const small = run(100);
    assert.equal(rows(small).length, 100);
    // Those that need a look first: the failed test, then the one with an unexpected error.
    assert.match(rows(small)[0]!, /\*\*failed\*\* \| a\.spec\.ts › t3 /);
    assert.match(rows(small)[1]!, /\| a\.spec\.ts › t7 \| 1 \| 1 /);
    assert.doesNotMatch(small, /other tests? ended as expected/);
    const large = run(101);
    assert.deepEqual(rows(large).map((line) => /› (t\d+)/.exec(line)![1]), ['t3', 't7']);
    assert.match(large, /^99 other tests ended as expected with no unexpected browser errors\.$/m);
  });

  it('agrees its counts in number: 1 unexpected browser error, 1 test', () => {
    const one = formatIndexMarkdown({ schemaVersion: 1, status: 'passed', interrupted: false, startedAt: '', updatedAt: '', outputDir: '/r', tests: [entry(1, 1)] });
    assert.match(one, /^- Tests: 1, 0 not as expected, 1 unexpected browser error$/m);
    const clean = formatIndexMarkdown({ schemaVersion: 1, status: 'passed', interrupted: false, startedAt: '', updatedAt: '', outputDir: '/r', tests: [entry(1, 0)] });
    assert.match(clean, /^- Tests: 1, 0 not as expected, 0 unexpected browser errors$/m);
  });

  function boom(i: number): DaebugEvent {
    return event(`Error: boom ${i}`, { fingerprint: 'aaaaaaaaaaaa', origin: 'app' });
  }
});
