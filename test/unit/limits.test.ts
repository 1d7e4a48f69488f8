import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Recorder, limitText } from '../../src/capture/recorder';
import { resolveOptions } from '../../src/options';
import { makeRedactor, noRedaction } from '../../src/redact';

const redact = makeRedactor(true);

describe('limitText', () => {
  it('cuts to the limit with a marker that gives the original length', () => {
    assert.equal(limitText('x'.repeat(50), 10, noRedaction), `${'x'.repeat(10)} …[truncated, 50 chars]`);
    assert.equal(limitText('short', 10, noRedaction), 'short');
  });

  it('keeps the length the page measured, with one marker, when the page already cut the text', () => {
    const fromPage = `${'o'.repeat(1000)} …[truncated, 123456 chars]`;
    assert.equal(limitText(fromPage, 100, noRedaction), `${'o'.repeat(100)} …[truncated, 123456 chars]`);
    assert.equal(limitText(fromPage, 2000, noRedaction), fromPage);
  });

  it('redacts before it cuts, so a secret across the cut is not left half visible', () => {
    const text = `${'a'.repeat(95)} password=${'s'.repeat(40)}`;
    const cut = limitText(text, 110, redact);
    assert.ok(!cut.includes('sss'), cut);
    assert.match(cut, /password=\[REDA …\[truncated, 145 chars\]$/);
  });

  it('never splits a surrogate pair', () => {
    const cut = limitText('🔥'.repeat(20), 11, noRedaction);
    assert.equal(cut, `${'🔥'.repeat(5)} …[truncated, 40 chars]`);
  });

  it('is fast on 10 MB', () => {
    const started = performance.now();
    const cut = limitText('x'.repeat(10 * 1024 * 1024), 1000, redact);
    assert.ok(performance.now() - started < 200);
    assert.equal(cut, `${'x'.repeat(1000)} …[truncated, 10485760 chars]`);
  });
});

describe('Recorder limits', () => {
  const options = (limits: object, redactOption: unknown = true) => resolveOptions({ strict: false, capture: true, ignore: [], limits, redact: redactOption });

  it('gives console.error the errors’ rate and ring, so console.log noise never drops it', () => {
    const recorder = new Recorder(options({ eventsPerSecond: 10, maxEvents: 20 }));
    for (let i = 0; i < 500; i++) recorder.add({ type: 'console', source: 'console.log', realm: 'page', timeMs: 1000 + i, message: `noise ${i}` });
    recorder.add({ type: 'console', level: 'error', source: 'console.error', realm: 'page', timeMs: 1100, message: 'the console.error' });
    recorder.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: 1200, message: 'the error' });
    const kept = recorder.events().map((e) => e.message);
    assert.ok(kept.includes('the console.error'));
    assert.ok(kept.includes('the error'));
    assert.equal(recorder.record().dropped.bySource['console.error'], undefined);
  });

  it('says when the dropped events happened, as ISO times, in the record, keeping the newest', () => {
    const recorder = new Recorder(options({ eventsPerSecond: 1 }));
    for (const t of [5000, 5001, 5400, 5999]) recorder.add({ type: 'console', source: 'console.log', realm: 'page', timeMs: t, message: `m${t}` });
    const { dropped, events } = recorder.record();
    assert.deepEqual(dropped, { total: 3, bySource: { 'console.log': 3 }, firstAt: new Date(5000).toISOString(), lastAt: new Date(5400).toISOString() });
    assert.deepEqual(events.map((e) => e.message), ['m5999']);
  });

  it('redacts messages, stacks, job values, code and URLs in the record, unless told not to', () => {
    for (const [option, secretKept] of [[true, false], [false, true]] as const) {
      const recorder = new Recorder(options({}, option));
      recorder.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: 1, message: 'Error: token=abc123', stack: 'Error: token=abc123\n    at x', location: { url: 'http://h/p?api_key=abc123', line: 1, column: 1 } });
      const span = recorder.startSpan('eval', 'page', { code: '() => login("password=abc123")' });
      recorder.finishSpan(span, { ok: true, value: { apiKey: 'abc123' } });
      assert.equal(JSON.stringify(recorder.record()).includes('abc123'), secretKept);
    }
  });

  it('carries daebugLimits.maxReportBytes to the reporter only when the test set it', () => {
    assert.equal(new Recorder(options({})).record().maxReportBytes, undefined);
    assert.equal(new Recorder(options({ maxReportBytes: 8192 })).record().maxReportBytes, 8192);
  });

  it('leaves a job cut off by the test timeout unfinished', () => {
    const recorder = new Recorder(options({}));
    const span = recorder.startSpan('job', 'test', { title: 'slow' });
    recorder.finishSpan(span, { ok: false, error: { message: 'Test timeout of 4000ms exceeded.' } });
    const [job] = recorder.record().jobs;
    assert.equal(job?.finished, false);
    assert.equal(job?.finishedAt, undefined);
  });
});
