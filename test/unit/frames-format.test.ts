import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventFence } from '../../src/format/event-block';
import { firstUserFrame, frameWhere, stackLines } from '../../src/format/frames';
import { strictFailure } from '../../src/format/strict-message';
import type { DaebugEvent, Frame } from '../../src/model/schema';

const mapped: Frame[] = [
  { functionName: 'n', url: 'http://h/app.js', line: 1, column: 38, original: { source: 'src/pricing.ts', line: 13, column: 30, functionName: 'priceOf' }, userCode: true },
  { functionName: 's', url: 'http://h/app.js', line: 1, column: 180, original: { source: 'src/cart.ts', line: 11, column: 14, functionName: 'cartTotal' }, userCode: true },
  { url: '<anonymous>', line: 372, column: 16, functionName: 'UtilityScript.evaluate' },
];

const lib = (n: number, library: string): Frame[] =>
  Array.from({ length: n }, (_, i) => ({ functionName: `f${i}`, url: 'http://h/app.js', line: 1, column: 1000 + i, original: { source: `node_modules/${library}/cjs/x.js`, line: i + 1, column: 1 }, library }));

describe('stackLines', () => {
  it('lists original positions with the first user frame marked', () => {
    assert.deepEqual(stackLines(mapped), ['  > src/pricing.ts:13:30 in priceOf', '    src/cart.ts:11:14 in cartTotal', '    <anonymous>:372:16 in UtilityScript.evaluate']);
  });

  it('folds each run of library frames into one line naming the libraries', () => {
    const frames = [...lib(14, 'react-dom'), mapped[0]!, ...lib(2, 'react-dom'), ...lib(1, 'scheduler'), mapped[1]!];
    assert.deepEqual(stackLines(frames), [
      '    … 14 frames in react-dom',
      '  > src/pricing.ts:13:30 in priceOf',
      '    … 3 frames in react-dom, scheduler',
      '    src/cart.ts:11:14 in cartTotal',
    ]);
  });

  it('never marks a library frame as the first user frame, and says nothing is marked when no user frame exists', () => {
    assert.ok(!stackLines(lib(3, 'vue')).some((line) => line.startsWith('  >')));
    assert.equal(firstUserFrame(lib(3, 'vue')), undefined);
  });

  it('always lists user frames, and cuts other lines at the limit with a count', () => {
    const other: Frame[] = Array.from({ length: 6 }, (_, i) => ({ url: 'http://h/vendor.js', line: 1, column: i + 1 }));
    const lines = stackLines([...other, mapped[1]!], 3);
    assert.deepEqual(lines, ['    http://h/vendor.js:1:1', '    http://h/vendor.js:1:2', '    http://h/vendor.js:1:3', '    … 3 more frames in the JSON report', '  > src/cart.ts:11:14 in cartTotal']);
  });

  it('names why a frame is unmapped, once per reason', () => {
    const reason = 'source map http://h/app.js.map: HTTP 404';
    const text = stackLines([
      { functionName: 'n', url: 'http://h/app.js', line: 1, column: 38, userCode: true, unmappedReason: reason },
      { functionName: 's', url: 'http://h/app.js', line: 1, column: 180, userCode: true, unmappedReason: reason },
    ]);
    assert.deepEqual(text, [`  > http://h/app.js:1:38 in n (not mapped: ${reason})`, '    http://h/app.js:1:180 in s (not mapped)']);
  });

  it('writes a frame as file:line:col in function', () => {
    assert.equal(frameWhere(mapped[0]!), 'src/pricing.ts:13:30 in priceOf');
    assert.equal(frameWhere(mapped[2]!), '<anonymous>:372:16 in UtilityScript.evaluate');
  });
});

describe('events with frames, code frames and hints', () => {
  const event: DaebugEvent = {
    type: 'error',
    source: 'window.onerror',
    realm: 'page',
    ts: '10:00:00',
    time: '2026-01-01T10:00:00.000Z',
    message: 'TypeError: boom ```',
    stack: 'TypeError: boom ```\n    at n (http://h/app.js:1:38)',
    expected: false,
    unexpected: true,
    frames: mapped,
    snippet: '> 13 |   const unit = item.product!.price;\n     |                              ^',
    hint: 'Please check:\n- something',
  };

  it('shows one stack (the mapped one; raw frames stay in the JSON), then the code frame and hint, inside one fence', () => {
    const text = eventFence(event);
    const lines = text.split('\n');
    assert.equal(lines[0], '````Error window.onerror');
    assert.equal(lines[1], 'TypeError: boom ```');
    assert.equal(lines.at(-1), '````');
    assert.ok(!text.includes('at n (http://h/app.js:1:38)'));
    assert.ok(text.indexOf('  > src/pricing.ts:13:30 in priceOf') < text.indexOf('> 13 |'));
    assert.ok(text.indexOf('> 13 |') < text.indexOf('Please check:'));
  });

  it('names the original position, code frame and hint in the strict failure message', () => {
    const message = strictFailure([event], 'reports/a.md');
    assert.match(message, /↳ src\/pricing\.ts:13:30 in priceOf/);
    assert.match(message, /> 13 \|   const unit = item\.product!\.price;/);
    assert.match(message, /Please check:/);
  });
});

describe('cause chains and AggregateError members', () => {
  it('follow the stack, each with its own mapped frames', () => {
    const event: DaebugEvent = {
      type: 'error',
      source: 'unhandledrejection',
      realm: 'page',
      ts: '10:00:00',
      time: '2026-01-01T10:00:00.000Z',
      message: 'Error: checkout failed',
      stack: 'Error: checkout failed\n    at n (http://h/app.js:1:38)',
      expected: false,
      frames: [mapped[1]!],
      cause: [{ name: 'TypeError', message: "Cannot read properties of undefined (reading 'price')", frames: [mapped[0]!] }, { message: '{"code":7}' }],
      aggregate: [{ name: 'Error', message: 'out of stock', stack: 'Error: out of stock\n    at s (http://h/app.js:1:9)' }],
    };
    const lines = eventFence(event).split('\n');
    assert.deepEqual(lines.slice(1, -1), [
      'Error: checkout failed',
      '  > src/cart.ts:11:14 in cartTotal',
      "Caused by: TypeError: Cannot read properties of undefined (reading 'price')",
      '  > src/pricing.ts:13:30 in priceOf',
      'Caused by: {"code":7}',
      '[0] Error: out of stock',
      '    at s (http://h/app.js:1:9)',
    ]);
  });
});
