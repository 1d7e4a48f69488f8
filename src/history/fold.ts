/**
 * Folds a history's runs, oldest first, into what the analyses need per test: its outcome per run, its attempt counts,
 * and for each piece of browser evidence (an error group, a failed request) how many of its failing and passing
 * attempts had it. One run at a time, so memory follows the number of tests and distinct evidence, not the number of
 * runs times tests; `detail` keeps the full timeline of the few tests `daebug history` asks for.
 */
import { testKeyOf } from '../run/groups';
import { requestKey } from './collect';
import type { HistoryAttempt, HistoryGroup, HistoryRequest, HistoryTest } from './run-file';
import type { ReadRun } from './store';

/** A kept run, numbered from 1 (the oldest kept run) as the output names it. */
export interface RunRef {
  /** 1-based position among the runs read, oldest first. */
  number: number;
  id: string;
  endedAt: string;
  status: string;
  commit?: string;
  branch?: string;
  merged?: boolean;
  shard?: { current: number; total: number };
}

/** Evidence by key: `g:<fingerprint>` for an error group, `r:<METHOD url status>` for a failed request. */
export interface EvidenceCount {
  /** Failing attempts that had it. */
  failing: number;
  /** Passing attempts that had it. */
  passing: number;
  /** Failing attempts whose report named it as the browser cause. */
  cause: number;
  /** The first run (1-based) in which this test had it. */
  firstRun: number;
}

/** `P` every attempt passed, `F` every attempt failed, `K` some failed and some passed (a retry passed). */
export type RunVerdict = 'P' | 'F' | 'K';

export interface TimelineAttempt {
  retry: number;
  repeat?: number;
  status: string;
  ok: boolean;
  duration: number;
}

/** One run of one test, for `daebug history`. */
export interface TimelineRow {
  run: number;
  /** Undefined when every attempt was skipped or interrupted. */
  verdict: RunVerdict | undefined;
  attempts: TimelineAttempt[];
  /** Evidence keys of its attempts, in the order they came. */
  evidence: string[];
  /** Of those, the ones this test had in no earlier run. */
  fresh: string[];
  /** The browser causes its failing attempts' reports named (evidence keys). */
  causes: string[];
}

export interface TestHistory {
  key: string;
  project: string;
  file: string;
  titlePath: string[];
  /** Runs (1-based numbers) in which it had an attempt that was not skipped or interrupted. */
  runs: number[];
  /** One verdict per entry of `runs`. */
  verdicts: RunVerdict[];
  attempts: number;
  failing: number;
  passing: number;
  evidence: Map<string, EvidenceCount>;
  /** With `detail`: one row per run it appears in. */
  timeline?: TimelineRow[];
}

export interface FoldOptions {
  /** Tests whose timeline to keep (at most `maxDetailed` of them). */
  detail?: (test: HistoryTest) => boolean;
  /** @default 50 */
  maxDetailed?: number;
}

const NONE: string[] = [];

const asWritten = (fingerprint: string): string => fingerprint;

/** The evidence keys of one attempt, each once; `identity` names a group by the fingerprint the fold keeps for it. */
export function evidenceKeys(attempt: HistoryAttempt, identity: (fingerprint: string) => string = asWritten): string[] {
  // Most attempts have none: no Set for them (100 runs of 5,000 tests are half a million attempts).
  if (!attempt.errors && !attempt.known && !attempt.other && !attempt.requests) return NONE;
  const keys = new Set<string>();
  for (const list of [attempt.errors, attempt.known, attempt.other]) if (list) for (const fp of list) keys.add(`g:${identity(fp)}`);
  if (attempt.requests) for (const r of attempt.requests) keys.add(`r:${requestKey(r)}`);
  return [...keys];
}

const counted = (attempt: HistoryAttempt): boolean => attempt.status !== 'skipped' && attempt.status !== 'interrupted';

export class HistoryFold {
  readonly runs: RunRef[] = [];
  readonly tests = new Map<string, TestHistory>();
  /** Every group's text, as the newest run that had it said it, by the fingerprint the fold keeps for it (`identityOf`). */
  readonly groups = new Map<string, HistoryGroup>();
  /** Every failed request by its key. */
  readonly requests = new Map<string, HistoryRequest>();
  /** The first run (1-based) in which any test had the group, by the fingerprint the fold keeps for it. */
  readonly groupFirstRun = new Map<string, number>();
  /**
   * A group's other fingerprints (`aka`: an earlier daebug named some files otherwise) to the one the fold keeps for
   * it: the first the history had. So an error stays one group, with one "first seen", across an upgrade.
   */
  private readonly joined = new Map<string, string>();
  /** Files skipped, with why. */
  readonly skipped: Array<{ file: string; reason: string }> = [];
  private detailed = 0;

  constructor(private readonly options: FoldOptions = {}) {}

  readonly skip = (file: string, reason: string): void => {
    this.skipped.push({ file, reason });
  };

  readonly add = ({ run }: ReadRun): void => {
    const number = this.runs.length + 1;
    const ref: RunRef = { number, id: run.id, endedAt: run.endedAt, status: run.status };
    if (run.commit) ref.commit = run.commit;
    if (run.branch) ref.branch = run.branch;
    if (run.merged) ref.merged = true;
    if (run.shard) ref.shard = run.shard;
    this.runs.push(ref);
    for (const group of run.groups) {
      const identity = this.join(group);
      this.groups.set(identity, group);
      if (!this.groupFirstRun.has(identity)) this.groupFirstRun.set(identity, number);
    }
    const order: TestHistory[] = [];
    for (let i = 0; i < run.tests.length; i++) order.push(this.addTest(run.tests[i]!, number, this.order[i]));
    this.order = order;
  };

  /** The fingerprint the fold keeps for the group `fingerprint` names (itself, unless it joined another). */
  readonly identityOf = (fingerprint: string): string => this.joined.get(fingerprint) ?? fingerprint;

  /**
   * The group's identity in the fold: a fingerprint of it (its own or one of `aka`) the history already had, else its
   * own. Its other fingerprints join that identity, so older runs read later (another branch's) find it too.
   */
  private join(group: HistoryGroup): string {
    let identity = this.identityOf(group.fingerprint);
    if (!group.aka) return identity;
    if (!this.groupFirstRun.has(identity)) {
      const known = group.aka.map(this.identityOf).find((other) => this.groupFirstRun.has(other));
      if (known !== undefined) identity = known;
    }
    for (const fingerprint of [group.fingerprint, ...group.aka]) if (fingerprint !== identity && !this.groupFirstRun.has(fingerprint)) this.joined.set(fingerprint, identity);
    return identity;
  }

  /** The previous run's tests in its order: runs of one suite list their tests in the same order, mostly. */
  private order: TestHistory[] = [];

  private addTest(test: HistoryTest, run: number, samePlace: TestHistory | undefined): TestHistory {
    // The test at the same place in the previous run is this one most times: no key to join and look up.
    let history = samePlace && sameTest(samePlace, test) ? samePlace : undefined;
    const key = history ? history.key : testKeyOf(test);
    history ??= this.tests.get(key);
    if (!history) {
      history = { key, project: test.project, file: test.file, titlePath: test.titlePath, runs: [], verdicts: [], attempts: 0, failing: 0, passing: 0, evidence: new Map() };
      if (this.options.detail && this.detailed < (this.options.maxDetailed ?? 50) && this.options.detail(test)) {
        history.timeline = [];
        this.detailed++;
      }
      this.tests.set(key, history);
    }
    const row: TimelineRow | undefined = history.timeline ? { run, verdict: undefined, attempts: [], evidence: [], fresh: [], causes: [] } : undefined;
    let anyFailing = false;
    let anyPassing = false;
    for (const attempt of test.attempts) {
      if (row) {
        const shown: TimelineAttempt = { retry: attempt.retry, status: attempt.status, ok: attempt.ok, duration: attempt.duration };
        if (attempt.repeat) shown.repeat = attempt.repeat;
        row.attempts.push(shown);
      }
      if (!counted(attempt)) continue;
      history.attempts++;
      const failing = !attempt.ok;
      if (failing) {
        anyFailing = true;
        history.failing++;
      } else {
        anyPassing = true;
        history.passing++;
      }
      if (attempt.requests) for (const r of attempt.requests) this.requests.set(`r:${requestKey(r)}`, r);
      for (const key of evidenceKeys(attempt, this.identityOf)) {
        let count = history.evidence.get(key);
        if (!count) {
          count = { failing: 0, passing: 0, cause: 0, firstRun: run };
          history.evidence.set(key, count);
          if (row) row.fresh.push(key);
        }
        if (failing) count.failing++;
        else count.passing++;
        if (row && !row.evidence.includes(key)) row.evidence.push(key);
      }
      if (failing && attempt.cause) {
        const key = `g:${this.identityOf(attempt.cause)}`;
        const count = history.evidence.get(key);
        if (count) count.cause++;
        if (row && !row.causes.includes(key)) row.causes.push(key);
      }
    }
    if (anyFailing || anyPassing) {
      const verdict: RunVerdict = anyFailing ? (anyPassing ? 'K' : 'F') : 'P';
      history.runs.push(run);
      history.verdicts.push(verdict);
      if (row) row.verdict = verdict;
    }
    if (row) history.timeline!.push(row);
    return history;
  }
}

function sameTest(known: TestHistory, test: HistoryTest): boolean {
  if (known.project !== test.project || known.file !== test.file || known.titlePath.length !== test.titlePath.length) return false;
  for (let i = 0; i < known.titlePath.length; i++) if (known.titlePath[i] !== test.titlePath[i]) return false;
  return true;
}
