import type { TextLines } from './text-lines';

const SEARCH_START = 6;
const SEARCH_AROUND = 2;

/**
 * Maps a position inside code that `daebug.eval` sent to the page back to the test file it was written in.
 * The page ran the function's text (Playwright's transpiled spec: types stripped, layout kept), so the function's
 * lines follow the call site; a line is accepted when it matches ignoring whitespace, or holds the token at the column.
 */
export function locateEvaluated(code: string, line: number, column: number, spec: TextLines, callLine: number): { line: number; column: number } | undefined {
  const codeLines = code.split('\n');
  const codeLine = codeLines[line - 1];
  if (codeLine === undefined || callLine < 1) return undefined;
  const start = functionStart(codeLines[0] ?? '', spec, callLine);
  const target = start + line - 1;
  const exact = nearest(target, (n) => {
    const text = spec.line(n);
    return text !== undefined && squash(text) === squash(codeLine) && squash(text) !== '';
  });
  if (exact !== undefined) return { line: exact, column: sameTokensColumn(codeLine, spec.line(exact) ?? '', column) };
  const token = tokenAt(codeLine, column);
  if (!token) return undefined;
  const found = nearest(target, (n) => spec.line(n)?.includes(token) ?? false);
  if (found === undefined) return undefined;
  const specLine = spec.line(found) ?? '';
  const expected = column - 1 + shift(codeLine, specLine, line === 1);
  return { line: found, column: closestIndex(specLine, token, expected) + 1 };
}

/** The spec line the evaluated function starts on: the call line, or a few lines below when arguments wrap. */
function functionStart(firstCodeLine: string, spec: TextLines, callLine: number): number {
  const squashed = squash(firstCodeLine);
  const arrow = squashed.indexOf('=>');
  const head = arrow === -1 ? squashed.slice(0, 10) : squashed.slice(0, arrow + 2);
  if (head) {
    for (let n = callLine; n < callLine + SEARCH_START; n++) {
      const text = spec.line(n);
      if (text !== undefined && squash(text).includes(head)) return n;
    }
  }
  return callLine;
}

function nearest(target: number, accept: (line: number) => boolean): number | undefined {
  for (let d = 0; d <= SEARCH_AROUND; d++) {
    if (target - d >= 1 && accept(target - d)) return target - d;
    if (d && accept(target + d)) return target + d;
  }
  return undefined;
}

function squash(text: string): string {
  return text.replace(/\s+/g, '');
}

/** Column in a line that differs from the code line only by whitespace: count the non-space characters before it. */
function sameTokensColumn(codeLine: string, specLine: string, column: number): number {
  const before = squash(codeLine.slice(0, Math.max(0, column - 1))).length;
  let seen = 0;
  for (let i = 0; i < specLine.length; i++) {
    if (/\s/.test(specLine[i]!)) continue;
    if (seen === before) return i + 1;
    seen++;
  }
  return specLine.length + 1;
}

/** The identifier at a 1-based column, or the few characters there when it is punctuation. */
function tokenAt(line: string, column: number): string | undefined {
  const at = Math.max(0, column - 1);
  const word = /[\p{L}\p{N}_$]/u;
  if (at < line.length && word.test(line[at]!)) {
    let start = at;
    let end = at;
    while (start > 0 && word.test(line[start - 1]!)) start--;
    while (end < line.length && word.test(line[end]!)) end++;
    return line.slice(start, end);
  }
  const rest = line.slice(at).trim().slice(0, 8);
  return rest || undefined;
}

function shift(codeLine: string, specLine: string, firstLine: boolean): number {
  if (firstLine) {
    const inSpec = specLine.indexOf('=>');
    const inCode = codeLine.indexOf('=>');
    return inSpec !== -1 && inCode !== -1 ? inSpec - inCode : 0;
  }
  const indent = (text: string) => text.length - text.trimStart().length;
  return indent(specLine) - indent(codeLine);
}

function closestIndex(text: string, token: string, expected: number): number {
  let best = text.indexOf(token);
  for (let at = best; at !== -1; at = text.indexOf(token, at + 1)) {
    if (Math.abs(at - expected) < Math.abs(best - expected)) best = at;
  }
  return Math.max(0, best);
}
