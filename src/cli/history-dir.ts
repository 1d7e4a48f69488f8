/**
 * Which history folder `npx daebug flaky` and `history` read: `--history`, else the folder the last run's index.json
 * names (the reporter's `history` option, wherever the config put it), else the reporter's default next to the
 * working folder. Read through the history room's reader, one run at a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DaebugNoHistoryError } from '../errors';
import { HistoryFold, type FoldOptions } from '../history/fold';
import { readRuns } from '../history/store';

export const DEFAULT_HISTORY = '.daebug/history';

/** The folder to read, as the user would name it (relative when it was given relative). */
export function historyDirOf(flag: string | undefined, reportsDir: string): string {
  if (flag !== undefined) return flag;
  try {
    const index = JSON.parse(fs.readFileSync(path.join(reportsDir, 'index.json'), 'utf8')) as { history?: { dir?: unknown } };
    const dir = index.history?.dir;
    if (typeof dir === 'string' && dir) return path.relative(process.cwd(), dir) || '.';
  } catch {
    // No index, or one written without a history: the default folder.
  }
  return DEFAULT_HISTORY;
}

/** Every kept run of `dir` folded; throws DaebugNoHistoryError when it holds none, DaebugHistoryVersionError for a newer file. */
export function foldHistory(dir: string, options: FoldOptions = {}): HistoryFold {
  const fold = new HistoryFold(options);
  readRuns(dir, fold.add, { onSkip: fold.skip });
  if (!fold.runs.length) throw new DaebugNoHistoryError(dir);
  return fold;
}

/** One line per file left out, for stderr. */
export function skippedLines(fold: HistoryFold): string[] {
  return fold.skipped.map((s) => `DAEBUG_HISTORY_SKIPPED: skipped ${s.file}: ${s.reason}; the other runs are read without it.`);
}
