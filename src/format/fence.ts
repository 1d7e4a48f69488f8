/**
 * A fenced block that its content can never close: the fence is one backtick longer than the longest
 * backtick run in the content (at least three). The info string is kept to one line of safe characters.
 */
export function fence(info: string, content: string): string {
  let longest = 0;
  for (const match of content.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  const safeInfo = info.replace(/[`\r\n]/g, ' ').trim();
  const body = content.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  return `${ticks}${safeInfo}\n${body}\n${ticks}`;
}

/**
 * Text from a test or a page as one line of plain text (a terminal, an MCP answer): line breaks and tabs become
 * spaces, other control characters go, and it is cut at `max`. Nothing is escaped: a URL stays copyable.
 */
export function plainLine(text: string, max = 200): string {
  const oneLine = text.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '');
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/**
 * Text from a test or a page made safe for one line of Markdown outside a fence. Only what Markdown would read as
 * syntax is escaped, so that a page's `Kaboom!` reads as it was written: `!` starts an image only before `[`, which
 * is escaped itself; `~` strikes through only doubled; `#` and `>` matter only where a line starts.
 */
export function inline(text: string, max = 200): string {
  return plainLine(text, max)
    .replace(/([\\`*_[\]<|])/g, '\\$1')
    .replace(/~(?=~)|(?<=~)~/g, '\\~')
    .replace(/^(\s*)([#>])/, '$1\\$2');
}

/** Code span that its content cannot close. */
export function code(text: string): string {
  const oneLine = text.replace(/[\r\n]+/g, ' ');
  let longest = 0;
  for (const match of oneLine.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  const ticks = '`'.repeat(longest + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${oneLine}${pad}${ticks}`;
}
