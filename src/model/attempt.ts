/**
 * An attempt (one run of one test, as the report holds it) built from the fixture's record and the test's header:
 * events copied and assigned to steps and jobs, counted in the summary. Pure: the worker (live report, the trace's
 * copy, strict messages) and the reporter build the same attempt from the same record.
 */
import { isNetworkFailure, isUnexpectedKind } from './classify';
import { eventKind } from './event-kind';
import type { Attempt, DaebugEvent, Job, Summary } from './schema';
import { SCHEMA_VERSION } from './schema-version';
import type { RecordData } from './record';

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

/** The parts of a record a report is built from: the fixture's CaptureRecord or the reporter's parsed RecordData. */
export type RecordParts = Pick<RecordData, 'capture' | 'strict' | 'realms' | 'jobs' | 'events' | 'dropped' | 'diagnostics'> & Partial<Pick<RecordData, 'staleAllowList' | 'baseline' | 'unmappedScripts'>>;

/**
 * Joins the fixture's capture record with what the runner knows of the test, and assigns events to steps. The
 * events are copies of the record's, index for index; their causal links are diagnosis's to set
 * (src/diagnosis/build-attempt.ts).
 */
export function attemptFromRecord(record: RecordParts | undefined, meta: TestMeta, steps: readonly StepSpan[]): Attempt {
  const events = (record?.events ?? []).map((event) => ({ ...event }));
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
