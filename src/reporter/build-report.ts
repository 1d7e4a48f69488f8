import { linkCauses } from '../diagnosis/link';
import { isNetworkFailure, isUnexpectedKind } from '../model/classify';
import { eventKind } from '../model/event-kind';
import type { Attempt, DaebugEvent, Job, Summary } from '../model/schema';
import { SCHEMA_VERSION } from '../model/schema-version';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import type { RecordData } from '../model/record';

export interface TestMeta {
  title: string;
  titlePath: string[];
  file: string;
  line: number;
  project: string;
  status: string;
  expectedStatus: string;
  retry: number;
  duration: number;
  /** Playwright's repeatEachIndex (`--repeat-each`), only when above 0. */
  repeatEachIndex?: number;
  /** The end of the failing step or action, ISO; the root cause is measured from it. */
  failedAt?: string;
  /** The title of the failing step or action. */
  failedStep?: string;
  /** Where in the spec that step is, `file:line`. */
  failedLocation?: string;
  /** The first line of Playwright's first error of the attempt. */
  failure?: string;
}

/** A `test.step` as the reporter saw it. */
export interface StepSpan {
  id: string;
  title: string;
  startMs: number;
  endMs: number;
}

export function summarize(events: readonly DaebugEvent[], droppedTotal: number, withBaseline = false): Summary {
  let known = 0;
  let errors = 0;
  let unexpected = 0;
  let console = 0;
  let expected = 0;
  let network = 0;
  for (const e of events) {
    // Counted by the rule that labels the fences (a failed request is an `Error network` fence), so the header agrees with the blocks below it.
    if (eventKind(e) === 'Error') errors++;
    if (isNetworkFailure(e)) network++;
    if (e.unexpected) unexpected++;
    if (e.unexpected && e.known) known++;
    if (e.type === 'console' && e.source.startsWith('console.')) console++;
    if (e.expected && isUnexpectedKind(e)) expected++;
  }
  const summary: Summary = { errors, unexpected, console, dropped: droppedTotal, expected };
  if (network) summary.network = network;
  if (withBaseline) summary.known = known;
  return summary;
}

function innermostStep(steps: readonly StepSpan[], timeMs: number): StepSpan | undefined {
  let found: StepSpan | undefined;
  for (const step of steps) {
    if (step.startMs <= timeMs && timeMs <= step.endMs && (!found || step.startMs >= found.startMs)) found = step;
  }
  return found;
}

/** Joins the fixture's capture record with what the runner knows of the test, and assigns events to steps. */
/** The parts of a record a report is built from: the fixture's CaptureRecord or the reporter's parsed RecordData. */
export type RecordParts = Pick<RecordData, 'capture' | 'strict' | 'realms' | 'jobs' | 'events' | 'dropped' | 'diagnostics'> & Partial<Pick<RecordData, 'staleAllowList' | 'baseline' | 'unmappedScripts'>>;

export function buildAttempt(record: RecordParts | undefined, meta: TestMeta, steps: readonly StepSpan[]): Attempt {
  const events = (record?.events ?? []).map((event) => ({ ...event }));
  // Where one event explains another (a failed request and the parse error after it, a React error and its boundary log).
  linkCauses(events);
  const stepEvents = new Map<string, DaebugEvent[]>();
  for (const event of events) {
    if (event.jobId !== undefined) continue;
    const step = innermostStep(steps, Date.parse(event.time));
    if (!step) continue;
    event.step = step.title;
    event.stepId = step.id;
    const list = stepEvents.get(step.id);
    if (list) list.push(event);
    else stepEvents.set(step.id, [event]);
  }
  const byJob = new Map<string, DaebugEvent[]>();
  for (const event of events) {
    if (event.jobId === undefined) continue;
    const list = byJob.get(event.jobId);
    if (list) list.push(event);
    else byJob.set(event.jobId, [event]);
  }
  const jobs: Job[] = (record?.jobs ?? []).map((job) => ({ ...job, events: byJob.get(job.id) ?? [] }));
  const stepJobs: Job[] = steps
    .filter((s) => stepEvents.has(s.id))
    .map((s) => ({
      id: s.id,
      kind: 'step' as const,
      title: s.title,
      realm: 'test',
      startedAt: new Date(s.startMs).toISOString(),
      finishedAt: new Date(s.endMs).toISOString(),
      durationMs: s.endMs - s.startMs,
      ok: true,
      events: stepEvents.get(s.id) ?? [],
    }));
  const dropped = record?.dropped ?? { total: 0, bySource: {} };
  const attempt: Attempt = {
    schemaVersion: SCHEMA_VERSION,
    test: { ...meta, strict: record?.strict ?? false, ...(record?.baseline ? { baseline: record.baseline } : {}) },
    // Without a (valid) record it is unknown whether capture was on: saying "off" would mislead.
    ...(record ? { capture: record.capture } : {}),
    realms: record?.realms ?? [],
    jobs,
    steps: stepJobs,
    events,
    summary: summarize(events, dropped.total, record?.baseline !== undefined),
    dropped,
    diagnostics: record?.diagnostics ?? [],
    ...(record?.unmappedScripts?.length ? { unmappedScripts: record.unmappedScripts } : {}),
    ...(record?.staleAllowList ? { staleAllowList: record.staleAllowList } : {}),
  };
  // A skipped test without a record never ran (a describe-level `test.skip(condition)`): no record was due.
  if (!record && meta.status !== 'skipped') {
    attempt.diagnostics = [
      {
        code: 'DAEBUG_NO_RECORD',
        message: "This test has no daebug record: it does not use daebug's `test`, or it ended before daebug's fixture set up.",
        hint: "Import `test` from 'daebug' (or merge daebugFixtures into your own test).",
        time: new Date().toISOString(),
      },
    ];
  }
  return attempt;
}

/**
 * Whether Playwright will run this test again after this result, as its own reporters decide it: a result
 * other than the expected one (an unexpected pass of `test.fail()` too) with retries left.
 */
export function playwrightWillRetry(test: Pick<TestCase, 'expectedStatus' | 'retries'>, result: Pick<TestResult, 'status' | 'retry'>): boolean {
  if (result.status === 'skipped' || result.status === 'interrupted') return false;
  return result.status !== test.expectedStatus && result.retry < test.retries;
}
