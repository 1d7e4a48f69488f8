/**
 * The failure message of a strict test (and the annotation of a test that is not strict): the unexpected errors one
 * line each, where each is, and the report. Pure; src/fixture/finish.ts throws it.
 */
import { lineToFix, unplacedAt } from '../diagnosis/line-to-fix';
import { browserDefaultPlace } from '../model/default-place';
import { headline } from '../model/headline';
import { locationText } from '../model/position-text';
import type { DaebugEvent, StaleAllowList } from '../model/schema';
import { firstLine } from '../text/first-line';
import { foundHow, foundPlaces, lineToFixHow, unplacedNote } from './found-note';
import { firstUserFrame, frameWhere } from './frames';

const LISTED = 20;

/**
 * Where an error is, for a failure message's `↳` line: its first user frame, the app's call that made a failed
 * request, the top line of a stack that was not parsed, else the browser's own location of the event. It never ends in
 * a bare position, which Playwright would read as a stack frame of daebug's failure (see READ_AS_FRAME): after one
 * that names no function, a word says what the position is.
 */
export function failurePlace(event: DaebugEvent, events: readonly DaebugEvent[] = []): string | undefined {
  // The browser's default place is no frame and no place: said as such (the line to fix found by evidence comes first).
  const unplaced = unplacedAt(event, events);
  if (unplaced) return unplacedNote(unplaced);
  const frame = browserDefaultPlace(event) ? undefined : firstUserFrame(event.frames);
  if (frame) return `${frameWhere(frame)}${(frame.original?.functionName ?? frame.functionName) ? '' : ' (your code)'}`;
  const caller = event.network?.initiator?.original;
  if (caller) return `${caller.source}:${caller.line}:${caller.column} (the request's caller)`;
  // An error a failed request caused: the app's call that made that request.
  const toFix = lineToFix(event, events);
  if (toFix?.found?.by === 'initiator') return `${toFix.file}:${toFix.line}:${toFix.column} (${lineToFixHow(event, toFix.found)}; no frame of its stack is in your code)`;
  // No frame in the app: the lines its evidence names in the app's source, said to be found, not a frame.
  const found = foundHow(event, { plain: true });
  if (found) return `${foundPlaces(event).join(', ')} (${found}; no frame of its stack is in your code)`;
  const line = event.stack?.split('\n').find((l) => /^\s+at\s/.test(l));
  if (line) {
    // "at fn (url:1:2)" becomes "url:1:2 in fn": Playwright reads "(file:line:col)" lines of a message as frames.
    const match = /^\s+at\s+(.*?)\s+\((.*)\)$/.exec(line);
    return match ? `${match[2]} in ${match[1]}` : `${line.trim().replace(/^at\s+/, '')} (top of the stack)`;
  }
  const location = locationText(event.location);
  return location && `${location} (where the browser reported it)`;
}

/**
 * One line per unexpected error: kind, realm, message, the line to fix and its code. `all`: the attempt's events,
 * which the events' causal links index (an error a failed request caused is placed at the app's call that made it).
 */
export function describeUnexpected(events: readonly DaebugEvent[], all: readonly DaebugEvent[] = []): string[] {
  const lines: string[] = [];
  events.slice(0, LISTED).forEach((event, i) => {
    lines.push(`  ${i + 1}. [${event.source}] in ${event.realm}: ${firstLine(headline(event.message), { max: 300 })}`);
    const place = failurePlace(event, all);
    // Not "at …": Playwright would read such lines as the failure's own stack frames.
    if (place) lines.push(`       ↳ ${place}`);
    // The code of the line to fix: its frame's, or that of the app's call that made the request behind the error.
    const toFix = lineToFix(event, all);
    const snippet = toFix?.found?.by === 'initiator' ? toFix.snippet : browserDefaultPlace(event) ? undefined : event.snippet;
    if (snippet) lines.push(...snippet.split('\n').map((l) => `       ${l}`));
    if (event.hint) lines.push(...event.hint.split('\n').map((l) => `       ${l}`));
  });
  if (events.length > LISTED) lines.push(`  … and ${events.length - LISTED} more`);
  return lines;
}

// Playwright reads any line of a thrown error that ends in `file:line:col` (or `file:line:col)`) as a stack frame
// and prints it again as `at …` (packages/utils/stackTrace.ts parseStackFrame).
const READ_AS_FRAME = /:\d+:\d+\)?\s*$/;

/**
 * A line Playwright will not take for a stack frame. daebug's own lines never end in a position (`failurePlace`); a
 * line of the page's own text can (a message that quotes one), and gets a closing mark.
 */
export function notAFrame(line: string): string {
  return READ_AS_FRAME.test(line) ? `${line.trimEnd()} ·` : line;
}

/** The failure message of a strict test with unexpected errors. */
export function strictFailure(events: readonly DaebugEvent[], reportFile: string, stale?: StaleAllowList, baseline?: { known: number; file: string }, all: readonly DaebugEvent[] = events): string {
  const count = events.length;
  const aside = baseline ? `; ${baseline.known} known ${baseline.known === 1 ? 'error' : 'errors'} in the baseline ${baseline.file} left aside` : '';
  return [
    `daebug: ${count} ${baseline ? 'new ' : ''}unexpected ${count === 1 ? 'error' : 'errors'} in the browser (daebugStrict${aside}):`,
    ...describeUnexpected(events, all),
    `Report: ${reportFile}`,
    // Worded for an error that is the app's intended behaviour: an agent told to go green must not read it as a way out.
    "If one of these errors is the app's intended behaviour in this test (not a bug), declare it with daebug.expectError(pattern) or daebugIgnore; the JSON report gives each error's exact pattern (ignorePattern).",
    ...(stale ? [`Also: ${describeStale(stale)}.`] : []),
  ]
    .flatMap((text) => text.split('\n'))
    .map(notAFrame)
    .join('\n');
}

/** `daebugIgnore "a", /b/; expectError "c"`: the allow-list entries that matched nothing. */
export function describeStale(stale: StaleAllowList): string {
  const parts: string[] = [];
  if (stale.daebugIgnore.length) parts.push(`daebugIgnore ${stale.daebugIgnore.slice(0, 5).join(', ')}${stale.daebugIgnore.length > 5 ? ', …' : ''}`);
  if (stale.expectError.length) parts.push(`expectError ${stale.expectError.slice(0, 5).join(', ')}${stale.expectError.length > 5 ? ', …' : ''}`);
  return `allow-list entries that matched nothing: ${parts.join('; ')}`;
}

/**
 * The annotation a test gets when the browser had unexpected errors (not strict), or when allow-list entries
 * matched nothing: every stale entry with unexpected errors, stale `expectError` entries (the test's own) alone.
 */
export function warningAnnotation(events: readonly DaebugEvent[], reportFile: string, stale?: StaleAllowList): { type: string; description: string } | undefined {
  const count = events.length;
  const known = events.filter((e) => e.known).length;
  const first = events.find((e) => !e.known) ?? events[0];
  const parts: string[] = [];
  const knownText = known ? `, ${known === count ? 'all' : known} known (in baseline)` : '';
  if (count) parts.push(`${count} unexpected ${count === 1 ? 'error' : 'errors'}${knownText}${first ? ` (first${known && !first.known ? ' new' : ''}: [${first.source}] ${firstLine(headline(first.message), { max: 120 })})` : ''}`);
  if (stale && (count || stale.expectError.length)) parts.push(describeStale(count ? stale : { daebugIgnore: [], expectError: stale.expectError }));
  return parts.length ? { type: 'daebug', description: `${parts.join('; ')}; see ${reportFile}` } : undefined;
}
