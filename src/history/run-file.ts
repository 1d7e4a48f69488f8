/**
 * One run's history file (`<history>/<id>.json`): what a later run needs to tell a flaky test from a broken one and
 * to say when an error group was first seen. Plain types and the version, apart from the zod schema
 * (src/history/schema.ts), so that writing a run's history at its end does not load zod in the runner.
 */

/** Bumped on any change a reader of version 1 would misread; a newer file is a DaebugHistoryVersionError. */
export const HISTORY_VERSION = 1;

/** An error group's text, stored once per run; attempts name it by fingerprint. */
export interface HistoryGroup {
  fingerprint: string;
  /** `window.onerror`, `console.error`, `network`, … as the group's first event had it. */
  source: string;
  /** The group's first line, as the run's first event of it said it (at most 300 characters). */
  message: string;
  /** Original `file:line` and function of its first event, when known. */
  where?: string;
  /**
   * The group's other fingerprints: those earlier versions of daebug gave it (they read some file names otherwise),
   * and this version's when the run's baseline made it keep an earlier one. Absent when it has none. A history
   * written before still finds the group by them.
   */
  aka?: string[];
}

/** A failed request or a response of 400 or more, as its fingerprint reads it: method, normalised URL, status. */
export interface HistoryRequest {
  method: string;
  /** `normalizeUrl` (src/run/normalize.ts): no port, query or fragment; ids and hashes replaced. */
  url: string;
  status?: number;
  /** Why there was no response (`net::ERR_CONNECTION_REFUSED`). */
  error?: string;
}

/** One attempt of one test: a retry, a repeat, or the only one. */
export interface HistoryAttempt {
  /** Playwright's retry index. */
  retry: number;
  /** `--repeat-each` index; absent for 0. */
  repeat?: number;
  /** Playwright's status: `passed`, `failed`, `timedOut`, `skipped` or `interrupted`. */
  status: string;
  /** The status was the expected one (a `test.fail()` test that failed is ok). */
  ok: boolean;
  /** ms. */
  duration: number;
  /** Fingerprints of the groups that were unexpected errors in this attempt (known ones included). */
  errors?: string[];
  /** Of `errors`, those the run's baseline knew. */
  known?: string[];
  /** Fingerprints of its other groups (warnings, browser lines), failed requests left out: they are `requests`. */
  other?: string[];
  requests?: HistoryRequest[];
  /** When the attempt failed: the fingerprint of the error its report names as the browser cause (`rankRootCause`). */
  cause?: string;
}

/** A test by what stays the same across runs: project, spec file and title path. A renamed test is a new one. */
export interface HistoryTest {
  project: string;
  file: string;
  /** As reports have it: the spec file, describe titles, the test title. */
  titlePath: string[];
  attempts: HistoryAttempt[];
}

export interface HistoryRun {
  version: typeof HISTORY_VERSION;
  /** The file's name without `.json`: the end time and a random part, unique per run. */
  id: string;
  startedAt: string;
  endedAt: string;
  /** Playwright's run status: `passed`, `failed`, `timedout` or `interrupted`. */
  status: string;
  commit?: string;
  branch?: string;
  /** `github`, `gitlab`, `circleci`, `jenkins`, `buildkite`, or `git` when read from the checkout. */
  ci?: string;
  /** `--shard` of the run that wrote it; absent for an unsharded run and for a merge-reports run. */
  shard?: { current: number; total: number };
  /** Written by `merge-reports` (one run for all its shards). */
  merged?: boolean;
  groups: HistoryGroup[];
  tests: HistoryTest[];
}
