import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors, isErrorEvent, originalStack } from '../../src/cli/collect-errors';
import { parseLimit } from '../../src/cli/errors';
import { formatErrorBlock, formatErrors, NO_ERRORS, stackFrames } from '../../src/cli/format-errors';
import { formatSummary, summaryOrder } from '../../src/cli/format-summary';
import type { ReportFile } from '../../src/cli/read-reports';
import { errorsOutputSchema, type CliError } from '../../src/cli/schema';
import { findTests, matchesTest, parseTestQuery } from '../../src/cli/test-query';
import { DaebugCliUsageError } from '../../src/errors';
import type { IndexEntryData } from '../../src/model/run-index';
import type { DaebugEvent, Report } from '../../src/model/schema';

function row(title: string, fields: Partial<IndexEntryData> = {}): IndexEntryData {
  const slug = title.replace(/\W+/g, '-');
  return {
    title,
    titlePath: ['a.spec.ts', title],
    file: 'a.spec.ts',
    line: 3,
    project: '',
    status: 'passed',
    expectedStatus: 'passed',
    retry: 0,
    attempts: 1,
    duration: 10,
    summary: { errors: 0, unexpected: 0, console: 0, dropped: 0 },
    markdown: `a-${slug}-0000abcd.md`,
    json: `a-${slug}-0000abcd.json`,
    ...fields,
  };
}

function event(message: string, time: string, fields: Partial<DaebugEvent> = {}): DaebugEvent {
  return { type: 'error', source: 'window.onerror', realm: 'page', ts: time.slice(11, 19), time, message, expected: false, unexpected: true, ...fields };
}

function reportFile(title: string, events: DaebugEvent[], earlier: DaebugEvent[][] = []): ReportFile {
  const test = { title, titlePath: ['a.spec.ts', title], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: earlier.length, duration: 1, strict: false };
  const summary = { errors: 0, unexpected: 0, console: 0, dropped: 0 };
  const report: Report = { schemaVersion: 1, test, jobs: [], events, summary };
  if (earlier.length) report.attempts = earlier.map((evs, retry) => ({ schemaVersion: 1, test: { ...test, retry }, jobs: [], events: evs, summary }));
  return { row: row(title), report };
}

const at = (second: number) => `2026-01-02T03:04:${String(second).padStart(2, '0')}.000Z`;

describe('collectErrors', () => {
  it('keeps the most recent N across tests and attempts, oldest first', () => {
    const files = [
      reportFile('one', [event('one-b', at(5)), event('log', at(6), { type: 'console', source: 'console.log', level: 'log' })], [[event('one-retry0', at(1))]]),
      reportFile('two', [event('two-a', at(3)), event('two-c', at(9), { type: 'console', source: 'console.error', level: 'error' })]),
    ];
    const all = collectErrors(files, { dir: 'reports', limit: 20 });
    assert.deepEqual(
      all.errors.map((e) => [e.message, e.retry]),
      [['one-retry0', 0], ['two-a', 0], ['one-b', 1], ['two-c', 0]],
    );
    assert.equal(all.total, 4);
    const two = collectErrors(files, { dir: 'reports', limit: 2 });
    assert.deepEqual(two.errors.map((e) => e.message), ['one-b', 'two-c']);
    assert.equal(two.errors[0]!.test.markdown, 'reports/a-one-0000abcd.md');
    errorsOutputSchema.parse(two);
  });

  it('counts expected errors without listing them, unless asked to', () => {
    const files = [reportFile('one', [event('ignored', at(1), { expected: true, unexpected: false }), event('real', at(2))])];
    const plain = collectErrors(files, { dir: 'r', limit: 20 });
    assert.deepEqual([plain.errors.map((e) => e.message), plain.total, plain.expectedLeftOut], [['real'], 1, 1]);
    const all = collectErrors(files, { dir: 'r', limit: 20, includeExpected: true });
    assert.deepEqual([all.errors.map((e) => e.message), all.total, all.expectedLeftOut], [['ignored', 'real'], 2, 0]);
  });

  it('counts what summary.errors counts: thrown errors, crashes, error-level console calls', () => {
    assert.equal(isErrorEvent(event('x', at(1))), true);
    assert.equal(isErrorEvent(event('x', at(1), { type: 'error', source: 'page.crash', level: 'error' })), true);
    assert.equal(isErrorEvent(event('x', at(1), { type: 'console', source: 'console.error', level: 'error' })), true);
    assert.equal(isErrorEvent(event('x', at(1), { type: 'console', source: 'console.warn', level: 'warning' })), false);
  });

  it('locates an error at its first user frame original position, else its raw location', () => {
    const frames = [
      { url: 'http://h/vendor.js', line: 1, column: 2 },
      { url: 'http://h/app.js', line: 1, column: 40, userCode: true, original: { source: 'src/cart.ts', line: 12, column: 5, functionName: 'total' } },
    ];
    const mapped = collectErrors([reportFile('m', [event('x', at(1), { frames, location: { url: 'http://h/vendor.js', line: 1, column: 2 } })])], { dir: 'r', limit: 1 }).errors[0]!;
    assert.deepEqual(mapped.location, { file: 'src/cart.ts', line: 12, column: 5, mapped: true });
    assert.equal(mapped.originalStack, '    at http://h/vendor.js:1:2\n    at total (src/cart.ts:12:5)');
    const raw = collectErrors([reportFile('r', [event('x', at(1), { location: { url: 'http://h/app.js', line: 3, column: 9 } })])], { dir: 'r', limit: 1 }).errors[0]!;
    assert.deepEqual(raw.location, { file: 'http://h/app.js', line: 3, column: 9, mapped: false });
    assert.equal(originalStack([{ url: 'http://h/a.js', line: 1, column: 1 }]), undefined);
  });
});

function cliError(fields: Partial<CliError> = {}): CliError {
  return {
    message: 'TypeError: x is undefined',
    source: 'window.onerror',
    realm: 'page',
    time: at(7),
    expected: false,
    unexpected: true,
    retry: 0,
    test: { title: 'buys', titlePath: ['shop.spec.ts', 'cart', 'buys'], file: 'shop.spec.ts', line: 4, project: '', status: 'passed', markdown: 'reports/shop-buys.md', json: 'reports/shop-buys.json' },
    ...fields,
  };
}

describe('formatErrors', () => {
  it('writes the seed block: Error, at the location, the stack without its message line, test, time, report, ---', () => {
    const text = formatErrorBlock(cliError({ location: { file: 'src/a.ts', line: 2, column: 3, mapped: true }, stack: 'TypeError: x is undefined\n    at f (http://h/a.js:1:9)' }));
    assert.equal(
      text,
      ['Error: TypeError: x is undefined', '  at src/a.ts:2:3', '    at f (http://h/a.js:1:9)', '  test: shop.spec.ts › cart › buys', `  time: ${at(7)} (window.onerror in page)`, '  report: reports/shop-buys.md', '---'].join('\n'),
    );
  });

  it('prefers the original stack, keeps the hint lines, and marks retries and expected errors', () => {
    const text = formatErrorBlock(cliError({ stack: 'E\n    at raw (x.js:1:1)', originalStack: '    at f (src/a.ts:2:3)', hint: 'Please check:\n- one', retry: 1, expected: true }));
    assert.match(text, /\n {4}at f \(src\/a\.ts:2:3\)\n {2}hint: Please check:\n {8}- one\n/);
    assert.doesNotMatch(text, /raw/);
    assert.match(text, /test: shop\.spec\.ts › cart › buys \(retry 1\)/);
    assert.match(text, /\(window\.onerror in page, expected by the test\)/);
  });

  it('leaves out an anonymous top frame that only repeats the location line', () => {
    const text = formatErrorBlock(cliError({ location: { file: 'http://h/a.js', line: 6, column: 49, mapped: false }, stack: 'Error: x\n    at http://h/a.js:6:49\n    at g (http://h/a.js:9:1)' }));
    assert.deepEqual(text.split('\n').slice(1, 3), ['  at http://h/a.js:6:49', '    at g (http://h/a.js:9:1)']);
  });

  it('keeps Firefox-shaped stacks and drops a stack that only repeats the message', () => {
    assert.deepEqual(stackFrames('f@http://h/a.js:1:2\n@http://h/a.js:3:4', 'boom'), ['    f@http://h/a.js:1:2', '    @http://h/a.js:3:4']);
    assert.deepEqual(stackFrames('boom', 'boom'), []);
  });

  it('says the seed sentence when there is nothing, and how many were left out otherwise', () => {
    assert.equal(formatErrors({ dir: 'r', total: 0, limit: 20, expectedLeftOut: 0, errors: [] }), `${NO_ERRORS}\n`);
    assert.equal(formatErrors({ dir: 'r', total: 0, limit: 20, expectedLeftOut: 0, errors: [] }, 'cart'), `${NO_ERRORS} in tests matching "cart"\n`);
    const text = formatErrors({ dir: 'r', total: 5, limit: 1, expectedLeftOut: 2, errors: [cliError()] });
    assert.equal(text.split('\n')[0], 'The 1 most recent of 5 errors, oldest first (--limit 1):');
    assert.ok(text.endsWith('---\n(2 expected errors, matching daebugIgnore or daebug.expectError, left out: --expected lists them)\n'));
  });
});

describe('formatSummary', () => {
  const rows = [
    row('clean'),
    row('fails', { status: 'failed', summary: { errors: 0, unexpected: 0, console: 2, dropped: 0 } }),
    row('noisy', { summary: { errors: 3, unexpected: 3, console: 3, dropped: 0 } }),
    row('one', { summary: { errors: 1, unexpected: 1, console: 0, dropped: 0 } }),
  ];

  it('puts tests with unexpected errors first, then tests not as expected, then index order', () => {
    assert.deepEqual(summaryOrder(rows).map((r) => r.title), ['noisy', 'one', 'fails', 'clean']);
  });

  it('aligns the columns and marks a status that was not expected', () => {
    const lines = formatSummary({ dir: 'reports', status: 'failed', updatedAt: 'now', tests: summaryOrder(rows) }).split('\n');
    assert.equal(lines[0], 'Run failed (updated now): 4 tests, 2 with unexpected errors, 1 not as expected.');
    assert.equal(lines[2], 'status   unexpected  errors  console  test               report');
    assert.equal(lines[3], 'passed            3       3        3  a.spec.ts › noisy  a-noisy-0000abcd.md');
    assert.equal(lines[5], 'failed!           0       0        2  a.spec.ts › fails  a-fails-0000abcd.md');
    assert.ok(lines.includes('! the test did not end with its expected status'));
  });
});

describe('test queries', () => {
  it('reads /regex/flags and plain text; a bad regex names the flag', () => {
    assert.deepEqual(parseTestQuery('Cart'), { kind: 'text', text: 'cart' });
    const query = parseTestQuery('/^a\\.spec\\.ts › on/i');
    assert.equal(matchesTest(query, row('One')), true);
    assert.equal(matchesTest(query, row('clean')), false);
    assert.throws(() => parseTestQuery('/(/'), (error: unknown) => error instanceof DaebugCliUsageError && error.code === 'DAEBUG_CLI_USAGE' && /--test "\/\(\/" is not a valid regular expression/.test(error.message));
  });

  it('show prefers a slug, then an exact title, then a file, then text', () => {
    const rows = [row('buy'), row('buy twice'), row('other', { file: 'b.spec.ts', titlePath: ['b.spec.ts', 'other'] })];
    assert.deepEqual(findTests(rows, 'buy').map((r) => r.title), ['buy']);
    assert.deepEqual(findTests(rows, 'a-buy-twice-0000abcd.md').map((r) => r.title), ['buy twice']);
    assert.deepEqual(findTests(rows, 'reports/a-buy-twice-0000abcd.md').map((r) => r.title), ['buy twice']);
    assert.deepEqual(findTests(rows, 'b.spec.ts').map((r) => r.title), ['other']);
    assert.deepEqual(findTests(rows, 'BUY').map((r) => r.title), ['buy', 'buy twice']);
    assert.deepEqual(findTests(rows, 'nothing'), []);
  });

  it('accepts a limit from 1 and names the flag otherwise', () => {
    assert.equal(parseLimit(undefined), 20);
    assert.equal(parseLimit('5'), 5);
    for (const bad of ['0', '-1', '2.5', 'x', 0]) assert.throws(() => parseLimit(bad), /--limit ".*" is not accepted: use a whole number from 1 \(default 20\)\./);
  });
});
