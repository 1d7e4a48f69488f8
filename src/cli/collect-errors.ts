import path from 'node:path';
import { headline } from '../model/headline';
import { lineToFix, unplacedAt } from '../diagnosis/line-to-fix';
import { browserDefaultPlace } from '../model/default-place';
import { rankRootCause, type RootCause } from '../diagnosis/rank';
import { lineToFixHow, unplacedNote } from '../format/found-note';
import { isBlockingCsp } from '../model/classify';
import { failedLoadOf, isPlacedLoad } from '../model/failed-load';
import { firstUserFrame } from '../format/frames';
import { isWarning } from '../format/warnings';
import { isPlaceUrl } from '../model/position-text';
import type { IndexEntryData } from '../model/run-index';
import type { DaebugEvent, Frame } from '../model/schema';
import type { ReportFile } from './read-reports';
import type { CliError, CliLocation, CliTest, ErrorsOutput } from './schema';

/**
 * The events `daebug errors` lists: thrown errors, crashes, error-level console calls, and everything else the test
 * counted as an unexpected error (a script the page's CSP blocked; a failed request under `daebugNetwork: 'strict'`),
 * so that whatever fails a strict test is among them; the warnings daebug placed in the app's code; and the resources
 * the app's code names that the browser could not load (a broken image: src/model/failed-load.ts), which the report
 * counts among its problems.
 */
export function isErrorEvent(event: DaebugEvent): boolean {
  return event.type === 'error' || (event.source.startsWith('console.') && event.level === 'error') || isBlockingCsp(event) || event.unexpected === true || isPlacedWarning(event) || isPlacedLoad(event);
}

/**
 * A framework's warning about the app's code that daebug placed there: the component it is about, or the line found
 * by evidence (where a component is used with a wrong prop, the `[innerHTML]` binding). The report counts it among
 * the problems to fix; an agent that only asks for errors must hear of it too. Other warnings stay in the report.
 */
function isPlacedWarning(event: DaebugEvent): boolean {
  // A warning an error explains (Vue's "Unhandled error during execution of mounted hook") is that error's block.
  return isWarning(event) && event.causedBy === undefined && (event.component !== undefined || (event.foundInSource?.length ?? 0) > 0);
}

export function cliTest(dir: string, row: IndexEntryData): CliTest {
  return {
    title: row.title,
    titlePath: row.titlePath,
    file: row.file,
    line: row.line,
    project: row.project,
    status: row.status,
    markdown: path.join(dir, row.markdown),
    json: path.join(dir, row.json),
  };
}

/**
 * Where the Markdown report says the error is: its first user frame (`frameWhere`), at the original position when it
 * was mapped; without a user frame, the event's own location.
 */
export function locationOf(event: DaebugEvent): CliLocation | undefined {
  const frame = firstUserFrame(event.frames);
  const name = frame?.original?.functionName ?? frame?.functionName;
  const withName = (at: CliLocation): CliLocation => (name ? { ...at, functionName: name } : at);
  if (frame?.original) return withName({ file: frame.original.source, line: frame.original.line, column: frame.original.column, mapped: true });
  if (frame) return withName({ file: frame.url || '<anonymous>', line: frame.line, column: frame.column, mapped: false });
  // A pseudo-URL (`about:client`) is no place to name; the JSON report keeps it.
  if (event.location && isPlaceUrl(event.location.url)) return { file: event.location.url, line: event.location.line, column: event.location.column, mapped: false };
  return undefined;
}

/** The stack in V8's shape with each mapped frame at its original position; undefined when nothing was mapped. */
export function originalStack(frames: readonly Frame[] | undefined): string | undefined {
  if (!frames?.some((f) => f.original)) return undefined;
  return frames
    .map((f) => {
      const name = f.original?.functionName ?? f.functionName;
      const at = f.original ? `${f.original.source}:${f.original.line}:${f.original.column}` : `${f.url}:${f.line}:${f.column}`;
      return name ? `    at ${name} (${at})` : `    at ${at}`;
    })
    .join('\n');
}

function toCliError(event: DaebugEvent, retry: number, test: CliTest, cause: RootCause | undefined, events: readonly DaebugEvent[] = []): CliError {
  const error: CliError = {
    message: event.message,
    source: event.source,
    realm: event.realm,
    time: event.time,
    expected: event.expected,
    unexpected: event.unexpected ?? false,
    rootCause: cause?.event === event,
    retry,
    test,
  };
  if (cause?.event === event) error.rootCauseReason = cause.reason;
  // The line the report names: a frame of the app, else the line found by evidence, else where it surfaced.
  const toFix = lineToFix(event, events);
  // The browser's default place (the first line of the realm's script) is no place: said why, in a `note:` line.
  const unplaced = toFix ? undefined : unplacedAt(event, events);
  const location: CliLocation | undefined = toFix ? { file: toFix.file, line: toFix.line, column: toFix.column, mapped: toFix.mapped, ...(toFix.functionName ? { functionName: toFix.functionName } : {}) } : unplaced ? undefined : locationOf(event);
  if (location) error.location = location;
  if (unplaced) error.unplaced = unplacedNote(unplaced);
  if (toFix?.found) error.found = lineToFixHow(event, toFix.found);
  if (toFix?.snippet) error.snippet = toFix.snippet;
  // The browser's line about a failed load names no URL in its words: the resource is said on a line of its own.
  const load = failedLoadOf(event);
  if (load) error.url = load.url;
  if (event.stack) error.stack = event.stack;
  const mapped = originalStack(event.frames);
  if (mapped) error.originalStack = mapped;
  // A report written before the default place was known has it as its one frame: no frame to show.
  if (event.frames?.length && !browserDefaultPlace(event)) error.frames = event.frames;
  if (event.hint) error.hint = event.hint;
  if (event.fingerprint) error.fingerprint = event.fingerprint;
  if (event.known !== undefined) error.known = event.known;
  if (event.sightings) error.sightings = event.sightings;
  return error;
}

export interface CollectErrorsOptions {
  /** The reports folder as given, prefixed to report paths. */
  dir: string;
  limit: number;
  /** Also list errors that matched `daebugIgnore` or `daebug.expectError`. @default false */
  includeExpected?: boolean;
  /** Only errors this says are new (not in the baseline). */
  isNew?: ((event: DaebugEvent) => boolean) | undefined;
}

/**
 * The most recent `limit` errors across the reports (every attempt of each test), by event time, returned
 * oldest first. Ties keep the reports' own order. Expected errors (the test said so) are only counted unless
 * `includeExpected`.
 */
export function collectErrors(files: readonly ReportFile[], options: CollectErrorsOptions): ErrorsOutput {
  const all: { at: number; error: CliError }[] = [];
  let expectedLeftOut = 0;
  let knownLeftOut = 0;
  for (const { row, report } of files) {
    const test = cliTest(options.dir, row);
    for (const attempt of [...(report.attempts ?? []), report]) {
      // The root cause the attempt's Markdown names, chosen by the same ranking.
      const cause = attempt.events.some((e) => e.unexpected) ? rankRootCause(attempt) : undefined;
      // One block per problem: a sighting of another error is in its block, and repeats of an error count in the first's.
      const byGroup = new Map<string, CliError>();
      for (const event of attempt.events) {
        if (!isErrorEvent(event) || event.sightingOf !== undefined) continue;
        if (options.isNew && (!event.unexpected || !options.isNew(event))) {
          if (event.unexpected) knownLeftOut++;
          continue;
        }
        if (event.expected && !options.includeExpected) {
          expectedLeftOut++;
          continue;
        }
        // The same error logged again with the same words; other words (`noise 1`, `noise 2`) are other lines to read.
        const group = event.fingerprint ? `${event.fingerprint}\u0000${event.expected}\u0000${headline(event.message)}` : undefined;
        const first = group ? byGroup.get(group) : undefined;
        if (first && !(cause?.event === event)) {
          first.count = (first.count ?? 1) + 1;
          continue;
        }
        const error = toCliError(event, attempt.test.retry, test, cause, attempt.events);
        if (group && !first) byGroup.set(group, error);
        all.push({ at: Date.parse(event.time), error });
      }
    }
  }
  // Array.prototype.sort is stable: equal times stay in report order.
  all.sort((a, b) => (Number.isNaN(a.at) || Number.isNaN(b.at) ? 0 : a.at - b.at));
  return { dir: options.dir, total: all.length, limit: options.limit, expectedLeftOut, ...(options.isNew ? { knownLeftOut } : {}), errors: all.slice(Math.max(0, all.length - options.limit)).map((e) => e.error) };
}
