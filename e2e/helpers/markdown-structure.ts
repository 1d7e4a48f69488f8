/**
 * Reads a daebug Markdown report back into blocks with CommonMark's rules for what changes structure (ATX and
 * setext headings, fenced code, thematic breaks, block quotes, HTML blocks, indented code), and checks that the
 * structure is the one the formatter writes. Page text that escaped its fence shows up here as a stray block.
 */

export type Block =
  | { kind: 'heading'; line: number; level: number; text: string }
  | { kind: 'fence'; line: number; info: string; content: string; closed: boolean }
  | { kind: 'rule'; line: number }
  | { kind: 'quote'; line: number; text: string }
  | { kind: 'list'; line: number; text: string }
  | { kind: 'html'; line: number; text: string }
  | { kind: 'indented'; line: number; text: string }
  | { kind: 'setext'; line: number; level: number; text: string }
  | { kind: 'text'; line: number; text: string };

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/;
const THEMATIC = /^ {0,3}((?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const HTML_START = /^ {0,3}<(?:[a-zA-Z][\w-]*|\/[a-zA-Z]|!--|\?|![A-Z]|!\[CDATA\[)/;

export function parseBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let previousKind: Block['kind'] | 'blank' = 'blank';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    const open = FENCE_OPEN.exec(line);
    // A backtick fence's info string cannot contain a backtick: such a line is text, not a fence.
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      const marker = open[1]!;
      const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
      const content: string[] = [];
      let closed = false;
      for (i++; i < lines.length; i++) {
        if (close.test(lines[i]!)) {
          closed = true;
          break;
        }
        content.push(lines[i]!);
      }
      blocks.push({ kind: 'fence', line: lineNo, info: open[2]!.trim(), content: content.join('\n'), closed });
      previousKind = 'fence';
      continue;
    }
    if (/^\s*$/.test(line)) {
      previousKind = 'blank';
      continue;
    }
    let block: Block;
    const setext = SETEXT.exec(line);
    if ((previousKind === 'text' || previousKind === 'list') && setext && !(setext[1]![0] === '-' && THEMATIC.test(line) && previousKind === 'list')) {
      // A paragraph line followed by === or --- becomes a heading.
      block = { kind: 'setext', line: lineNo, level: setext[1]![0] === '=' ? 1 : 2, text: lines[i - 1]! };
    } else if (THEMATIC.test(line)) block = { kind: 'rule', line: lineNo };
    else if (ATX.test(line)) {
      const m = ATX.exec(line)!;
      block = { kind: 'heading', line: lineNo, level: m[1]!.length, text: (m[2] ?? '').trim() };
    } else if (/^ {0,3}>/.test(line)) block = { kind: 'quote', line: lineNo, text: line };
    else if (/^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/.test(line)) block = { kind: 'list', line: lineNo, text: line };
    else if (HTML_START.test(line)) block = { kind: 'html', line: lineNo, text: line };
    else if (/^(?: {4}|\t)/.test(line) && previousKind === 'blank') block = { kind: 'indented', line: lineNo, text: line };
    else block = { kind: 'text', line: lineNo, text: line };
    blocks.push(block);
    previousKind = block.kind;
  }
  return blocks;
}

/** Everything outside fenced blocks: where page text must never appear. */
export function textOutsideFences(markdown: string): string {
  return parseBlocks(markdown)
    .filter((b) => b.kind !== 'fence')
    .map((b) => ('text' in b ? b.text : ''))
    .join('\n');
}

const SECTION_HEADINGS = new Set(['Where the test failed', 'Root cause', 'Unexpected errors', 'Warnings', 'Transcript', 'Dropped events', "daebug's own diagnostics", 'Earlier attempts', 'Allow-list entries that matched nothing', 'If an error is expected']);
const FENCE_INFO = /^(?:JS|JSON|Text|Error)(?: [\w.:-]+)?$/;
const QUOTE_LINES = [
  /^> \*\*agent\*\* (?:to .+|job .+) at \d\d:\d\d:\d\d$/,
  /^> \*\*.+\*\* to agent(?: at \d\d:\d\d:\d\d \(.+\)|: unfinished)$/,
  /^> \*\*.+\*\* (?:background|during step) at \d\d:\d\d:\d\d$/,
  /^> Capture was off/,
];
export const RULE_TEXT = '-'.repeat(70);

/**
 * The structure problems of a daebug Markdown report; empty when every heading, fence, rule and quote is one
 * the formatter writes: one title heading (and one per earlier attempt), known section headings, closed fences
 * with known info strings, rules of 70 dashes after a blank line, and only the formatter's own quote lines.
 */
export function structureProblems(markdown: string): string[] {
  const problems: string[] = [];
  const lines = markdown.split('\n');
  const blocks = parseBlocks(markdown);
  let titles = 0;
  for (const block of blocks) {
    const where = `line ${block.line}`;
    switch (block.kind) {
      case 'heading': {
        const attemptTitle = block.level === 3 && !SECTION_HEADINGS.has(block.text);
        if (block.level === 1 || attemptTitle) {
          titles++;
          if (block.level === 1 && block.line !== 1) problems.push(`${where}: a second title heading "${block.text}"`);
        } else if (!SECTION_HEADINGS.has(block.text) && !/^Step: /.test(block.text)) problems.push(`${where}: unknown heading "${block.text}"`);
        break;
      }
      case 'fence':
        if (!block.closed) problems.push(`${where}: fence never closed`);
        if (!FENCE_INFO.test(block.info)) problems.push(`${where}: unknown fence info "${block.info}"`);
        break;
      case 'rule':
        if (lines[block.line - 1] !== RULE_TEXT) problems.push(`${where}: a rule the formatter does not write: "${lines[block.line - 1]}"`);
        else if (lines[block.line - 2] !== '') problems.push(`${where}: rule without a blank line before it`);
        break;
      case 'quote':
        if (!QUOTE_LINES.some((re) => re.test(block.text))) problems.push(`${where}: a quote line the formatter does not write: "${block.text}"`);
        break;
      case 'setext':
        problems.push(`${where}: setext heading from "${block.text}"`);
        break;
      case 'html':
        problems.push(`${where}: raw HTML block "${block.text}"`);
        break;
      case 'indented':
        problems.push(`${where}: indented code block "${block.text}"`);
        break;
    }
  }
  if (blocks[0]?.kind !== 'heading' || blocks[0].level !== 1) problems.push('line 1: the report does not start with its title heading');
  if (titles < 1) problems.push('no title heading');
  return problems;
}

/** The headings in order, as `## Transcript`-style strings, for comparing with what a report must contain. */
export function headingOutline(markdown: string): string[] {
  return parseBlocks(markdown)
    .filter((b): b is Extract<Block, { kind: 'heading' }> => b.kind === 'heading')
    .map((b) => `${'#'.repeat(b.level)} ${b.text}`);
}

export function fences(markdown: string): Array<Extract<Block, { kind: 'fence' }>> {
  return parseBlocks(markdown).filter((b): b is Extract<Block, { kind: 'fence' }> => b.kind === 'fence');
}
