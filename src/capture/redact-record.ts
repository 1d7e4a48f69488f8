import type { DaebugEvent, Job } from '../model/schema';
import { noRedaction, redactEntry, type Redactor } from '../redact';
import type { CaptureRecord } from '../model/record';

/** Fields of a record's event that the recorder redacted already, when it cut them to the limits (`Recorder.clip`). */
const REDACTED_ON_CLIP: ReadonlySet<string> = new Set(['message', 'stack']);

/**
 * The record as `redactDeep` would make it, every string redacted, without scanning twice what capture redacted
 * already: an event's message and stack. An event listed both in `events` and in its job is redacted once.
 */
export function redactRecord(record: CaptureRecord, redact: Redactor): CaptureRecord {
  if (redact === noRedaction) return record;
  const copies = new Map<DaebugEvent, DaebugEvent>();
  const event = (e: DaebugEvent): DaebugEvent => {
    let copy = copies.get(e);
    if (!copy) {
      copy = copyWith(e, redact, (key, value) => (REDACTED_ON_CLIP.has(key) ? value : undefined));
      copies.set(e, copy);
    }
    return copy;
  };
  const job = (j: Job): Job => copyWith(j, redact, (key, value) => (key === 'events' && Array.isArray(value) ? value.map(event) : undefined));
  return copyWith(record, redact, (key, value) => {
    if (!Array.isArray(value)) return undefined;
    if (key === 'events') return value.map(event);
    if (key === 'jobs' || key === 'steps') return value.map(job);
    return undefined;
  });
}

/** A copy of `object` with each field redacted, but where `own` gives a value of its own (not undefined) for the field. */
function copyWith<T extends object>(object: T, redact: Redactor, own: (key: string, value: unknown) => unknown): T {
  const out: Record<string, unknown> = {};
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    const value = (object as Record<string, unknown>)[key];
    const mine = own(key, value);
    out[key] = mine !== undefined ? mine : redactEntry(key, value, redact, 1);
  }
  return out as T;
}
