import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventInfo } from '../../src/format/event-block';
import { summarize } from '../../src/model/attempt';
import type { DaebugEvent } from '../../src/model/schema';

const event = (type: 'error' | 'console', source: string, extra: Partial<DaebugEvent> = {}): DaebugEvent => ({ type, source, realm: 'page', ts: '10:00:00', time: '2026-01-01T10:00:00.000Z', message: 'm', expected: false, ...extra });

describe('the fence rule: one label per source', () => {
  it('labels by source alone, whatever the arguments were', () => {
    assert.equal(eventInfo(event('console', 'console.warn', { structured: true })), 'Text console.warn');
    assert.equal(eventInfo(event('console', 'console.warn')), 'Text console.warn');
    assert.equal(eventInfo(event('console', 'console.log')), 'JSON console.log');
    assert.equal(eventInfo(event('console', 'console.log', { structured: true })), 'JSON console.log');
    assert.equal(eventInfo(event('console', 'console.error')), 'Error console.error');
    assert.equal(eventInfo(event('console', 'console.assert', { level: 'error' })), 'Error console.assert');
    assert.equal(eventInfo(event('error', 'unhandledrejection')), 'Error unhandledrejection');
    assert.equal(eventInfo(event('console', 'browser.network', { level: 'error' })), 'Text browser.network');
    assert.equal(eventInfo(event('console', 'console.debug', { level: 'debug' })), 'Text console.debug');
  });

  it('counts errors in the header exactly as the Error fences below', () => {
    const events = [event('error', 'window.onerror'), event('console', 'console.error'), event('console', 'browser.network', { level: 'error' }), event('console', 'console.warn', { level: 'error' })];
    const errorFences = events.filter((e) => eventInfo(e).startsWith('Error ')).length;
    assert.equal(summarize(events, 0).errors, errorFences);
    assert.equal(errorFences, 2);
  });
});
