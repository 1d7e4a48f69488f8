import { declaredName } from '../text/parse-stack';
import { mappingAt, type LoadedSourceMap } from './source-map';
import type { TextLines } from './text-lines';

const LOOKBACK_LINES = 200;
const LOOKBACK_CHARS = 512 * 1024;

/**
 * The original name of the function a frame is in. Minifiers rename functions (`function n(t)`) and browsers
 * print that name; the map names the identifier at the function's declaration, so the nearest declaration of
 * `n` before the frame's position, looked up in the map, gives the original name back.
 */
export function originalFunctionName(map: LoadedSourceMap, lines: TextLines, functionName: string | undefined, line: number, column: number): string | undefined {
  const id = declaredName(functionName);
  if (!id) return undefined;
  const pattern = declarationPattern(id);
  for (let n = line; n >= 1 && n > line - LOOKBACK_LINES; n--) {
    const text = lines.line(n);
    if (text === undefined) continue;
    const end = n === line ? Math.max(0, column - 1) : text.length;
    const start = Math.max(0, end - LOOKBACK_CHARS);
    const at = lastDeclaration(pattern, text.slice(start, end));
    if (at === undefined) continue;
    const mapping = mappingAt(map, n, start + at + 1);
    // No mapping at the identifier: the bundler did not rename it, so the printed name is the original one.
    return mapping?.name ?? id;
  }
  return undefined;
}

function declarationPattern(id: string): RegExp {
  const name = id.replace(/[$]/g, '\\$');
  const before = '(?<![\\w$])';
  return new RegExp(
    [
      `function\\*?\\s*(${name})\\s*\\(`,
      `${before}(${name})\\s*[=:]\\s*(?:async\\s*)?(?:function\\b|\\([^()]*\\)\\s*=>|[\\w$]+\\s*=>)`,
      `${before}(${name})\\s*\\([^()]*\\)\\s*\\{`,
      `class\\s+(${name})\\b`,
    ].join('|'),
    'dgu',
  );
}

function lastDeclaration(pattern: RegExp, text: string): number | undefined {
  let found: number | undefined;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const group = match.indices?.slice(1).find((range) => range !== undefined);
    if (group) found = group[0];
    if (match[0].length === 0) pattern.lastIndex++;
  }
  return found;
}
