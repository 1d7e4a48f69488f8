/**
 * The fingerprints earlier versions of daebug gave an event, when they read file names otherwise (src/model/naming-era.ts):
 * a baseline (src/run/mark-events.ts) or a history (src/history/collect.ts) written by one of them still knows the error.
 */
import type { DaebugEvent } from '../model/schema';
import { EARLIER_NAMING_ERAS, withNamingEra } from '../model/naming-era';
import { fingerprintOf } from './fingerprint';

/** The fingerprints earlier versions of daebug gave `event`, newest first (repeats left in: each era is one try). */
export function earlierFingerprints(event: DaebugEvent): string[] {
  return EARLIER_NAMING_ERAS.map((era) => withNamingEra(era, () => fingerprintOf(event)));
}

/** Every fingerprint of `event` in any era but `own` (the one it carries), each once. */
export function otherFingerprints(event: DaebugEvent, own: string): string[] {
  return [...new Set([fingerprintOf(event), ...earlierFingerprints(event)])].filter((fingerprint) => fingerprint !== own);
}
