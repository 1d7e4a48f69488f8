import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeRedactor, noRedaction, redactDeep } from '../../src/redact';
import { redactRecord } from '../../src/capture/redact-record';
import { Recorder } from '../../src/capture/recorder';
import type { CaptureRecord } from '../../src/model/record';
import { resolveOptions } from '../../src/options';
import type { DaebugEvent, Job } from '../../src/model/schema';

const redact = makeRedactor(true);

function recordWith(events: DaebugEvent[], jobs: Job[] = []): CaptureRecord {
  return { version: 1, capture: true, strict: false, realms: ['page'], jobs, steps: [], events, dropped: { total: 0, bySource: {} }, diagnostics: [{ code: 'X', message: 'token=abc', time: 't' }] };
}

describe('redactRecord', () => {
  it('matches redactDeep on a record whose messages and stacks are already redacted', () => {
    const event: DaebugEvent = {
      type: 'console',
      source: 'console.log',
      realm: 'page',
      ts: '00:00.000',
      time: '2026-01-01T00:00:00.000Z',
      message: 'password=[REDACTED]',
      stack: 'Error\n    at http://u:[REDACTED]@h/a.js:1:1',
      expected: false,
      location: { url: 'http://h/a.js?token=abc', line: 1, column: 1 },
      hint: 'send api_key=K-1 again',
    };
    const job: Job = { id: 'j1', kind: 'eval', realm: 'page', startedAt: 't', ok: true, finished: true, events: [event], value: { apiKey: 'plain', nested: 'Bearer abcdefghij' } };
    const record = recordWith([event], [job]);
    assert.deepEqual(redactRecord(record, redact), redactDeep(record, redact));
    const out = redactRecord(record, redact);
    assert.equal(out.events[0]!.location!.url, 'http://h/a.js?token=[REDACTED]');
    assert.equal(out.events[0]!.hint, 'send api_key=[REDACTED] again');
    assert.equal(out.jobs[0]!.value && (out.jobs[0]!.value as { apiKey: string }).apiKey, '[REDACTED]');
    assert.equal(out.diagnostics[0]!.message, 'token=[REDACTED]');
    // The event listed in events and in its job is one copy, and the input is left as it was.
    assert.equal(out.jobs[0]!.events[0], out.events[0]);
    assert.equal(event.location!.url, 'http://h/a.js?token=abc');
  });

  it('leaves the record as it is when redaction is off', () => {
    const record = recordWith([]);
    assert.equal(redactRecord(record, noRedaction), record);
  });

  it("a recorder's record has no secret left in an event's message, stack or other fields", () => {
    const recorder = new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }));
    recorder.addRealm('page');
    const stored = recorder.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: 1_767_225_600_000, message: 'failed with token=abc123', stack: 'Error: failed with token=abc123\n    at f (http://h/app.js?api_key=K-1:1:1)', location: { url: 'http://h/app.js?api_key=K-1', line: 1, column: 1 } });
    // A value read replaces the message after capture: it is redacted again.
    recorder.events();
    stored.message = 'read: password=hunter2';
    stored.clipped = false;
    const text = JSON.stringify(recorder.record());
    for (const secret of ['abc123', 'K-1', 'hunter2']) assert.ok(!text.includes(secret), `${secret} left in ${text}`);
  });
});
