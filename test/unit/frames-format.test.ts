import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventFence } from '../../src/format/event-block';
import { frameWhere, mappedFrames } from '../../src/format/frames';
import { strictFailure } from '../../src/format/strict-message';
import type { DaebugEvent, Frame } from '../../src/model/schema';

const mapped: Frame[] = [
  { functionName: 'n', url: 'http://h/app.js', line: 1, column: 38, original: { source: 'src/pricing.ts', line: 13, column: 30, functionName: 'priceOf' }, userCode: true },
  { functionName: 's', url: 'http://h/app.js', line: 1, column: 180, original: { source: 'src/cart.ts', line: 11, column: 14, functionName: 'cartTotal' }, userCode: true },
  { url: '<anonymous>', line: 372, column: 16, functionName: 'UtilityScript.evaluate' },
];

describe('mappedFrames', () => {
  it('lists original positions with the first user frame marked', () => {
    assert.equal(mappedFrames(mapped), ['Original source (> first user frame):', '  > src/pricing.ts:13:30 in priceOf', '    src/cart.ts:11:14 in cartTotal'].join('\n'));
  });

  it('names why a frame is unmapped, once per reason', () => {
    const reason = 'source map http://h/app.js.map: HTTP 404';
    const text = mappedFrames([
      { functionName: 'n', url: 'http://h/app.js', line: 1, column: 38, userCode: true, unmappedReason: reason },
      { functionName: 's', url: 'http://h/app.js', line: 1, column: 180, userCode: true, unmappedReason: reason },
    ]);
    assert.equal(text, ['Original source (> first user frame):', `  > http://h/app.js:1:38 in n (not mapped: ${reason})`, '    http://h/app.js:1:180 in s (not mapped)'].join('\n'));
  });

  it('says nothing when no frame was mapped or failed to map', () => {
    assert.equal(mappedFrames([{ url: 'http://h/app.js', line: 1, column: 1, userCode: true }]), undefined);
    assert.equal(mappedFrames(undefined), undefined);
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

  it('keeps the stack, mapped frames, code frame and hint inside one fence', () => {
    const text = eventFence(event);
    const lines = text.split('\n');
    assert.equal(lines[0], '````Error window.onerror');
    assert.equal(lines.at(-1), '````');
    assert.ok(text.indexOf('at n (http://h/app.js:1:38)') < text.indexOf('  > src/pricing.ts:13:30 in priceOf'));
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
