import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRecord, validateRecord, RECORD_VERSION, type RecordData, type RecordResult } from '../../src/model/record';
import { buildAttempt } from '../../src/diagnosis/build-attempt';
import { playwrightWillRetry } from '../../src/reporter/will-retry';
import { RECORD_KEY_ENV, recordKey, startRecordKey } from '../../src/model/record-key';

function record(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const base: RecordData = {
    version: 1,
    capture: true,
    strict: false,
    realms: ['page'],
    jobs: [
      { id: 'j1', kind: 'eval', realm: 'page', code: '() => 1', startedAt: '2026-01-01T10:00:00.000Z', finishedAt: '2026-01-01T10:00:00.005Z', durationMs: 5, ok: true, value: 1, events: [] },
    ],
    steps: [],
    events: [
      { type: 'error', level: 'error', source: 'window.onerror', realm: 'page', ts: '10:00:00', time: '2026-01-01T10:00:00.001Z', message: 'boom', stack: 'Error: boom\n    at x.js:1:1', expected: false, unexpected: true, jobId: 'j1' },
      { type: 'console', level: 'log', source: 'console.log', realm: 'page', ts: '10:00:01', time: '2026-01-01T10:00:01.000Z', message: 'hi', expected: false },
    ],
    dropped: { total: 0, bySource: {} },
    diagnostics: [],
  };
  return { ...base, ...fields };
}

function failure(result: RecordResult): { code: string; message: string; hint?: string | undefined } {
  assert.equal(result.ok, false, 'expected an invalid record');
  if (result.ok) throw new Error('unreachable');
  assert.ok(result.diagnostic.time);
  return result.diagnostic;
}

describe('record validation (src/model/record.ts)', () => {
  it('accepts a valid record and returns it as parsed, unknown fields kept (the capture side may add some)', () => {
    const input = record({ futureField: { a: 1 } });
    (input['events'] as Record<string, unknown>[])[1]!['futureEventField'] = 'kept';
    const result = parseRecord(JSON.stringify(input));
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.deepEqual(result.record, input);
    assert.equal((result.record.events[1] as Record<string, unknown>)['futureEventField'], 'kept');
    assert.equal(RECORD_VERSION, 1);
  });

  it("reads this run's own records without the schema, and checks every other record with it", () => {
    const before = process.env[RECORD_KEY_ENV];
    try {
      startRecordKey();
      const key = recordKey();
      assert.match(key ?? '', /^[0-9a-f-]{36}$/);
      // A shape the schema refuses, to tell which path read it: with this run's key it is used as it is.
      const odd = record({ realms: 'not a list', key });
      assert.equal(validateRecord(odd).ok, true);
      assert.equal(validateRecord({ ...odd, key: 'another-run' }).ok, false);
      assert.equal(validateRecord({ ...odd, key: undefined }).ok, false);
      // The version is checked first either way: a record of another version is never trusted.
      assert.equal(validateRecord({ ...odd, version: 2 }).ok, false);
      delete process.env[RECORD_KEY_ENV];
      assert.equal(recordKey(), undefined);
      assert.equal(validateRecord(odd).ok, false, 'without a key in the environment every record goes through the schema');
    } finally {
      if (before === undefined) delete process.env[RECORD_KEY_ENV];
      else process.env[RECORD_KEY_ENV] = before;
    }
  });

  it('accepts a record without steps or maxReportBytes, and with maxReportBytes', () => {
    const { steps: _steps, ...rest } = record();
    assert.equal(validateRecord(rest).ok, true);
    assert.equal(validateRecord(record({ maxReportBytes: 8192 })).ok, true);
  });

  it('text that is not JSON: DAEBUG_RECORD_INVALID saying so, with what it starts with', () => {
    const d = failure(parseRecord('not json at all {'));
    assert.equal(d.code, 'DAEBUG_RECORD_INVALID');
    assert.match(d.message, /not JSON/);
    assert.match(d.message, /"not json at all/);
    assert.ok(d.hint);
  });

  it('JSON that is not an object (null, a string, an array)', () => {
    for (const text of ['null', '"hello"', '[1,2]', '42']) {
      const d = failure(parseRecord(text));
      assert.equal(d.code, 'DAEBUG_RECORD_INVALID');
      assert.match(d.message, /not a record object/, text);
      assert.match(d.message, /expected version 1/, text);
    }
  });

  it('unknown version: names the version found and the one expected, and hints at mismatched installs', () => {
    const d = failure(validateRecord(record({ version: 2 })));
    assert.match(d.message, /version is 2, this reporter reads version 1/);
    assert.match(d.hint ?? '', /npm ls daebug/);
    const none = failure(validateRecord(record({ version: undefined })));
    assert.match(none.message, /version is none, this reporter reads version 1/);
    const text = failure(validateRecord(record({ version: '1' })));
    assert.match(text.message, /version is "1"/);
  });

  it('a field of the wrong shape: names the zod issue path', () => {
    const events = record()['events'] as Record<string, unknown>[];
    events[1]!['expected'] = 'yes';
    const d = failure(validateRecord(record({ events })));
    assert.equal(d.code, 'DAEBUG_RECORD_INVALID');
    assert.match(d.message, /does not match the record schema/);
    assert.match(d.message, /events\[1\]\.expected: /);

    const missing = failure(validateRecord(record({ dropped: undefined })));
    assert.match(missing.message, /dropped: /);
    const nested = failure(validateRecord(record({ jobs: [{ id: 'j', realm: 'page', startedAt: 'x', ok: 'no', events: [] }] })));
    assert.match(nested.message, /jobs\[0\]\.ok: /);
  });

  it('many issues: lists the first three and counts the rest; messages stay short', () => {
    const d = failure(validateRecord({ version: 1 }));
    assert.match(d.message, /\(and \d+ more issues\)/);
    assert.ok(d.message.length < 1000, `${d.message.length}`);
    const huge = failure(parseRecord('x'.repeat(100_000)));
    assert.ok(huge.message.length < 1000, `${huge.message.length}`);
  });

  it('never throws, whatever the input', () => {
    const inputs: unknown[] = [undefined, Symbol('s'), () => 1, { version: 1, events: 'nope' }, Object.create(null), { version: 1, events: [null] }];
    for (const input of inputs) assert.doesNotThrow(() => validateRecord(input));
    for (const text of ['', '\u0000', '{"version":1', '{"version":1,"events":[{"ts":1}]}']) assert.doesNotThrow(() => parseRecord(text));
  });

  it('a valid record builds an attempt with its events', () => {
    const result = validateRecord(record());
    assert.ok(result.ok);
    if (!result.ok) return;
    const meta = { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 1, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 1 };
    const attempt = buildAttempt(result.record, meta, []);
    assert.equal(attempt.events.length, 2);
    assert.equal(attempt.jobs[0]!.events.length, 1);
    assert.deepEqual(attempt.diagnostics, []);
  });
});

describe('an attempt without a record', () => {
  const meta = (status: string) => ({ title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 1, project: '', status, expectedStatus: status === 'skipped' ? 'skipped' : 'passed', retry: 0, duration: 0 });

  it('says DAEBUG_NO_RECORD of a test that ran, and nothing of a skipped test, which never ran', () => {
    assert.deepEqual(buildAttempt(undefined, meta('passed'), []).diagnostics?.map((d) => d.code), ['DAEBUG_NO_RECORD']);
    assert.deepEqual(buildAttempt(undefined, meta('skipped'), []).diagnostics, []);
  });
});

describe('playwrightWillRetry', () => {
  const test = (expectedStatus: 'passed' | 'failed' | 'skipped', retries: number) => ({ expectedStatus, retries });
  const result = (status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted', retry: number) => ({ status, retry });

  it('retries a failure with retries left, not on the last attempt', () => {
    assert.equal(playwrightWillRetry(test('passed', 1), result('failed', 0)), true);
    assert.equal(playwrightWillRetry(test('passed', 1), result('timedOut', 0)), true);
    assert.equal(playwrightWillRetry(test('passed', 1), result('failed', 1)), false);
    assert.equal(playwrightWillRetry(test('passed', 0), result('failed', 0)), false);
  });

  it('retries an unexpected pass of test.fail(), not an expected failure', () => {
    assert.equal(playwrightWillRetry(test('failed', 1), result('passed', 0)), true);
    assert.equal(playwrightWillRetry(test('failed', 1), result('failed', 0)), false);
    assert.equal(playwrightWillRetry(test('failed', 2), result('passed', 1)), true);
  });

  it('never retries passes, skips or interruptions', () => {
    assert.equal(playwrightWillRetry(test('passed', 3), result('passed', 0)), false);
    assert.equal(playwrightWillRetry(test('passed', 3), result('skipped', 0)), false);
    assert.equal(playwrightWillRetry(test('skipped', 3), result('skipped', 0)), false);
    assert.equal(playwrightWillRetry(test('passed', 3), result('interrupted', 0)), false);
  });
});
