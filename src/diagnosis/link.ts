/**
 * The causal links of an attempt, both ways: where one event explains another (explains.ts: a failed request and the
 * JSON parse error of its body, a React error and its boundary log, a service worker's failed fetch and the page's
 * request it failed), the explained event names its cause
 * (`causedBy`) and the cause names what it explains (`causes`). Events are named by their index in the attempt's
 * top-level `events`, which is their order in the written report. Deterministic, no I/O.
 */
import type { DaebugEvent } from '../model/schema';
import { explainedBy } from './explains';

/**
 * What can be explained by another event: errors, what the page logged as an error or a warning, and a failed
 * request that a service worker failed because its own fetch of it failed (explains.ts says when).
 */
function canBeExplained(event: DaebugEvent): boolean {
  return event.source === 'network' || event.type === 'error' || event.source === 'console.error' || event.source === 'console.warn';
}

/** `[cause, effect]` index pairs among `events`, in the order of the effects. */
export function causalLinks(events: readonly DaebugEvent[]): Array<[cause: number, effect: number]> {
  const index = new Map<DaebugEvent, number>();
  events.forEach((event, i) => index.set(event, i));
  const links: Array<[number, number]> = [];
  events.forEach((event, i) => {
    if (!canBeExplained(event)) return;
    const cause = explainedBy(event, events);
    const at = cause ? index.get(cause) : undefined;
    if (at !== undefined && at !== i) links.push([at, i]);
  });
  return links;
}

/**
 * Sets `causedBy` and `causes` on the attempt's events (replacing any there were) and returns the same array. Call
 * it on the attempt's own copies of the events, never the record's; its jobs and steps hold the same objects, so every
 * view sees the links.
 */
export function linkCauses<T extends DaebugEvent[]>(events: T): T {
  for (const event of events) {
    delete event.causedBy;
    delete event.causes;
  }
  for (const [cause, effect] of causalLinks(events)) {
    events[effect]!.causedBy = cause;
    (events[cause]!.causes ??= []).push(effect);
  }
  return events;
}
