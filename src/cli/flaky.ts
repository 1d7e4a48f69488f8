import { formatFlakyText } from '../format/history-sections';
import { flakyReport, type FlakyReport } from '../history/flaky';
import { foldHistory, historyDirOf, skippedLines } from './history-dir';
import { diagnosticText, EXIT_OK, jsonText, type CommandOutput } from './output';

export interface FlakyCommandOptions {
  /** The reports folder, whose index.json may name the history folder. */
  dir: string;
  history?: string | undefined;
  json?: boolean;
}

/** `daebug flaky --json`. */
export interface FlakyOutput extends FlakyReport {
  history: string;
}

/** `daebug flaky`: flaky tests across the kept runs with the evidence that separates their failing attempts, failing and fixed tests. */
export function flakyCommand(options: FlakyCommandOptions): CommandOutput {
  const dir = historyDirOf(options.history, options.dir);
  const fold = foldHistory(dir);
  const report = flakyReport(fold);
  const stderr = diagnosticText(skippedLines(fold));
  if (options.json) return { stdout: jsonText({ history: dir, ...report } satisfies FlakyOutput), stderr, exitCode: EXIT_OK };
  return { stdout: formatFlakyText({ ...report, skipped: [] }, dir), stderr, exitCode: EXIT_OK };
}
