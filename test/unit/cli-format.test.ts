import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors, isErrorEvent, originalStack } from '../../src/cli/collect-errors';
import { parseLimit } from '../../src/cli/errors';
import { errorLine, formatErrorBlock, formatErrors, headline, kindOf, NO_ERRORS, rawStackLines } from '../../src/cli/format-errors';
import { parseSeedErrors } from '../../e2e/helpers/seed-error-blocks';
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

  it('under --new, counts the known errors it leaves out and says so instead of "No JavaScript errors captured"', () => {
    const files = [reportFile('one', [event('old', at(1), { known: true }), event('older', at(2), { known: true })])];
    const output = collectErrors(files, { dir: 'r', limit: 20, isNew: (e) => e.known !== true });
    assert.deepEqual([output.errors.length, output.knownLeftOut], [0, 2]);
    errorsOutputSchema.parse(output);
    assert.equal(formatErrors(output), 'No new JavaScript errors captured\n(2 known errors, in the baseline, captured but left out by --new: drop it to list them)\n');
    assert.equal(collectErrors(files, { dir: 'r', limit: 20 }).knownLeftOut, undefined);
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
    assert.match(output.errors[2]!.rootCauseReason ?? '', /^uncaught error in your code, ahead of 1 React warning$/);
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
  const mapped = (source: string, line: number, functionName?: string) => ({ source, line, column: 5, ...(functionName ? { functionName } : {}) });

  it("writes seed 003's block: Error: <message>, at <file:line:col>, the stack as at lines, the fields, ---", () => {
    const frames = [
      { url: 'http://h/app.js', line: 1, column: 40, userCode: true, original: mapped('src/cart.ts', 12, 'total') },
      { url: 'http://h/app.js', line: 1, column: 90, userCode: true, original: mapped('src/main.ts', 3, 'start') },
      { url: 'http://h/app.js', line: 1, column: 99, userCode: true, original: mapped('src/main.ts', 9) },
    ];
    const text = formatErrorBlock(cliError({ location: { file: 'src/cart.ts', line: 12, column: 5, mapped: true, functionName: 'total' }, stack: 'TypeError: x is undefined\n    at raw (http://h/app.js:1:40)', frames }));
    assert.equal(
      text,
      [
        'Error: TypeError: x is undefined',
        '  at src/cart.ts:12:5',
        '  at total (src/cart.ts:12:5)',
        '  at start (src/main.ts:3:5)',
        '  at src/main.ts:9:5',
        '  test: shop.spec.ts › cart › buys',
        `  time: ${at(7)} (window.onerror in page)`,
        '  report: reports/shop-buys.md',
        '---',
      ].join('\n'),
    );
    assert.deepEqual(parseSeedErrors(text + '\n').blocks[0]!.stack[0], { kind: 'frame', functionName: 'total', file: 'src/cart.ts', line: 12, column: 5 });
  });

  it('writes one "Error:", never "Error: Error:"; the summary keeps its own headline', () => {
    assert.equal(errorLine('Error: clicked boom'), 'Error: clicked boom');
    assert.equal(errorLine('TypeError: x is undefined'), 'Error: TypeError: x is undefined');
    assert.equal(errorLine('Uncaught SyntaxError: Unexpected token'), 'Error: Uncaught SyntaxError: Unexpected token');
    assert.equal(errorLine('{"code":7}'), 'Error: {"code":7}');
    assert.equal(headline({ message: 'Error: clicked boom', source: 'window.onerror' }), 'Error: clicked boom');
    assert.equal(headline({ message: 'save failed TypeError: x', source: 'console.error' }), 'console.error: save failed TypeError: x');
    assert.equal(headline({ message: 'Errors happen', source: 'console.error' }), 'console.error: Errors happen');
  });

  it('says the kind of what is not a thrown Error on a line of its own, and the rest of a message under its first line', () => {
    const rejection = formatErrorBlock(cliError({ message: '{"code":7}', source: 'unhandledrejection', location: { file: 'http://h/a.js', line: 3, column: 9, mapped: false } }));
    assert.deepEqual(rejection.split('\n').slice(0, 3), ['Error: {"code":7}', '  at http://h/a.js:3:9', '  kind: unhandledrejection with a value that is not an Error']);
    assert.equal(kindOf({ message: 'DOMException: The operation was aborted.', source: 'unhandledrejection' }), undefined);
    assert.equal(kindOf({ message: 'TypeError: x', source: 'console.error' }), 'console.error');
    assert.equal(kindOf({ message: 'GET http://h/x 404 (Not Found)', source: 'network' }), 'network (a failed request)');
    const logged = formatErrorBlock(cliError({ message: 'first line\nsecond line\n    at App (http://h/a.js:1:1)', source: 'console.error' }));
    // Issue 37: the message's further lines stay under `Error:`, without the `rest of message:` label it had before.
    assert.deepEqual(logged.split('\n').slice(0, 5), ['Error: first line', '        second line', '            at App (http://h/a.js:1:1)', '  kind: console.error', '  test: shop.spec.ts › cart › buys']);
    const block = parseSeedErrors(logged).blocks[0]!;
    assert.equal(block.message, 'first line\nsecond line\n    at App (http://h/a.js:1:1)');
    assert.equal(block.stack.length, 0);
    assert.equal(block.fields['rest of message'], undefined);
  });

  it('folds library runs into one at line; without a frame of the app, it is located at the top of the stack and says so', () => {
    const frames = [
      { url: 'http://h/react-dom.js', line: 1, column: 1, library: 'react-dom', original: mapped('node_modules/react-dom/cjs/react-dom.development.js', 40, 'commit') },
      { url: 'http://h/react-dom.js', line: 1, column: 2, library: 'react-dom' },
      { url: 'http://h/app.js', line: 1, column: 40, userCode: true, original: mapped('src/cart.ts', 12, 'total') },
    ];
    const text = formatErrorBlock(cliError({ location: { file: 'src/cart.ts', line: 12, column: 5, mapped: true, functionName: 'total' }, frames }));
    assert.deepEqual(text.split('\n').slice(1, 4), ['  at src/cart.ts:12:5', '  at … 2 frames in react-dom', '  at total (src/cart.ts:12:5)']);
    const library = formatErrorBlock(cliError({ location: { file: 'http://h/react-dom.js', line: 1, column: 1, mapped: false }, frames: frames.slice(0, 2) }));
    assert.deepEqual(library.split('\n').slice(1, 4), ['  at node_modules/react-dom/cjs/react-dom.development.js:40:5', '  at … 2 frames in react-dom', '  note: no frame of the stack is in your code; it is located where it surfaced']);
    const unmapped = formatErrorBlock(cliError({ location: { file: 'http://h/a.js', line: 1, column: 2, mapped: false }, frames: [{ url: 'http://h/a.js', line: 1, column: 2, functionName: 'f', userCode: true, unmappedReason: 'no source map' }, { url: 'http://h/a.js', line: 3, column: 4, userCode: true, unmappedReason: 'no source map' }] }));
    assert.deepEqual(unmapped.split('\n').slice(1, 5), ['  at http://h/a.js:1:2', '  at f (http://h/a.js:1:2)', '  at http://h/a.js:3:4', '  not mapped: no source map']);
  });

  it('names the root cause of its test after the stack, with how it was chosen', () => {
    const text = formatErrorBlock(cliError({ rootCause: true, rootCauseReason: 'uncaught error in your code, the only unexpected error', location: { file: 'src/a.ts', line: 2, column: 3, mapped: true } }));
    assert.deepEqual(text.split('\n').slice(0, 3), ['Error: TypeError: x is undefined', '  at src/a.ts:2:3', '  root cause of this test: uncaught error in your code, the only unexpected error']);
    assert.doesNotMatch(formatErrorBlock(cliError()), /root cause/);
  });

  it('keeps the hint lines, and marks retries and expected errors', () => {
    const text = formatErrorBlock(cliError({ stack: 'E\n    at raw (x.js:1:1)', hint: 'Please check:\n- one', retry: 1, expected: true }));
    assert.match(text, /\n {2}at raw \(x\.js:1:1\)\n {2}hint: Please check:\n {8}- one\n/);
    assert.match(text, /test: shop\.spec\.ts › cart › buys \(retry 1\)/);
    assert.match(text, /\(window\.onerror in page, expected by the test\)/);
  });

  it('leaves out a top frame that would only repeat the location line, and keeps one that names its function', () => {
    const text = formatErrorBlock(cliError({ location: { file: 'http://h/a.js', line: 6, column: 49, mapped: false }, stack: 'Error: x\n    at http://h/a.js:6:49\n    at g (http://h/a.js:9:1)' }));
    assert.deepEqual(text.split('\n').slice(1, 3), ['  at http://h/a.js:6:49', '  at g (http://h/a.js:9:1)']);
    const one = formatErrorBlock(cliError({ location: { file: 'http://h/a.js', line: 6, column: 49, mapped: false }, frames: [{ url: 'http://h/a.js', line: 6, column: 49, userCode: true }] }));
    assert.deepEqual(one.split('\n').slice(1, 3), ['  at http://h/a.js:6:49', '  test: shop.spec.ts › cart › buys']);
    const named = formatErrorBlock(cliError({ location: { file: 'http://h/a.js', line: 6, column: 49, mapped: false }, frames: [{ url: 'http://h/a.js', line: 6, column: 49, functionName: 'inner', userCode: true }] }));
    assert.deepEqual(named.split('\n').slice(1, 3), ['  at http://h/a.js:6:49', '  at inner (http://h/a.js:6:49)']);
  });

  it("writes a stack that was never parsed as at lines, Firefox's too, and nothing for a stack that only repeats the message", () => {
    assert.deepEqual(rawStackLines('boom\nf@http://h/a.js:1:2\n@http://h/a.js:3:4'), ['  at f (http://h/a.js:1:2)', '  at http://h/a.js:3:4']);
    assert.deepEqual(rawStackLines('TypeError: x\n    at f (http://h/a.js:1:2)\n    at http://h/a.js:3:4'), ['  at f (http://h/a.js:1:2)', '  at http://h/a.js:3:4']);
    assert.deepEqual(rawStackLines('boom'), []);
  });

  it("is read by a strict reader of seed 003's format, which rejects the blocks written before issue 26", () => {
    const text = formatErrors({ dir: 'r', total: 3, limit: 2, expectedLeftOut: 1, errors: [cliError({ location: { file: 'src/a.ts', line: 2, column: 3, mapped: true }, hint: 'Please check:\n- one' }), cliError({ message: 'noise', source: 'console.error' })] });
    const parsed = parseSeedErrors(text);
    assert.deepEqual(parsed.header, { shown: 2, total: 3, limit: 2 });
    assert.deepEqual(parsed.blocks.map((b) => [b.message, b.location, b.fields['kind']]), [
      ['TypeError: x is undefined', { file: 'src/a.ts', line: 2, column: 3 }, undefined],
      ['noise', undefined, 'console.error'],
    ]);
    assert.ok(parsed.footer);
    const before = ['console.error: noise 6', '  test: a.spec.ts › t', `  time: ${at(7)} (console.error in page)`, '  report: reports/a.md', '---', ''].join('\n');
    assert.throws(() => parseSeedErrors(before), /line 1 is not seed 003's format/);
    const folded = ['TypeError: x', '  at src/pricing.ts:13:30 in priceOf', '  > src/pricing.ts:13:30 in priceOf', '---', ''].join('\n');
    assert.throws(() => parseSeedErrors(folded), /line 1 is not seed 003's format/);
    assert.throws(() => parseSeedErrors(folded.replace('TypeError: x', 'Error: x')), /line 2 is not seed 003's format/);
    assert.throws(() => parseSeedErrors(`Error: Error: x\n  test: t\n  time: ${at(7)} (window.onerror in page)\n  report: r\n---\n`), /"Error:" doubled/);
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
