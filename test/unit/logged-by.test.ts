// Who made a console call: "logged by your code" only when the call's own frame is the app's (src/diagnosis/logged-by.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { consoleCallInApp, loggedBy, loggerPhrase } from '../../src/diagnosis/logged-by';
import { errorClass } from '../../src/diagnosis/rank';
import { eventFence } from '../../src/format/event-block';
import { rootCauseSection } from '../../src/format/root-cause';
import type { DaebugEvent, Frame } from '../../src/model/schema';

const event = (fields: Partial<DaebugEvent>): DaebugEvent => ({ type: 'console', source: 'console.error', level: 'error', realm: 'page', ts: '10:00:00', time: new Date(0).toISOString(), message: 'm', expected: false, unexpected: true, ...fields });
const app: Frame = { url: 'http://h/app.js', line: 1, column: 5, original: { source: 'src/prices.service.ts', line: 12, column: 7, functionName: 'load' }, userCode: true };
const lib = (pkg: string): Frame => ({ url: 'http://h/vendor.js', line: 1, column: 9, original: { source: `node_modules/${pkg}/index.mjs`, line: 40, column: 3 }, library: pkg });
const angularCall = { url: 'http://h/vendor.js', line: 1, column: 9, original: { source: 'node_modules/@angular/core/fesm2022/core.mjs', line: 6000, column: 13 } };

describe('loggedBy', () => {
  it("is the app only when the console call's own frame is the app's", () => {
    assert.deepEqual(loggedBy(event({ message: 'save failed Error: 500', loggedAt: { url: 'http://h/app.js', line: 1, column: 7 }, frames: [app] })), { by: 'app' });
    assert.deepEqual(loggedBy(event({ message: 'could not save', frames: [app, lib('react-dom')] })), { by: 'app' });
    assert.equal(consoleCallInApp(event({ frames: [lib('axios'), app] })), false);
    assert.equal(consoleCallInApp(event({})), undefined);
  });

  it("names Angular's ErrorHandler for `ERROR` logged from @angular/core, even when the Error was thrown in the app", () => {
    const handled = event({ message: 'ERROR Error: prices failed', loggedAt: angularCall, frames: [app] });
    assert.equal(errorClass(handled), 'logged');
    assert.equal(loggerPhrase(loggedBy(handled)!), "logged by Angular's ErrorHandler");
    // The app's own `console.error('ERROR …')` is the app's.
    assert.deepEqual(loggedBy(event({ message: 'ERROR in save', frames: [app] })), { by: 'app' });
  });

  it("names React's boundary log, Vue's warn handler and React's warnings about the app's component", () => {
    assert.equal(loggerPhrase(loggedBy(event({ message: 'The above error occurred in the <Cart> component:', frames: [lib('react-dom')] }))!), "logged by React's error-boundary log");
    // React 19 logs the Error with the sentence after its own text.
    const react19 = event({ message: "TypeError: x\n\nThe above error occurred in the <PriceTag> component.", loggedAt: { url: 'http://h/vendor.js', line: 1, column: 3, original: { source: 'node_modules/react-dom/cjs/react-dom-client.development.js', line: 9, column: 1 } }, frames: [app] });
    assert.equal(loggerPhrase(loggedBy(react19)!), "logged by React's error-boundary log");
    const vue = event({ source: 'console.warn', message: '[Vue warn]: Missing required prop: "name"\n  at <UserCard>', frames: [lib('@vue/runtime-core'), app] });
    assert.equal(loggerPhrase(loggedBy(vue)!, 'UserCard'), 'a Vue warning about your component `UserCard`');
    const key = event({ message: 'Each child in a list should have a unique "key" prop.\n\nCheck the render method of `PriceList`.', frames: [lib('react-dom')] });
    assert.equal(loggerPhrase(loggedBy(key)!, 'PriceList'), 'a React warning about your component `PriceList`');
    assert.equal(loggerPhrase(loggedBy(event({ message: 'deprecated option', frames: [lib('chart.js')] }))!), 'logged by a library');
    assert.equal(loggedBy(event({ type: 'error', source: 'window.onerror', frames: [app] })), undefined);
  });
});

describe("a console call's place in a library is not printed (issue 37)", () => {
  it("says who logged it instead of `logged at` a library's line, in the fence and the Root cause; an app's call keeps its place", () => {
    const handled = event({ message: 'ERROR Error: prices failed', loggedAt: { ...angularCall, original: { source: 'node_modules/@angular/core/fesm2022/_pending_tasks-chunk.mjs', line: 2691, column: 13 } }, frames: [app] });
    const fenced = eventFence(handled);
    assert.doesNotMatch(fenced, /logged at|_pending_tasks-chunk/);
    assert.match(fenced, /^logged by Angular's ErrorHandler$/m);
    const boundary = event({ message: "TypeError: x\n\nThe above error occurred in the <PriceTag> component.", loggedAt: { url: 'http://h/vendor.js', line: 1, column: 9, original: { source: 'node_modules/react-dom/cjs/react-dom-client.development.js', line: 8000, column: 3 } }, frames: [app] });
    assert.match(eventFence(boundary), /^logged by React's error-boundary log$/m);
    assert.doesNotMatch(eventFence(boundary), /logged at/);
    const other = event({ message: 'Error: x', loggedAt: { url: 'http://h/vendor.js', line: 1, column: 9, original: { source: 'node_modules/some-lib/index.mjs', line: 40, column: 3 } }, frames: [app] });
    assert.match(eventFence(other), /^logged by a library \(some-lib\)$/m);
    const mine = event({ message: 'save failed Error: 500', loggedAt: { url: 'http://h/app.js', line: 1, column: 7, original: { source: 'src/SaveButton.tsx', line: 16, column: 15 } }, frames: [app] });
    assert.match(eventFence(mine), /^logged at src\/SaveButton\.tsx:16:15$/m);
    const root = rootCauseSection({ schemaVersion: 1, test: { title: 't', titlePath: ['t'], file: 'a.spec.ts', line: 1, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 1, strict: false }, jobs: [], events: [handled], summary: { errors: 1, unexpected: 1, console: 1, dropped: 0 } }, '#').join('\n');
    assert.match(root, /^- Where: `src\/prices\.service\.ts:12:7 in load`; logged by Angular's ErrorHandler$/m);
  });
});
