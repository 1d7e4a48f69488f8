/**
 * Which unexpected error a report names as its root cause, chosen by evidence rather than by order: the first error
 * logged is often a framework's warning, while the error that broke the page comes later. Pure, and apart from the
 * Markdown, so the CLI, the MCP server and the failure message can name the same cause.
 */
import { UNCAUGHT_SOURCES } from '../model/classify';
import type { Attempt, DaebugEvent, Job, ReportTest } from '../model/schema';
import { firstUserFrame } from '../stack/first-user-frame';
import { componentNamedIn } from '../stack/locate-component';
import { explainedBy } from './explains';
import { loggedBy, loggerPhrase } from './logged-by';

/**
 * What kind of evidence an unexpected error is, best first: thrown and not caught; logged by the app's own code; the
 * rest; a library's warning (a console call with a stack but no frame in the app, that logged no Error).
 */
export type ErrorClass = 'uncaught' | 'logged' | 'other' | 'library-warning';

const CLASS_RANK: Record<ErrorClass, number> = { uncaught: 3, logged: 2, other: 1, 'library-warning': 0 };

/** How long before the failure an error still counts as "shortly before": an action, then an expect's default 5 s wait. */
export const SHORTLY_BEFORE_MS = 10_000;
/** A step or job that ended this close to the test's last moment is the one the test failed in. */
const SPAN_END_MS = 1000;

/** The error or one of its causes or AggregateError members has a frame in the app's own code. */
export function inYourCode(event: DaebugEvent): boolean {
  return firstUserFrame(event.frames) !== undefined || [...(event.cause ?? []), ...(event.aggregate ?? [])].some((part) => firstUserFrame(part.frames) !== undefined);
}

export function errorClass(event: DaebugEvent): ErrorClass {
  if (UNCAUGHT_SOURCES.has(event.source)) return 'uncaught';
  if (event.source === 'console.error' || event.source === 'console.warn') {
    if (inYourCode(event)) return 'logged';
    // React's missing-key warning, a prop warning: the library's own console call, all of its frames the library's.
    if (event.loggedAt === undefined && event.frames?.length) return 'library-warning';
  }
  return 'other';
}

/** The test did not end as it should have (a `running` live report has not ended at all). */
export function testFailed(test: Pick<ReportTest, 'status' | 'expectedStatus'>): boolean {
  if (test.status === 'running') return false;
  return test.status !== test.expectedStatus || test.status === 'failed' || test.status === 'timedOut';
}

export interface RootCause {
  event: DaebugEvent;
  /** How it was chosen, in one line of plain words (no page or test text): `uncaught error in your code, ahead of 1 library warning`. */
  reason: string;
  /** The test failed and this error was chosen as the one that best explains it. */
  explainsFailure: boolean;
  /** Distinct unexpected errors (by fingerprint, else source and first line) that no other one explains, this one's included. */
  independent: number;
  /**
   * Those independent errors, one per distinct error, in the order to look at them (the ranking's), this one first
   * when nothing explains it; each with its kind as `reason` says it (`uncaught error in your code`).
   */
  order: Array<{ event: DaebugEvent; kind: string }>;
  /** Every unexpected error, repeats and explained ones included, most likely root cause first (`rankUnexpected`). */
  ranked: DaebugEvent[];
}

/** What the ranking knows of one unexpected error. */
interface Candidate {
  event: DaebugEvent;
  order: number;
  cls: ErrorClass;
  own: boolean;
  /** Another unexpected error explains this one (React's boundary log, a body parsed after its request failed). */
  explained: boolean;
  inSpan: boolean;
  inRealm: boolean;
  /** ms from the error to the failure; negative when it came after. */
  beforeFailure: number;
}

/** Where and when the test failed, as far as the attempt shows it. */
interface Failure {
  atMs: number;
  span?: { job: Job; failed: boolean } | undefined;
  realm?: string | undefined;
}

/** The events and steps around the failure: a job that failed, else the last step or job still running at the end. */
function failureOf(attempt: Attempt, given?: number): Failure {
  const recorded = attempt.test.failedAt === undefined ? Number.NaN : Date.parse(attempt.test.failedAt);
  const failedAtMs = given ?? (Number.isNaN(recorded) ? undefined : recorded);
  const byStart = (a: Job, b: Job) => Date.parse(a.startedAt) - Date.parse(b.startedAt);
  const failedJob = attempt.jobs.filter((job) => !job.ok).sort(byStart).pop();
  let atMs = failedJob?.finishedAt ? Date.parse(failedJob.finishedAt) : (failedAtMs ?? -Infinity);
  if (!failedJob?.finishedAt && failedAtMs === undefined) {
    for (const event of attempt.events) atMs = Math.max(atMs, Date.parse(event.time));
    for (const span of [...attempt.jobs, ...(attempt.steps ?? [])]) atMs = Math.max(atMs, Date.parse(span.finishedAt ?? span.startedAt));
  }
  const last = [...attempt.jobs, ...(attempt.steps ?? [])]
    .filter((span) => Date.parse(span.startedAt) <= atMs && (span.finishedAt === undefined || atMs - Date.parse(span.finishedAt) <= SPAN_END_MS))
    .sort(byStart)
    .pop();
  const span = failedJob ? { job: failedJob, failed: true } : last ? { job: last, failed: false } : undefined;
  // A daebug.eval runs in a page or worker; a job and a step run in the test, which acts on the page it last navigated.
  const realm = span && span.job.kind === 'eval' ? span.job.realm : attempt.events.filter((e) => e.source === 'navigation' && Date.parse(e.time) <= atMs).pop()?.realm;
  return { atMs, span, realm };
}

function inSpan(event: DaebugEvent, span: Job, endMs: number): boolean {
  if (event.jobId === span.id || event.stepId === span.id) return true;
  // A step's events may sit in a step nested in it.
  const time = Date.parse(event.time);
  return span.kind === 'step' && Date.parse(span.startedAt) <= time && time <= (span.finishedAt ? Date.parse(span.finishedAt) : endMs);
}

/** Which error a reader takes for the same one: its fingerprint, else its source and first line. */
function sameErrorKey(event: DaebugEvent): string {
  return event.fingerprint ?? `${event.source}\u0000${event.message.split('\n', 1)[0]}`;
}

/** Lexicographic, bigger first. */
function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (b[i] ?? 0) - (a[i] ?? 0);
  return 0;
}

function sortKey(c: Candidate, failed: boolean): number[] {
  // A library's warning never outranks an Error of the app; an error another one explains never outranks it.
  const base = [c.cls === 'library-warning' ? 0 : 1, c.explained ? 0 : 1];
  const byKind = [CLASS_RANK[c.cls], c.own ? 1 : 0];
  if (!failed) return [...base, ...byKind, -c.order];
  const shortly = c.beforeFailure >= 0 && c.beforeFailure <= SHORTLY_BEFORE_MS;
  const closeness = c.beforeFailure >= 0 ? -c.beforeFailure : -Infinity;
  return [...base, c.inSpan ? 1 : 0, c.inRealm ? 1 : 0, shortly ? 1 : 0, ...byKind, closeness, -c.order];
}

function candidates(attempt: Attempt, failure: Failure | undefined): Candidate[] {
  const unexpected = attempt.events.filter((e) => e.unexpected);
  const set = new Set(unexpected);
  return unexpected.map((event, order) => {
    const by = explainedBy(event, attempt.events);
    return {
      event,
      order,
      cls: errorClass(event),
      own: inYourCode(event),
      explained: by !== undefined && by !== event && set.has(by),
      inSpan: failure?.span ? inSpan(event, failure.span.job, failure.atMs) : false,
      inRealm: failure?.realm !== undefined && event.realm === failure.realm,
      beforeFailure: failure ? failure.atMs - Date.parse(event.time) : 0,
    };
  });
}

/** The unexpected errors of an attempt, most likely root cause first. */
export function rankUnexpected(attempt: Attempt, options: RankOptions = {}): DaebugEvent[] {
  const failed = testFailed(attempt.test);
  return rankCandidates(candidates(attempt, failed ? failureOf(attempt, options.failedAtMs) : undefined), failed).map((c) => c.event);
}

export interface RankOptions {
  /**
   * When the test failed, when the caller knows it (the fixture: the end of the test's body). Without it the
   * failure is placed at the failing job's end, else at the last thing the attempt recorded.
   */
  failedAtMs?: number | undefined;
}

function rankCandidates(list: Candidate[], failed: boolean): Candidate[] {
  return [...list].sort((a, b) => compareKeys(sortKey(a, failed), sortKey(b, failed)));
}

/**
 * The root cause of an attempt and how it was chosen. For a failed test: the unexpected error in the failing job or
 * step, in the realm the test was acting on, shortly before the failure. Otherwise, and between equals: uncaught
 * errors and rejections, then errors logged by the app's code, then the rest, then libraries' warnings.
 */
export function rankRootCause(attempt: Attempt, options: RankOptions = {}): RootCause | undefined {
  const failed = testFailed(attempt.test);
  const failure = failed ? failureOf(attempt, options.failedAtMs) : undefined;
  const ranked = rankCandidates(candidates(attempt, failure), failed);
  const best = ranked[0];
  if (!best) return undefined;
  const key = sameErrorKey(best.event);
  // The others, one per distinct error: a repeat of the chosen error is not an error it was ranked ahead of.
  const others: Candidate[] = [];
  const seen = new Set([key]);
  for (const c of ranked) {
    const k = sameErrorKey(c.event);
    if (seen.has(k)) continue;
    seen.add(k);
    others.push(c);
  }
  const problemOf = problems(ranked, attempt.events);
  const independent = new Set(ranked.map(problemOf));
  const order: RootCause['order'] = [];
  const listed = new Set<string>();
  for (const c of ranked) {
    const problem = problemOf(c);
    if (listed.has(problem)) continue;
    listed.add(problem);
    order.push({ event: c.event, kind: label(c) });
  }
  const kind = `${label(best)}, ${others.length ? `ahead of ${aheadOf(others)}` : 'the only unexpected error'}`;
  const evidence = failure ? failureEvidence(best, failure) : [];
  const reason = failed ? (evidence.length ? `the error that best explains the failure: ${evidence.join(', ')}; ${kind}` : `nothing ties an error to the failure, so by kind: ${kind}`) : kind;
  return { event: best.event, reason, explainsFailure: evidence.length > 0, independent: independent.size, order, ranked: ranked.map((c) => c.event) };
}

/** The event at the top of an event's chain of causes (explains.ts): itself when nothing explains it. */
function rootOf(event: DaebugEvent, events: readonly DaebugEvent[]): DaebugEvent {
  const seen = new Set([event]);
  let root = event;
  for (let cause = explainedBy(root, events); cause && !seen.has(cause); cause = explainedBy(root, events)) {
    seen.add(cause);
    root = cause;
  }
  return root;
}

/**
 * Which problem each unexpected error is, as a key: one per distinct error (a repeat is the same problem), and one
 * per cause that errors share, whether or not that cause is an unexpected error itself. The errors one failed request
 * caused (a service worker's rejection, its `respondWith()` that got no Response, the page's failed fetch) are one
 * problem: fixing what made the request fail fixes them all.
 */
function problems(ranked: readonly Candidate[], events: readonly DaebugEvent[]): (c: Candidate) => string {
  const parent = new Map<string, string>();
  const find = (key: string): string => {
    let at = key;
    for (let up = parent.get(at); up !== undefined && up !== at; up = parent.get(at)) at = up;
    parent.set(key, at);
    return at;
  };
  const union = (a: string, b: string) => {
    const [x, y] = [find(a), find(b)];
    if (x !== y) parent.set(y, x);
  };
  const index = new Map(events.map((e, i) => [e, i]));
  const node = (event: DaebugEvent) => `event\u0000${index.get(event) ?? sameErrorKey(event)}`;
  const errorNode = (c: Candidate) => `error\u0000${sameErrorKey(c.event)}`;
  for (const c of ranked) {
    union(errorNode(c), node(c.event));
    union(errorNode(c), node(rootOf(c.event, events)));
  }
  return (c) => find(errorNode(c));
}

function failureEvidence(c: Candidate, failure: Failure): string[] {
  const parts: string[] = [];
  const span = failure.span;
  if (c.inSpan && span) {
    const noun = span.job.kind === 'step' ? 'step' : span.job.kind === 'eval' ? 'daebug.eval' : 'job';
    parts.push(span.failed ? `in the failing ${noun}` : `in the last ${noun} before the failure`);
  }
  if (c.inRealm) parts.push('in the realm the test was acting on');
  if (c.beforeFailure >= 0 && c.beforeFailure <= SHORTLY_BEFORE_MS) parts.push(`${duration(c.beforeFailure)} before the failure`);
  return parts;
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The chosen error's kind, as a reader would say it. */
function label(c: Candidate): string {
  const rejection = c.event.source === 'unhandledrejection';
  switch (c.cls) {
    case 'uncaught':
      return `${rejection ? 'unhandled rejection' : 'uncaught error'} ${c.own ? 'in your code' : 'with no frame in your code'}`;
    case 'logged': {
      const logger = loggedBy(c.event);
      // Angular's ErrorHandler logs an Error thrown in the app: the app's frame is where it was thrown, not logged.
      if (!logger || logger.by === 'app') return 'error logged by your code';
      return `${logger.by === 'framework' && logger.warning ? loggerPhrase(logger, componentName(c.event)) : `error ${loggerPhrase(logger)}`}, with a frame in your code`;
    }
    case 'library-warning': {
      const logger = loggedBy(c.event);
      // A framework's warning about the app's component, or an error its handler logged (Angular's ErrorHandler).
      if (logger?.by === 'framework') return `${logger.warning ? loggerPhrase(logger, componentName(c.event)) : `error ${loggerPhrase(logger)}`} (no frame in your code)`;
      return 'library warning (no frame in your code)';
    }
    default: {
      if (c.event.source === 'network') return 'failed request';
      // An Error a framework's handler logged (Angular's ErrorHandler and NG0100): said as logged by it.
      const logger = c.event.source === 'console.error' ? loggedBy(c.event) : undefined;
      return logger?.by === 'framework' && !logger.warning ? `error ${loggerPhrase(logger)} (no frame in your code)` : 'error with no frame in your code';
    }
  }
}

/** The component the event's own text names (located or not): what a framework's warning is about. */
function componentName(event: DaebugEvent): string | undefined {
  return event.component?.name ?? componentNamedIn(event.message, event.stack)?.name;
}

/** `2 uncaught errors and 1 React warning`, in rank order. */
function aheadOf(others: readonly Candidate[]): string {
  const counts = new Map<string, { one: string; many: string; count: number }>();
  for (const c of others) {
    const [one, many] = noun(c);
    const entry = counts.get(one) ?? { one, many, count: 0 };
    entry.count++;
    counts.set(one, entry);
  }
  const parts = [...counts.values()].map((e) => `${e.count} ${e.count === 1 ? e.one : e.many}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0]!;
}

function noun(c: Candidate): [string, string] {
  if (c.cls === 'uncaught') return c.event.source === 'unhandledrejection' ? ['unhandled rejection', 'unhandled rejections'] : ['uncaught error', 'uncaught errors'];
  const logger = c.cls !== 'other' || c.event.source === 'console.error' ? loggedBy(c.event) : undefined;
  if (logger?.by === 'framework') return logger.warning ? [`${logger.framework} warning`, `${logger.framework} warnings`] : [`error logged by ${logger.what}`, `errors logged by ${logger.what}`];
  if (c.cls === 'logged') {
    if (logger?.by === 'library') return ['error logged by a library', 'errors logged by a library'];
    return ['error logged by your code', 'errors logged by your code'];
  }
  if (c.cls === 'library-warning') return ['library warning', 'library warnings'];
  return c.event.source === 'network' ? ['failed request', 'failed requests'] : ['other error', 'other errors'];
}
