import { rankRootCause } from '../diagnosis/rank';
import { DaebugNoReportsError } from '../errors';
import { firstUserFrame, frameWhere } from '../format/frames';
import { browserDefaultPlace } from '../model/default-place';
import { locationText } from '../model/position-text';
import type { IndexEntryData } from '../model/run-index';
import type { DaebugEvent } from '../model/schema';
import { headline } from './format-errors';
import { formatSummary, summaryOrder } from './format-summary';
import { diagnosticText, EXIT_OK, jsonText, type CommandOutput } from './output';
import { readReportsFolder, readReportsOf, type ReportsFolder } from './read-reports';
import type { SummaryOutput, SummaryTest } from './schema';

export interface SummaryCommandOptions {
  dir: string;
  json?: boolean;
}

/** Where the report's "Root cause" says the error is: its first user frame, else its cause's or a member's, else the browser's location of an unparsed stack. */
function whereOf(event: DaebugEvent): string | undefined {
  const frame = firstUserFrame(event.frames) ?? [...(event.cause ?? []), ...(event.aggregate ?? [])].map((part) => firstUserFrame(part.frames)).find(Boolean);
  if (frame) return frameWhere(frame);
  // Stacks that were never parsed into frames still have the browser's own location; a stack without the app's frame
  // has no place to name, nor has the browser's default place (the first line of the realm's script).
  return event.frames?.length || browserDefaultPlace(event) ? undefined : locationText(event.location);
}

/** Each row with the root cause of its test's last attempt; only reports with unexpected errors are read. */
function withRootCauses(folder: ReportsFolder, rows: readonly IndexEntryData[]): SummaryTest[] {
  const causes = new Map<IndexEntryData, { rootCause: string; rootCauseWhere?: string }>();
  for (const { row, report } of readReportsOf(folder, rows.filter((r) => r.summary.unexpected > 0))) {
    const cause = rankRootCause(report);
    if (!cause) continue;
    const where = whereOf(cause.event);
    const rootCause = headline({ message: cause.event.message.split('\n', 1)[0]!, source: cause.event.source });
    causes.set(row, { rootCause, ...(where ? { rootCauseWhere: where } : {}) });
  }
  return rows.map((row) => ({ ...row, ...causes.get(row) }));
}

/** `daebug summary`: the index as a table, tests with unexpected errors first, each with its root cause. */
export function summaryCommand(options: SummaryCommandOptions): CommandOutput {
  const folder = readReportsFolder(options.dir);
  if (!folder.rows.length && !folder.index) throw new DaebugNoReportsError(options.dir);
  const output: SummaryOutput = { dir: options.dir, tests: withRootCauses(folder, summaryOrder(folder.rows)) };
  if (folder.index) {
    output.status = folder.index.status;
    output.updatedAt = folder.index.updatedAt;
  }
  return { stdout: options.json ? jsonText(output) : formatSummary(output), stderr: diagnosticText(folder.diagnostics), exitCode: EXIT_OK };
}
