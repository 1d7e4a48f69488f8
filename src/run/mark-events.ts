/**
 * Gives each groupable event of a test its fingerprint and origin, and marks those in the baseline `known`.
 * Runs in the fixture after enrichment (the fingerprint needs the source-mapped first user frame), so the record,
 * the blob of a sharded run and every report carry the same fingerprints.
 */
import type { DaebugEvent } from '../model/schema';
import { fingerprintOf, isFingerprinted, originOf, pageOriginsOf } from './fingerprint';
import { findSightings, sightingBy } from './sightings';
import { earlierFingerprints } from './earlier-fingerprints';

export interface MarkedCounts {
  /** Unexpected errors whose fingerprint is in the baseline. */
  known: number;
}

/**
 * Sightings of one throw (src/run/sightings.ts) become one error: the others take its fingerprint, point at it with
 * `sightingOf` and stop being unexpected errors of their own; it lists them all in `sightings`.
 */
export function foldSightings(events: readonly DaebugEvent[]): void {
  for (const event of events) {
    delete event.sightingOf;
    delete event.sightings;
  }
  for (const { primary, members } of findSightings(events)) {
    const error = events[primary]!;
    error.sightings = members.map((i) => ({ source: events[i]!.source, by: sightingBy(events[i]!), time: events[i]!.time }));
    if (members.some((i) => events[i]!.unexpected)) error.unexpected = true;
    for (const i of members) {
      if (i === primary) continue;
      const other = events[i]!;
      other.sightingOf = primary;
      if (error.fingerprint) other.fingerprint = error.fingerprint;
      delete other.unexpected;
    }
  }
}

/**
 * Sets `fingerprint`, `origin` and (with a baseline) `known` in place; events shared by several lists are set once.
 * An event left to V8's preview whose fingerprint is not the baseline's takes the fingerprint of the baseline group
 * `previewOf` finds by its shape (src/run/message-shape.ts): the same error read in full would have had it.
 */
export function markEvents(lists: readonly (readonly DaebugEvent[])[], baseline?: ReadonlySet<string>, previewOf?: (event: DaebugEvent) => string | undefined): MarkedCounts {
  const seen = new Set<DaebugEvent>();
  const all = lists.flat().filter((event) => !seen.has(event) && seen.add(event));
  const pageOrigins = pageOriginsOf(all);
  let known = 0;
  for (const event of all) {
    if (!isFingerprinted(event)) continue;
    event.fingerprint = fingerprintOf(event);
    if (baseline && !baseline.has(event.fingerprint)) {
      // A baseline written by an earlier daebug knows the error by the fingerprint it had then: before camelCase
      // names were read more strictly (src/model/content-hash.ts), and before that, before versioned file names
      // were kept whole.
      const before = earlierFingerprints(event).find((fingerprint) => baseline.has(fingerprint));
      if (before) event.fingerprint = before;
    }
    if (event.preview && previewOf && !baseline?.has(event.fingerprint)) event.fingerprint = previewOf(event) ?? event.fingerprint;
  }
  // The first list is the test's events in time order (jobs' and steps' lists share its events).
  foldSightings(lists[0] ?? []);
  for (const event of all) {
    if (!isFingerprinted(event) || event.fingerprint === undefined) continue;
    event.origin = originOf(event, pageOrigins);
    if (baseline?.has(event.fingerprint)) {
      event.known = true;
      if (event.unexpected) known++;
    }
  }
  return { known };
}
