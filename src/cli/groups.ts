import path from 'node:path';
import { formatGroupsSection, noNewGroupsLine } from '../format/error-groups';
import type { ErrorGroup, FixedGroup } from '../model/error-group';
import { collectGroups, requireBaseline } from './collect-groups';
import { diagnosticText, EXIT_OK, jsonText, type CommandOutput } from './output';

export interface GroupsCommandOptions {
  dir: string;
  json?: boolean;
  /** Only groups not in the baseline. */
  new?: boolean;
  /** A baseline file to compare with instead of the run's own `daebugBaseline`. */
  baseline?: string | undefined;
}

/** `daebug groups --json`. */
export interface GroupsOutput {
  dir: string;
  baseline?: string;
  groups: ErrorGroup[];
  fixed?: FixedGroup[];
}

/** `daebug groups`: the run's distinct errors, one line each, most widespread first (new first with a baseline). */
export function groupsCommand(options: GroupsCommandOptions): CommandOutput {
  const collected = collectGroups({ dir: options.dir, baseline: options.baseline });
  if (options.new) requireBaseline(collected, 'groups');
  const all = collected.groups.groups();
  const groups = options.new ? all.filter((g) => g.new) : all;
  const output: GroupsOutput = { dir: options.dir, groups };
  if (collected.baseline !== undefined) output.baseline = collected.baseline;
  const fixed = collected.groups.fixed();
  if (fixed && !options.new) output.fixed = fixed;
  const stderr = diagnosticText(collected.folder.diagnostics);
  if (options.json) return { stdout: jsonText(output), stderr, exitCode: EXIT_OK };
  const shownBaseline = collected.baseline === undefined ? undefined : path.relative(process.cwd(), collected.baseline) || collected.baseline;
  // Plain text: a URL in a message is printed as the page had it, ready to copy (index.md escapes it for Markdown).
  const text = formatGroupsSection({ groups, fixed: output.fixed, baseline: shownBaseline, maxGroups: 1000, link: (report) => path.join(options.dir, report), plain: true }).join('\n');
  const none = options.new && !groups.length ? `${noNewGroupsLine(shownBaseline, all.filter((g) => g.unexpected).length)}\n` : '';
  return { stdout: none || `${text}\n\nRead a group's first report with: npx daebug show <report>\n`, stderr, exitCode: EXIT_OK };
}
