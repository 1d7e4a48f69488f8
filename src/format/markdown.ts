import { loggedBy, loggerPhrase } from '../diagnosis/logged-by';
import { isBlockingCsp } from '../model/classify';
import { failedLoadOf } from '../model/failed-load';
import { eventKind } from '../model/event-kind';
import type { Attempt, DaebugEvent, Job, Report } from '../model/schema';
import { errorBody, eventFence } from './event-block';
import { code, fence, inline } from './fence';
import { firstUserFrame, frameWhere } from './frames';
import { causalLinksOf, causedByNote, explainsNote, type CausalLinks } from './causal-links';
import { fixOrder, unexpectedNumbers } from './fix-order';
import { componentNote } from './component-note';
import { foundNote, initiatorNote, lineToFixExcerpt, requestExcerpt, unplacedNote } from './found-note';
import { rootCauseSection } from './root-cause';
import { lineToFix, unplacedAt } from '../diagnosis/line-to-fix';
import { browserDefaultPlace } from '../model/default-place';
import { rankRootCause, type RootCause } from '../diagnosis/rank';
import { sightingBy } from '../run/sightings';
import { sightingsNote } from './sightings-note';
import { collapseRepeats, eventIdentity, repeatNote, type Repeated } from './repeats';
import { truncateGroup, UNEXPECTED_LISTED } from './truncate';
import { isWarning, unexpectedWarnings, warningsSection } from './warnings';
import { count } from './count';
import { failureContextLines, testFailed } from './failure-context';

export const RULE = '-'.repeat(70);

export interface MarkdownOptions {
  /** Byte budget of the whole report. */
  maxBytes: number;
  /** The JSON report's file name, named where content was left out. */
  jsonFile?: string;
  /** A live report of a test still running, as of this time (ms since the epoch): unfinished jobs are executing. */
  liveAtMs?: number;
}

function clock(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '--:--:--';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(ms / 60_000)}m ${Math.round((ms % 60_000) / 1000)}s`;
}

/** What the transcript needs to know of the sections above it. */
interface Written {
  /** Unexpected errors written in full in their own section, by event identity: their number there. */
  unexpected: Map<string, number>;
  /** Every unexpected error's number in that section (repeats share one), listed or not, in the order to fix them. */
  numbers: Map<string, number>;
  /** Other sightings of an error written in full above (src/run/sightings.ts), by event identity: that error's number. */
  sightings: Map<string, number>;
  links: CausalLinks;
}

/** ` · caused by unexpected error 1 · → explains unexpected error 3`: an event's causal links, or nothing. */
function linkNotes(event: DaebugEvent, written: Written): string {
  const number = (e: DaebugEvent) => written.numbers.get(eventIdentity(e));
  return [causedByNote(event, written.links, number), explainsNote(event, written.links, number)].map((note) => (note ? ` · ${note}` : '')).join('');
}

function eventFences(events: readonly DaebugEvent[], written: Written): string[] {
  const { head, omitted, tail } = truncateGroup(collapseRepeats(events));
  const lines = head.flatMap((run) => runEntry(run, written));
  if (omitted) lines.push(`… ${count(omitted, 'more event')} …`);
  lines.push(...tail.flatMap((run) => runEntry(run, written)));
  return lines;
}

/** An event (or a run of identical ones) in the transcript; an unexpected error written above is only referred to. */
function runEntry(run: Repeated, written: Written): string[] {
  const note = repeatNote(run);
  const number = written.unexpected.get(eventIdentity(run.event));
  // Only daebug's words outside fences: the page's message is in the numbered entry above.
  if (number !== undefined) return [`↑ unexpected error ${number} (${code(run.event.source)})${note ? ` ${note}` : ''}, written in full above`];
  const seenAgain = written.sightings.get(eventIdentity(run.event));
  if (seenAgain !== undefined) return [`↑ unexpected error ${seenAgain} seen again (${code(run.event.source)} by ${inline(sightingBy(run.event))})${note ? ` ${note}` : ''}, written in full above`];
  // A failed request (not an unexpected error by default) says which error it explains, right above its fence.
  const links = linkNotes(run.event, written).replace(/^ · /, '');
  // Expected without an allow-list entry: the test waited for this error itself.
  const why = run.event.expectedBy ? `expected: ${inline(run.event.expectedBy)}` : '';
  const said = [note, why, links].filter(Boolean).join(' · ');
  // A failed request (or a resource the browser could not load) is written in full only here: with the code of the
  // app's call that made it, or of the lines that name its URL.
  const shown = (run.event.network && !codeShownAbove(run.event, written)) || failedLoadOf(run.event);
  const fenced = eventFence(run.event, shown ? requestExcerpt(run.event) : '');
  return said ? [said, fenced] : [fenced];
}



/**
 * Whether an unexpected error written in full above already shows this failed request's code: the error it caused
 * has no frame of the app, so its line to fix is the app's call that made the request, shown with its code there.
 * The transcript's fence then names the call (`initiator:`) and points up (`→ explains`) without the code again.
 */
function codeShownAbove(request: DaebugEvent, written: Written): boolean {
  const effects = written.links.causes.get(eventIdentity(request)) ?? [];
  return effects.some((effect) => written.unexpected.has(eventIdentity(effect)) && !firstUserFrame(effect.frames) && lineToFix(effect, written.links.events)?.found?.by === 'initiator');
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value === undefined ? 'undefined' : value) ?? 'undefined';
  } catch {
    return String(value);
  }
}

/** Whole seconds, as the seed's placeholder shows them: `executing (12s)`. */
export function executingLine(sinceMs: number, atMs: number): string {
  return `executing (${Math.max(0, Math.floor((atMs - sinceMs) / 1000))}s)`;
}

function jobEntry(job: Job, written: Written, liveAtMs: number | undefined): string {
  const lines: string[] = [];
  const requestFrom = job.kind === 'job' ? `**agent** job ${code(job.title ?? job.id)}` : `**agent** to ${inline(job.realm)}`;
  lines.push(`> ${requestFrom} at ${clock(job.startedAt)}`);
  lines.push(fence('JS', job.code ?? ''));
  lines.push('');
  const replier = job.kind === 'job' ? 'test' : job.realm;
  if (job.finishedAt === undefined && liveAtMs !== undefined) {
    // The seed's executing region: the job's background events so far, then the placeholder.
    lines.push(`> **${inline(replier)}** to agent at ${clock(new Date(liveAtMs).toISOString())} (executing)`, ...eventFences(job.events, written), executingLine(Date.parse(job.startedAt), liveAtMs), '', RULE, '');
    return lines.join('\n');
  }
  if (job.finishedAt === undefined) {
    lines.push(`> **${inline(replier)}** to agent: unfinished`);
    lines.push(fence('Text', 'The test ended before this job finished; the events below were captured until then.'));
  } else {
    lines.push(`> **${inline(replier)}** to agent at ${clock(job.finishedAt)} (${formatDuration(job.durationMs ?? 0)})`);
    if (job.ok) lines.push(fence('JSON', jsonText(job.value)));
    else {
      let body = errorBody(job.error?.message ?? 'Error', job.error?.stack, job.error?.frames);
      if (job.error?.snippet) body += `\n\n${job.error.snippet}`;
      if (job.error?.hint) body += `\n\n${job.error.hint}`;
      lines.push(fence('Error', body));
    }
  }
  lines.push(...eventFences(job.events, written));
  lines.push('', RULE, '');
  return lines.join('\n');
}

function stepEntry(step: Job, written: Written): string {
  const lines = [`#### Step: ${inline(step.title ?? step.id)}`, ''];
  for (const group of groupByRealm(step.events)) {
    lines.push(`> **${inline(group[0]!.realm)}** during step at ${group[0]!.ts}`);
    lines.push(...eventFences(group, written));
  }
  lines.push('', RULE, '');
  return lines.join('\n');
}

function backgroundEntry(events: readonly DaebugEvent[], written: Written): string {
  const first = events[0]!;
  return [`> **${inline(first.realm)}** background at ${first.ts}`, ...eventFences(events, written), '', RULE, ''].join('\n');
}

function groupByRealm(events: readonly DaebugEvent[]): DaebugEvent[][] {
  const groups: DaebugEvent[][] = [];
  for (const event of events) {
    const last = groups[groups.length - 1];
    if (last && last[0]!.realm === event.realm) last.push(event);
    else groups.push([event]);
  }
  return groups;
}

interface Entry {
  at: number;
  /** Breaks ties within a millisecond: background events stamped then came before the job or step that started. */
  order: number;
  text: string;
}

/** The transcript: jobs, steps and background groups in time order. */
function transcriptEntries(report: Attempt, written: Written, liveAtMs: number | undefined): Entry[] {
  const entries: Entry[] = [];
  for (const job of report.jobs) entries.push({ at: Date.parse(job.startedAt), order: 1, text: jobEntry(job, written, liveAtMs) });
  for (const step of report.steps ?? []) entries.push({ at: Date.parse(step.startedAt), order: 1, text: stepEntry(step, written) });
  const background = report.events.filter((e) => e.jobId === undefined && e.stepId === undefined);
  // A background run never spans a job or step that started in between: it is split there.
  const starts = [...report.jobs, ...(report.steps ?? [])].map((j) => Date.parse(j.startedAt)).sort((a, b) => a - b);
  const startedBetween = (from: number, to: number) => starts.some((s) => from < s && s <= to);
  let run: DaebugEvent[] = [];
  const flush = () => {
    if (run.length) entries.push({ at: Date.parse(run[0]!.time), order: 0, text: backgroundEntry(run, written) });
    run = [];
  };
  for (const event of background) {
    if (run.length && (run[0]!.realm !== event.realm || startedBetween(Date.parse(run[run.length - 1]!.time), Date.parse(event.time)))) flush();
    run.push(event);
  }
  flush();
  return entries.sort((a, b) => a.at - b.at || a.order - b.order);
}

/**
 * `- Events: 3 errors (1 unexpected), 0 console, 0 dropped`. An unexpected event that is no error (a script the CSP
 * blocked) is not among the errors: the unexpected count then stands beside them and says what it holds, so the
 * header never reads "0 errors (1 unexpected)". The JSON's `summary` counts stay as they are.
 */
export function eventsLine(report: Pick<Attempt, 'summary' | 'events'>): string {
  const s = report.summary;
  const failedRequests = s.network ? `, ${s.network} of them failed requests` : '';
  const known = s.known ? `, ${s.known} known (in baseline)` : '';
  const errors = `${s.errors} ${s.errors === 1 ? 'error' : 'errors'}`;
  const rest = `${s.console} console, ${s.dropped} dropped`;
  const outside = report.events.filter((e) => e.unexpected && eventKind(e) !== 'Error');
  if (!outside.length) return `- Events: ${errors} (${s.unexpected} unexpected${known})${failedRequests}, ${rest}`;
  const blocked = outside.filter(isBlockingCsp).length;
  const parts = [
    s.unexpected > outside.length ? `${s.unexpected - outside.length} of the errors` : '',
    blocked ? `${blocked} blocked by the CSP` : '',
    outside.length > blocked ? `${outside.length - blocked} other` : '',
  ].filter(Boolean);
  return `- Events: ${errors}${failedRequests}, ${s.unexpected} unexpected (${parts.join(', ')}${known}), ${rest}`;
}

function header(report: Attempt, options: MarkdownOptions, h: string, numbers: ReadonlyMap<string, number>): string[] {
  const t = report.test;
  const outcome = t.status === t.expectedStatus ? t.status : `${t.status} (expected ${t.expectedStatus})`;
  // A pass is not a clean bill of health when the browser had errors: the status line says so itself.
  const unexpected = report.summary.unexpected;
  const status = t.status === 'passed' && unexpected ? `${outcome}, with ${unexpected} unexpected browser ${unexpected === 1 ? 'error' : 'errors'}` : outcome;
  const live = options.liveAtMs === undefined ? undefined : `- Status: **running** (live report written at ${clock(new Date(options.liveAtMs).toISOString())}; the final report replaces it when the test ends)`;
  const lines = [
    `${h} ${inline(t.titlePath.length ? t.titlePath.join(' › ') : t.title, 300)}`,
    '',
    `- File: ${code(`${t.file}:${t.line}`)}`,
    live ?? `- Status: **${inline(status)}**`,
    `- Duration: ${formatDuration(t.duration)}${live ? ' so far' : ''}`,
    `- Strict: ${t.strict ? 'yes' : 'no'}`,
  ];
  if (t.project) lines.push(`- Project: ${inline(t.project)}`);
  if (t.retry) lines.push(`- Retry: ${t.retry}`);
  lines.push(eventsLine(report));
  const warnings = report.events.filter(isWarning).length;
  // A warning that is an unexpected error is listed once, among the unexpected errors: the count says where.
  const unexpectedOnes = unexpectedWarnings(report.events);
  if (warnings) {
    // Which ones: their numbers among the unexpected errors, so a reader need not look for them.
    const which = [...new Set(report.events.filter((e) => e.unexpected && isWarning(e)).map((e) => numbers.get(eventIdentity(e))).filter((n): n is number => n !== undefined))].sort((a, b) => a - b);
    const listedAs = which.length ? `${which.length === 1 ? 'unexpected error' : 'unexpected errors'} ${which.join(', ')}` : 'unexpected errors';
    lines.push(`- Warnings: ${warnings}${unexpectedOnes ? ` (${unexpectedOnes === warnings ? 'all' : unexpectedOnes} of them listed as ${listedAs})` : ''}`);
  }
  // Values not read in full: they could not matter to a passing test (daebugValues), or the page was gone first.
  const previews = report.events.filter((e) => e.preview).length;
  if (previews) lines.push(`- Previews: ${previews} ${previews === 1 ? 'event shows' : 'events show'} V8's preview of the logged values (one level deep), not their full serialization: not read because the test passed (\`daebugValues: 'full'\` reads them) or because the page had gone`);
  if (options.jsonFile) lines.push(`- JSON: ${code(options.jsonFile)}`);
  if (report.capture === false) lines.push('', '> Capture was off (`daebugCapture: false`): no listeners were attached, so nothing was recorded.');
  return lines;
}

function unexpectedSection(report: Attempt, h: string, room: number, written: Written, cause: RootCause | undefined): string[] {
  const unexpected = report.events.filter((e) => e.unexpected);
  const lines = ['', `${h}# Unexpected errors`, ''];
  if (!unexpected.length) {
    // A failed test with no browser error failed for its own reason: the reader is sent to where it did.
    lines.push(testFailed(report) ? 'None. The browser had no error that counts; the test failed for its own reason (see "Where the test failed" above).' : 'None.');
    return lines;
  }
  lines.push(`${unexpected.length} unexpected ${unexpected.length === 1 ? 'error' : 'errors'}${strictNote(unexpected, report.test.strict)}.`, '');
  // Listed while they fit in `room` bytes, so a few huge stacks cannot push the report over its budget.
  let used = Buffer.byteLength(lines.join('\n'));
  // Numbered in the order to fix them (src/format/fix-order.ts): "fix 1 first" reads directly.
  const runs = fixOrder(report, cause);
  let listed = 0;
  for (const [index, run] of runs.slice(0, UNEXPECTED_LISTED).entries()) {
    const event = run.event;
    const unplaced = unplacedAt(event, report.events);
    const frame = browserDefaultPlace(event) ? undefined : firstUserFrame(event.frames);
    const found = frame ? '' : foundNote(event) || initiatorNote(event, report.events);
    const where = frame ? ` at ${code(frameWhere(frame))}` : unplaced ? ` (${unplacedNote(unplaced, { plain: false })})` : event.frames?.length ? ` (no frame of the stack is in your code${found ? `; ${found}` : ''})` : found ? ` (${found})` : '';
    const note = repeatNote(run);
    const component = event.component ? ` · ${componentNote(event.component)}` : '';
    const logger = loggedBy(event);
    const seen = sightingsNote(event.sightings);
    const by = seen ? ` · ${seen}` : logger ? ` · ${loggerPhrase(logger)}` : '';
    // A line located by other means than a frame shows its code, as a frame does.
    const excerpt = frame ? '' : event.network ? requestExcerpt(event) : lineToFixExcerpt(event, lineToFix(event, report.events));
    const entry = [`${index + 1}. ${code(event.source)} in ${code(event.realm)} at ${event.ts}${where}${note ? ` ${note}` : ''}${component}${by}${linkNotes(event, written)}${baselineNote(event, report.test.baseline !== undefined)}`, eventFence(event, excerpt), ''];
    let size = Buffer.byteLength(entry.join('\n')) + 1;
    // An error bigger than the room left is shown by its first lines rather than not at all.
    if (used + size > room && room - used > 1024) {
      entry[1] = eventFence(shortened(event, room - used - 512 - Buffer.byteLength(entry[0]!)));
      size = Buffer.byteLength(entry.join('\n')) + 1;
    }
    if (used + size > room) break;
    lines.push(...entry);
    used += size;
    listed++;
    for (const member of run.members) written.unexpected.set(eventIdentity(member), index + 1);
  }
  // A framework's log of an error listed above is that error: the transcript only points at it.
  report.events.forEach((event) => {
    const primary = event.sightingOf === undefined ? undefined : report.events[event.sightingOf];
    const number = primary && written.unexpected.get(eventIdentity(primary));
    if (number !== undefined) written.sightings.set(eventIdentity(event), number);
  });
  const left = runs.slice(listed).reduce((sum, run) => sum + run.count, 0);
  if (left) lines.push(`… ${count(left, 'more unexpected error')} in the JSON report …`, '');
  return lines;
}


/**
 * What strict mode makes of the unexpected errors: errors the baseline knows never fail a test, so a passing test's
 * known errors are not said to fail it.
 */
function strictNote(unexpected: readonly DaebugEvent[], strict: boolean): string {
  if (!strict) return ' (warnings; set `daebugStrict: true` to fail on them)';
  const fresh = unexpected.filter((e) => !e.known).length;
  if (fresh === unexpected.length) return ` (strict mode: the test fails on ${fresh === 1 ? 'it' : 'them'})`;
  if (!fresh) return ` (${unexpected.length === 1 ? 'it is' : 'all are'} known, in the baseline: strict mode does not fail on ${unexpected.length === 1 ? 'it' : 'them'})`;
  return ` (strict mode: the test fails on the ${fresh} new ${fresh === 1 ? 'one' : 'ones'}; the baseline knows the rest)`;
}

/** `· known (in baseline)` or `· new` with a baseline, and the error's group, so the run's index can be searched for it. */
function baselineNote(event: DaebugEvent, withBaseline: boolean): string {
  const state = withBaseline ? (event.known ? ' · known (in baseline)' : ' · **new** (not in baseline)') : '';
  return `${state}${event.fingerprint ? ` · group ${code(event.fingerprint)}` : ''}`;
}

/** The first lines of an event's message and stack that fit in `bytes`, and a note that the JSON has the rest. */
function shortened(event: DaebugEvent, bytes: number): DaebugEvent {
  const { snippet: _snippet, hint: _hint, ...rest } = event;
  const firstLines = (text: string, max: number): string => {
    let out = '';
    for (const line of text.split('\n')) {
      const next = out ? `${out}\n${line}` : line;
      if (Buffer.byteLength(next) > max) return out || Buffer.from(line).subarray(0, max).toString('utf8').replace(/\uFFFD$/, '');
      out = next;
    }
    return out;
  };
  const message = firstLines(event.message, Math.floor(bytes / 4));
  const stack = event.stack === undefined ? undefined : firstLines(event.stack, bytes - Buffer.byteLength(message) - 64);
  const note = '… cut to fit this report; the JSON report has all of it';
  return stack === undefined ? { ...rest, message: `${message}\n${note}` } : { ...rest, message, stack: `${stack}\n${note}` };
}

function tailSections(report: Attempt, h: string, room: number): string[] {
  const lines: string[] = [];
  const dropped = report.dropped;
  if (dropped && dropped.total) {
    const bySource = Object.entries(dropped.bySource)
      .map(([source, count]) => `${code(source)} ${count}`)
      .join(', ');
    lines.push('', `${h}# Dropped events`, '', `${dropped.total === 1 ? '1 event was' : `${dropped.total} events were`} dropped by daebug's limits (${bySource}), between ${dropped.firstAt ?? '?'} and ${dropped.lastAt ?? '?'}.`);
  }
  const stale = report.staleAllowList;
  if (stale) {
    lines.push('', `${h}# Allow-list entries that matched nothing`, '');
    const list = (patterns: string[]) => patterns.slice(0, 20).map((p) => code(p.length > 200 ? `${p.slice(0, 200)}…` : p)).join(', ') + (patterns.length > 20 ? `, … ${patterns.length - 20} more` : '');
    if (stale.daebugIgnore.length) lines.push(`- ${code('daebugIgnore')}: ${list(stale.daebugIgnore)}`);
    if (stale.expectError.length) lines.push(`- ${code('expectError')}: ${list(stale.expectError)}`);
    lines.push('', 'They allowed no event of this test: if the error they stood for is fixed, remove them.');
  }
  if (report.diagnostics?.length) {
    lines.push('', `${h}# daebug's own diagnostics`, '');
    let used = Buffer.byteLength(lines.join('\n'));
    let listed = 0;
    for (const d of report.diagnostics) {
      const block = fence(`Text ${d.code}`, d.hint ? `${d.message}\n${d.hint}` : d.message);
      const size = Buffer.byteLength(block) + 1;
      if (used + size > room) break;
      lines.push(block);
      used += size;
      listed++;
    }
    if (listed < report.diagnostics.length) lines.push(`… ${report.diagnostics.length - listed} more diagnostics in the JSON report …`);
  }
  return lines;
}

function attemptBody(report: Attempt, options: MarkdownOptions, budget: number, h = '#'): string {
  const cause = rankRootCause(report);
  const numbers = unexpectedNumbers(report, cause);
  const head = [...header(report, options, h, numbers), ...failureContextLines(report, h), ...rootCauseSection(report, h, cause, numbers)];
  const tail = tailSections(report, h, Math.floor(budget / 8)).join('\n');
  const room = Math.floor((budget - Buffer.byteLength(head.join('\n')) - Buffer.byteLength(tail)) / 2);
  const written: Written = { unexpected: new Map(), numbers, links: causalLinksOf(report.events), sightings: new Map() };
  const listed = [...head, ...unexpectedSection(report, h, room, written, cause)];
  // Warnings are short: a line and a one-line fence each, within an eighth of the budget and a third of what is left.
  const left = budget - Buffer.byteLength(listed.join('\n')) - Buffer.byteLength(tail);
  const warnings = warningsSection(report.events, h, Math.min(Math.floor(budget / 8), Math.floor(left / 3)));
  const parts = [...listed, ...warnings, '', `${h}# Transcript`, ''];
  let text = parts.join('\n') + '\n';
  const entries = transcriptEntries(report, written, options.liveAtMs);
  if (!entries.length) text += report.capture === false ? 'Nothing was captured.\n' : `No jobs and no background events${options.liveAtMs === undefined ? '' : ' so far'}.\n`;
  let used = Buffer.byteLength(text) + Buffer.byteLength(tail);
  let shown = 0;
  for (const entry of entries) {
    const size = Buffer.byteLength(entry.text) + 1;
    if (used + size > budget) break;
    text += entry.text + '\n';
    used += size;
    shown++;
  }
  if (shown < entries.length) {
    text += `… ${entries.length - shown} more transcript entries left out to keep this report under ${Math.round(options.maxBytes / 1024)} KiB${options.jsonFile ? `; the JSON report ${code(options.jsonFile)} has every event` : ''} …\n`;
  }
  return text + tail + (tail ? '\n' : '');
}

/**
 * The report's one word on allowing errors, at its end and worded for an error that is the app's intended behaviour:
 * per error it would read as an invitation to hide a bug. The exact pattern of each error is in the JSON only.
 */
function expectedErrorsSection(report: Report, options: MarkdownOptions): string {
  if (options.liveAtMs !== undefined || ![report, ...(report.attempts ?? [])].some((a) => a.events.some((e) => e.unexpected))) return '';
  const json = options.jsonFile ? `the JSON report ${code(options.jsonFile)}` : 'the JSON report';
  return [
    '',
    '## If an error is expected',
    '',
    `If one of these errors is the app's intended behaviour in this test (not a bug), declare it with ${code('daebug.expectError(pattern)')} in the test or ${code('daebugIgnore')} in its options; ${json} gives each error's exact pattern (${code('ignorePattern')}). Any other error is a bug to fix, not to ignore.`,
    '',
  ].join('\n');
}

/** Renders a test's report as Markdown for agents and people. Pure: same report, same text. */
export function formatMarkdown(report: Report, options: MarkdownOptions): string {
  const earlier = report.attempts ?? [];
  const reserve = earlier.length ? Math.floor(options.maxBytes / 4) : 0;
  const closing = expectedErrorsSection(report, options);
  let text = attemptBody(report, options, options.maxBytes - reserve - 2048 - Buffer.byteLength(closing));
  if (earlier.length) {
    text += `\n## Earlier attempts\n\n${earlier.length} earlier ${earlier.length === 1 ? 'attempt' : 'attempts'} of this test (retries), oldest first.\n`;
    const each = Math.max(2048, Math.floor(reserve / earlier.length));
    let shown = 0;
    for (const attempt of earlier) {
      const body = attemptBody(attempt, options, each, '###');
      if (Buffer.byteLength(text) + Buffer.byteLength(body) + Buffer.byteLength(closing) + 512 > options.maxBytes) break;
      text += `\n${body}`;
      shown++;
    }
    if (shown < earlier.length) text += `\n… ${earlier.length - shown} earlier attempts left out to keep this report under ${Math.round(options.maxBytes / 1024)} KiB …\n`;
  }
  // The transcript's last entry ends in a blank line already.
  text += text.endsWith('\n\n') ? closing.slice(1) : closing;
  return Buffer.byteLength(text) <= options.maxBytes ? text : headerOnly(report, options);
}

/** The last resort when even the sections' own budgets overflow: header lines cut to fit, then a pointer to the JSON. */
function headerOnly(report: Report, options: MarkdownOptions): string {
  const note = `\nThis report did not fit in ${Math.round(options.maxBytes / 1024)} KiB${options.jsonFile ? `; the JSON report ${code(options.jsonFile)} has everything` : ''}.\n`;
  let text = '';
  for (const line of header(report, options, '#', unexpectedNumbers(report))) {
    const cut = Buffer.from(line).subarray(0, 1024).toString('utf8').replace(/\uFFFD$/, '');
    if (Buffer.byteLength(text + cut + note) + 1 > options.maxBytes) break;
    text += `${cut}\n`;
  }
  return text + note;
}
