// Small wrongs a real suite's reports showed (SvelteKit's CSP test app): a CSP-only test's header counted "0 errors
// (1 unexpected)", a location was glued onto the page's query (`…/csp/?port=44503:1:1`), a strict failure's line
// ended in a dangling "·", and a group was located "at about:client:1".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors } from '../../src/cli/collect-errors';
import { formatErrorBlock } from '../../src/cli/format-errors';
import { failureCauseLines } from '../../src/format/failure-cause';
import { eventsLine, formatMarkdown } from '../../src/format/markdown';
import { failurePlace, strictFailure } from '../../src/format/strict-message';
import { isPlaceUrl, locationText, placeUrl } from '../../src/model/position-text';
import type { IndexEntryData } from '../../src/model/run-index';
import { reportSchema, type DaebugEvent, type Report } from '../../src/model/schema';
import { whereOf } from '../../src/run/groups';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const PAGE = 'http://127.0.0.1:44503/csp/?port=44503';

/** The CSP block of an inline script, as Chromium locates it: in the page's document, query and all. */
const blockedInline: DaebugEvent = {
  type: 'console',
  source: 'browser.issue',
  level: 'error',
  realm: 'page',
  ts: '10:00:00',
  time: new Date(T0).toISOString(),
  message: "Executing inline script violates the following Content Security Policy directive 'script-src 'self''. The action has been blocked.",
  expected: false,
  unexpected: true,
  location: { url: PAGE, line: 1, column: 1 },
  issue: { kind: 'csp', code: 'ContentSecurityPolicyIssue', directive: 'script-src-elem', reason: 'inline' },
  fingerprint: 'aaaaaaaaaaaa',
};

const atClient: DaebugEvent = { ...blockedInline, message: 'Evaluating a string as JavaScript violates the following Content Security Policy directive', location: { url: 'about:client', line: 1, column: 1 }, fingerprint: 'bbbbbbbbbbbb' };

function report(events: DaebugEvent[], summary: Report['summary']): Report {
  return reportSchema.parse({
    schemaVersion: 1,
    test: { title: 'csp', titlePath: ['csp.spec.ts', 'csp'], file: 'csp.spec.ts', line: 3, project: '', status: 'failed', expectedStatus: 'passed', retry: 0, duration: 10, strict: true },
    capture: true,
    jobs: [],
    events,
    summary,
  });
}

describe('a position is never glued onto a query, and a pseudo-URL is no place', () => {
  it('writes the page without its query, keeps data: URLs short, and knows pseudo-URLs', () => {
    assert.equal(placeUrl(PAGE), 'http://127.0.0.1:44503/csp/');
    assert.equal(placeUrl('http://h/app.js#x'), 'http://h/app.js');
    assert.equal(locationText({ url: PAGE, line: 1, column: 1 }), 'http://127.0.0.1:44503/csp/:1:1');
    assert.equal(locationText({ url: PAGE, line: 3, column: 7 }, false), 'http://127.0.0.1:44503/csp/:3');
    // Line 0: the browser had no position (an inline handler's CSP violation).
    assert.equal(locationText({ url: PAGE, line: 0, column: 0 }), 'http://127.0.0.1:44503/csp/');
    for (const url of ['about:client', 'about:blank', 'about:srcdoc', 'chrome-error://chromewebdata/', '']) {
      assert.equal(isPlaceUrl(url), false, url);
      assert.equal(locationText({ url, line: 1, column: 1 }), undefined, url);
    }
    assert.equal(isPlaceUrl('blob:http://h/1'), true);
    assert.match(placeUrl(`data:text/javascript,${'x'.repeat(200)}`), /… \(\d+ chars\)$/);
  });

  it('the group, the CLI, the Markdown root cause and both failure messages agree', () => {
    assert.equal(whereOf(blockedInline), 'http://127.0.0.1:44503/csp/:1');
    assert.equal(whereOf(atClient), undefined);
    // A frame at a pseudo-URL is passed over for the next one with a place.
    assert.equal(whereOf({ frames: [{ url: 'about:client', line: 1, column: 1 }, { url: 'http://h/app.js?v=3', line: 9, column: 2, functionName: 'run' }] }), 'http://h/app.js:9 in run');

    const row = { title: 'csp', titlePath: ['csp.spec.ts', 'csp'], file: 'csp.spec.ts', line: 3, project: '', status: 'failed', expectedStatus: 'passed', markdown: 'csp.md', json: 'csp.json' } as IndexEntryData;
    const attempt = report([blockedInline, atClient], { errors: 0, unexpected: 2, console: 0, dropped: 0 });
    const { errors } = collectErrors([{ row, report: attempt }], { dir: 'reports', limit: 20 });
    // The JSON keeps the browser's URL; the text drops the query from the position.
    assert.deepEqual(errors[0]!.location, { file: PAGE, line: 1, column: 1, mapped: false });
    assert.match(formatErrorBlock(errors[0]!), /^ {2}at http:\/\/127\.0\.0\.1:44503\/csp\/:1:1$/m);
    assert.equal(errors[1]!.location, undefined);
    assert.doesNotMatch(formatErrorBlock(errors[1]!), /about:client/);

    const md = formatMarkdown(attempt, { maxBytes: 65536 });
    assert.match(md, /- Where: `http:\/\/127\.0\.0\.1:44503\/csp\/:1:1`/);
    assert.doesNotMatch(md, /\?port=44503:|about:client:/);
  });
});

describe('failure messages: no line ends in a dangling mark', () => {
  const frame = (functionName?: string) => ({ url: 'http://h/app.js', line: 1, column: 9, userCode: true, original: { source: 'src/cart.ts', line: 12, column: 5, ...(functionName ? { functionName } : {}) } });

  it('says where in words after a position: a function, or what the position is, or the browser\'s location', () => {
    assert.equal(failurePlace({ ...blockedInline, frames: [frame('addItem')] }), 'src/cart.ts:12:5 in addItem');
    assert.equal(failurePlace({ ...blockedInline, frames: [frame()] }), 'src/cart.ts:12:5 (your code)');
    assert.equal(failurePlace(blockedInline), 'http://127.0.0.1:44503/csp/:1:1 (where the browser reported it)');
    assert.equal(failurePlace(atClient), undefined);
  });

  it('the strict failure and the failure cause end no line in "·", and Playwright reads none of their lines as a frame', () => {
    const events = [blockedInline, { ...blockedInline, type: 'error' as const, source: 'window.onerror', message: 'Error: boom', frames: [frame()], fingerprint: 'cccccccccccc' }, atClient];
    const strict = strictFailure(events, 'reports/csp.md');
    const cause = failureCauseLines(report(events, { errors: 1, unexpected: 3, console: 0, dropped: 0 }), 'reports/csp.md', T0 + 100)!.join('\n');
    for (const text of [strict, cause]) {
      assert.doesNotMatch(text, /·\s*$/m, text);
      // Playwright's stack-frame pattern (packages/utils/stackTrace.ts): a line that ends in `file:line:col`, or in it and `)`.
      assert.doesNotMatch(text, /:\d+:\d+\)?$/m, text);
      assert.doesNotMatch(text, /about:client/, text);
    }
    assert.match(strict, /↳ http:\/\/127\.0\.0\.1:44503\/csp\/:1:1 \(where the browser reported it\)$/m);
    assert.match(strict, /↳ src\/cart\.ts:12:5 \(your code\)$/m);
    assert.match(cause, /also: \[.*\] .* — at (src\/cart\.ts:12:5 \(your code\)|http:\/\/127\.0\.0\.1:44503\/csp\/:1:1 \(where the browser reported it\))$/m);
  });

  it('page text that ends in a position still gets its closing mark', () => {
    const quoted = { ...blockedInline, message: 'Error: at http://127.0.0.1/x.js:1:2', location: undefined };
    assert.match(strictFailure([quoted], 'reports/a.md'), /in page: Error: at http:\/\/127\.0\.0\.1\/x\.js:1:2 ·$/m);
  });
});

describe('the header counts', () => {
  it('a CSP block is unexpected but no error: the header says so instead of "0 errors (1 unexpected)"', () => {
    const only = report([blockedInline], { errors: 0, unexpected: 1, console: 0, dropped: 0 });
    assert.equal(eventsLine(only), '- Events: 0 errors, 1 unexpected (1 blocked by the CSP), 0 console, 0 dropped');
    assert.match(formatMarkdown(only, { maxBytes: 65536 }), /^- Events: 0 errors, 1 unexpected \(1 blocked by the CSP\), 0 console, 0 dropped$/m);
    const thrown = { ...blockedInline, type: 'error' as const, source: 'window.onerror', message: 'Error: boom', location: undefined };
    const both = report([thrown, thrown, blockedInline], { errors: 2, unexpected: 3, console: 0, dropped: 0, known: 1, network: 1 });
    assert.equal(eventsLine(both), '- Events: 2 errors, 1 of them failed requests, 3 unexpected (2 of the errors, 1 blocked by the CSP, 1 known (in baseline)), 0 console, 0 dropped');
  });

  it('keeps the line as it was when every unexpected event is an error', () => {
    const thrown = { ...blockedInline, type: 'error' as const, source: 'window.onerror', message: 'Error: boom' };
    assert.equal(eventsLine(report([thrown], { errors: 1, unexpected: 1, console: 0, dropped: 0 })), '- Events: 1 error (1 unexpected), 0 console, 0 dropped');
    assert.equal(eventsLine(report([], { errors: 8, unexpected: 0, console: 2, dropped: 0, network: 8 })), '- Events: 8 errors (0 unexpected), 8 of them failed requests, 2 console, 0 dropped');
  });
});
