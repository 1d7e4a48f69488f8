import path from 'node:path';
import { DaebugCliUsageError, DaebugNoReportsError } from '../errors';
import type { DaebugEvent } from '../model/schema';
import { readBaseline } from '../run/baseline-file';
import { fingerprintOf } from '../run/fingerprint';
import { RunGroups } from '../run/groups';
import { requireBaseline } from './collect-groups';
import { collectErrors } from './collect-errors';
import { formatErrors } from './format-errors';
import { diagnosticText, EXIT_OK, jsonText, type CommandOutput } from './output';
import { readReportsFolder, readReportsOf } from './read-reports';
import { matchesTest, parseTestQuery } from './test-query';

export const DEFAULT_ERRORS_LIMIT = 20;

export interface ErrorsCommandOptions {
  dir: string;
  /** @default 20 */
  limit?: number;
  /** Text or `/regex/flags` matched against the test's title path, file or report name. */
  test?: string;
  json?: boolean;
  /** Also list errors that matched `daebugIgnore` or `daebug.expectError`. @default false */
  expected?: boolean;
  /** Only unexpected errors that are new: not in the baseline. */
  new?: boolean;
  /** The baseline `new` is measured against, instead of the run's own `daebugBaseline`. */
  baseline?: string | undefined;
}

export function parseLimit(raw: string | number | undefined, flag = '--limit'): number {
  if (raw === undefined) return DEFAULT_ERRORS_LIMIT;
  const value = typeof raw === 'number' ? raw : /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw new DaebugCliUsageError(`${flag} ${JSON.stringify(String(raw))} is not accepted: use a whole number from 1 (default ${DEFAULT_ERRORS_LIMIT}).`);
  return value;
}

/** `daebug errors`: the most recent errors of the run, oldest first. */
export function errorsCommand(options: ErrorsCommandOptions): CommandOutput {
  const limit = parseLimit(options.limit);
  const query = options.test === undefined ? undefined : parseTestQuery(options.test);
  const folder = readReportsFolder(options.dir);
  if (!folder.rows.length) throw new DaebugNoReportsError(options.dir);
  const rows = query ? folder.rows.filter((row) => matchesTest(query, row)) : folder.rows;
  const files = readReportsOf(folder, rows);
  let isNew: ((event: DaebugEvent) => boolean) | undefined;
  if (options.new) {
    if (options.baseline !== undefined) {
      const known = new Set(readBaseline(path.resolve(options.baseline)).groups.map((g) => g.fingerprint));
      isNew = (event) => !known.has(event.fingerprint ?? fingerprintOf(event));
    } else {
      if (!files.some((f) => f.report.test.baseline !== undefined)) requireBaseline({ folder, groups: new RunGroups(), baseline: undefined }, 'errors');
      isNew = (event) => event.known !== true;
    }
  }
  const output = collectErrors(files, { dir: options.dir, limit, includeExpected: options.expected ?? false, isNew });
  return { stdout: options.json ? jsonText(output) : formatErrors(output, options.test), stderr: diagnosticText(folder.diagnostics), exitCode: EXIT_OK };
}
