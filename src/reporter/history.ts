/**
 * The reporter's end of run for the history (src/history/): write this run's file, prune the folder to the newest
 * runs, and read it back for what this run's own outputs say (flaky and failing tests, when each group was first
 * seen). Thin I/O around history's pure parts.
 */
import type { FirstSeen, HistorySummary } from '../model/history-summary';
import type { RunSource } from '../ci/commit';
import type { RunHistoryBuilder } from '../history/collect';
import { HistoryFold } from '../history/fold';
import { firstSeen } from '../history/first-seen';
import { flakyReport } from '../history/flaky';
import { newRunId, pruneRuns, readRuns, writeRun } from '../history/store';

/** Rows the index and step summary list of each kind. */
const TOP = 10;

export interface EndRunHistoryInput {
  dir: string;
  keep: number;
  builder: RunHistoryBuilder;
  source: RunSource;
  startedAt: Date;
  endedAt: Date;
  status: string;
  shard?: { current: number; total: number };
  merged: boolean;
  /** The run's group fingerprints, for `firstSeen`. */
  fingerprints: readonly string[];
  onSkip: (file: string, reason: string) => void;
}

export interface RunHistoryOutcome {
  file: string;
  summary: HistorySummary;
  firstSeen: Map<string, FirstSeen>;
}

export function endRunHistory(input: EndRunHistoryInput): RunHistoryOutcome {
  const run = input.builder.run({
    id: newRunId(input.endedAt),
    startedAt: input.startedAt.toISOString(),
    endedAt: input.endedAt.toISOString(),
    status: input.status,
    commit: input.source.commit,
    branch: input.source.branch,
    ci: input.source.ci,
    shard: input.shard,
    merged: input.merged,
  });
  const file = writeRun(input.dir, run);
  pruneRuns(input.dir, input.keep);
  const fold = new HistoryFold();
  readRuns(input.dir, fold.add, { onSkip: input.onSkip, last: input.keep });
  // Another run that ended meanwhile may be newer than this one: first seen is counted back from this run.
  const own = fold.runs.findIndex((r) => r.id === run.id) + 1;
  const seen = new Map<string, FirstSeen>();
  for (const fingerprint of input.fingerprints) {
    const point = firstSeen(fold, fingerprint);
    if (!point) continue;
    const entry: FirstSeen = { runsAgo: own > 0 ? Math.max(0, own - point.run) : point.runsAgo, endedAt: point.endedAt };
    if (point.commit) entry.commit = point.commit;
    seen.set(fingerprint, entry);
  }
  const report = flakyReport(fold, { evidenceLimit: 3 });
  const summary: HistorySummary = {
    dir: input.dir,
    runs: report.runs,
    rule: report.rule,
    flaky: report.flaky.slice(0, TOP),
    flakyCount: report.flaky.length,
    failingSince: report.failingSince.slice(0, TOP),
    failingCount: report.failingSince.length,
  };
  if (report.skipped.length) summary.skipped = report.skipped;
  return { file, summary, firstSeen: seen };
}
