import type { CliError, ErrorsOutput } from './schema';
import { titlePathText } from './test-query';

export const NO_ERRORS = 'No JavaScript errors captured';

const FRAME_LINE = /^\s*at\s|@.*:\d+(:\d+)?\)?$/;

/** The stack's frame lines: the message lines it starts with are already the block's first line. */
export function stackFrames(stack: string, message: string): string[] {
  const lines = stack.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const first = lines.findIndex((line) => FRAME_LINE.test(line));
  const frames = first === -1 ? (stack.trim() === message.trim() ? [] : lines) : lines.slice(first);
  return frames.map((line) => (line.startsWith(' ') ? line : `    ${line}`));
}

/**
 * One error as the seed's block: `Error: <message>`, `  at <file:line:col>`, the stack (mapped frames at their
 * original position), the hint, the test, the time and the report, then `---`.
 */
export function formatErrorBlock(error: CliError): string {
  const lines = [`Error: ${error.message}`];
  if (error.location) lines.push(`  at ${error.location.file}:${error.location.line}:${error.location.column}`);
  const frames = error.originalStack ? stackFrames(error.originalStack, error.message) : error.stack ? stackFrames(error.stack, error.message) : [];
  // An anonymous top frame would only repeat the location line.
  if (error.location && frames[0]?.trim() === lines[1]?.trim()) frames.shift();
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
