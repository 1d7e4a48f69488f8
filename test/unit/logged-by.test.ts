// Who made a console call: "logged by your code" only when the call's own frame is the app's (src/diagnosis/logged-by.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { consoleCallInApp, loggedBy, loggerPhrase } from '../../src/diagnosis/logged-by';
import { errorClass } from '../../src/diagnosis/rank';
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
