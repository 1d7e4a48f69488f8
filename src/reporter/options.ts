import path from 'node:path';
import { optionSchemas, parseOption, type OptionCheck } from '../options';
import { DaebugOptionsError } from '../errors';

/** Options of `['daebug/reporter', { ... }]`. */
export interface DaebugReporterOptions {
  /** Folder for the per-test reports and the index, resolved against the config's folder. @default 'reports' */
  outputDir?: string;
  /** Byte budget of one Markdown report. @default 262144 */
  maxReportBytes?: number;
  /**
   * In GitHub Actions (`GITHUB_ACTIONS=true`): workflow commands (`::error` for strict tests, `::warning` otherwise)
   * at the error's source line when that file is in the repository, else at the test. `true`: one per unexpected
   * error, or, when the tests use a baseline (`daebugBaseline`), one per new error group at its first occurrence;
   * `'all'`: one per unexpected error even with a baseline; `'new'`: one per new group; `false`: none.
   * @default true
   */
  githubAnnotations?: boolean | 'all' | 'new';
  /** In GitHub Actions: append a table of the tests with unexpected errors to `$GITHUB_STEP_SUMMARY`. @default true */
  githubSummary?: boolean;
  /**
   * Annotations printed per run; the rest is counted in one `::notice`. GitHub shows at most 10 error and 10 warning
   * annotations per step. @default 10
   */
  maxAnnotations?: number;
  /**
   * Folder of the run history, resolved against the config's folder like `outputDir`: each run adds one file of its
   * own there (time, commit, branch, shard; per test and attempt its outcome, duration, error groups, failed requests
   * and browser cause), read by `npx daebug flaky` and `npx daebug history` and by the next runs' `index.md`. Outside
   * `outputDir` on purpose: Playwright and CI jobs empty report folders, the history must outlive them. `false`: no
   * history. Restore it from a CI cache before the run (README: History across runs).
   * @default '.daebug/history'
   */
  history?: string | false;
  /** Runs the history folder keeps: the newest ones; older files are removed when a run adds its own. @default 100 */
  historyRuns?: number;
}

const KNOWN = ['outputDir', 'maxReportBytes', 'githubAnnotations', 'githubSummary', 'maxAnnotations', 'history', 'historyRuns'];

/** Where the history goes when the option leaves it out, relative to the config's folder. */
export const DEFAULT_HISTORY_DIR = '.daebug/history';
export const DEFAULT_HISTORY_RUNS = 100;

// Quick checks that accept only what the schemas accept unchanged: zod loads in the runner only for a value they
// refuse, to say what is wrong with it (issue 25: the runner loads what a run uses).
const isInt = (value: unknown, min: number): boolean => typeof value === 'number' && Number.isInteger(value) && value >= min;
const check = <T>(accepts: (value: unknown) => boolean, name: keyof ReturnType<typeof optionSchemas>['reporterSchemas']): OptionCheck<T> => ({
  accepts: (value) => value === undefined || accepts(value),
  schema: () => optionSchemas().reporterSchemas[name] as never,
});
const checks = {
  outputDir: check<string | undefined>((value) => typeof value === 'string' && value.length > 0, 'outputDir'),
  maxReportBytes: check<number | undefined>((value) => isInt(value, 4096), 'maxReportBytes'),
  githubAnnotations: check<boolean | 'all' | 'new' | undefined>((value) => typeof value === 'boolean' || value === 'all' || value === 'new', 'githubAnnotations'),
  githubSummary: check<boolean | undefined>((value) => typeof value === 'boolean', 'githubSummary'),
  maxAnnotations: check<number | undefined>((value) => isInt(value, 0), 'maxAnnotations'),
  history: check<string | false | undefined>((value) => value === false || (typeof value === 'string' && value.length > 0), 'history'),
  historyRuns: check<number | undefined>((value) => isInt(value, 1), 'historyRuns'),
};

export interface ResolvedReporterOptions {
  outputDir: string;
  maxReportBytes: number;
  githubAnnotations: boolean | 'all' | 'new';
  githubSummary: boolean;
  maxAnnotations: number;
}

/** The history options, resolved apart so that the reporter's other options keep their shape. */
export interface ResolvedHistoryOptions {
  /** Absolute, or false when the history is off. */
  dir: string | false;
  runs: number;
}

function isPlaywrightKey(key: string, input: Record<string, unknown>): boolean {
  return key === 'configDir' || key.startsWith('_') || (key === 'onlyFailures' && input['_mode'] === 'list');
}

export function resolveReporterOptions(raw: unknown, configDir: string): ResolvedReporterOptions {
  const input = (raw ?? {}) as Record<string, unknown>;
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new DaebugOptionsError(`Invalid daebug/reporter options: expected an object, got ${JSON.stringify(raw)}. Accepted: { ${KNOWN.join(', ')} }.`);
  }
  // Playwright adds its own keys to every reporter's options: configDir and underscored internals, and in
  // `--list` mode (1.65+) `onlyFailures: false`, meant for its built-in reporters.
  const own = Object.fromEntries(Object.entries(input).filter(([key]) => !isPlaywrightKey(key, input)));
  for (const key of Object.keys(own)) {
    if (!KNOWN.includes(key)) {
      throw new DaebugOptionsError(`Unknown daebug/reporter option "${key}". Accepted: ${KNOWN.join(', ')}.`, {
        context: { option: key },
        hint: 'Check the spelling in the reporter entry of playwright.config.',
      });
    }
  }
  const outputDir = parseOption('outputDir', checks.outputDir, own['outputDir'], 'a non-empty folder path, e.g. "reports"');
  const maxReportBytes = parseOption('maxReportBytes', checks.maxReportBytes, own['maxReportBytes'], 'an integer of at least 4096 (bytes)');
  const githubAnnotations = parseOption('githubAnnotations', checks.githubAnnotations, own['githubAnnotations'], "true, false, 'all' or 'new'");
  const githubSummary = parseOption('githubSummary', checks.githubSummary, own['githubSummary'], 'true or false');
  const maxAnnotations = parseOption('maxAnnotations', checks.maxAnnotations, own['maxAnnotations'], 'an integer of at least 0');
  // Checked here too, so that a bad value fails when the reporter is made, like the other options.
  resolveHistoryOptions(raw, configDir);
  const baseDir = typeof input['configDir'] === 'string' ? input['configDir'] : configDir;
  return {
    outputDir: path.resolve(baseDir, outputDir ?? 'reports'),
    maxReportBytes: maxReportBytes ?? 256 * 1024,
    githubAnnotations: githubAnnotations ?? true,
    githubSummary: githubSummary ?? true,
    maxAnnotations: maxAnnotations ?? 10,
  };
}

/** `history` and `historyRuns`; the caller has checked for unknown keys (resolveReporterOptions). */
export function resolveHistoryOptions(raw: unknown, configDir: string): ResolvedHistoryOptions {
  const input = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const history = parseOption('history', checks.history, input['history'], 'false or a non-empty folder path, e.g. ".daebug/history"');
  const runs = parseOption('historyRuns', checks.historyRuns, input['historyRuns'], 'an integer of at least 1 (runs kept)');
  const baseDir = typeof input['configDir'] === 'string' ? input['configDir'] : configDir;
  return { dir: history === false ? false : path.resolve(baseDir, history ?? DEFAULT_HISTORY_DIR), runs: runs ?? DEFAULT_HISTORY_RUNS };
}
