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
    if (event.preview && previewOf && !baseline?.has(event.fingerprint)) event.fingerprint = previewOf(event) ?? event.fingerprint;
    event.origin = originOf(event, pageOrigins);
    if (baseline?.has(event.fingerprint)) {
      event.known = true;
      if (event.unexpected) known++;
    }
  }
  return { known };
}
