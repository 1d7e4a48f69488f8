import { DaebugNoReportsError } from '../errors';
import { formatSummary, summaryOrder } from './format-summary';
import { diagnosticText, EXIT_OK, jsonText, type CommandOutput } from './output';
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
  return { stdout: options.json ? jsonText(output) : formatSummary(output), stderr: diagnosticText(folder.diagnostics), exitCode: EXIT_OK };
}
