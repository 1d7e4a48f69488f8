/**
 * One test's timeline, one row per kept run: its attempts' outcomes, the evidence its attempts had (what it had in
 * no earlier run marked new), the browser cause its failing attempts named, and how long it took. Pure, over a
 * folded history that kept the test's detail (`FoldOptions.detail`).
 */
import { classify, runPoint, subjectOf, testName, type EvidenceSubject, type RunPoint, type TestClass, type TestName } from './flaky';
import type { HistoryFold, RunVerdict, TestHistory, TimelineAttempt } from './fold';

export interface TimelineEntry {
  run: RunPoint;
  /** `P` all passed, `F` all failed, `K` a retry passed; absent when every attempt was skipped or interrupted. */
  verdict?: RunVerdict;
  attempts: TimelineAttempt[];
  /** Sum of its attempts' durations, ms. */
  duration: number;
  evidence: Array<{ subject: EvidenceSubject; new: boolean; cause: boolean }>;
}

export interface TestTimeline {
  test: TestName;
  /** What the runs make it: stable, flaky, failing since a run, fixed since a run. */
  verdict: TestClass['kind'];
  since?: RunPoint;
  runs: number;
  /** Kept runs in the history, this test's or not. */
  of: number;
  entries: TimelineEntry[];
}

export function timelineOf(fold: HistoryFold, test: TestHistory): TestTimeline {
  const verdict = classify(test);
  const entries: TimelineEntry[] = (test.timeline ?? []).map((row) => {
    const entry: TimelineEntry = {
      run: runPoint(fold, row.run),
      attempts: row.attempts,
      duration: row.attempts.reduce((sum, a) => sum + a.duration, 0),
      evidence: row.evidence.map((key) => ({ subject: subjectOf(fold, key), new: row.fresh.includes(key), cause: row.causes.includes(key) })),
    };
    if (row.verdict) entry.verdict = row.verdict;
    return entry;
  });
  const timeline: TestTimeline = { test: testName(test), verdict: verdict.kind, runs: test.runs.length, of: fold.runs.length, entries };
  if (verdict.kind === 'failing' || verdict.kind === 'fixed') timeline.since = runPoint(fold, verdict.sinceRun);
  if (verdict.kind === 'flaky') timeline.since = runPoint(fold, verdict.firstRun);
  return timeline;
}
