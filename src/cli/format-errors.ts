/**
 * The text of `daebug errors` and of the MCP tool `daebug_get_errors`: seed 003's block per error, so that a tool
 * written against that format reads it (issue 26):
 *
 *     Error: <message>
 *       at <file>:<line>:<column>                  where it is: the first user frame, at its original position
 *       at <function> (<file>:<line>:<column>)     the stack, mapped; a run of library frames folded into one line
 *       <key>: <value>                             kind, root cause, hint, test, time, report
 *               <more of the value>                (eight spaces: a hint's or a message's further lines)
 *     ---
 *
 * Pure: the same output, the same text.
 */
import { firstUserFrame, frameFunction, framePosition, libraryNames, stackItems } from '../format/frames';
import { sightingsNote } from '../format/sightings-note';
import type { Frame } from '../model/schema';
import { positionText } from '../model/position-text';
import type { CliError, CliLocation, ErrorsOutput } from './schema';
import { titlePathText } from './test-query';

export const NO_ERRORS = 'No JavaScript errors captured';

/** An Error's own headline (`Error: …`, `TypeError: …`, `Uncaught SyntaxError …`). */
const ERROR_HEADLINE = /^(?:Uncaught\b|(?:[A-Z][\w$]*)?(?:Error|Exception)(?::|$))/;

/** Sources of thrown values: the rest (console calls, failed requests, crashes) are said on a `kind:` line. */
const THROWN_SOURCES: ReadonlySet<string> = new Set(['window.onerror', 'self.onerror', 'unhandledrejection', 'pageerror']);

/** A key line's further lines: deeper than the keys, so a reader tells them apart. */
const CONTINUED = ' '.repeat(8);

/**
 * The summary's root-cause line (`daebug summary`): an Error's message as it is, anything else (a console call's
 * text, a thrown string) after its source.
 */
export function headline(error: Pick<CliError, 'message' | 'source'>): string {
  return ERROR_HEADLINE.test(error.message) ? error.message : `${error.source}: ${error.message}`;
}

/**
 * The block's first line. The seed writes `Error: ` before the message, its own type included (`Error: Uncaught
 * ReferenceError: …`); a message that already starts with `Error:` (a plain Error's) is not prefixed again, so the
 * line never reads `Error: Error: …`.
 */
export function errorLine(message: string): string {
  return message.startsWith('Error:') ? message : `Error: ${message}`;
}

/** `kind:` for what is not a thrown Error: a thrown or rejected value of another type, a console call, a failed request. */
export function kindOf(error: Pick<CliError, 'message' | 'source' | 'url'>): string | undefined {
  if (THROWN_SOURCES.has(error.source)) return ERROR_HEADLINE.test(error.message) ? undefined : `${error.source} with a value that is not an Error`;
  if (error.source === 'network') return 'network (a failed request)';
  return error.url !== undefined ? `${error.source} (a resource the page could not load)` : error.source;
}

/** `src/cart.ts:12:5`; a URL's query left out (src/model/position-text.ts). */
export function locationText(location: Pick<CliLocation, 'file' | 'line' | 'column'>): string {
  return positionText(location.file, location.line, location.column);
}

function frameLine(frame: Frame): string {
  const name = frameFunction(frame);
  return name ? `  at ${name} (${framePosition(frame)})` : `  at ${framePosition(frame)}`;
}

const V8_FRAME = /^\s*at\s+(.*)$/;
const FIREFOX_FRAME = /^\s*([^@\s]*)@(.+:\d+(?::\d+)?)$/;

/**
 * A stack that was never parsed into frames, as `at` lines: V8's kept, Firefox's and WebKit's `fn@url:line:col`
 * rewritten. Its message lines and anything else that is not a frame are left to the JSON report.
 */
export function rawStackLines(stack: string): string[] {
  const lines: string[] = [];
  for (const line of stack.replace(/\r\n?/g, '\n').split('\n')) {
    const v8 = V8_FRAME.exec(line);
    const firefox = v8 ? null : FIREFOX_FRAME.exec(line);
    if (v8) lines.push(`  at ${v8[1]!.trim()}`);
    else if (firefox) lines.push(firefox[1] ? `  at ${firefox[1]} (${firefox[2]})` : `  at ${firefox[2]}`);
  }
  return lines;
}

/** The mapped stack as `at` lines, library runs folded, and why frames stayed unmapped (once per reason). */
function stackOf(error: CliError): { lines: string[]; unmapped: string[] } {
  if (!error.frames?.length) return { lines: error.stack ? rawStackLines(error.stack) : [], unmapped: [] };
  const lines: string[] = [];
  const unmapped: string[] = [];
  for (const item of stackItems(error.frames)) {
    if (item.kind === 'more') lines.push(`  at … ${item.count} more ${item.count === 1 ? 'frame' : 'frames'} in the JSON report`);
    else if (item.kind === 'library') lines.push(`  at … ${item.count} ${item.count === 1 ? 'frame' : 'frames'} in ${libraryNames(item.libraries)}`);
    else {
      lines.push(frameLine(item.frame));
      if (item.unmappedReason !== undefined && !item.reasonGiven) unmapped.push(item.unmappedReason);
    }
  }
  return { lines, unmapped };
}

/**
 * Where the block says the error is: the first user frame (the collected `location`); without one, the top of the
 * stack, at its original position when it was mapped, where the error surfaced; else the browser's own location.
 */
function whereOf(error: CliError): { at: string | undefined; inYourCode: boolean } {
  const frames = error.frames ?? [];
  // No frame of the app, but a line found by evidence: that line, and the `found:` line says how.
  if (error.found && error.location) return { at: locationText(error.location), inYourCode: true };
  if (!frames.length || firstUserFrame(frames)) return { at: error.location ? locationText(error.location) : undefined, inYourCode: true };
  return { at: framePosition(frames[0]!), inYourCode: false };
}

/** `  key: first line` and its further lines, indented deeper. */
function keyLines(key: string, value: string): string[] {
  return value.split('\n').map((line, i) => (i ? `${CONTINUED}${line}` : `  ${key}: ${line}`));
}

/**
 * A message's further lines, inside the block right under `Error:` as the browser printed them, each indented by 8
 * (seed 003's continuation) so that a line of the message that reads `    at App (…)` is never taken for the stack's.
 * Blank lines at its end are left out.
 */
function messageLines(rest: string[]): string[] {
  let end = rest.length;
  while (end > 0 && !rest[end - 1]!.trim()) end--;
  return rest.slice(0, end).map((line) => `${CONTINUED}${line.trimEnd()}`);
}

/**
 * One error as seed 003's block: `Error: <message>`; `  at <file>:<line>:<column>`, where it is (the first frame of
 * the app's code, at its original source when a source map had it); the stack as `  at <function> (<file>:…)` lines,
 * library runs folded (`  at … 8 frames in react-dom`), its top frame left out when it would only repeat the line
 * above (a message of several lines keeps its further lines under `Error:`); then the kind of what is not a thrown Error, whether it is its test's root
 * cause, the hint, the test, the time and the report; `---`.
 */
export function formatErrorBlock(error: CliError): string {
  const [first = '', ...rest] = error.message.replace(/\r\n?/g, '\n').replace(/^\s*\n/, '').split('\n');
  const lines = [errorLine(first), ...messageLines(rest)];
  const where = whereOf(error);
  if (where.at) lines.push(`  at ${where.at}`);
  const stack = stackOf(error);
  if (where.at && stack.lines[0] === `  at ${where.at}`) stack.lines.shift();
  lines.push(...stack.lines);
  if (error.found) lines.push(`  found: ${error.found}; no frame of the stack is in your code`);
  // The found line has no frame to show it in the stack: its code is shown here, as the Markdown shows it.
  if (error.found && error.snippet && error.location) lines.push(...keyLines('code', `${error.location.file}:${error.location.line}\n${error.snippet}`));
  const kind = kindOf(error);
  if (kind) lines.push(`  kind: ${kind}`);
  if (error.url) lines.push(`  url: ${error.url}`);
  const seen = [error.count && error.count > 1 ? `${error.count} times in this test` : '', sightingsNote(error.sightings)].filter(Boolean).join('; ');
  if (seen) lines.push(`  seen: ${seen}`);
  if (error.rootCause) lines.push(`  root cause of this test: ${error.rootCauseReason ?? 'yes'}`);
  if (!where.inYourCode) lines.push('  note: no frame of the stack is in your code; it is located where it surfaced');
  if (error.unplaced) lines.push(`  note: ${error.unplaced}`);
  for (const reason of stack.unmapped) lines.push(`  not mapped: ${reason}`);
  if (error.hint) lines.push(...keyLines('hint', error.hint));
  lines.push(`  test: ${titlePathText(error.test)}${error.test.project ? ` [${error.test.project}]` : ''}${error.retry ? ` (retry ${error.retry})` : ''}`);
  lines.push(`  time: ${error.time} (${error.source} in ${error.realm}${error.expected ? ', expected by the test' : ''})`);
  lines.push(`  report: ${error.test.markdown}`);
  lines.push('---');
  return lines.join('\n');
}

function expectedNote(count: number): string[] {
  if (!count) return [];
  return [`(${count} expected ${count === 1 ? 'error' : 'errors'}, matching daebugIgnore or daebug.expectError, left out: --expected lists them)`];
}

/** Under `--new`: the errors captured but left out because the baseline knows them. */
function knownNote(count: number | undefined): string[] {
  if (!count) return [];
  return [`(${count} known ${count === 1 ? 'error' : 'errors'}, in the baseline, captured but left out by --new: drop it to list them)`];
}

/** `daebug errors` text: the chosen errors oldest first, a first line when older ones were left out. */
export function formatErrors(output: ErrorsOutput, testFilter?: string): string {
  // Under --new, "none captured" would be false when the baseline knew what was captured.
  const none = output.knownLeftOut ? 'No new JavaScript errors captured' : NO_ERRORS;
  if (!output.errors.length) return [`${none}${testFilter === undefined ? '' : ` in tests matching ${JSON.stringify(testFilter)}`}`, ...knownNote(output.knownLeftOut), ...expectedNote(output.expectedLeftOut)].join('\n') + '\n';
  const lines: string[] = [];
  if (output.total > output.errors.length) lines.push(`The ${output.errors.length} most recent of ${output.total} errors, oldest first (--limit ${output.limit}):`, '');
  for (const error of output.errors) lines.push(formatErrorBlock(error));
  lines.push(...knownNote(output.knownLeftOut), ...expectedNote(output.expectedLeftOut));
  return lines.join('\n') + '\n';
}
