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
  /** The attempt's events, so that an event named by its time can be told from others of that second. */
  events?: readonly DaebugEvent[];
}

export function causalLinksOf(events: readonly DaebugEvent[]): CausalLinks {
  const written = events.some((e) => e.causedBy !== undefined || e.causes !== undefined);
  const pairs = written ? events.flatMap((e, i): Array<[number, number]> => (e.causedBy !== undefined ? [[e.causedBy, i]] : [])) : causalLinks(events);
  const links: CausalLinks = { causedBy: new Map(), causes: new Map(), events };
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

/**
 * An event without a number of its own: `the failed request `GET /api/missing` (404) at 10:00:01`. Times are to
 * the second, so when others of the same source share it, the event is named by its message too, and by its
 * place among them when their messages are the same.
 */
function described(event: DaebugEvent, events: readonly DaebugEvent[] = []): string {
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
  return `the ${code(event.source)} at ${event.ts}${sameSecondNote(event, events)}`;
}

/** `` `Warning: x` `` or `` (the 2nd of 3 at that time) ``: what tells the event from others of its source that second; '' when none. */
function sameSecondNote(event: DaebugEvent, events: readonly DaebugEvent[]): string {
  const id = eventIdentity(event);
  const peers = events.filter((e) => e.source === event.source && e.realm === event.realm && e.ts === event.ts);
  if (peers.length < 2 || !peers.some((e) => eventIdentity(e) === id)) return '';
  const line = (e: DaebugEvent) => e.message.split(/\r?\n/, 1)[0]!.trim();
  const own = line(event);
  const alike = peers.filter((e) => line(e) === own);
  const text = own.length > 80 ? `${own.slice(0, 80)}…` : own;
  if (alike.length === 1 && own) return ` (${code(text)})`;
  const place = alike.findIndex((e) => eventIdentity(e) === id) + 1;
  return ` (${own ? `${code(text)}, ` : ''}the ${ordinal(place)} of ${alike.length} at that time)`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function named(event: DaebugEvent, number: EntryNumber, events?: readonly DaebugEvent[]): string {
  const n = number(event);
  return n === undefined ? described(event, events) : `unexpected error ${n}`;
}

/** `caused by unexpected error 1`, or undefined when nothing explains the event. */
export function causedByNote(event: DaebugEvent, links: CausalLinks, number: EntryNumber): string | undefined {
  const cause = links.causedBy.get(eventIdentity(event));
  return cause ? `caused by ${named(cause, number, links.events)}` : undefined;
}

/** `→ explains unexpected error 3`, `→ explains unexpected errors 3, 4`, or undefined when it explains nothing. */
export function explainsNote(event: DaebugEvent, links: CausalLinks, number: EntryNumber): string | undefined {
  const effects = links.causes.get(eventIdentity(event));
  if (!effects?.length) return undefined;
  const numbers = [...new Set(effects.map(number).filter((n): n is number => n !== undefined))];
  const others = effects.filter((e) => number(e) === undefined).map((e) => described(e, links.events));
  const parts = [...(numbers.length ? [`unexpected ${numbers.length === 1 ? 'error' : 'errors'} ${numbers.join(', ')}`] : []), ...others];
  return `→ explains ${parts.join(' and ')}`;
}
