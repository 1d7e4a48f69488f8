/**
 * The Markdown's words for the causal links of src/diagnosis/link.ts: "caused by unexpected error 1",
 * "→ explains unexpected error 3". Read from the events' `causedBy` / `causes` (indexes into the attempt's `events`);
 * a report written without them (a live report, an older one) has its links worked out here the same way.
 */
import { causalLinks } from '../diagnosis/link';
import type { DaebugEvent } from '../model/schema';
import { code } from './fence';
import { eventIdentity } from './repeats';

export interface CausalLinks {
  /** By event identity (jobs hold copies of the events): the event that explains it. */
  causedBy: Map<string, DaebugEvent>;
  /** By event identity: the events it explains, in order. */
  causes: Map<string, DaebugEvent[]>;
}

export function causalLinksOf(events: readonly DaebugEvent[]): CausalLinks {
  const written = events.some((e) => e.causedBy !== undefined || e.causes !== undefined);
  const pairs = written ? events.flatMap((e, i): Array<[number, number]> => (e.causedBy !== undefined ? [[e.causedBy, i]] : [])) : causalLinks(events);
  const links: CausalLinks = { causedBy: new Map(), causes: new Map() };
  for (const [from, to] of pairs) {
    const cause = events[from];
    const effect = events[to];
    if (!cause || !effect) continue;
    links.causedBy.set(eventIdentity(effect), cause);
    const key = eventIdentity(cause);
    const list = links.causes.get(key);
    if (list) list.push(effect);
    else links.causes.set(key, [effect]);
  }
  return links;
}

/** The number of an event in the Unexpected errors section, when it has one. */
export type EntryNumber = (event: DaebugEvent) => number | undefined;

/** An event without a number of its own: `the failed request `GET /api/missing` (404) at 10:00:01`. */
function described(event: DaebugEvent): string {
  const request = event.network;
  if (request) {
    let path = request.url;
    try {
      const url = new URL(request.url);
      path = url.pathname + url.search;
    } catch {
      // Shown as recorded.
    }
    const outcome = request.status !== undefined ? ` (${request.status})` : request.errorText ? ` (${request.errorText.slice(0, 60)})` : '';
    return `the failed request ${code(`${request.method} ${path.length > 120 ? `${path.slice(0, 120)}…` : path}`)}${outcome} at ${event.ts}`;
  }
  return `the ${code(event.source)} at ${event.ts}`;
}

function named(event: DaebugEvent, number: EntryNumber): string {
  const n = number(event);
  return n === undefined ? described(event) : `unexpected error ${n}`;
}

/** `caused by unexpected error 1`, or undefined when nothing explains the event. */
export function causedByNote(event: DaebugEvent, links: CausalLinks, number: EntryNumber): string | undefined {
  const cause = links.causedBy.get(eventIdentity(event));
  return cause ? `caused by ${named(cause, number)}` : undefined;
}

/** `→ explains unexpected error 3`, `→ explains unexpected errors 3, 4`, or undefined when it explains nothing. */
export function explainsNote(event: DaebugEvent, links: CausalLinks, number: EntryNumber): string | undefined {
  const effects = links.causes.get(eventIdentity(event));
  if (!effects?.length) return undefined;
  const numbers = [...new Set(effects.map(number).filter((n): n is number => n !== undefined))];
  const others = effects.filter((e) => number(e) === undefined).map(described);
  const parts = [...(numbers.length ? [`unexpected ${numbers.length === 1 ? 'error' : 'errors'} ${numbers.join(', ')}`] : []), ...others];
  return `→ explains ${parts.join(' and ')}`;
}
