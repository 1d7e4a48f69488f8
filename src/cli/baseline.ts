import path from 'node:path';
import { keepWording, makeBaseline, type BaselineEntry } from '../run/baseline';
import { readBaseline, writeBaseline } from '../run/baseline-file';
import { collectGroups } from './collect-groups';
import { diagnosticText, EXIT_OK, type CommandOutput } from './output';

export const DEFAULT_BASELINE_FILE = 'daebug-baseline.json';

export interface BaselineCommandOptions {
  dir: string;
  /** @default 'daebug-baseline.json' */
  out?: string;
  /** Keep only the baseline's groups that happened in the run: drop the fixed ones, add nothing new. */
  prune?: boolean;
}

/**
 * `daebug baseline`: writes the fingerprints of the run's groups (known errors) to a file for `daebugBaseline`; a
 * group the file already holds keeps its message and place (`keepWording`). With `--prune`, drops from the existing
 * file the groups that did not happen in the run.
 */
export function baselineCommand(options: BaselineCommandOptions): CommandOutput {
  const out = path.resolve(options.out ?? DEFAULT_BASELINE_FILE);
  const shown = path.relative(process.cwd(), out) || out;
  if (options.prune) {
    const existing = readBaseline(out);
    const collected = collectGroups({ dir: options.dir, baseline: out });
    const seen = new Map(collected.groups.baselineEntries().map((entry) => [entry.fingerprint, entry]));
    // Counts follow this run; messages and places stay as the baseline had them, so the diff shows only what went.
    const kept = existing.groups.filter((entry) => seen.has(entry.fingerprint)).map((entry) => ({ ...entry, count: seen.get(entry.fingerprint)!.count, tests: seen.get(entry.fingerprint)!.tests }));
    const dropped = existing.groups.length - kept.length;
    writeBaseline(out, makeBaseline(kept));
    return {
      stdout: `Pruned ${shown}: dropped ${dropped} fixed ${dropped === 1 ? 'group' : 'groups'}, kept ${kept.length}.\n`,
      stderr: diagnosticText(collected.folder.diagnostics),
      exitCode: EXIT_OK,
    };
  }
  const collected = collectGroups({ dir: options.dir });
  const entries = keepWording(collected.groups.baselineEntries(), existingGroups(out));
  writeBaseline(out, makeBaseline(entries));
  const count = entries.length;
  return {
    stdout: `Wrote ${count} error ${count === 1 ? 'group' : 'groups'} to ${shown}. Use it with test.use({ daebugBaseline: '${shown.split(path.sep).join('/')}' }) (a path relative to the Playwright config) and commit it.\n`,
    stderr: diagnosticText(collected.folder.diagnostics),
    exitCode: EXIT_OK,
  };
}

/** The groups of the baseline already at `file`; none when there is no readable one (it is written anew). */
function existingGroups(file: string): BaselineEntry[] {
  try {
    return readBaseline(file).groups;
  } catch {
    return [];
  }
}
