import { HistoryFold } from '../../src/history/fold';
import type { HistoryRun } from '../../src/history/run-file';

/** The runs folded oldest first, as the reporter and the CLI read a history folder. */
export function fold(runs: HistoryRun[]): HistoryFold {
  const f = new HistoryFold();
  for (const r of runs) f.add({ file: `${r.id}.json`, run: r });
  return f;
}
