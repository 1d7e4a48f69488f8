/**
 * When the history first saw an error group, across all tests: "new in this run", or "first seen 12 runs ago,
 * commit abc1234". Answers "is this new?" for a team without a baseline. Pure, over a folded history whose newest
 * run is the run asking.
 */
import type { HistoryFold } from './fold';
import { runPoint, type RunPoint } from './flaky';

/** undefined when no kept run had it (a history that does not hold this run). */
export function firstSeen(fold: Pick<HistoryFold, 'runs' | 'groupFirstRun' | 'identityOf'>, fingerprint: string): RunPoint | undefined {
  const run = fold.groupFirstRun.get(fold.identityOf(fingerprint));
  return run === undefined ? undefined : runPoint(fold, run);
}
