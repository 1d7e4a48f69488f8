import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runsPageHandlers } from '../../src/capture/input-calls';

describe("calls that run the page's handlers", () => {
  it('input and the test’s own scripts do, as Playwright’s instrumentation names them', () => {
    for (const [type, method] of [
      ['Frame', 'click'],
      ['Frame', 'fill'],
      ['Frame', 'press'],
      ['Frame', 'dispatchEvent'],
      ['Frame', 'evaluateExpression'],
      ['ElementHandle', 'click'],
      ['JSHandle', 'evaluateExpression'],
      ['Page', 'keyboardPress'],
      ['Page', 'mouseClick'],
    ]) {
      assert.equal(runsPageHandlers({ type, method, params: {} }), true, `${type}.${method}`);
    }
  });

  it('navigation, waits and assertions do not: a test that ends on them ends without waiting for timers', () => {
    for (const [type, method] of [
      ['Frame', 'goto'],
      ['Frame', 'waitForSelector'],
      ['Frame', 'expect'],
      ['Page', 'reload'],
      ['BrowserContext', 'newPage'],
    ]) {
      assert.equal(runsPageHandlers({ type, method }), false, `${type}.${method}`);
    }
  });

  it('anything else Playwright might pass is not a call that runs handlers, and never throws', () => {
    for (const value of [undefined, null, 'Frame.click', {}, { type: 'Frame' }, { type: 1, method: 'click' }, { type: 'toString', method: 'click' }]) {
      assert.equal(runsPageHandlers(value), false, JSON.stringify(value));
    }
  });
});
