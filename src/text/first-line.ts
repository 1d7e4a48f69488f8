/** A text's first line, cut to a length: how stack fetching, hints, CI annotations and reports shorten a message. */

/** How `firstLine` cuts the line it returns. */
export interface FirstLineOptions {
  /** A longer line is cut to its first `max` characters and ends in `…`. @default Infinity */
  max?: number;
  /** Whitespace around the line is dropped (before `max` is applied). @default false */
  trim?: boolean;
  /** A `\r` before the line break is not part of the line, as in CRLF text. @default false */
  crlf?: boolean;
}

/** The first line of `text`: everything before its first `\n` (or all of it). */
export function firstLine(text: string, options: FirstLineOptions = {}): string {
  const { max = Infinity, trim = false, crlf = false } = options;
  const head = text.split(crlf ? /\r?\n/ : '\n', 1)[0] ?? '';
  const line = trim ? head.trim() : head;
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
