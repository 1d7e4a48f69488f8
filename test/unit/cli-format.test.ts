import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors, isErrorEvent, originalStack } from '../../src/cli/collect-errors';
import { parseLimit } from '../../src/cli/errors';
import { formatErrorBlock, formatErrors, headline, NO_ERRORS, stackFrames } from '../../src/cli/format-errors';
import { formatSummary, summaryOrder } from '../../src/cli/format-summary';
import type { ReportFile } from '../../src/cli/read-reports';
import { errorsOutputSchema, summaryOutputSchema, type CliError } from '../../src/cli/schema';
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
      reportFile('one', [event('one-b', at(5)), event('log', at(6), { type: 'console', source: 'console.log', level: 'log', unexpected: undefined })], [[event('one-retry0', at(1))]]),
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

  it('lists thrown errors, crashes, error-level console calls, and whatever else the test counted as unexpected', () => {
    assert.equal(isErrorEvent(event('x', at(1))), true);
    assert.equal(isErrorEvent(event('x', at(1), { type: 'error', source: 'page.crash', level: 'error' })), true);
    assert.equal(isErrorEvent(event('x', at(1), { type: 'console', source: 'console.error', level: 'error' })), true);
    assert.equal(isErrorEvent(event('x', at(1), { type: 'console', source: 'console.warn', level: 'warning', unexpected: undefined })), false);
    // Whatever the test counted as unexpected: a script its CSP blocked, a failed request under daebugNetwork: 'strict'.
    const csp = { kind: 'csp' as const, code: 'ContentSecurityPolicyIssue' };
    assert.equal(isErrorEvent(event('x', at(1), { type: 'console', source: 'browser.issue', level: 'error', issue: csp, unexpected: undefined, expected: true })), true);
    assert.equal(isErrorEvent(event('x', at(1), { type: 'console', source: 'browser.issue', level: 'warning', issue: { ...csp, reportOnly: true }, unexpected: undefined })), false);
    assert.equal(isErrorEvent(event('x', at(1), { type: 'console', source: 'network', level: 'error', unexpected: true })), true);
    assert.equal(isErrorEvent(event('x', at(1), { type: 'console', source: 'network', level: 'error', unexpected: undefined })), false);
  });

  it('locates an error where the Markdown does: its first user frame, original position and function, else its raw location', () => {
    const frames = [
      { url: 'http://h/vendor.js', line: 1, column: 2 },
      { url: 'http://h/app.js', line: 1, column: 40, userCode: true, original: { source: 'src/cart.ts', line: 12, column: 5, functionName: 'total' } },
    ];
    const mapped = collectErrors([reportFile('m', [event('x', at(1), { frames, location: { url: 'http://h/vendor.js', line: 1, column: 2 } })])], { dir: 'r', limit: 1 }).errors[0]!;
    assert.deepEqual(mapped.location, { file: 'src/cart.ts', line: 12, column: 5, mapped: true, functionName: 'total' });
    assert.equal(mapped.originalStack, '    at http://h/vendor.js:1:2\n    at total (src/cart.ts:12:5)');
    assert.deepEqual(mapped.frames, frames);
    // An unmapped user frame below a library's: the user frame, as the Markdown's header names it.
    const unmapped = [{ url: 'http://h/node_modules/lib/x.js', line: 1, column: 2, library: 'lib' }, { url: 'http://h/app.js', line: 7, column: 3, userCode: true, functionName: 'go' }];
    const user = collectErrors([reportFile('u', [event('x', at(1), { frames: unmapped, location: { url: 'http://h/node_modules/lib/x.js', line: 1, column: 2 } })])], { dir: 'r', limit: 1 }).errors[0]!;
    assert.deepEqual(user.location, { file: 'http://h/app.js', line: 7, column: 3, mapped: false, functionName: 'go' });
    const raw = collectErrors([reportFile('r', [event('x', at(1), { location: { url: 'http://h/app.js', line: 3, column: 9 } })])], { dir: 'r', limit: 1 }).errors[0]!;
    assert.deepEqual(raw.location, { file: 'http://h/app.js', line: 3, column: 9, mapped: false });
    assert.equal(originalStack([{ url: 'http://h/a.js', line: 1, column: 1 }]), undefined);
  });

  it("marks the error its attempt's report names as root cause (rankRootCause), not merely the first one", () => {
    const libraryFrames = [{ url: 'http://h/react-dom.js', line: 1, column: 1, library: 'react-dom' }];
    const appFrames = [{ url: 'http://h/app.js', line: 1, column: 40, userCode: true, original: { source: 'src/cart.ts', line: 12, column: 5, functionName: 'total' } }];
    const warning = event('Warning: Each child in a list should have a unique "key" prop.', at(1), { type: 'console', source: 'console.error', level: 'error', frames: libraryFrames });
    const thrown = event("TypeError: Cannot read properties of undefined (reading 'price')", at(2), { frames: appFrames });
    const output = collectErrors([reportFile('r', [warning, thrown], [[event('earlier', at(0))]])], { dir: 'r', limit: 20 });
    errorsOutputSchema.parse(output);
    assert.deepEqual(
      output.errors.map((e) => [e.message.slice(0, 9), e.retry, e.rootCause]),
      [['earlier', 0, true], ['Warning: ', 1, false], ['TypeError', 1, true]],
    );
    assert.match(output.errors[2]!.rootCauseReason ?? '', /^uncaught error in your code, ahead of 1 library warning$/);
    assert.equal(output.errors[1]!.rootCauseReason, undefined);
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
    rootCause: false,
    retry: 0,
    test: { title: 'buys', titlePath: ['shop.spec.ts', 'cart', 'buys'], file: 'shop.spec.ts', line: 4, project: '', status: 'passed', markdown: 'reports/shop-buys.md', json: 'reports/shop-buys.json' },
    ...fields,
  };
}

describe('formatErrors', () => {
  it('writes the block: the message, at the location, the stack without its message line, test, time, report, ---', () => {
    const text = formatErrorBlock(cliError({ location: { file: 'src/a.ts', line: 2, column: 3, mapped: true }, stack: 'TypeError: x is undefined\n    at f (http://h/a.js:1:9)' }));
    assert.equal(
      text,
      ['TypeError: x is undefined', '  at src/a.ts:2:3', '    at f (http://h/a.js:1:9)', '  test: shop.spec.ts › cart › buys', `  time: ${at(7)} (window.onerror in page)`, '  report: reports/shop-buys.md', '---'].join('\n'),
    );
  });

  it('never doubles an Error headline; other messages follow their source', () => {
    assert.equal(headline({ message: 'Error: clicked boom', source: 'window.onerror' }), 'Error: clicked boom');
    assert.equal(headline({ message: 'DOMException: The operation was aborted.', source: 'unhandledrejection' }), 'DOMException: The operation was aborted.');
    assert.equal(headline({ message: 'Uncaught SyntaxError: Unexpected token', source: 'window.onerror' }), 'Uncaught SyntaxError: Unexpected token');
    assert.equal(headline({ message: 'save failed TypeError: x', source: 'console.error' }), 'console.error: save failed TypeError: x');
    assert.equal(headline({ message: 'boom', source: 'window.onerror' }), 'window.onerror: boom');
    assert.equal(headline({ message: 'Errors happen', source: 'console.error' }), 'console.error: Errors happen');
  });

  it("prints the stack as the Markdown does: mapped frames, library runs folded, the first user frame marked, the location's function", () => {
    const frames = [
      { url: 'http://h/react-dom.js', line: 1, column: 1, library: 'react-dom' },
      { url: 'http://h/react-dom.js', line: 1, column: 2, library: 'react-dom' },
      { url: 'http://h/app.js', line: 1, column: 40, userCode: true, original: { source: 'src/cart.ts', line: 12, column: 5, functionName: 'total' } },
      { url: 'http://h/app.js', line: 1, column: 90, userCode: true, original: { source: 'src/main.ts', line: 3, column: 1, functionName: 'start' } },
    ];
    const text = formatErrorBlock(cliError({ location: { file: 'src/cart.ts', line: 12, column: 5, mapped: true, functionName: 'total' }, stack: 'TypeError: x\n    at raw (x.js:1:1)', originalStack: '    at total (src/cart.ts:12:5)', frames }));
    assert.deepEqual(text.split('\n').slice(0, 5), ['TypeError: x is undefined', '  at src/cart.ts:12:5 in total', '    … 2 frames in react-dom', '  > src/cart.ts:12:5 in total', '    src/main.ts:3:1 in start']);
    assert.doesNotMatch(text, /raw/);
    const library = formatErrorBlock(cliError({ location: { file: 'http://h/react-dom.js', line: 1, column: 1, mapped: false }, frames: frames.slice(0, 2) }));
    // No frame is the app's: no place is named, as in the Markdown; the folded stack says where it surfaced.
    assert.deepEqual(library.split('\n').slice(1, 3), ['  (no frame of the stack is in your code)', '    … 2 frames in react-dom']);
  });

  it('names the root cause of its test, with how it was chosen', () => {
    const text = formatErrorBlock(cliError({ rootCause: true, rootCauseReason: 'uncaught error in your code, the only unexpected error', location: { file: 'src/a.ts', line: 2, column: 3, mapped: true } }));
    assert.deepEqual(text.split('\n').slice(0, 3), ['TypeError: x is undefined', '  root cause of this test: uncaught error in your code, the only unexpected error', '  at src/a.ts:2:3']);
    assert.doesNotMatch(formatErrorBlock(cliError()), /root cause/);
  });

  it('keeps the hint lines, and marks retries and expected errors', () => {
    const text = formatErrorBlock(cliError({ stack: 'E\n    at raw (x.js:1:1)', hint: 'Please check:\n- one', retry: 1, expected: true }));
    assert.match(text, /\n {4}at raw \(x\.js:1:1\)\n {2}hint: Please check:\n {8}- one\n/);
    assert.match(text, /test: shop\.spec\.ts › cart › buys \(retry 1\)/);
    assert.match(text, /\(window\.onerror in page, expected by the test\)/);
  });

  it('leaves out a top frame that only repeats the location line', () => {
    const text = formatErrorBlock(cliError({ location: { file: 'http://h/a.js', line: 6, column: 49, mapped: false }, stack: 'Error: x\n    at http://h/a.js:6:49\n    at g (http://h/a.js:9:1)' }));
    assert.deepEqual(text.split('\n').slice(1, 3), ['  at http://h/a.js:6:49', '    at g (http://h/a.js:9:1)']);
    const one = formatErrorBlock(cliError({ location: { file: 'http://h/a.js', line: 6, column: 49, mapped: false }, frames: [{ url: 'http://h/a.js', line: 6, column: 49, userCode: true }] }));
    assert.deepEqual(one.split('\n').slice(1, 3), ['  at http://h/a.js:6:49', '  test: shop.spec.ts › cart › buys']);
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

  it("writes each test's root cause and where it is under its row", () => {
    const tests = summaryOrder(rows).map((r) => (r.title === 'noisy' ? { ...r, rootCause: "TypeError: Cannot read properties of undefined (reading 'price')", rootCauseWhere: 'src/pricing.ts:13:30 in priceOf' } : r.title === 'one' ? { ...r, rootCause: 'console.error: noise 1' } : r));
    const output = { dir: 'reports', status: 'passed', updatedAt: 'now', tests };
    summaryOutputSchema.parse(output);
    const lines = formatSummary(output).split('\n');
    assert.deepEqual(lines.slice(3, 7), [
      'passed            3       3        3  a.spec.ts › noisy  a-noisy-0000abcd.md',
      "  ↳ root cause: TypeError: Cannot read properties of undefined (reading 'price') at src/pricing.ts:13:30 in priceOf",
      'passed            1       1        0  a.spec.ts › one    a-one-0000abcd.md',
      '  ↳ root cause: console.error: noise 1',
    ]);
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
