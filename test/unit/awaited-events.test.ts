import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { claimOf, claimedIndex, watchAwaitedEvents, type AwaitedClaim } from '../../src/capture/awaited-events';
import { Recorder } from '../../src/capture/recorder';
import { formatMarkdown } from '../../src/format/markdown';
import { resolveOptions } from '../../src/options';
import { reportSchema } from '../../src/model/schema';

const error = (message: string) => Object.assign(new Error(message), { name: 'Error' });
const consoleMessage = (type: string, text: string) => ({ type: () => type, text: () => text });

describe('errors the test awaited', () => {
  it('makes a claim of a wait for pageerror, weberror or an error-level console message, and of nothing else', () => {
    assert.deepEqual(claimOf('pageerror', error('boom'), 1, 2, 'page'), { kind: 'error', text: 'boom', startMs: 1, endMs: 2, how: "page.waitForEvent('pageerror')" });
    assert.equal(claimOf('weberror', { error: () => error('web boom') }, 1, 2, 'context')?.text, 'web boom');
    assert.equal(claimOf('console', consoleMessage('error', 'save failed'), 1, 2, 'page')?.consoleType, 'error');
    assert.equal(claimOf('console', consoleMessage('log', 'hello'), 1, 2, 'page'), undefined);
    assert.equal(claimOf('load', undefined, 1, 2, 'page'), undefined);
  });

  it('names the first matching event since the wait began, not an earlier one with the same words, nor a console call', () => {
    const claim: AwaitedClaim = { kind: 'error', text: 'boom', startMs: 1000, endMs: 1200, how: "page.waitForEvent('pageerror')" };
    const events = [
      { item: { type: 'error', source: 'window.onerror', message: 'Error: boom' }, atMs: 500 },
      { item: { type: 'console', source: 'console.error', message: 'Error: boom' }, atMs: 1050 },
      { item: { type: 'error', source: 'window.onerror', message: 'Error: boom' }, atMs: 1100 },
      { item: { type: 'error', source: 'window.onerror', message: 'Error: boom' }, atMs: 1150 },
    ];
    assert.equal(claimedIndex(claim, events, new Set()), 2);
    assert.equal(claimedIndex(claim, events, new Set([2])), 3);
    assert.equal(claimedIndex({ ...claim, text: 'other' }, events, new Set()), undefined);
  });

  it('marks the awaited error expected in the record, with the reason in the JSON and the Markdown; another error stays unexpected', () => {
    const recorder = new Recorder(resolveOptions({ strict: true, capture: true, ignore: [], limits: {} }));
    const now = Date.now();
    recorder.add({ type: 'error', source: 'window.onerror', level: 'error', realm: 'page', timeMs: now + 10, message: 'Error: expected boom' });
    recorder.add({ type: 'error', source: 'window.onerror', level: 'error', realm: 'page', timeMs: now + 20, message: 'Error: real bug' });
    recorder.awaited({ kind: 'error', text: 'expected boom', startMs: now, endMs: now + 30, how: "page.waitForEvent('pageerror')" });
    const events = recorder.events();
    assert.deepEqual(
      events.map((e) => [e.message, e.expected, e.unexpected ?? false, e.expectedBy]),
      [
        ['Error: expected boom', true, false, "awaited by the test (page.waitForEvent('pageerror'))"],
        ['Error: real bug', false, true, undefined],
      ],
    );
    const report = reportSchema.parse({
      schemaVersion: 1,
      test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: true },
      jobs: [],
      events,
      summary: { errors: 2, unexpected: 1, console: 0, dropped: 0 },
    });
    assert.match(formatMarkdown(report, { maxBytes: 65536 }), /^expected: awaited by the test \(page\.waitForEvent\('pageerror'\)\)\n```/m);
  });

  it("wraps a target's own waitForEvent, reports the claim, and undoes it", async () => {
    class FakePage {
      async waitForEvent(event: string): Promise<unknown> {
        return event === 'pageerror' ? error('boom') : undefined;
      }
    }
    const page = new FakePage();
    const claims: AwaitedClaim[] = [];
    const undo = watchAwaitedEvents(page, 'page', (c) => claims.push(c));
    assert.equal(((await page.waitForEvent('pageerror')) as Error).message, 'boom');
    await page.waitForEvent('load');
    assert.deepEqual(claims.map((c) => c.text), ['boom']);
    undo();
    assert.equal(Object.prototype.hasOwnProperty.call(page, 'waitForEvent'), false);
  });
});
