/** The one-line message a baseline file keeps of a group; kept apart from baseline.ts, which loads zod. */

/** A group's message as the baseline file holds it: its first line, cut to 300 characters. */
export function baselineMessage(text: string, max = 300): string {
  const line = (text.split(/\r?\n/, 1)[0] ?? '').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
