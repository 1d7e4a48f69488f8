/**
 * An error's headline: its first line, or its whole first sentence when that line ends at a colon and the reason is
 * on the next one. React reports "Switched to client rendering because the server rendering errored:" with the
 * server's error two lines below, and Node-style logs write "Failed to load data:\n<error>": cut at the line break,
 * each would lose the one part that tells two such errors apart. Pure; used by fingerprints and every headline shown.
 */

/** The first non-empty line of `text`, with the next non-empty line joined after a colon that ends it. */
export function headline(text: string): string {
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first === -1) return '';
  const line = lines[first]!.trim();
  if (!line.endsWith(':')) return line;
  const next = lines.slice(first + 1).find((l) => l.trim() !== '');
  // A stack's first frame is no reason: `at …` belongs to the stack, not to the sentence.
  return next && !/^\s*at\s/.test(next) ? `${line} ${next.trim()}` : line;
}
