/**
 * Builds one run's history from its attempts as they end: the reporter adds each attempt (a retry, a repeat or the
 * only one) and takes the run at its end. Pure: the same attempts give the same run, whatever else the reporter did.
 * A group's text is kept once per run; attempts name groups by fingerprint.
 */
import { rankRootCause, testFailed } from '../diagnosis/rank';
import type { Attempt, DaebugEvent } from '../model/schema';
import { fingerprintOf, isFingerprinted } from '../run/fingerprint';
import { otherFingerprints } from '../run/earlier-fingerprints';
import { testKeyOf, whereOf } from '../run/groups';
import { normalizeUrl } from '../run/normalize';
import { HISTORY_VERSION, type HistoryAttempt, type HistoryGroup, type HistoryRequest, type HistoryRun, type HistoryTest } from './run-file';

const MAX_MESSAGE = 300;

/** What the run is, beside its tests: when, what code, which shard. */
export interface RunMeta {
  id: string;
  startedAt: string;
  endedAt: string;
  status: string;
  commit?: string | undefined;
  branch?: string | undefined;
  ci?: string | undefined;
  shard?: { current: number; total: number } | undefined;
  merged?: boolean | undefined;
}

/** The request's identity across runs, as evidence names it: `GET http://host/api/stock 502`. */
export function requestKey(request: HistoryRequest): string {
  return `${request.method} ${request.url} ${request.status ?? request.error ?? ''}`.trimEnd();
}

function messageLine(message: string): string {
  const line = message.split('\n', 1)[0] ?? '';
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line;
}

const push = (list: string[] | undefined, value: string): string[] => {
  if (!list) return [value];
  if (!list.includes(value)) list.push(value);
  return list;
};

/** Accumulates a run's tests and groups, one attempt at a time. */
export class RunHistoryBuilder {
  private readonly groups = new Map<string, HistoryGroup>();
  private readonly tests = new Map<string, HistoryTest>();

  addAttempt(attempt: Attempt): void {
    const test = attempt.test;
    const key = testKeyOf(test);
    let entry = this.tests.get(key);
    if (!entry) {
      entry = { project: test.project, file: test.file, titlePath: [...test.titlePath], attempts: [] };
      this.tests.set(key, entry);
    }
    const row: HistoryAttempt = { retry: test.retry, status: test.status, ok: test.status === test.expectedStatus, duration: Math.round(test.duration) };
    if (test.repeatEachIndex) row.repeat = test.repeatEachIndex;
    const requests = new Map<string, HistoryRequest>();
    for (const event of attempt.events) {
      if (event.expected || event.sightingOf !== undefined || !isFingerprinted(event)) continue;
      const fingerprint = this.noteGroup(event);
      if (event.network) {
        if (event.network.canceled) continue;
        const request: HistoryRequest = { method: event.network.method, url: normalizeUrl(event.network.url) };
        if (event.network.status !== undefined) request.status = event.network.status;
        else if (event.network.errorText) request.error = event.network.errorText;
        requests.set(requestKey(request), request);
        // A request counted unexpected (daebugNetwork: 'strict') is an error of the attempt too.
        if (event.unexpected) row.errors = push(row.errors, fingerprint);
        continue;
      }
      if (event.unexpected) {
        row.errors = push(row.errors, fingerprint);
        if (event.known) row.known = push(row.known, fingerprint);
      } else row.other = push(row.other, fingerprint);
    }
    // A group both unexpected and not (a console.error once expected, once not) is listed once, as an error.
    if (row.other && row.errors) row.other = row.other.filter((fp) => !row.errors!.includes(fp));
    if (row.other?.length === 0) delete row.other;
    if (requests.size) row.requests = [...requests.values()];
    if (testFailed(test) && attempt.events.some((e) => e.unexpected)) {
      const cause = rankRootCause(attempt)?.event;
      if (cause && isFingerprinted(cause)) row.cause = this.noteGroup(cause);
    }
    entry.attempts.push(row);
  }

  private noteGroup(event: DaebugEvent): string {
    const fingerprint = event.fingerprint ?? fingerprintOf(event);
    if (!this.groups.has(fingerprint)) {
      const group: HistoryGroup = { fingerprint, source: event.source, message: messageLine(event.message) };
      const where = whereOf(event);
      if (where !== undefined) group.where = where;
      const aka = otherFingerprints(event, fingerprint);
      if (aka.length) group.aka = aka;
      this.groups.set(fingerprint, group);
    }
    return fingerprint;
  }

  /** The run as its file holds it; tests in the order they first ended, attempts in the order they ended. */
  run(meta: RunMeta): HistoryRun {
    // The schema's key order, so that the file reads top down: the run, then its groups, then its tests.
    return {
      version: HISTORY_VERSION,
      id: meta.id,
      startedAt: meta.startedAt,
      endedAt: meta.endedAt,
      status: meta.status,
      ...(meta.commit ? { commit: meta.commit } : {}),
      ...(meta.branch ? { branch: meta.branch } : {}),
      ...(meta.ci ? { ci: meta.ci } : {}),
      ...(meta.shard ? { shard: meta.shard } : {}),
      ...(meta.merged ? { merged: true } : {}),
      groups: [...this.groups.values()],
      tests: [...this.tests.values()],
    };
  }

  get size(): number {
    return this.tests.size;
  }
}
