import fs from 'node:fs';
import path from 'node:path';
import { parseBlocks } from './markdown-structure';

/**
 * The relative links of a Markdown file and whether each resolves: to a file or folder inside a root (the installed
 * package), and, with a `#fragment`, to a heading of the Markdown file it names, by GitHub's rule for heading anchors.
 * Links in fenced code and in code spans are text, not links; absolute URLs (`https:`, `mailto:`) are not checked.
 */

export interface MarkdownLink {
  /** The file the link is in, relative to the root. */
  file: string;
  line: number;
  target: string;
}

const INLINE_LINK = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+["'(].*)?$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The links of `markdown` that name a path or a fragment of this file, in order. */
export function relativeLinks(markdown: string, file: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const block of parseBlocks(markdown)) {
    if (block.kind === 'fence' || !('text' in block)) continue;
    // A heading's text is stored without its hashes; every other block keeps its line as written.
    const text = block.text.replace(/(`+)[\s\S]*?\1/g, '');
    const definition = REFERENCE_DEFINITION.exec(text);
    const targets = definition ? [definition[1]!] : [...text.matchAll(INLINE_LINK)].map((match) => match[1]!);
    for (const target of targets) if (!SCHEME.test(target) && !target.startsWith('//')) links.push({ file, line: block.line, target });
  }
  return links;
}

/**
 * GitHub's anchors for the headings of `markdown`: the heading's text as shown (code, emphasis and link syntax
 * gone), lower-cased, without punctuation other than `-` and `_`, spaces made dashes; a repeated one gets `-1`, `-2`.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const block of parseBlocks(markdown)) {
    if (block.kind !== 'heading' && block.kind !== 'setext') continue;
    const shown = block.text
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/`([^`]*)`/g, '$1')
      .replace(/<[^>]+>/g, '');
    const base = shown
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Why `link` does not resolve inside `root`, or undefined when it does. */
export function deadLinkReason(link: MarkdownLink, root: string): string | undefined {
  const [rawPath, rawFragment] = splitOnce(link.target, '#');
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return 'not a valid URL path';
  }
  const from = path.join(root, link.file);
  const target = decoded === '' ? from : path.resolve(path.dirname(from), decoded);
  if (!fs.existsSync(target)) return `no such file in the package: ${path.relative(root, target)}`;
  // Through links too: a file reached by a symbolic link out of the package is not in what npm installed.
  const inside = path.relative(fs.realpathSync(root), fs.realpathSync(target));
  if (inside.startsWith('..') || path.isAbsolute(inside)) return `points outside the package, to ${target}`;
  if (rawFragment === undefined || rawFragment === '') return undefined;
  if (!target.endsWith('.md') || fs.statSync(target).isDirectory()) return undefined;
  const anchor = decodeURIComponent(rawFragment).toLowerCase();
  if (!headingAnchors(fs.readFileSync(target, 'utf8')).has(anchor)) return `no heading with the anchor #${anchor} in ${path.relative(root, target)}`;
  return undefined;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

