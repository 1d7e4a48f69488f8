/**
 * Which tests flake, which fail since some run, and what in the browser separates a flaky test's failing attempts
 * from its passing ones. Pure functions over a folded history (src/history/fold.ts); the CLI, the MCP server and the
 * index all format what these return.
 *
 * The rules, over the kept runs in which a test had an attempt that was neither skipped nor interrupted:
 * - a run's verdict is `P` (every attempt passed), `F` (every attempt failed) or `K` (some failed, a later or
 *   repeated one passed);
 * - **failing since run N**: its newest verdicts are all `F`, from run N on. Not flaky, whatever came before;
 * - **flaky**: otherwise, a run with `K`, or its verdicts change between `P` and `F` more than once (P F P);
 * - **fixed since run N**: one change only, from `F` to `P`, and no `K`: it was broken and is not any more;
 * - else stable.
 * Evidence is the test's own: each error group or failed request of its attempts whose presence is more frequent
 * in failing attempts than in passing ones by a one-sided Fisher's exact test at p ≤ 0.05.
 */
import { testKeyOf } from '../run/groups';
import { EVIDENCE_P, EVIDENCE_RULE, fisherOneSided } from './fisher';
import type { HistoryFold, RunRef, TestHistory } from './fold';
import type { HistoryGroup, HistoryRequest } from './run-file';
import type { Evidence, EvidenceSubject, FailingTest, FlakyTest, RunPoint, TestName } from '../model/history-summary';

export type { Evidence, EvidenceSubject, FailingTest, FlakyTest, RunPoint, TestName };

export { EVIDENCE_RULE };

export type TestClass = { kind: 'stable' } | { kind: 'flaky'; firstRun: number } | { kind: 'failing'; sinceRun: number; passedBefore: boolean } | { kind: 'fixed'; sinceRun: number };

/** What a test's verdicts say it is (see the rules above). */
export function classify(test: Pick<TestHistory, 'runs' | 'verdicts'>): TestClass {
  const { runs, verdicts } = test;
  const n = verdicts.length;
  if (!n) return { kind: 'stable' };
  if (verdicts[n - 1] === 'F') {
    let start = n - 1;
    while (start > 0 && verdicts[start - 1] === 'F') start--;
    return { kind: 'failing', sinceRun: runs[start]!, passedBefore: start > 0 };
  }
  const firstUnstable = verdicts.findIndex((v) => v !== 'P');
  if (firstUnstable === -1) return { kind: 'stable' };
  let changes = 0;
  let lastChange = 0;
  for (let i = 1; i < n; i++) {
    const before = verdicts[i - 1] === 'F';
    const now = verdicts[i] === 'F';
    if (before !== now) {
      changes++;
      lastChange = i;
    }
  }
  if (!verdicts.includes('K') && changes === 1) return { kind: 'fixed', sinceRun: runs[lastChange]! };
  return { kind: 'flaky', firstRun: runs[firstUnstable]! };
}

export interface FixedTest {
  test: TestName;
  since: RunPoint;
}

export interface FlakyReport {
  runs: number;
  firstRun?: RunPoint;
  lastRun?: RunPoint;
  rule: string;
  flaky: FlakyTest[];
  failingSince: FailingTest[];
  fixed: FixedTest[];
  /** History files left out, with why. */
  skipped: Array<{ file: string; reason: string }>;
}

export function testName(test: Pick<TestHistory, 'project' | 'file' | 'titlePath'>): TestName {
  const titles = test.titlePath.filter(Boolean);
  const path = titles.length ? titles.join(' › ') : test.file;
  return { project: test.project, file: test.file, titlePath: test.titlePath, title: test.project ? `[${test.project}] ${path}` : path };
}

export function runPoint(fold: Pick<HistoryFold, 'runs'>, number: number): RunPoint {
  const ref: RunRef = fold.runs[number - 1]!;
  const point: RunPoint = { run: number, runsAgo: fold.runs.length - number, endedAt: ref.endedAt };
  if (ref.commit) point.commit = ref.commit;
  if (ref.branch) point.branch = ref.branch;
  return point;
}

/** An evidence key (`g:<fingerprint>`, `r:<request>`) as what it names. */
export function subjectOf(fold: Pick<HistoryFold, 'groups' | 'requests'>, key: string): EvidenceSubject {
  if (key.startsWith('r:')) {
    const r: HistoryRequest | undefined = fold.requests.get(key);
    if (r) return { kind: 'request', method: r.method, url: r.url, ...(r.status !== undefined ? { status: r.status } : {}), ...(r.error !== undefined ? { error: r.error } : {}) };
    const [method = '', url = ''] = key.slice(2).split(' ');
    return { kind: 'request', method, url };
  }
  const g: HistoryGroup | undefined = fold.groups.get(key.slice(2));
  // The newest run's fingerprint of it: the one this run's reports carry.
  const fingerprint = g?.fingerprint ?? key.slice(2);
  return { kind: 'group', fingerprint, source: g?.source ?? '', message: g?.message ?? '', ...(g?.where !== undefined ? { where: g.where } : {}) };
}

/** The test's evidence that separates its failing attempts from its passing ones, strongest first. */
export function separatingEvidence(fold: Pick<HistoryFold, 'groups' | 'requests'>, test: TestHistory, limit = 5): Evidence[] {
  const found: Evidence[] = [];
  const F = test.failing;
  const P = test.passing;
  if (!F) return found;
  for (const [key, count] of test.evidence) {
    const a = count.failing;
    const b = count.passing;
    // Never a cause as frequent in passing attempts as in failing ones: a one-sided test at small p implies it, but
    // with no passing attempt at all it must be said.
    if (!a || (P > 0 && a / F <= b / P)) continue;
    const p = fisherOneSided(a, b, F - a, P - b);
    if (p > EVIDENCE_P) continue;
    found.push({ subject: subjectOf(fold, key), failing: { present: a, of: F }, passing: { present: b, of: P }, p, namedCause: count.cause });
  }
  return found.sort((x, y) => x.p - y.p || y.failing.present - x.failing.present || y.namedCause - x.namedCause).slice(0, limit);
}

/** Flaky tests most unstable first, failing tests newest breakage first, fixed ones. */
export function flakyReport(fold: HistoryFold, options: { evidenceLimit?: number } = {}): FlakyReport {
  const flaky: FlakyTest[] = [];
  const failingSince: FailingTest[] = [];
  const fixed: FixedTest[] = [];
  for (const test of fold.tests.values()) {
    const verdict = classify(test);
    if (verdict.kind === 'flaky') {
      flaky.push({
        test: testName(test),
        runs: test.runs.length,
        unstableRuns: test.verdicts.filter((v) => v !== 'P').length,
        attempts: test.attempts,
        failures: test.failing,
        retriesPassed: test.verdicts.filter((v) => v === 'K').length,
        firstFlaked: runPoint(fold, verdict.firstRun),
        evidence: separatingEvidence(fold, test, options.evidenceLimit),
      });
    } else if (verdict.kind === 'failing') {
      const appeared = [...test.evidence].filter(([, c]) => c.firstRun === verdict.sinceRun && c.failing > 0).map(([key]) => subjectOf(fold, key));
      failingSince.push({ test: testName(test), since: runPoint(fold, verdict.sinceRun), runs: test.runs.filter((r) => r >= verdict.sinceRun).length, passedBefore: verdict.passedBefore, appeared });
    } else if (verdict.kind === 'fixed') fixed.push({ test: testName(test), since: runPoint(fold, verdict.sinceRun) });
  }
  const byTitle = (a: { test: TestName }, b: { test: TestName }) => (a.test.title < b.test.title ? -1 : a.test.title > b.test.title ? 1 : 0);
  flaky.sort((a, b) => b.unstableRuns / b.runs - a.unstableRuns / a.runs || b.failures - a.failures || byTitle(a, b));
  failingSince.sort((a, b) => b.since.run - a.since.run || byTitle(a, b));
  fixed.sort((a, b) => b.since.run - a.since.run || byTitle(a, b));
  const report: FlakyReport = { runs: fold.runs.length, rule: EVIDENCE_RULE, flaky, failingSince, fixed, skipped: fold.skipped };
  if (fold.runs.length) {
    report.firstRun = runPoint(fold, 1);
    report.lastRun = runPoint(fold, fold.runs.length);
  }
  return report;
}

/** The key `testKeyOf` gives a test name (for matching a run's tests against a report). */
export function keyOfName(test: TestName): string {
  return testKeyOf(test);
}
