import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorClass, rankRootCause, rankUnexpected } from '../../src/diagnosis/rank';
import { formatMarkdown } from '../../src/format/markdown';
import { structureProblems } from '../../e2e/helpers/markdown-structure';
import { reportSchema, type DaebugEvent, type Frame, type Job, type Report } from '../../src/model/schema';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const at = (ms: number) => new Date(T0 + ms).toISOString();
const event = (ms: number, fields: Partial<DaebugEvent>): DaebugEvent => ({ type: 'console', source: 'console.error', level: 'error', realm: 'page', ts: '10:00:00', time: at(ms), message: 'm', expected: false, unexpected: true, ...fields });
const user = (fn: string, line = 14): Frame => ({ url: 'http://h/app.js', line: 1, column: 500, functionName: 'u', original: { source: 'src/App.tsx', line, column: 11, functionName: fn }, userCode: true });
const react: Frame[] = Array.from({ length: 5 }, (_, i) => ({ url: 'http://h/app.js', line: 1, column: 9000 + i, original: { source: 'node_modules/react-dom/cjs/react-dom-client.development.js', line: 100 + i, column: 1 }, library: 'react-dom' }));

/** React's missing-key warning: a console.error of React's own, every frame in react-dom, no Error logged. */
const keyWarning = (ms: number) => event(ms, { message: 'Each child in a list should have a unique "key" prop.\n\nCheck the render method of `PriceList`.', frames: react });
const thrown = (ms: number, fields: Partial<DaebugEvent> = {}) => event(ms, { type: 'error', source: 'window.onerror', message: "TypeError: Cannot read properties of undefined (reading 'name')", frames: [user('removeAll')], ...fields });
const logged = (ms: number, fields: Partial<DaebugEvent> = {}) => event(ms, { message: 'save failed Error: 500', loggedAt: { url: 'http://h/app.js', line: 1, column: 700 }, frames: [user('save', 20)], ...fields });
const navigation = (ms: number, realm = 'page') => event(ms, { type: 'console', source: 'navigation', level: 'info', realm, message: 'http://h/', unexpected: undefined });

/** Not parsed by the schema, which would copy the events: the ranking's answers are compared by identity. */
function report(events: DaebugEvent[], fields: { status?: string; jobs?: Job[]; steps?: Job[] } = {}): Report {
  const built: Report = {
    schemaVersion: 1 as const,
    test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: fields.status ?? 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: false },
    jobs: fields.jobs ?? [],
    steps: fields.steps ?? [],
    events,
    summary: { errors: events.length, unexpected: events.filter((e) => e.unexpected).length, console: 0, dropped: 0 },
  };
  reportSchema.parse(built);
  return built;
}

const step = (id: string, from: number, to: number): Job => ({ id, kind: 'step', title: id, realm: 'test', startedAt: at(from), finishedAt: at(to), ok: true, events: [] });

describe('rankRootCause: a passed test, by kind', () => {
  it('puts uncaught errors and rejections first, then errors logged with a user frame, then the rest', () => {
    const noFrames = event(0, { message: 'something failed' });
    const log = logged(10);
    const rejection = event(20, { type: 'error', source: 'unhandledrejection', message: 'Error: profile has no id', frames: [user('load')] });
    const uncaught = thrown(30);
    const ranked = rankUnexpected(report([noFrames, log, rejection, uncaught]));
    // Between uncaught errors the earlier one comes first: it may have caused the later.
    assert.deepEqual(ranked, [rejection, uncaught, log, noFrames]);
    assert.equal(rankRootCause(report([noFrames, log]))?.event, log);
  });

  it('never puts a library warning ahead of an Error thrown in your code, however early it came', () => {
    const warning = keyWarning(0);
    const error = thrown(500);
    assert.equal(errorClass(warning), 'library-warning');
    const cause = rankRootCause(report([warning, error]))!;
    assert.equal(cause.event, error);
    assert.equal(cause.reason, 'uncaught error in your code, ahead of 1 React warning');
    // Not in a failed test either, even inside the failing step and closest to the failure.
    const failed = report([error, keyWarning(9000)], { status: 'failed', steps: [step('open cart', 8000, 9100)] });
    assert.equal(rankRootCause(failed)?.event, error);
    // A library's console.error that logged an Error is not a warning; a logged Error of the app is not one either.
    assert.equal(errorClass(event(0, { frames: react, loggedAt: { url: 'http://h/app.js', line: 1, column: 1 } })), 'other');
    assert.equal(errorClass(logged(0)), 'logged');
  });

  it("says who logged it: Angular's ErrorHandler logging an Error thrown in your code is not logged by your code", () => {
    const angular = logged(0, { message: 'ERROR Error: prices failed', loggedAt: { url: 'http://h/vendor.js', line: 1, column: 9, original: { source: 'node_modules/@angular/core/fesm2022/core.mjs', line: 6000, column: 13 } } });
    assert.equal(rankRootCause(report([angular]))?.reason, "error logged by Angular's ErrorHandler, with a frame in your code, the only unexpected error");
    assert.equal(rankRootCause(report([thrown(5), angular]))?.reason, "uncaught error in your code, ahead of 1 error logged by Angular's ErrorHandler");
  });
});

describe('rankRootCause: a failed test, by what explains the failure', () => {
  it('prefers the error inside the failing job (ok: false)', () => {
    const before = thrown(1000, { message: 'TypeError: early' });
    const inJob = logged(5000, { jobId: 'job-1' });
    const jobs: Job[] = [{ id: 'job-1', kind: 'job', title: 'checkout', realm: 'test', startedAt: at(4000), finishedAt: at(6000), ok: false, events: [] }];
    const cause = rankRootCause(report([before, inJob, thrown(20_000, { message: 'TypeError: during teardown' })], { status: 'failed', jobs }))!;
    assert.equal(cause.event, inJob);
    assert.equal(cause.explainsFailure, true);
    assert.match(cause.reason, /^the error that best explains the failure: in the failing job, .*1\.0 s before the failure; error logged by your code, ahead of 2 uncaught errors$/);
  });

  it('prefers the error inside the last step, the one still running when the test failed', () => {
    const earlier = thrown(1000, { stepId: 'log in', step: 'log in' });
    const inLast = logged(8500, { stepId: 'open cart', step: 'open cart' });
    const cause = rankRootCause(report([earlier, inLast, navigation(9000)], { status: 'failed', steps: [step('log in', 0, 2000), step('open cart', 8000, 9000)] }))!;
    assert.equal(cause.event, inLast);
    assert.match(cause.reason, /in the last step before the failure/);
  });

  it('prefers the realm the test was acting on', () => {
    const inWorker = thrown(8000, { realm: 'worker http://h/w.js', message: 'TypeError: worker' });
    const inPage = thrown(7000, { realm: 'page 2', message: 'TypeError: page' });
    const events = [navigation(0, 'page 2'), inPage, inWorker];
    assert.equal(rankRootCause(report(events, { status: 'failed' }))?.event, inPage);
    // A daebug.eval that failed names its realm itself.
    const jobs: Job[] = [{ id: 'e1', kind: 'eval', realm: 'worker http://h/w.js', startedAt: at(7500), finishedAt: at(8100), ok: false, events: [] }];
    assert.equal(rankRootCause(report(events, { status: 'failed', jobs }))?.event, inWorker);
  });

  it('prefers an error shortly before the failure, the closest one among equals', () => {
    const long = thrown(0, { message: 'TypeError: long before' });
    const close = thrown(28_000, { message: 'TypeError: close' });
    const closer = thrown(29_000, { message: 'TypeError: closer' });
    const after = thrown(31_000, { message: 'TypeError: after' });
    const events = [navigation(0), long, close, closer, navigation(30_000), after];
    // The failure is the test's end; here a failed job that finished at 30 s.
    const jobs: Job[] = [{ id: 'j', kind: 'job', title: 'j', realm: 'test', startedAt: at(0), finishedAt: at(30_000), ok: false, events: [] }];
    const cause = rankRootCause(report(events, { status: 'failed', jobs }))!;
    assert.equal(cause.event, closer);
    assert.match(cause.reason, /1\.0 s before the failure/);
    // A timed-out test without jobs or steps: its last recorded moment.
    assert.equal(rankRootCause(report([long, close], { status: 'timedOut' }))?.event, close);
  });

  it('falls back to the kind when nothing ties an error to the failure, and says so', () => {
    const cause = rankRootCause(report([logged(0), thrown(100), navigation(60_000, 'page 2')], { status: 'failed' }))!;
    assert.equal(cause.event.source, 'window.onerror');
    assert.match(cause.reason, /^nothing ties an error to the failure, so by kind: uncaught error in your code, ahead of 1 error logged by your code$/);
  });
});

describe('rankRootCause: independent errors', () => {
  it('counts distinct errors that do not explain one another', () => {
    const events = [keyWarning(0), thrown(10), thrown(20), logged(30)];
    assert.equal(rankRootCause(report(events))?.independent, 3);
    const md = formatMarkdown(report(events), { maxBytes: 65536 });
    assert.match(md, /^- 3 independent problems, fix each: none of them explains another, so fixing one will not fix the others\. Look at them in this order \(the first for the reason under Chosen\):$/m);
    // The order is the ranking's, the chosen one first, each with its kind and place.
    // The Unexpected errors section numbers them in that order too (issue 37): "fix 1 first" reads directly.
    assert.match(md, /^  1\. unexpected error 1 below \(this one\): uncaught error in your code; at `src\/App\.tsx:14:11 in removeAll`\n  2\. unexpected error 2 below: error logged by your code; at `src\/App\.tsx:20:11 in save`\n  3\. unexpected error 3 below: a React warning about your component `PriceList` \(no frame in your code\); no frame of its stack is in your code$/m);
    assert.deepEqual(structureProblems(md), []);
    assert.match(md, /^- Chosen: uncaught error in your code, ahead of 1 error logged by your code and 1 React warning$/m);
  });

  it("does not count React's boundary log, or a body parsed after its request failed, as errors of their own", () => {
    const error = thrown(10);
    const boundary = event(11, { message: 'The above error occurred in the <Cart> component:\n\n    at Cart' });
    const request = event(100, { type: 'error', source: 'network', message: 'GET http://h/api/x 404 (Not Found)', network: { method: 'GET', url: 'http://h/api/x', status: 404, resourceType: 'fetch' } });
    const parse = event(120, { type: 'error', source: 'unhandledrejection', message: 'SyntaxError: Unexpected token \'o\', "not found" is not valid JSON' });
    const cause = rankRootCause(report([error, boundary, request, parse]))!;
    assert.equal(cause.independent, 2);
    assert.equal(cause.event, error);
    // The request explains the rejection: it ranks ahead of it.
    assert.deepEqual(rankUnexpected(report([request, parse])), [request, parse]);
    const md = formatMarkdown(report([error, boundary]), { maxBytes: 65536 });
    assert.doesNotMatch(md, /independent (errors|problems)/);
  });

  it('counts the warnings that are no unexpected error among the problems, after the errors, but not a warning an error explains (issue 37)', () => {
    const vue = (ms: number, message: string) => event(ms, { source: 'console.warn', level: 'warn', unexpected: undefined, message, frames: [{ url: 'http://h/app.js', line: 1, column: 5, library: '@vue/runtime-core' }] });
    const age = vue(0, '[Vue warn]: Invalid prop: type check failed for prop "age".\n  at <UserCard>\n  at <App>');
    const amount = vue(10, '[Vue warn]: Missing required prop: "amount"\n  at <OrderTotal>\n  at <App>');
    const hook = vue(400, '[Vue warn]: Unhandled error during execution of mounted hook \n  at <BrokenList>\n  at <App>');
    const error = thrown(401);
    const md = formatMarkdown(report([age, amount, hook, error]), { maxBytes: 65536 });
    assert.match(md, /^- 3 independent problems, fix each: none of them explains another/m);
    assert.match(md, /^  1\. unexpected error 1 below \(this one\): uncaught error in your code; at `src\/App\.tsx:14:11 in removeAll`\n  2\. warning 1 below: a Vue warning about your component `UserCard`; no frame of its stack is in your code\n  3\. warning 2 below: a Vue warning about your component `OrderTotal`; no frame of its stack is in your code$/m);
    assert.doesNotMatch(md, /BrokenList`/);
    // The Warnings section numbers them the same way.
    assert.match(md, /^1\. `console\.warn` in `page` at 10:00:00: .*\n```Text console\.warn\n\[Vue warn\]: Invalid prop/m);
    assert.match(md, /^2\. `console\.warn` in `page` at 10:00:00: .*\n```Text console\.warn\n\[Vue warn\]: Missing required prop/m);
    assert.deepEqual(structureProblems(md), []);
    // One error and one warning are two problems; one error alone is one.
    assert.match(formatMarkdown(report([age, error]), { maxBytes: 65536 }), /^- 2 independent problems, fix each: .*\n  1\. unexpected error 1 below \(this one\).*\n  2\. warning 1 below: /m);
    assert.doesNotMatch(formatMarkdown(report([hook, error]), { maxBytes: 65536 }), /independent problems/);
  });

  it('says nothing of independence for one error, repeated or not', () => {
    const cause = rankRootCause(report([thrown(0), thrown(5)]))!;
    assert.equal(cause.independent, 1);
    assert.equal(cause.reason, 'uncaught error in your code, the only unexpected error');
  });
});

describe('the Root cause block uses the ranking', () => {
  it('numbers the unexpected errors in the order to fix them, and the transcript keeps time order with those numbers', () => {
    // A warning, then a logged error, then the uncaught error that ranks first: numbered 3, 2, 1 by time, 1, 2, 3 to fix.
    const md = formatMarkdown(report([keyWarning(0), logged(100), thrown(500)]), { maxBytes: 65536 });
    const section = md.slice(md.indexOf('## Unexpected errors'), md.indexOf('## Transcript'));
    assert.match(section, /^1\. `window\.onerror` in `page` at 10:00:00 at `src\/App\.tsx:14:11 in removeAll`/m);
    assert.match(section, /^2\. `console\.error` in `page` at 10:00:00 at `src\/App\.tsx:20:11 in save`/m);
    assert.match(section, /^3\. `console\.error` in `page` at 10:00:00 \(no frame of the stack is in your code\)/m);
    assert.match(md, /^  1\. unexpected error 1 below \(this one\)/m);
    assert.match(md, /^  2\. unexpected error 2 below: error logged by your code/m);
    assert.match(md, /^  3\. unexpected error 3 below: a React warning/m);
    assert.match(md, /^- Warnings: 1 \(all of them listed as unexpected error 3\)$/m);
    const transcript = md.slice(md.indexOf('## Transcript'));
    assert.match(transcript, /↑ unexpected error 3 \(`console\.error`\), written in full above\n↑ unexpected error 2 \(`console\.error`\), written in full above\n↑ unexpected error 1 \(`window\.onerror`\), written in full above/);
    assert.deepEqual(structureProblems(md), []);
  });

  it('names the ranked error, its number in the list below, and how it was chosen', () => {
    const md = formatMarkdown(report([keyWarning(0), thrown(500)]), { maxBytes: 65536 });
    assert.match(md, /^The `window\.onerror` in `page` at 10:00:00, unexpected error 1 below:$/m);
    assert.match(md, /^- Where: `src\/App\.tsx:14:11 in removeAll`$/m);
    assert.match(md, /^- Chosen: uncaught error in your code, ahead of 1 React warning$/m);
    // The chosen error's own lines borrow nothing from the warning; the order after them names each one's own place.
    assert.doesNotMatch(md.slice(md.indexOf('## Root cause'), md.indexOf(' independent problems')), /PriceList|key" prop/);
    assert.match(md, /^  2\. unexpected error 2 below: a React warning about your component `PriceList` \(no frame in your code\); no frame of its stack is in your code$/m);
  });
});
