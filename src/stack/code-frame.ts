import type { TextLines } from './text-lines';

export interface CodeFrameOptions {
  /** Lines shown before and after the line. @default 2 */
  context?: number;
  /** Characters shown of a line; longer (minified) lines show a window around the column. @default 120 */
  width?: number;
  /** A caret under the column; a line found by text, not by a frame, has no column and is only marked. @default true */
  caret?: boolean;
}

/**
 * A code frame like Playwright's and Babel's: the line with `>` and a caret under the 1-based column, with the
 * lines around it, numbered. Undefined when the line is not in the source.
 *
 *     11 | export function priceOf(item: LineItem): number {
 *   > 12 |   const unit = item.product!.price;
 *        |                              ^
 *     13 |   return unit * item.quantity;
 */
export function codeFrame(source: TextLines, line: number, column: number, options: CodeFrameOptions = {}): string | undefined {
  const context = options.context ?? 2;
  const width = Math.max(20, options.width ?? 120);
  const target = source.line(line);
  if (line < 1 || target === undefined) return undefined;
  const first = Math.max(1, line - context);
  // A text that ends with a line break has no line after it: an editor shows none, nor does the frame.
  const lines = source.count > 1 && source.line(source.count) === '' && source.text.endsWith('\n') ? source.count - 1 : source.count;
  const last = Math.min(Math.max(lines, line), line + context);
  const col = Math.max(1, Math.min(column || 1, target.length + 1));
  // One window for every line keeps them aligned with the caret.
  const start = target.length > width ? Math.max(0, Math.min(col - 1 - Math.floor(width / 2), target.length - width)) : 0;
  const gutter = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const text = clip(source.line(n) ?? '', start, width);
    const marker = n === line ? '>' : ' ';
    out.push(`${marker} ${String(n).padStart(gutter)} |${text ? ` ${text}` : ''}`);
    if (n === line && options.caret !== false) {
      const lead = (start > 0 ? '…' : '') + target.slice(start, col - 1);
      out.push(`  ${' '.repeat(gutter)} | ${lead.replace(/[^\t]/g, ' ')}^`);
    }
  }
  return out.join('\n');
}

function clip(text: string, start: number, width: number): string {
  if (start === 0 && text.length <= width) return text.replace(/\s+$/, '');
  const window = text.slice(start, start + width);
  return `${start > 0 ? '…' : ''}${window}${start + width < text.length ? '…' : ''}`;
}
