/**
 * How daebug's reporter tells the workers of its own run where live reports go. Workers inherit the runner's
 * environment; so does any Playwright run started inside a test, which must not write into this run's folder:
 * the runner's pid ties the setting to the workers the runner forked itself.
 */
export const LIVE_ENV = 'DAEBUG_LIVE_REPORTS';

export interface LiveReportsTarget {
  /** The reporter's outputDir. */
  dir: string;
  /** The reporter's Markdown byte budget. */
  maxReportBytes: number;
}

interface LiveEnvValue extends LiveReportsTarget {
  runner: number;
}

/** A worker's live reports target, and the runner that forked it. */
export interface WorkerLiveTarget extends LiveReportsTarget {
  /** The runner's pid: once this worker's parent is another process, the runner is gone and so is the run. */
  runner: number;
}

/** The environment value the reporter sets in the runner process. */
export function liveEnvValue(target: LiveReportsTarget, runnerPid: number): string {
  const value: LiveEnvValue = { runner: runnerPid, ...target };
  return JSON.stringify(value);
}

/** Where this worker writes live reports: only when daebug's reporter runs in the process that forked it. */
export function liveReportsTarget(envValue: string | undefined, parentPid: number): WorkerLiveTarget | undefined {
  if (!envValue) return undefined;
  try {
    const value = JSON.parse(envValue) as Partial<LiveEnvValue>;
    if (value.runner !== parentPid || typeof value.dir !== 'string' || typeof value.maxReportBytes !== 'number') return undefined;
    return { dir: value.dir, maxReportBytes: value.maxReportBytes, runner: value.runner };
  } catch {
    return undefined;
  }
}
