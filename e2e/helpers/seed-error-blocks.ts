/**
 * A strict reader of seed 003's error blocks, as a tool written against that format would read `daebug errors` and
 * the MCP tool `daebug_get_errors` (issue 26): any line that is not the format's throws, naming the line. Tests
 * parse the real output with it instead of matching pieces, so a block that drifts from the format fails.
 *
 *     Error: <message>
 *             <the message's further lines>
 *       at <file>:<line>:<column>
 *       at <function> (<file>:<line>:<column>)    or  at <file>:<line>:<column>,  at … 8 frames in react-dom
 *       <key>: <value>
 *               <the value's further lines>
 *     ---
 *
 * Around the blocks only daebug's two framing lines are accepted: `The N most recent of M errors, oldest first
 * (--limit N):` and a blank line before them, `(N expected errors, …)` after them.
 */

export interface Position {
  file: string;
  line: number;
  column: number;
}

export type StackLine = ({ kind: 'frame'; functionName?: string } & Position) | { kind: 'folded'; count: number; where: string };

export interface SeedErrorBlock {
  /** The text after `Error: `. */
  message: string;
  /** The first `at` line. */
  location?: Position;
  /** The `at` lines after it. */
  stack: StackLine[];
  /** `key: value` lines; a value's further lines joined with `\n`. */
  fields: Record<string, string>;
}

export interface SeedErrors {
  header?: { shown: number; total: number; limit: number };
  blocks: SeedErrorBlock[];
  footer?: string;
}

const HEADER = /^The (\d+) most recent of (\d+) errors, oldest first \(--limit (\d+)\):$/;
const FOOTER = /^\(\d+ expected errors?, matching daebugIgnore or daebug\.expectError, left out: --expected lists them\)$/;
const ERROR = /^Error: (.*)$/;
const LOCATION = /^ {2}at (\S(?:.*\S)?):(\d+):(\d+)$/;
const NAMED_FRAME = /^ {2}at (\S[^()]*?) \((\S(?:.*\S)?):(\d+):(\d+)\)$/;
const FOLDED = /^ {2}at … (\d+) (?:more )?frames? in (.+)$/;
const FIELD = /^ {2}([a-z][a-z ]*[a-z]): (.*)$/;
const CONTINUED = /^ {8}(.*)$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \(\S+ in \S.*\)$/;

/** Reads `daebug errors` text; throws at the first line that is not seed 003's format. */
export function parseSeedErrors(text: string): SeedErrors {
  const lines = text.replace(/\n$/, '').split('\n');
  const result: SeedErrors = { blocks: [] };
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`line ${i + 1} is not seed 003's format (${why}): ${JSON.stringify(lines[i])}`);
  };
  const header = HEADER.exec(lines[0] ?? '');
  if (header) {
    result.header = { shown: Number(header[1]), total: Number(header[2]), limit: Number(header[3]) };
    i = 1;
    if (lines[i] !== '') fail('a blank line after the header');
    i++;
  }
  while (i < lines.length) {
    if (FOOTER.test(lines[i]!) && i === lines.length - 1 && result.blocks.length) {
      result.footer = lines[i]!;
      break;
    }
    const first = ERROR.exec(lines[i]!) ?? fail('a block starts with "Error: "');
    if (first[1]!.startsWith('Error:')) fail('"Error:" doubled');
    const block: SeedErrorBlock = { message: first[1]!, stack: [], fields: {} };
    i++;
    let lastKey: string | undefined;
    for (; i < lines.length && lines[i] !== '---'; i++) {
      const line = lines[i]!;
      if (line.startsWith('  at ')) {
        if (lastKey !== undefined) fail('an "at" line after the fields');
        if (!block.location && !block.stack.length) {
          const at = LOCATION.exec(line) ?? fail('the location line is "  at <file>:<line>:<column>"');
          block.location = { file: at[1]!, line: Number(at[2]), column: Number(at[3]) };
          continue;
        }
        const folded = FOLDED.exec(line);
        const named = folded ? null : NAMED_FRAME.exec(line);
        const anonymous = folded || named ? null : LOCATION.exec(line);
        if (folded) block.stack.push({ kind: 'folded', count: Number(folded[1]), where: folded[2]! });
        else if (named) block.stack.push({ kind: 'frame', functionName: named[1]!, file: named[2]!, line: Number(named[3]), column: Number(named[4]) });
        else if (anonymous) block.stack.push({ kind: 'frame', file: anonymous[1]!, line: Number(anonymous[2]), column: Number(anonymous[3]) });
        else fail('a stack line is "  at <function> (<file>:<line>:<column>)", "  at <file>:<line>:<column>" or a folded run');
        continue;
      }
      const field = FIELD.exec(line);
      if (field) {
        if (field[1] === 'at') fail('"at" is not a field');
        if (field[1]! in block.fields) fail(`a second "${field[1]}"`);
        lastKey = field[1]!;
        block.fields[lastKey] = field[2]!;
        continue;
      }
      const more = CONTINUED.exec(line);
      if (more && lastKey !== undefined) {
        block.fields[lastKey] += `\n${more[1]}`;
        continue;
      }
      // A message of several lines: its further lines come right under `Error:`, before any `at` line (issue 37).
      if (more && !block.location && !block.stack.length) {
        block.message += `\n${more[1]}`;
        continue;
      }
      fail('an "at" line, a "key: value" line or a field\'s further line indented by 8');
    }
    if (i >= lines.length) fail('a block ends with "---"');
    for (const key of ['test', 'time', 'report']) if (!(key in block.fields)) throw new Error(`the block of ${JSON.stringify(block.message)} has no "${key}:" line`);
    if (!TIME.test(block.fields['time']!)) throw new Error(`the block of ${JSON.stringify(block.message)} has a time line of another form: ${block.fields['time']}`);
    result.blocks.push(block);
    i++;
  }
  if (!result.blocks.length) throw new Error(`no error block in:\n${text}`);
  return result;
}
