import type { IndexEntryData } from '../model/run-index';
import type { SummaryOutput } from './schema';
import { titlePathText } from './test-query';

const MAX_TITLE = 80;

/** Tests with unexpected errors first (most first), then tests that ended otherwise than expected, then the rest in index order. */
export function summaryOrder(rows: readonly IndexEntryData[]): IndexEntryData[] {
  const notAsExpected = (row: IndexEntryData) => Number(row.status !== row.expectedStatus);
  return [...rows].sort((a, b) => b.summary.unexpected - a.summary.unexpected || notAsExpected(b) - notAsExpected(a));
}

function table(rows: string[][], rightAligned: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (rightAligned.has(column) ? cell.padStart(widths[column]!) : column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  '),
  );
}

function titleCell(row: IndexEntryData): string {
  const text = titlePathText(row).replace(/[\r\n\t]+/g, ' ') + (row.project ? ` [${row.project}]` : '');
  return text.length > MAX_TITLE ? `${text.slice(0, MAX_TITLE - 1)}…` : text;
}

/** `daebug summary` text: one line about the run, then a table with one row per test. */
export function formatSummary(output: SummaryOutput): string {
  const tests = output.tests;
  const withUnexpected = tests.filter((t) => t.summary.unexpected > 0).length;
  const notAsExpected = tests.filter((t) => t.status !== t.expectedStatus).length;
  const run = output.status === undefined ? 'Run status unknown (no valid index.json)' : `Run ${output.status}${output.updatedAt ? ` (updated ${output.updatedAt})` : ''}`;
  const lines = [`${run}: ${tests.length} ${tests.length === 1 ? 'test' : 'tests'}, ${withUnexpected} with unexpected errors, ${notAsExpected} not as expected.`];
  if (!tests.length) return `${lines[0]}\n`;
  const rows = [['status', 'unexpected', 'errors', 'console', 'test', 'report']];
  for (const t of tests) {
    const status = t.status === t.expectedStatus ? t.status : `${t.status}!`;
    rows.push([status, String(t.summary.unexpected), String(t.summary.errors), String(t.summary.console), titleCell(t), t.markdown]);
  }
  lines.push('', ...table(rows, new Set([1, 2, 3])).map((line) => line.trimEnd()));
  if (notAsExpected) lines.push('', '! the test did not end with its expected status');
  lines.push('', `Reports are in ${output.dir}; read one with: npx daebug show <report or test title>`);
  return lines.join('\n') + '\n';
}
