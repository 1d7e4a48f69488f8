/**
 * The numbers of a report's unexpected errors: one per entry (repeats of an error are one, src/format/repeats.ts), in
 * the order to fix them rather than the order they came, so that "unexpected error 1" is the one to fix first and
 * every reference in the report reads without a lookup. The order is the Root cause block's (src/diagnosis/rank.ts):
 * the independent problems as ranked, then the errors another one explains (fixing their cause fixes them), as
 * ranked. The transcript keeps time order; the JSON's `events` keep theirs. Pure.
 */
import { rankRootCause, type RootCause } from '../diagnosis/rank';
import type { Attempt } from '../model/schema';
import { collapseByGroup, eventIdentity, type Repeated } from './repeats';

/** The Unexpected errors section's entries, the one to fix first first; without a ranking, in time order. */
export function fixOrder(attempt: Attempt, cause: RootCause | undefined = rankRootCause(attempt)): Repeated[] {
  const runs = collapseByGroup(attempt.events.filter((e) => e.unexpected));
  if (!cause) return runs;
  const independent = new Map(cause.order.map(({ event }, i) => [eventIdentity(event), i]));
  const ranked = new Map<string, number>();
  cause.ranked.forEach((event, i) => {
    const identity = eventIdentity(event);
    if (!ranked.has(identity)) ranked.set(identity, i);
  });
  // An entry's place is its best member's: the one the Root cause block lists, else its highest-ranked repeat.
  const place = (run: Repeated): [number, number] => {
    const listed = Math.min(...run.members.map((m) => independent.get(eventIdentity(m)) ?? Infinity));
    if (listed !== Infinity) return [0, listed];
    return [1, Math.min(...run.members.map((m) => ranked.get(eventIdentity(m)) ?? Infinity))];
  };
  const places = new Map(runs.map((run, i) => [run, [...place(run), i] as const]));
  return [...runs].sort((a, b) => {
    const [x, y] = [places.get(a)!, places.get(b)!];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

/** Each unexpected error's number in the Unexpected errors section, by event identity; a run of repeats is one entry. */
export function unexpectedNumbers(attempt: Attempt, cause?: RootCause): Map<string, number> {
  const numbers = new Map<string, number>();
  fixOrder(attempt, cause ?? rankRootCause(attempt)).forEach((run, i) => {
    for (const member of run.members) numbers.set(eventIdentity(member), i + 1);
  });
  return numbers;
}
