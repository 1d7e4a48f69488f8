import { headline } from '../model/headline';
import type { DaebugEvent } from '../model/schema';

/** A run of identical consecutive events, shown once with its count, as DevTools does. */
export interface Repeated {
  event: DaebugEvent;
  count: number;
  /** The run's last event (the first is `event`). */
  last: DaebugEvent;
  members: DaebugEvent[];
}

/** What makes two events the same for a reader: where they came from, what they said and where they were thrown. */
export function sameEventKey(event: DaebugEvent): string {
  const at = event.location ? `${event.location.url}:${event.location.line}:${event.location.column}` : '';
  return `${event.type}\u0000${event.source}\u0000${event.realm}\u0000${event.message}\u0000${event.stack ?? at}`;
}

/** One event among all of a report's: its time and its content. */
export function eventIdentity(event: DaebugEvent): string {
  return `${event.time}\u0000${sameEventKey(event)}`;
}

/** Folds identical consecutive events into one entry with a count; the order is kept. */
export function collapseRepeats(events: readonly DaebugEvent[]): Repeated[] {
  const runs: Repeated[] = [];
  let lastKey: string | undefined;
  for (const event of events) {
    const key = sameEventKey(event);
    const run = runs[runs.length - 1];
    if (run && key === lastKey) {
      run.count++;
      run.last = event;
      run.members.push(event);
    } else runs.push({ event, count: 1, last: event, members: [event] });
    lastKey = key;
  }
  return runs;
}

/** `× 12 (10:00:01 to 10:00:03)`, or nothing for a single event. */
export function repeatNote(run: Repeated): string {
  if (run.count === 1) return '';
  return run.event.ts === run.last.ts ? `× ${run.count} (at ${run.event.ts})` : `× ${run.count} (${run.event.ts} to ${run.last.ts})`;
}

/**
 * The unexpected errors as a reader counts them: one entry per error, its repeats in the test (the same fingerprint and
 * the same headline, wherever they fall, whatever library frames differ) counted in it; without a fingerprint,
 * identical consecutive events. Messages that differ in their data (`noise 1`, `noise 2`) stay entries of their own, as
 * the browser logged them. Entries are in the order of their first event.
 */
export function collapseByGroup(events: readonly DaebugEvent[]): Repeated[] {
  const runs: Repeated[] = [];
  const byKey = new Map<string, Repeated>();
  let lastKey: string | undefined;
  for (const event of events) {
    const key = event.fingerprint !== undefined ? `${event.fingerprint}\u0000${headline(event.message)}` : undefined;
    const run = key !== undefined ? byKey.get(key) : lastKey === sameEventKey(event) ? runs[runs.length - 1] : undefined;
    if (run) {
      run.count++;
      run.last = event;
      run.members.push(event);
    } else {
      const created = { event, count: 1, last: event, members: [event] };
      runs.push(created);
      if (key !== undefined) byKey.set(key, created);
    }
    lastKey = key === undefined ? sameEventKey(event) : undefined;
  }
  return runs;
}
