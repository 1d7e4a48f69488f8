// Issue 37, 5.2: a dev-mode service worker's errors (SvelteKit's `/service-worker.js` is the one-line module
// `import '/src/service-worker.js';`). The events below are what Chromium 150 emitted
// for SvelteKit's fetch handler when the test went offline (e2e/service-worker-dev.spec.ts runs it for real).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors } from '../../src/cli/collect-errors';
import { formatErrors } from '../../src/cli/format-errors';
import type { ReportFile } from '../../src/cli/read-reports';
import { explainedBy } from '../../src/diagnosis/explains';
import { lineToFix, unplacedAt } from '../../src/diagnosis/line-to-fix';
import { linkCauses } from '../../src/diagnosis/link';
import { rankRootCause } from '../../src/diagnosis/rank';
import { formatMarkdown } from '../../src/format/markdown';
import { strictFailure } from '../../src/format/strict-message';
import { browserDefaultPlace } from '../../src/model/default-place';
import { isServiceWorkerRealm, realmContext } from '../../src/model/realm-name';
import { reportSchema, type DaebugEvent, type Report } from '../../src/model/schema';
import { fingerprintOf } from '../../src/run/fingerprint';
import { whereOf } from '../../src/run/groups';
import { hintFor } from '../../src/stack/hints';
import { parseSeedErrors } from '../../e2e/helpers/seed-error-blocks';
import { structureProblems } from '../../e2e/helpers/markdown-structure';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const ORIGIN = 'http://127.0.0.1:5173';
const WORKER = 'service-worker:service-worker.js';
const event = (ms: number, fields: Partial<DaebugEvent>): DaebugEvent => ({ type: 'error', source: 'unhandledrejection', level: 'error', realm: WORKER, ts: '10:00:00', time: new Date(T0 + ms).toISOString(), message: 'm', expected: false, ...fields });

const fetchCall = { type: 'script', url: `${ORIGIN}/src/service-worker.js`, line: 24, column: 21, original: { source: 'src/service-worker.js', line: 35, column: 21 }, snippet: '> 35 |     const promise = fetch(request);' };
const workerRequest = event(0, { source: 'network', message: `GET ${ORIGIN}/api/items.json failed: net::ERR_INTERNET_DISCONNECTED`, network: { method: 'GET', url: `${ORIGIN}/api/items.json`, resourceType: 'fetch', errorText: 'net::ERR_INTERNET_DISCONNECTED', initiator: fetchCall } });
const workerFrame = { url: `${ORIGIN}/src/service-worker.js`, line: 24, column: 21, userCode: true, original: { source: 'src/service-worker.js', line: 35, column: 21 } };
const workerRejection = event(2, { message: 'TypeError: Failed to fetch', stack: `TypeError: Failed to fetch\n    at ${ORIGIN}/src/service-worker.js:24:21`, location: { url: `${ORIGIN}/src/service-worker.js`, line: 24, column: 21 }, frames: [workerFrame], unexpected: true, fingerprint: 'aaaaaaaaaaaa' });
/** `respondWith()` given `undefined`: no stack, placed at line 1, column 1 of the worker's main script, the import line. */
const conversion = (ms: number, fields: Partial<DaebugEvent> = {}) =>
  event(ms, { message: "TypeError: Failed to convert value to 'Response'.", stack: "TypeError: Failed to convert value to 'Response'.", location: { url: `${ORIGIN}/service-worker.js`, line: 1, column: 1 }, unexpected: true, fingerprint: 'bbbbbbbbbbbb', ...fields });
const pageRequest = event(5, { realm: 'page', source: 'network', message: `GET ${ORIGIN}/api/items.json failed: net::ERR_FAILED`, network: { method: 'GET', url: `${ORIGIN}/api/items.json`, resourceType: 'fetch', errorText: 'net::ERR_FAILED' } });
const appFrame = { url: `${ORIGIN}/src/app.js`, line: 2, column: 26, functionName: 'loadItems', userCode: true, original: { source: 'src/app.js', line: 3, column: 26, functionName: 'loadItems' } };
const pageRejection = event(6, { realm: 'page', message: 'TypeError: Failed to fetch', stack: `TypeError: Failed to fetch\n    at loadItems (${ORIGIN}/src/app.js:2:26)`, frames: [appFrame], unexpected: true, fingerprint: 'cccccccccccc' });

function report(events: DaebugEvent[]): Report {
  return reportSchema.parse({
    schemaVersion: 1,
    test: { title: 'offline', titlePath: ['sw.spec.ts', 'offline'], file: 'sw.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: false },
    jobs: [],
    events,
    summary: { errors: events.length, unexpected: events.filter((e) => e.unexpected).length, console: 0, dropped: 0 },
  });
}

function file(events: DaebugEvent[]): ReportFile {
  const built = report(events);
  const summary = built.summary;
  return { row: { title: 'offline', titlePath: ['sw.spec.ts', 'offline'], file: 'sw.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, attempts: 1, duration: 1, summary, markdown: 't.md', json: 't.json' }, report: built };
}

describe("the browser's default place", () => {
  it('is line 1, column 1 of an uncaught error or rejection without a stack, and nothing else', () => {
    assert.deepEqual(browserDefaultPlace(conversion(3)), { url: `${ORIGIN}/service-worker.js`, line: 1, column: 1 });
    // A report written before this was known: the place is also its one frame.
    assert.ok(browserDefaultPlace(conversion(3, { frames: [{ url: `${ORIGIN}/service-worker.js`, line: 1, column: 1, userCode: true }] })));
    assert.equal(browserDefaultPlace(workerRejection), undefined);
    assert.equal(browserDefaultPlace(conversion(3, { location: { url: `${ORIGIN}/service-worker.js`, line: 1, column: 9 } })), undefined);
    assert.equal(browserDefaultPlace(conversion(3, { stack: `TypeError: x\n    at ${ORIGIN}/service-worker.js:1:1` })), undefined);
    // A SyntaxError's position is where the parser stopped: a real place.
    assert.equal(browserDefaultPlace(conversion(3, { message: "SyntaxError: Unexpected token '<'", stack: "SyntaxError: Unexpected token '<'" })), undefined);
    assert.equal(browserDefaultPlace(conversion(3, { source: 'console.error', type: 'console' })), undefined);
  });

  it('is no line to fix: unplaced, said why, with no frame and no group place; a line found by evidence comes first', () => {
    const alone = conversion(3);
    assert.equal(lineToFix(alone, [alone]), undefined);
    assert.deepEqual(unplacedAt(alone, [alone]), alone.location);
    assert.equal(whereOf(alone), undefined);
    const events = linkCauses([workerRequest, conversion(3)].map((e) => ({ ...e })));
    assert.equal(unplacedAt(events[1]!, events), undefined);
    assert.deepEqual(lineToFix(events[1]!, events), { file: 'src/service-worker.js', line: 35, column: 21, mapped: true, found: { by: 'initiator', request: workerRequest.message, places: ['src/service-worker.js:35'] }, snippet: fetchCall.snippet });
  });

  it('daebug errors, the Markdown and the strict failure leave it unplaced and say why, never at the import line', () => {
    const old = conversion(3, { frames: [{ url: `${ORIGIN}/service-worker.js`, line: 1, column: 1, userCode: true }], snippet: "> 1 | import '/src/service-worker.js';" });
    const text = formatErrors(collectErrors([file([old])], { dir: 'reports', limit: 20 }));
    const [block] = parseSeedErrors(text).blocks;
    assert.equal(block!.location, undefined);
    assert.deepEqual(block!.stack, []);
    assert.equal(block!.fields['note'], `no line to fix: the browser gave no stack, only its default place, line 1 of ${ORIGIN}/service-worker.js, the realm's main script`);
    assert.doesNotMatch(text, /import '\/src|service-worker\.js:1:1/);

    const md = formatMarkdown(report([conversion(3)]), { maxBytes: 65536 });
    assert.deepEqual(structureProblems(md), []);
    assert.match(md, /^- Where: no line to fix: the browser gave no stack, only its default place, line 1 of `http:\/\/127\.0\.0\.1:5173\/service-worker\.js`, the realm's main script$/m);
    assert.match(md, /^1\. `unhandledrejection` in `service-worker:service-worker\.js` at 10:00:00 \(no line to fix: /m);
    assert.doesNotMatch(md, /service-worker\.js:1:1/);

    const failure = strictFailure([conversion(3)], 'r.md');
    assert.match(failure, /↳ no line to fix: the browser gave no stack, only its default place, line 1 of http:\/\/127\.0\.0\.1:5173\/service-worker\.js, the realm's main script/);
  });
});

describe('one offline fetch through a service worker is one problem', () => {
  const events = () => linkCauses([workerRequest, workerRejection, conversion(3), conversion(3), pageRequest, pageRejection].map((e) => ({ ...e })));

  it("links the worker's rejections and the page's failed request to the worker's failed fetch", () => {
    const linked = events();
    assert.deepEqual(
      linked.map((e) => e.causedBy),
      [undefined, 0, 0, 0, 0, 4],
    );
    // Not another context's worker, not another URL, not a second later.
    assert.equal(explainedBy({ ...pageRequest, realm: 'context-2:page' }, [workerRequest, pageRequest]), undefined);
    assert.equal(explainedBy({ ...pageRequest, network: { ...pageRequest.network!, url: `${ORIGIN}/api/other.json` } }, [workerRequest]), undefined);
    assert.equal(explainedBy(conversion(1500), [workerRequest]), undefined);
    // A failed request is explained by nothing else: a retry of the same URL is no consequence of the first.
    const retry = event(50, { ...pageRequest, time: new Date(T0 + 50).toISOString() });
    assert.equal(explainedBy(retry, [pageRequest, retry]), undefined);
  });

  it('counts one independent problem where it counted three, and the report says no "independent problems"', () => {
    const attempt = report(events());
    const cause = rankRootCause(attempt);
    assert.equal(cause?.independent, 1);
    assert.equal(cause?.order.length, 1);
    assert.doesNotMatch(formatMarkdown(attempt, { maxBytes: 65536 }), /independent problems/);
  });

  it('still counts problems that share no cause', () => {
    const other = event(9, { realm: 'page', source: 'window.onerror', message: 'Error: unrelated', frames: [appFrame], unexpected: true, fingerprint: 'dddddddddddd' });
    assert.equal(rankRootCause(report([...events(), other]))?.independent, 2);
  });
});

describe('hints for a service worker that could not answer', () => {
  it("says what respondWith() got and which fetch failed, without the word about a `.json()` with no stack", () => {
    const hint = hintFor({ source: 'unhandledrejection', message: conversion(3).message, failedRequests: [workerRequest.network!] })!;
    assert.match(hint, /A service worker's `event\.respondWith\(…\)` got something that is not a Response .*here after GET http:\/\/127\.0\.0\.1:5173\/api\/items\.json \(requested in src\/service-worker\.js:35:21\) failed \(net::ERR_INTERNET_DISCONNECTED\)/);
    assert.doesNotMatch(hint, /\.json\(\)` call that has no `\.catch`/);
  });

  it("names the worker's failed fetch for the page's failed request, not CORS", () => {
    const hint = hintFor({ source: 'unhandledrejection', message: 'TypeError: Failed to fetch', where: 'src/app.js:3:26', failedRequests: [pageRequest.network!], serviceWorkerFailures: [workerRequest.network!] })!;
    assert.match(hint, /was failed by the page's service worker \(net::ERR_FAILED\): its own fetch of it failed \(net::ERR_INTERNET_DISCONNECTED, requested in src\/service-worker\.js:35:21\)/);
    assert.doesNotMatch(hint, /CORS: does the response/);
  });
});

describe('realm names', () => {
  it('tell a service worker and its browser context', () => {
    assert.equal(isServiceWorkerRealm('service-worker:sw.js'), true);
    assert.equal(isServiceWorkerRealm('context-2:service-worker:sw.js#2'), true);
    assert.equal(isServiceWorkerRealm('worker:service-worker:x.js'), false);
    assert.equal(isServiceWorkerRealm('page'), false);
    assert.equal(realmContext('context-3:page'), 'context-3:');
    assert.equal(realmContext('page-2'), '');
  });
});

describe("an error at the browser's default place keeps its identity", () => {
  it('has the fingerprint it had when its place was its one frame, so a baseline written before still knows it', () => {
    const before = conversion(3, { frames: [{ url: `${ORIGIN}/service-worker.js`, line: 1, column: 1, userCode: true }] });
    const now = conversion(3);
    assert.equal(now.frames, undefined);
    assert.equal(fingerprintOf(now), fingerprintOf(before));
    // And the place still counts: the same message elsewhere is another error.
    const elsewhere = conversion(3, { location: { url: `${ORIGIN}/other-worker.js`, line: 1, column: 1 } });
    assert.notEqual(fingerprintOf(elsewhere), fingerprintOf(now));
  });
});
