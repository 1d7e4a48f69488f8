import type { ErrorGroup } from '../model/error-group';
import type { HistorySummary } from '../model/history-summary';
import { formatHistorySections } from './history-sections';

/** One test with unexpected errors, as a row of the job summary. */
export interface SummaryRow {
  /** `file:line` relative to the repository root. */
  location: string;
  title: string;
  status: string;
  strict: boolean;
  unexpected: number;
  firstError: string;
  /** The Markdown report's path relative to the repository root. */
  report: string;
}

export interface StepSummaryInput {
  rows: readonly SummaryRow[];
  /** Tests the reporter saw (final attempts). */
  tests: number;
  /** The run index, relative to the repository root. */
  index: string;
  /** Rows listed before the rest is counted in one line. @default 100 */
  maxRows?: number;
  /** The run's error groups: listed before the tests, new ones first. */
  groups?: readonly ErrorGroup[];
  /** A report file name as a path relative to the repository root. */
  report?: (name: string) => string;
  /** The history across runs (the reporter's `history`): flaky and failing tests after the run's own tables. */
  history?: HistorySummary;
}

// The summary is Markdown rendered as HTML: page text must neither end a cell nor open a tag.
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/`/g, "'");
}

/** The Markdown daebug appends to `$GITHUB_STEP_SUMMARY`: a table of tests with unexpected browser errors. */
export function formatStepSummary(input: StepSummaryInput): string {
  const text = formatRunSummary(input);
  const history = input.history ? formatHistorySections(input.history, 4) : [];
  return history.length ? `${text}${history.join('\n')}\n\n` : text;
}

function formatRunSummary(input: StepSummaryInput): string {
  const maxRows = input.maxRows ?? 100;
  const total = input.rows.reduce((sum, row) => sum + row.unexpected, 0);
  const lines = ['### daebug: unexpected browser errors', ''];
  if (!input.rows.length) {
    lines.push(`No unexpected browser errors in ${input.tests} ${input.tests === 1 ? 'test' : 'tests'}. Index: \`${cell(input.index)}\``, '');
    return lines.join('\n');
  }
  lines.push(...groupsTable(input, maxRows));
  lines.push(
    `${input.rows.length} of ${input.tests} ${input.tests === 1 ? 'test' : 'tests'} had ${total} unexpected browser ${total === 1 ? 'error' : 'errors'}. Index: \`${cell(input.index)}\``,
    '',
    '| Test | Status | Unexpected | First error | Report |',
    '| --- | --- | ---: | --- | --- |',
  );
  for (const row of input.rows.slice(0, maxRows)) {
    const status = row.strict ? `${row.status} (strict)` : row.status;
    lines.push(`| ${cell(row.title)}<br>\`${cell(row.location)}\` | ${cell(status)} | ${row.unexpected} | ${cell(row.firstError)} | \`${cell(row.report)}\` |`);
  }
  if (input.rows.length > maxRows) lines.push('', `… and ${input.rows.length - maxRows} more tests with unexpected errors: see the index.`);
  lines.push('');
  return lines.join('\n');
}

/** The distinct errors: new ones first (with a baseline), then by tests; one row each with its first report. */
function groupsTable(input: StepSummaryInput, maxRows: number): string[] {
  const groups = (input.groups ?? []).filter((g) => g.unexpected);
  if (!groups.length) return [];
  const ordered = [...groups].sort((a, b) => Number(b.new === true) - Number(a.new === true));
  const withBaseline = groups.some((g) => g.new !== undefined);
  const fresh = groups.filter((g) => g.new).length;
  const lines = [
    `**${groups.length} distinct ${groups.length === 1 ? 'error' : 'errors'}**${withBaseline ? `, ${fresh} new since the baseline` : ''}:`,
    '',
    '| | Error | Tests | Times | Where | First report |',
    '| --- | --- | ---: | ---: | --- | --- |',
  ];
  for (const g of ordered.slice(0, maxRows)) {
    const flag = g.new ? '**new**' : g.new === false ? 'known' : '';
    const intermittent = g.intermittent ? ` (intermittent, ${g.attempts.seen}/${g.attempts.total} attempts)` : '';
    const report = g.reports[0] ? `\`${cell(input.report ? input.report(g.reports[0]) : g.reports[0])}\`` : '';
    lines.push(`| ${flag} | [${cell(g.source)}] ${cell((g.message.split(/\r?\n/, 1)[0] ?? '').slice(0, 200))}${intermittent} | ${g.tests} | ${g.count} | ${g.where ? `\`${cell(g.where)}\`` : ''} | ${report} |`);
  }
  if (ordered.length > maxRows) lines.push('', `… and ${ordered.length - maxRows} more distinct errors: see the index.`);
  lines.push('');
  return lines;
}
