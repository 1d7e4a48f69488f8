import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { declaredName, parseStack } from '../../src/text/parse-stack';

describe('parseStack', () => {
  it('reads Chromium stacks, skipping the message and frames without a position', () => {
    const stack = [
      "TypeError: Cannot read properties of undefined (reading 'price')",
      '    at n (http://127.0.0.1:4517/app/dist/app.js:1:38)',
      '    at Object.u [as checkoutNow] (http://127.0.0.1:4517/app/dist/app.js:1:613)',
      '    at async main (http://127.0.0.1:4517/app/dist/app.js:3:4)',
      '    at async Promise.all (index 0)',
      '    at new Store (http://127.0.0.1:4517/app/dist/app.js:5:9)',
      '    at http://127.0.0.1:4517/app/dist/app.js:1:647',
    ].join('\n');
    assert.deepEqual(parseStack(stack, "TypeError: Cannot read properties of undefined (reading 'price')"), [
      { functionName: 'n', url: 'http://127.0.0.1:4517/app/dist/app.js', line: 1, column: 38 },
      { functionName: 'Object.u [as checkoutNow]', url: 'http://127.0.0.1:4517/app/dist/app.js', line: 1, column: 613 },
      { functionName: 'main', url: 'http://127.0.0.1:4517/app/dist/app.js', line: 3, column: 4 },
      { functionName: 'new Store', url: 'http://127.0.0.1:4517/app/dist/app.js', line: 5, column: 9 },
      { functionName: undefined, url: 'http://127.0.0.1:4517/app/dist/app.js', line: 1, column: 647 },
    ]);
  });

  it('keeps the position inside evaluated code, not the eval call', () => {
    const frames = parseStack('Error: direct eval\n    at eval (eval at evaluate (:370:30), <anonymous>:3:11)\n    at UtilityScript.evaluate (<anonymous>:372:16)');
    assert.deepEqual(frames[0], { functionName: undefined, url: '<anonymous>', line: 3, column: 11, evaluated: true });
    assert.deepEqual(frames[1], { functionName: 'UtilityScript.evaluate', url: '<anonymous>', line: 372, column: 16 });
    assert.equal(parseStack('E\n    at load (eval at run (http://x/a.js:1:1), <anonymous>:2:5)')[0]?.functionName, 'load');
  });

  it('reads Node frames of test code', () => {
    const frames = parseStack('Error: job fails\n    at body (/work/e2e/a.spec.ts:17:49)\n    at /work/e2e/a.spec.ts:17:16\n    at file:///work/e2e/b.spec.mjs:4:2');
    assert.deepEqual(
      frames.map((f) => [f.url, f.line, f.column]),
      [['/work/e2e/a.spec.ts', 17, 49], ['/work/e2e/a.spec.ts', 17, 16], ['file:///work/e2e/b.spec.mjs', 4, 2]],
    );
  });

  it('reads Firefox stacks, including anonymous, nested and async frames', () => {
    const stack = [
      'priceOf@http://localhost:3000/app.js:1:38',
      'checkout/<@http://localhost:3000/app.js:1:180',
      'async*main@http://localhost:3000/app.js:3:4',
      '@http://localhost:3000/app.js:1:647',
      'onmessage@http://localhost:3000/worker.js line 2 > eval:1:5',
    ].join('\n');
    assert.deepEqual(
      parseStack(stack).map((f) => [f.functionName, f.url, f.line, f.column]),
      [
        ['priceOf', 'http://localhost:3000/app.js', 1, 38],
        ['checkout/<', 'http://localhost:3000/app.js', 1, 180],
        ['main', 'http://localhost:3000/app.js', 3, 4],
        [undefined, 'http://localhost:3000/app.js', 1, 647],
        ['onmessage', 'http://localhost:3000/worker.js', 2, 0],
      ],
    );
  });

  it('reads WebKit stacks and drops native frames', () => {
    const stack = ['priceOf@http://localhost:3000/app.js:1:38', 'global code@http://localhost:3000/app.js:9:1', 'promiseReactionJob@[native code]', 'http://localhost:3000/app.js:2:3'].join('\n');
    assert.deepEqual(
      parseStack(stack).map((f) => [f.functionName, f.line, f.column]),
      [['priceOf', 1, 38], ['global code', 9, 1], [undefined, 2, 3]],
    );
  });

  it('does not read a message line that looks like a position as a frame', () => {
    assert.deepEqual(parseStack('Error: cannot reach port 8080:3\npriceOf@http://localhost:3000/app.js:1:38').length, 1);
    assert.deepEqual(parseStack('Error: cannot reach port 8080:3\n    at f (http://x/a.js:1:2)').length, 1);
    assert.deepEqual(parseStack('Error: no frames at all'), []);
  });

  it('stops at maxFrames', () => {
    const stack = ['E', ...Array.from({ length: 80 }, (_, i) => `    at f${i} (http://x/a.js:${i + 1}:1)`)].join('\n');
    assert.equal(parseStack(stack, 'E').length, 50);
    assert.equal(parseStack(stack, 'E', 5).length, 5);
  });
  it('stops at the cause chain daebug appends', () => {
    const stack = 'Error: save failed\n    at save (http://x/app.js:1:10)\nCaused by: TypeError: no id\n    at parse (http://x/app.js:1:99)';
    assert.deepEqual(parseStack(stack, 'Error: save failed').map((f) => f.functionName), ['save']);
  });
});

describe('declaredName', () => {
  it('finds the identifier a function is declared with', () => {
    assert.equal(declaredName('n'), 'n');
    assert.equal(declaredName('Object.u [as checkoutNow]'), 'u');
    assert.equal(declaredName('new Store'), 'Store');
    assert.equal(declaredName('HTMLButtonElement.<anonymous>'), undefined);
    assert.equal(declaredName('checkout/<'), undefined);
    assert.equal(declaredName(undefined), undefined);
  });
});
