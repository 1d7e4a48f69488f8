import type { IndexEntryData } from '../model/run-index';
import type { SummaryOutput, SummaryTest } from './schema';
import { titlePathText } from './test-query';

const MAX_TITLE = 80;
const MAX_CAUSE = 160;

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

/** `  ↳ root cause: TypeError: x is undefined at src/cart.ts:12:5 in addItem`, under its test's row. */
function rootCauseLine(test: SummaryTest): string | undefined {
  if (test.rootCause === undefined) return undefined;
  const text = test.rootCause.replace(/[\r\n\t]+/g, ' ');
  const cut = text.length > MAX_CAUSE ? `${text.slice(0, MAX_CAUSE - 1)}…` : text;
  return `  ↳ root cause: ${cut}${test.rootCauseWhere ? ` at ${test.rootCauseWhere}` : ''}`;
}

/** `daebug summary` text: one line about the run, then a table with one row per test, its root cause under it. */
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
  const tableLines = table(rows, new Set([1, 2, 3])).map((line) => line.trimEnd());
  lines.push('', tableLines[0]!);
  tests.forEach((t, i) => {
    lines.push(tableLines[i + 1]!);
    const cause = rootCauseLine(t);
    if (cause) lines.push(cause);
  });
  if (notAsExpected) lines.push('', '! the test did not end with its expected status');
  lines.push('', `Reports are in ${output.dir}; read one with: npx daebug show <report or test title>`);
  return lines.join('\n') + '\n';
}
