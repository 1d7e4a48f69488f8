import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runsPageHandlers } from '../../src/capture/input-calls';

/** Asserts what runsPageHandlers says of each `[type, method]` Playwright's instrumentation may pass. */
function expectCalls(calls: Array<[string, string]>, runs: boolean): void {
  for (const [type, method] of calls) assert.equal(runsPageHandlers({ type, method, params: {} }), runs, `${type}.${method}`);
}

describe("calls that run the page's handlers", () => {
  it('input and the test’s own scripts do, as Playwright’s instrumentation names them', () => {
    expectCalls(
      [
        ['Frame', 'click'],
        ['Frame', 'fill'],
        ['Frame', 'press'],
        ['Frame', 'dispatchEvent'],
        ['Frame', 'evaluateExpression'],
        ['ElementHandle', 'click'],
        ['JSHandle', 'evaluateExpression'],
        ['Page', 'keyboardPress'],
        ['Page', 'mouseClick'],
      ],
      true,
    );
  });

  it('navigation, waits and assertions do not: a test that ends on them ends without waiting for timers', () => {
    expectCalls(
      [
        ['Frame', 'goto'],
        ['Frame', 'waitForSelector'],
        ['Frame', 'expect'],
        ['Page', 'reload'],
        ['BrowserContext', 'newPage'],
      ],
      false,
    );
  });

  it('anything else Playwright might pass is not a call that runs handlers, and never throws', () => {
    for (const value of [undefined, null, 'Frame.click', {}, { type: 'Frame' }, { type: 1, method: 'click' }, { type: 'toString', method: 'click' }]) {
      assert.equal(runsPageHandlers(value), false, JSON.stringify(value));
    }
  });
});
