/**
 * The run's error groups read back from the reports folder, by the same pure grouping the reporter uses
 * (src/run/groups.ts), so `npx daebug groups` agrees with index.json even for a folder without an index.
 */
import path from 'node:path';
import { DaebugCliUsageError, DaebugNoReportsError } from '../errors';
import { readBaseline } from '../run/baseline-file';
import { RunGroups, testKeyOf } from '../run/groups';
import { readReportsFolder, readReportsOf, type ReportsFolder } from './read-reports';

export interface CollectGroupsOptions {
  dir: string;
  /** A baseline file to measure `new` and `fixed` against, instead of the one the run's tests used. */
  baseline?: string | undefined;
}

export interface CollectedGroups {
  folder: ReportsFolder;
  groups: RunGroups;
  /** The baseline measured against, as given or as the reports name it. */
  baseline: string | undefined;
}

/** Reads every report of the folder (all attempts) into one RunGroups. */
export function collectGroups(options: CollectGroupsOptions): CollectedGroups {
  const folder = readReportsFolder(options.dir);
  if (!folder.rows.length) throw new DaebugNoReportsError(options.dir);
  const groups = new RunGroups();
  let baseline = options.baseline === undefined ? undefined : path.resolve(options.baseline);
  if (baseline !== undefined) groups.setBaseline(readBaseline(baseline));
  for (const { row, report } of readReportsOf(folder, folder.rows)) {
    if (options.baseline === undefined && report.test.baseline !== undefined && baseline === undefined) {
      baseline = report.test.baseline;
      groups.noteBaseline();
      try {
        groups.setBaseline(readBaseline(baseline));
      } catch (error) {
        // The events' `known` marks still tell new from known; only `fixed` needs the file.
        folder.diagnostics.push(`daebug: ${(error as Error).message.split('\n')[0]} (fixed groups are not listed)`);
      }
    }
    const testKey = testKeyOf(report.test);
    for (const attempt of [...(report.attempts ?? []), report]) groups.addAttempt({ testKey, report: row.markdown }, attempt.events);
  }
  return { folder, groups, baseline };
}

/** `--new` needs something to be new against. */
export function requireBaseline(collected: CollectedGroups, command: string): void {
  if (collected.groups.hasBaseline) return;
  throw new DaebugCliUsageError(
    `daebug ${command} --new: the run in ${collected.folder.dir} used no baseline, so nothing is new or known.`,
    'Pass --baseline <file> (written by `npx daebug baseline` on main), or set daebugBaseline in the config and run the tests again.',
  );
}
