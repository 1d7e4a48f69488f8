import { DaebugNoReportsError } from '../errors';
import { formatSummary, summaryOrder } from './format-summary';
import { json, lines, type CommandOutput } from './output';
import { readReportsFolder } from './read-reports';
import type { SummaryOutput } from './schema';

export interface SummaryCommandOptions {
  dir: string;
  json?: boolean;
}

/** `daebug summary`: the index as a table, tests with unexpected errors first. */
export function summaryCommand(options: SummaryCommandOptions): CommandOutput {
  const folder = readReportsFolder(options.dir);
  if (!folder.rows.length && !folder.index) throw new DaebugNoReportsError(options.dir);
  const output: SummaryOutput = { dir: options.dir, tests: summaryOrder(folder.rows) };
  if (folder.index) {
    output.status = folder.index.status;
    output.updatedAt = folder.index.updatedAt;
  }
  return { stdout: options.json ? json(output) : formatSummary(output), stderr: lines(folder.diagnostics), exitCode: 0 };
}
