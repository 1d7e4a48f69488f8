import { firstUserFrame, stackLines } from '../format/frames';
import { positionText } from '../model/position-text';
import type { CliError, CliLocation, ErrorsOutput } from './schema';
import { titlePathText } from './test-query';

export const NO_ERRORS = 'No JavaScript errors captured';

const FRAME_LINE = /^\s*at\s|@.*:\d+(:\d+)?\)?$/;

/** An Error's own headline (`Error: …`, `TypeError: …`, `Uncaught SyntaxError …`): printed as the page gave it. */
const ERROR_HEADLINE = /^(?:Uncaught\b|(?:[A-Z][\w$]*)?(?:Error|Exception)(?::|$))/;

/** The stack's frame lines: the message lines it starts with are already the block's first line. */
export function stackFrames(stack: string, message: string): string[] {
  const lines = stack.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const first = lines.findIndex((line) => FRAME_LINE.test(line));
  const frames = first === -1 ? (stack.trim() === message.trim() ? [] : lines) : lines.slice(first);
  return frames.map((line) => (line.startsWith(' ') ? line : `    ${line}`));
}

/** The block's first line: an Error's message as it is, anything else (a console call's text, a thrown string) after its source. */
export function headline(error: Pick<CliError, 'message' | 'source'>): string {
  return ERROR_HEADLINE.test(error.message) ? error.message : `${error.source}: ${error.message}`;
}

/** `src/cart.ts:12:5 in addItem`, as the Markdown report's `frameWhere` writes it. */
export function locationText(location: CliLocation): string {
  return `${positionText(location.file, location.line, location.column)}${location.functionName ? ` in ${location.functionName}` : ''}`;
}

/**
 * The stack as the Markdown report shows it: the mapped frames with library runs folded (`… 9 frames in react-dom`)
 * and the first user frame marked `>`; the browser's own stack lines when nothing was parsed into frames.
 */
function stackOf(error: CliError): string[] {
  if (error.frames?.length) return stackLines(error.frames);
  return error.stack ? stackFrames(error.stack, error.message) : [];
}

/**
 * One error: its message (prefixed by its source unless it is an Error's own headline), whether it is its test's
 * root cause, `  at <file:line:col in function>` (the first user frame, as in the Markdown report), the folded
 * stack, the hint, the test, the time and the report, then `---`.
 */
export function formatErrorBlock(error: CliError): string {
  const lines = [headline(error)];
  if (error.rootCause) lines.push(`  root cause of this test${error.rootCauseReason ? `: ${error.rootCauseReason}` : ''}`);
  // Frames of which none is the app's: the Markdown names no place either, and the folded stack shows where it surfaced.
  const located = error.location && !(error.frames?.length && !firstUserFrame(error.frames)) ? error.location : undefined;
  if (located) lines.push(`  at ${locationText(located)}`);
  else if (error.frames?.length) lines.push('  (no frame of the stack is in your code)');
  const frames = stackOf(error);
  // A top frame that only repeats the location line is left out: a raw stack's anonymous frame, or a stack of one
  // frame. The folded stack keeps its marked first user frame otherwise, as the Markdown does.
  const top = frames[0]?.replace(/^\s*(?:>\s*)?(?:at\s+)?/, '');
  if (located && top === locationText(located) && (frames.length === 1 || !error.frames?.length)) frames.shift();
  lines.push(...frames);
  if (error.hint) lines.push(...error.hint.split('\n').map((line, i) => (i ? `        ${line}` : `  hint: ${line}`)));
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

/** `daebug errors` text: the chosen errors oldest first, a first line when older ones were left out. */
export function formatErrors(output: ErrorsOutput, testFilter?: string): string {
  if (!output.errors.length) return [`${NO_ERRORS}${testFilter === undefined ? '' : ` in tests matching ${JSON.stringify(testFilter)}`}`, ...expectedNote(output.expectedLeftOut)].join('\n') + '\n';
  const lines: string[] = [];
  if (output.total > output.errors.length) lines.push(`The ${output.errors.length} most recent of ${output.total} errors, oldest first (--limit ${output.limit}):`, '');
  for (const error of output.errors) lines.push(formatErrorBlock(error));
  lines.push(...expectedNote(output.expectedLeftOut));
  return lines.join('\n') + '\n';
}
