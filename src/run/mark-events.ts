/**
 * Gives each groupable event of a test its fingerprint and origin, and marks those in the baseline `known`.
 * Runs in the fixture after enrichment (the fingerprint needs the source-mapped first user frame), so the record,
 * the blob of a sharded run and every report carry the same fingerprints.
 */
import type { DaebugEvent } from '../model/schema';
import { fingerprintOf, isFingerprinted, originOf, pageOriginsOf } from './fingerprint';

export interface MarkedCounts {
  /** Unexpected errors whose fingerprint is in the baseline. */
  known: number;
}

/** Sets `fingerprint`, `origin` and (with a baseline) `known` in place; events shared by several lists are set once. */
export function markEvents(lists: readonly (readonly DaebugEvent[])[], baseline?: ReadonlySet<string>): MarkedCounts {
  const seen = new Set<DaebugEvent>();
  const all = lists.flat().filter((event) => !seen.has(event) && seen.add(event));
  const pageOrigins = pageOriginsOf(all);
  let known = 0;
  for (const event of all) {
    if (!isFingerprinted(event)) continue;
    event.fingerprint = fingerprintOf(event);
    event.origin = originOf(event, pageOrigins);
    if (baseline?.has(event.fingerprint)) {
      event.known = true;
      if (event.unexpected) known++;
    }
  }
  return { known };
}
