/**
 * "Errors across the run": a run's error groups, most widespread first, new ones marked. Pure; `index.md` opens with
 * them as Markdown, and `npx daebug groups` (and its MCP tool) prints the same lines as plain text.
 */
import { headline } from '../model/headline';
import type { ErrorGroup, FixedGroup } from '../model/error-group';
import type { FirstSeen } from '../model/history-summary';
import { code, inline, plainLine } from './fence';
import { firstLine } from '../text/first-line';

/** How page text, code and emphasis are written: escaped Markdown for index.md, as they are for a terminal. */
export interface Style {
  text(text: string, max: number): string;
  code(text: string): string;
  strong(text: string): string;
  /** The section's own heading lines: index.md has one, the terminal does not. */
  title: readonly string[];
  /** A part's heading. */
  heading(text: string): string;
}

const MARKDOWN: Style = { text: inline, code, strong: (text) => `**${text}**`, title: ['## Errors across the run', ''], heading: (text) => `### ${text}` };
const PLAIN: Style = { text: plainLine, code: (text) => plainLine(text, Infinity), strong: (text) => text, title: [], heading: (text) => `${text}:` };

export interface GroupsSectionInput {
  groups: readonly ErrorGroup[];
  fixed?: readonly FixedGroup[] | undefined;
  /** The baseline file as the reader should see it; set when the run had one. */
  baseline?: string | undefined;
  /** Groups listed per list before the rest is counted in one line. @default 50 */
  maxGroups?: number;
  /** How a group's first report is linked: a Markdown link relative to index.md, or a plain path. */
  link?: (report: string) => string;
  /** Plain text for a terminal or an MCP answer: nothing escaped, no Markdown, no section heading. @default false */
  plain?: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One group as one line: flags, kind, message, counts, where, first report, fingerprint. */
export function groupLine(group: ErrorGroup, link: (report: string) => string, style: Style = MARKDOWN): string {
  const flags = [group.new ? style.strong('new') : group.new === false ? 'known (in baseline)' : '', group.intermittent ? `intermittent (${group.attempts.seen} of ${group.attempts.total} attempts)` : '', group.origin !== 'app' ? group.origin : '']
    .filter(Boolean)
    .join(', ');
  const counts = `${plural(group.tests, 'test')}, ${plural(group.count, 'time')}`;
  const where = group.where ? ` · at ${style.code(group.where)}` : '';
  const first = group.reports[0] ? ` · first: ${link(group.reports[0])}` : '';
  const seen = group.firstSeen ? ` · ${firstSeenText(group.firstSeen)}` : '';
  return `${flags ? `${flags} · ` : ''}[${style.text(group.source, 40)}] ${style.text(headline(group.message), 200)} — ${counts}${where}${first}${seen} · ${style.code(group.fingerprint)}`;
}

/** `new in this run`, or `first seen 12 runs ago, commit abc1234`: when the history first had the group. */
export function firstSeenText(seen: FirstSeen): string {
  if (seen.runsAgo === 0) return 'new in this run';
  return `first seen ${seen.runsAgo} ${seen.runsAgo === 1 ? 'run' : 'runs'} ago${seen.commit ? `, commit ${seen.commit.slice(0, 7)}` : `, ${seen.endedAt.slice(0, 16).replace('T', ' ')}`}`;
}

/** New groups first (with a baseline), then by how many tests had them: the order the reader acts in. */
export function triageOrder(groups: readonly ErrorGroup[]): ErrorGroup[] {
  return [...groups].sort((a, b) => Number(b.new === true) - Number(a.new === true));
}

/**
 * `npx daebug groups --new` when every group is known: which baseline, and how many known groups were left out. The
 * path is set apart by a space whatever it starts with (`../`).
 */
export function noNewGroupsLine(baseline: string | undefined, known: number): string {
  const left = known ? ` (${plural(known, 'known group')} left out: drop --new to list them)` : '';
  return `No new errors since the baseline${baseline ? ` ${baseline}` : ''}${left}.`;
}

/** The section's lines: unexpected groups, then the other groups (warnings, failed requests), then fixed ones. */
export function formatGroupsSection(input: GroupsSectionInput): string[] {
  const style = input.plain ? PLAIN : MARKDOWN;
  const max = input.maxGroups ?? 50;
  const link = input.link ?? ((report: string) => `[${inline(report, 120)}](${encodeURI(report)})`);
  const errors = triageOrder(input.groups.filter((g) => g.unexpected));
  const others = triageOrder(input.groups.filter((g) => !g.unexpected));
  const lines = [...style.title];
  const newCount = input.groups.filter((g) => g.unexpected && g.new).length;
  if (!errors.length) lines.push('No unexpected browser errors in this run.');
  else {
    const distinct = `${plural(errors.length, 'distinct unexpected error')} (fingerprints)`;
    const baseline = input.baseline !== undefined ? `, ${newCount} new since the baseline ${style.code(input.baseline)}` : '';
    lines.push(`${distinct}${baseline}, largest first${input.baseline !== undefined ? ', new ones on top' : ''}:`, '');
    errors.slice(0, max).forEach((g, i) => lines.push(`${i + 1}. ${groupLine(g, link, style)}`));
    if (errors.length > max) lines.push('', `… and ${errors.length - max} more: ${style.code('npx daebug groups')} or ${style.code('groups')} in index.json.`);
  }
  if (others.length) {
    lines.push('', style.heading(`Also seen, not counted as unexpected (${plural(others.length, 'group')}: warnings, failed requests, browser lines)`), '');
    others.slice(0, Math.min(max, 20)).forEach((g) => lines.push(`- ${groupLine(g, link, style)}`));
    if (others.length > Math.min(max, 20)) lines.push(`- … and ${others.length - Math.min(max, 20)} more in index.json.`);
  }
  if (input.fixed?.length) {
    lines.push('', style.heading(`Fixed since the baseline (${plural(input.fixed.length, 'group')} in the baseline did not happen in this run)`), '');
    input.fixed.slice(0, max).forEach((f) => lines.push(`- [${style.text(f.source, 40)}] ${style.text(headline(f.message), 160)}${f.where ? ` · ${style.code(f.where)}` : ''} · ${style.code(f.fingerprint)}`));
    if (input.fixed.length > max) lines.push(`- … and ${input.fixed.length - max} more in index.json.`);
    lines.push('', `Drop them from the baseline with ${style.code('npx daebug baseline --prune')}.`);
  }
  return lines;
}
