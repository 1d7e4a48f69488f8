import type { CliError, ErrorsOutput } from './schema';

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
  if (error.originalStack) lines.push(...stackFrames(error.originalStack, error.message));
  else if (error.stack) lines.push(...stackFrames(error.stack, error.message));
  if (error.hint) lines.push(...error.hint.split('\n').map((line, i) => (i ? `        ${line}` : `  hint: ${line}`)));
  const titlePath = error.test.titlePath.length ? error.test.titlePath.join(' › ') : error.test.title;
  lines.push(`  test: ${titlePath}${error.test.project ? ` [${error.test.project}]` : ''}${error.retry ? ` (retry ${error.retry})` : ''}`);
  lines.push(`  time: ${error.time} (${error.source} in ${error.realm}${error.expected ? ', expected: matches daebugIgnore' : ''})`);
  lines.push(`  report: ${error.test.markdown}`);
  lines.push('---');
  return lines.join('\n');
}

/** `daebug errors` text: the chosen errors oldest first, a first line when older ones were left out. */
export function formatErrors(output: ErrorsOutput, testFilter?: string): string {
  if (!output.errors.length) return `${NO_ERRORS}${testFilter === undefined ? '' : ` in tests matching ${JSON.stringify(testFilter)}`}\n`;
  const lines: string[] = [];
  if (output.total > output.errors.length) lines.push(`The ${output.errors.length} most recent of ${output.total} errors, oldest first (--limit ${output.limit}):`, '');
  for (const error of output.errors) lines.push(formatErrorBlock(error));
  return lines.join('\n') + '\n';
}
