import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { framesOf, stackText } from '../../src/capture/cdp/call-frames';
import { parseStack } from '../../src/text/parse-stack';

const url = 'http://127.0.0.1/app.js';
const trace = {
  callFrames: [{ functionName: 'placeOrder', url, lineNumber: 9, columnNumber: 4 }],
  parent: {
    description: 'await',
    callFrames: [
      { functionName: 'onClick', url, lineNumber: 35, columnNumber: 58 },
      { functionName: 'dispatch', url, lineNumber: 99, columnNumber: 0 },
    ],
    parent: { description: '', callFrames: [{ functionName: '', url, lineNumber: 3, columnNumber: 1 }] },
  },
};

describe('framesOf with async parents (daebugAsyncStacks)', () => {
  it('marks the first frame of each parent with what scheduled it', () => {
    const frames = framesOf(trace);
    assert.deepEqual(frames.map((f) => [f.functionName, f.line, f.asyncParent]), [
      ['placeOrder', 10, undefined],
      ['onClick', 36, 'await'],
      ['dispatch', 100, undefined],
      [undefined, 4, 'async'],
    ]);
  });
  it('shows the boundary in the stack text, which still parses to the same frames', () => {
    const text = stackText('Error: checkout failed', framesOf(trace));
    assert.match(text, /placeOrder \(http:\/\/127\.0\.0\.1\/app\.js:10:5\)\n {4}--- await ---\n {4}at onClick /);
    assert.deepEqual(parseStack(text, 'Error: checkout failed').map((f) => f.line), [10, 36, 100, 4]);
  });
});
