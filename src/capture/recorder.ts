import { KeepNewestLog, RateWindow } from './budget';
import { orderTimeline } from './timeline';
import { claimedIndex, type AwaitedClaim } from './awaited-events';
import { formatClock, isCanceledRequest, isNetworkFailure, isUnexpectedIn, isUnexpectedKind, matchesIgnore } from '../model/classify';
import type { BrowserIssue, DaebugEvent, Diagnostic, Dropped, ErrorPart, EventComponent, FoundLine, Frame, Job, Location, NetworkFailure, StaleAllowList, UnmappedScript } from '../model/schema';
import { AllowListUse } from './allow-list';
import type { IgnorePattern, ResolvedOptions } from '../options';
import { DaebugError, debugLog } from '../errors';
import { noRedaction, type Redactor } from '../redact';
import { redactRecord } from './redact-record';
import type { CaptureRecord } from '../model/record';

/** An event as capture hands it over, before job and step assignment. */
export interface EventDraft {
  type: 'error' | 'console';
  level?: string | undefined;
  source: string;
  realm: string;
  timeMs: number;
  message: string;
  stack?: string | undefined;
  location?: Location | undefined;
  /** For a console call with an Error argument: where the console call was; `location` is where the Error was thrown. */
  loggedAt?: (Location & { original?: { source: string; line: number; column: number } }) | undefined;
  structured?: boolean | undefined;
  /** The target the event arrived on: its events keep their arrival order on the timeline. */
  stream?: string | undefined;
  /** A worker's start names the target it opens: nothing of that target comes before it. */
  opens?: string | undefined;
  /** CDP's call frames, as data; the stack text is rendered from them. */
  callFrames?: Frame[] | undefined;
  /** The values were not read in full (they could not matter, or the page was gone first): the message is V8's preview. */
  preview?: boolean | undefined;
  /** Set at the test's end by src/stack/enrich.ts: parsed and source-mapped frames, a code frame, a fix hint. */
  frames?: Frame[] | undefined;
  snippet?: string | undefined;
  hint?: string | undefined;
  /** Set by enrich for an unexpected error: the substring `daebugIgnore` or `expectError` would match it by. */
  ignorePattern?: string | undefined;
  /** A failed request (source `network`): method, URL, status or error text, resource type, initiator. */
  network?: NetworkFailure | undefined;
  /** A DevTools issue (source `browser.issue`, or a CORS block on a failed request). */
  issue?: BrowserIssue | undefined;
  /** Set when the page's values are read: the Error's cause chain and an AggregateError's members; enrich adds frames. */
  cause?: ErrorPart[] | undefined;
  aggregate?: ErrorPart[] | undefined;
  /** Set by enrich: the component the event's own text names (React, Vue, Angular) and where it is declared. */
  component?: EventComponent | undefined;
  /** Set by enrich: the app's lines that name what the event names (a failed request's URL) when no frame is the app's. */
  foundInSource?: FoundLine[] | undefined;
  /** The test waited for this error itself (src/capture/awaited-events.ts): the call, e.g. `page.waitForEvent('pageerror')`. */
  awaitedBy?: string | undefined;
}

/** A failed span's error; frames, snippet and hint are added at the test's end like an event's. */
export interface SpanError {
  message: string;
  stack?: string | undefined;
  frames?: Frame[] | undefined;
  snippet?: string | undefined;
  hint?: string | undefined;
}

export interface StoredEvent extends EventDraft {
  seq: number;
  /** Dropped by a budget after it was admitted: skipped on read, never serialized. */
  dropped?: boolean | undefined;
  /** Redacted and cut to the limits; false again when a value read replaced the message. */
  clipped?: boolean | undefined;
}

/** Budgets apart: uncaught errors, console.error, other output, failed requests and expected (ignored) events never push each other out. */
type EventClass = 'uncaught' | 'console-error' | 'console' | 'network' | 'expected' | 'lifecycle';
const CLASSES: readonly EventClass[] = ['uncaught', 'console-error', 'console', 'network', 'expected', 'lifecycle'];
/** Navigations, workers starting and ending, crashes: the timeline's frame, never pushed out by what happens in it. */
const LIFECYCLE_SOURCES: ReadonlySet<string> = new Set(['navigation', 'worker.start', 'worker.close', 'page.crash', 'browser.disconnected']);

export interface Span {
  id: string;
  kind: 'eval' | 'job' | 'step';
  title?: string | undefined;
  realm: string;
  code?: string | undefined;
  startMs: number;
  endMs?: number | undefined;
  ok: boolean;
  value?: unknown;
  error?: SpanError | undefined;
}

/**
 * The stored copy of a draft, every field present from the start: all events share one object shape, so setting a
 * field later (a value read, enrichment, a drop) changes a value in place instead of growing the object.
 */
function storedEvent(d: EventDraft, seq: number): StoredEvent {
  return {
    type: d.type,
    level: d.level,
    source: d.source,
    realm: d.realm,
    timeMs: d.timeMs,
    message: d.message,
    stack: d.stack,
    location: d.location,
    loggedAt: d.loggedAt,
    structured: d.structured,
    stream: d.stream,
    opens: d.opens,
    callFrames: d.callFrames,
    preview: d.preview,
    frames: d.frames,
    snippet: d.snippet,
    hint: d.hint,
    ignorePattern: d.ignorePattern,
    network: d.network,
    issue: d.issue,
    cause: d.cause,
    aggregate: d.aggregate,
    component: d.component,
    foundInSource: d.foundInSource,
    seq,
    dropped: false,
    clipped: false,
  };
}

export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)} …[truncated, ${text.length} chars]`;
}

const MARK = ' …[truncated, ';
const TEST_TIMEOUT = /\bTest timeout of \d+ms exceeded\b/;
// Redaction reads this much past the cut, so a secret that straddles the cut is still recognised.
const REDACT_SLACK = 4096;

/**
 * Redacts and cuts a message or stack to `max` characters; the marker gives the length as captured. A text the
 * page-side serializer already cut keeps the full length it measured.
 */
export function limitText(text: string, max: number, redact: Redactor): string {
  let body = text;
  let original = text.length;
  const at = text.endsWith(' chars]') ? text.lastIndexOf(MARK) : -1;
  if (at !== -1) {
    const n = Number(text.slice(at + MARK.length, -' chars]'.length));
    if (Number.isInteger(n) && n > at) {
      body = text.slice(0, at);
      original = n;
    }
  }
  const clean = redact(body.length > max + REDACT_SLACK ? body.slice(0, max + REDACT_SLACK) : body);
  if (clean.length <= max && original === body.length) return clean;
  let end = Math.min(max, clean.length);
  // Never leave half of a surrogate pair before the marker.
  if (end > 0 && end < clean.length && /[\ud800-\udbff]/.test(clean.charAt(end - 1))) end--;
  return `${clean.slice(0, end)}${MARK}${Math.max(original, clean.length)} chars]`;
}

/** Holds one test's events, jobs and steps; bounded by the test's limits. */
export class Recorder {
  private seq = 0;
  private readonly logs = new Map<EventClass, KeepNewestLog<StoredEvent>>();
  private readonly rateWindows = new Map<string, RateWindow<StoredEvent>>();
  private readonly spans: Span[] = [];
  private readonly realmNames: string[] = [];
  private readonly diagnostics: Diagnostic[] = [];
  private readonly unmapped = new Map<string, UnmappedScript>();
  private readonly testIgnore: IgnorePattern[] = [];
  /** Waits of the test that resolved with an error not matched to its event yet. */
  private readonly claims: AwaitedClaim[] = [];
  private readonly allowListUse: AllowListUse;
  private jobCounter = 0;
  readonly dropped: Dropped = { total: 0, bySource: {} };
  private droppedFirstMs: number | undefined;
  private readonly redact: Redactor;
  private droppedLastMs: number | undefined;
  private changeCount = 0;

  constructor(readonly options: ResolvedOptions) {
    this.redact = options.redact ?? noRedaction;
    this.allowListUse = new AllowListUse(options.ignore, this.testIgnore);
    const max = options.limits.maxEvents;
    const head = Math.max(1, Math.floor(max / 4));
    for (const name of CLASSES) this.logs.set(name, new KeepNewestLog(head, max - head));
  }

  private classOf(draft: EventDraft): EventClass {
    if (LIFECYCLE_SOURCES.has(draft.source)) return 'lifecycle';
    if (matchesIgnore(draft, this.options.ignore) || (this.testIgnore.length > 0 && matchesIgnore(draft, this.testIgnore))) {
      this.allowListUse.note(draft);
      return 'expected';
    }
    if (draft.type === 'error') return 'uncaught';
    // A router's canceled preloads share the failed requests' budget: a burst of them does not push out the console.
    if (isNetworkFailure(draft) || isCanceledRequest(draft)) return 'network';
    return isUnexpectedKind(draft) ? 'console-error' : 'console';
  }

  /**
   * Grows with every change of what a record would hold (events, values read, jobs, realms, diagnostics): the live
   * report compares two numbers instead of formatting when nothing happened.
   */
  get changes(): number {
    return this.changeCount;
  }

  /** An event's message changed after it was stored (its values were read). */
  changed(): void {
    this.changeCount++;
  }

  addRealm(name: string): void {
    if (this.realmNames.includes(name)) return;
    this.realmNames.push(name);
    this.changeCount++;
  }

  /**
   * Stores an event. Over its realm's rate or the test's event budget the oldest of the middle is dropped (and
   * counted), so a burst keeps its first events and its newest. Returns the event so capture can read its values later.
   */
  add(draft: EventDraft): StoredEvent {
    const event = storedEvent(draft, ++this.seq);
    this.changeCount++;
    // Only a cheap cut here: a flood's events are mostly dropped, so redaction waits until an event is read out.
    const { maxMessageLength, maxStackLength } = this.options.limits;
    if (event.message.length > maxMessageLength + REDACT_SLACK) event.message = event.message.slice(0, maxMessageLength + REDACT_SLACK) + `${MARK}${event.message.length} chars]`;
    if (event.stack !== undefined && event.stack.length > maxStackLength + REDACT_SLACK) event.stack = event.stack.slice(0, maxStackLength + REDACT_SLACK) + `${MARK}${event.stack.length} chars]`;
    const kind = this.classOf(draft);
    const log = this.logs.get(kind)!;
    const bucket = `${draft.realm}\u0000${kind}`;
    let window = this.rateWindows.get(bucket);
    if (!window) {
      window = new RateWindow(this.options.limits.eventsPerSecond);
      this.rateWindows.set(bucket, window);
    }
    const outOfSecond = window.admit(event);
    if (outOfSecond) this.drop(outOfSecond);
    const outOfBudget = log.push(event);
    if (outOfBudget) this.drop(outOfBudget);
    return event;
  }

  private drop(event: StoredEvent): void {
    if (event.dropped) return;
    event.dropped = true;
    this.countDropped(event.source, event.timeMs);
  }

  /** Re-applies the length limits after capture replaced a message with a richer one. */
  clip(event: StoredEvent): void {
    event.clipped = true;
    const { maxMessageLength, maxStackLength } = this.options.limits;
    event.message = limitText(event.message, maxMessageLength, this.redact);
    if (event.stack !== undefined) event.stack = limitText(event.stack, maxStackLength, this.redact);
    for (const part of [...(event.cause ?? []), ...(event.aggregate ?? [])]) {
      part.message = limitText(part.message, maxMessageLength, this.redact);
      if (part.stack !== undefined) part.stack = limitText(part.stack, maxStackLength, this.redact);
    }
  }

  private countDropped(source: string, timeMs: number): void {
    this.dropped.total++;
    this.dropped.bySource[source] = (this.dropped.bySource[source] ?? 0) + 1;
    // A flood drops many events a millisecond: dates are made once, in record().
    this.droppedFirstMs = this.droppedFirstMs === undefined ? timeMs : Math.min(this.droppedFirstMs, timeMs);
    this.droppedLastMs = this.droppedLastMs === undefined ? timeMs : Math.max(this.droppedLastMs, timeMs);
  }

  diagnose(error: unknown): void {
    debugLog(error);
    if (this.diagnostics.length >= 50) return;
    this.changeCount++;
    let message = error instanceof Error ? error.message : String(error);
    // A DaebugError's message ends with its hint (for a thrown error's one text); the diagnostic holds the hint apart.
    const hintLine = error instanceof DaebugError && error.hint ? `\nHint: ${error.hint}` : undefined;
    if (hintLine && message.endsWith(hintLine)) message = message.slice(0, -hintLine.length);
    const diagnostic: Diagnostic = { code: error instanceof DaebugError ? error.code : 'DAEBUG_CAPTURE_FAILED', message, time: new Date().toISOString() };
    if (error instanceof DaebugError && error.hint) diagnostic.hint = error.hint;
    this.diagnostics.push(diagnostic);
  }

  /** A script whose frames stay unmapped because its map cannot be had; once per URL. */
  noteUnmapped(script: UnmappedScript): void {
    if (this.unmapped.has(script.url) || this.unmapped.size >= 50) return;
    this.changeCount++;
    this.unmapped.set(script.url, script);
  }

  private live(): StoredEvent[] {
    const events = CLASSES.flatMap((name) => this.logs.get(name)!.toArray());
    for (const event of events) if (!event.clipped) this.clip(event);
    if (this.claims.length) this.resolveClaims(events);
    return events;
  }

  /** The test waited for an error itself: the event it names is expected (src/capture/awaited-events.ts). */
  awaited(claim: AwaitedClaim): void {
    this.claims.push(claim);
    this.changeCount++;
  }

  /** Marks the events the pending claims name; a claim whose event has not arrived yet waits for the next read. */
  private resolveClaims(events: StoredEvent[]): void {
    const ordered = orderTimeline(events);
    const taken = new Set(ordered.flatMap((e, i) => (e.item.awaitedBy === undefined ? [] : [i])));
    for (const claim of this.claims.splice(0)) {
      const index = claimedIndex(claim, ordered, taken);
      if (index === undefined) this.claims.push(claim);
      else {
        taken.add(index);
        ordered[index]!.item.awaitedBy = claim.how;
      }
    }
  }

  /** The stored events and spans themselves, for enrichment that updates them in place, and the test's ignore list. */
  stored(): { events: StoredEvent[]; spans: readonly Span[]; ignore: IgnorePattern[] } {
    return { events: this.live(), spans: this.spans, ignore: [...this.options.ignore, ...this.testIgnore] };
  }

  expect(pattern: IgnorePattern): void {
    this.testIgnore.push(pattern);
    this.changeCount++;
  }

  startSpan(kind: Span['kind'], realm: string, fields: { title?: string | undefined; code?: string | undefined } = {}): Span {
    const span: Span = { id: kind === 'step' ? `step-${++this.jobCounter}` : `job-${++this.jobCounter}`, kind, realm, startMs: Date.now(), ok: true, ...fields };
    this.spans.push(span);
    this.changeCount++;
    return span;
  }

  finishSpan(span: Span, outcome: { ok: boolean; value?: unknown; error?: { message: string; stack?: string | undefined } }): void {
    // The test's timeout rejects the job's pending calls: the job did not finish, it was cut off.
    if (!TEST_TIMEOUT.test(outcome.error?.message ?? '')) span.endMs = Date.now();
    this.changeCount++;
    span.ok = outcome.ok;
    if (outcome.value !== undefined) span.value = outcome.value;
    const { maxMessageLength, maxStackLength } = this.options.limits;
    if (outcome.error) span.error = { message: limitText(outcome.error.message, maxMessageLength, this.redact), stack: outcome.error.stack === undefined ? undefined : limitText(outcome.error.stack, maxStackLength, this.redact) };
  }

  private innermost(kind: 'job' | 'step', timeMs: number): Span | undefined {
    let found: Span | undefined;
    for (const span of this.spans) {
      if ((kind === 'step') !== (span.kind === 'step')) continue;
      // Strictly after the start: a Node-stamped event in the very millisecond a job starts came before it. The end
      // is Node's whole millisecond, stamped after the call that ended the job answered; a page's event has a
      // fraction of one (CDP's clock), so one in that last millisecond (910.6 against 910) came before the answer.
      if (span.startMs < timeMs && (span.endMs === undefined || Math.floor(timeMs) <= span.endMs)) {
        if (!found || span.startMs >= found.startMs) found = span;
      }
    }
    return found;
  }

  /** All events so far, in time order, with job, step and expected assigned. */
  events(): DaebugEvent[] {
    const ignore = [...this.options.ignore, ...this.testIgnore];
    return orderTimeline(this.live()).map(({ item: e, atMs }) => {
      const expected = matchesIgnore(e, ignore) || e.awaitedBy !== undefined;
      const event: DaebugEvent = {
        type: e.type,
        source: e.source,
        realm: e.realm,
        ts: formatClock(atMs),
        time: new Date(atMs).toISOString(),
        message: e.message,
        expected,
      };
      if (e.level !== undefined) event.level = e.level;
      if (e.stack !== undefined) event.stack = e.stack;
      if (e.location) event.location = e.location;
      if (e.loggedAt) event.loggedAt = e.loggedAt;
      if (e.structured) event.structured = true;
      if (e.frames) event.frames = e.frames;
      if (e.snippet !== undefined) event.snippet = e.snippet;
      if (e.hint !== undefined) event.hint = e.hint;
      if (e.ignorePattern !== undefined && !expected) event.ignorePattern = e.ignorePattern;
      if (e.awaitedBy !== undefined) event.expectedBy = `awaited by the test (${e.awaitedBy})`;
      if (e.cause?.length) event.cause = e.cause;
      if (e.aggregate?.length) event.aggregate = e.aggregate;
      if (e.preview) event.preview = true;
      if (e.network) event.network = e.network;
      if (e.issue) event.issue = e.issue;
      if (e.component) event.component = e.component;
      if (e.foundInSource?.length) event.foundInSource = e.foundInSource;
      if (isUnexpectedIn(e, this.options.network) && !expected) event.unexpected = true;
      const job = this.innermost('job', atMs);
      if (job) event.jobId = job.id;
      else {
        const step = this.innermost('step', atMs);
        if (step) {
          event.step = step.title ?? step.id;
          event.stepId = step.id;
        }
      }
      return event;
    });
  }

  private spanToJob(span: Span, events: DaebugEvent[]): Job {
    const job: Job = {
      id: span.id,
      kind: span.kind,
      realm: span.realm,
      startedAt: new Date(span.startMs).toISOString(),
      ok: span.ok,
      finished: span.endMs !== undefined,
      events,
    };
    if (span.title !== undefined) job.title = span.title;
    if (span.code !== undefined) job.code = span.code;
    if (span.endMs !== undefined) {
      job.finishedAt = new Date(span.endMs).toISOString();
      job.durationMs = span.endMs - span.startMs;
    } else job.ok = false;
    if (span.value !== undefined) job.value = span.value;
    if (span.error) job.error = Object.fromEntries(Object.entries(span.error).filter(([, v]) => v !== undefined)) as NonNullable<Job['error']>;
    return job;
  }

  record(): CaptureRecord {
    const events = this.events();
    const byJob = new Map<string, DaebugEvent[]>();
    const byStep = new Map<string, DaebugEvent[]>();
    for (const event of events) {
      if (event.jobId) push(byJob, event.jobId, event);
      else if (event.stepId !== undefined) push(byStep, event.stepId, event);
    }
    const jobs = this.spans.filter((s) => s.kind !== 'step').map((s) => this.spanToJob(s, byJob.get(s.id) ?? []));
    const steps = this.spans.filter((s) => s.kind === 'step' && byStep.has(s.id)).map((s) => this.spanToJob(s, byStep.get(s.id) ?? []));
    const dropped: Dropped = { ...this.dropped, bySource: { ...this.dropped.bySource } };
    if (this.droppedFirstMs !== undefined) dropped.firstAt = new Date(this.droppedFirstMs).toISOString();
    if (this.droppedLastMs !== undefined) dropped.lastAt = new Date(this.droppedLastMs).toISOString();
    const record: CaptureRecord = {
      version: 1,
      capture: this.options.capture,
      strict: this.options.strict,
      realms: [...this.realmNames],
      jobs,
      steps,
      events,
      dropped,
      diagnostics: [...this.diagnostics],
    };
    if (this.unmapped.size) record.unmappedScripts = [...this.unmapped.values()];
    const stale = this.allowListUse.stale(this.live());
    if (stale) record.staleAllowList = stale;
    const maxReportBytes = this.options.limitsSet?.maxReportBytes;
    if (maxReportBytes !== undefined) record.maxReportBytes = maxReportBytes;
    // Messages and stacks were redacted as they came; values, code, snippets and URLs are redacted here.
    return redactRecord(record, this.redact);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
