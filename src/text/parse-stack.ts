/** A stack's text (Chromium, Node, Firefox, WebKit) into frames: plain text parsing that capture and enrichment share. */
import { parse as parseLine } from 'stacktrace-parser';

/** One frame of a captured stack, as the browser or Node printed it. Line and column are 1-based; 0 means unknown. */
export interface ParsedFrame {
  functionName?: string | undefined;
  url: string;
  line: number;
  column: number;
  /** Chromium's `eval at …` frames: the position is inside code that was evaluated (e.g. by `daebug.eval`). */
  evaluated?: boolean | undefined;
  /** CDP frames only: the first frame of an async parent, named by what scheduled it. */
  asyncParent?: string | undefined;
}

const V8_FRAME = /^\s*at\s/;
// "    at eval (eval at evaluate (:370:30), <anonymous>:3:29)": the outer position is the eval call, the inner one is ours.
const V8_EVAL = /^\s*at (?:(.*?) )?\(eval at .*, ([^,()]*?):(\d+):(\d+)\)\s*$/;
// Gecko and JavaScriptCore print "name@url:line:col", "@url:line:col" or a bare "url:line:col".
const OTHER_FRAME = /@|^\s*[a-z][\w+.-]*:\/\/?\S*:\d+(?::\d+)?\s*$/i;
const UNKNOWN = '<unknown>';

/**
 * Parses a stack from Chromium/Node (`    at fn (url:1:2)`), Firefox (`fn@url:1:2`) or WebKit (`fn@url:1:2`,
 * `global code@url:1:2`) into frames. The message lines before the frames are skipped, even when they look like
 * positions ("port 8080:3"), and so are frames without a position (`[native code]`, `Promise.all (index 0)`).
 * Parsing ends at a "Caused by: " line.
 */
export function parseStack(stack: string, message?: string, maxFrames = 50): ParsedFrame[] {
  const body = message && stack.startsWith(message) ? stack.slice(message.length) : stack;
  const lines = body.split('\n');
  const v8 = lines.some((line) => V8_FRAME.test(line));
  const frames: ParsedFrame[] = [];
  for (const line of lines) {
    // The cause chain daebug appends is the causes' own frames: they are parsed from `cause[]`, not here.
    if (frames.length >= maxFrames || line.startsWith('Caused by: ')) break;
    if (v8 ? !V8_FRAME.test(line) : !OTHER_FRAME.test(line)) continue;
    const frame = parseFrameLine(line);
    if (frame) frames.push(frame);
  }
  return frames;
}

function parseFrameLine(line: string): ParsedFrame | undefined {
  const evaluated = V8_EVAL.exec(line);
  if (evaluated) {
    // V8 names the evaluated function itself "eval"; only a real name says something.
    const name = evaluated[1] === 'eval' ? undefined : cleanName(evaluated[1]);
    return { functionName: name, url: evaluated[2] ?? '', line: Number(evaluated[3]), column: Number(evaluated[4]), evaluated: true };
  }
  const [parsed] = parseLine(line);
  if (!parsed || parsed.lineNumber === null || parsed.file === null || parsed.file.startsWith('[native')) return undefined;
  return { functionName: cleanName(parsed.methodName), url: parsed.file, line: parsed.lineNumber, column: parsed.column ?? 0 };
}

function cleanName(name: string | undefined): string | undefined {
  if (!name || name === UNKNOWN) return undefined;
  // V8 prefixes awaited frames with "async "; Firefox marks them "async*".
  const cleaned = name.replace(/^async\s+/, '').replace(/^async\*/, '').trim();
  return cleaned || undefined;
}

/** The identifier a frame's function is declared with: `u` for "Object.u [as checkoutNow]", `Foo` for "new Foo". */
export function declaredName(functionName: string | undefined): string | undefined {
  if (!functionName) return undefined;
  const own = functionName.replace(/\s*\[as [^\]]*\]$/, '').replace(/^new\s+/, '');
  const last = own.split('.').pop() ?? '';
  return /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(last) ? last : undefined;
}
