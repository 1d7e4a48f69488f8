import type { PlaywrightWorkerOptions } from '@playwright/test';

/**
 * Whether Playwright records a trace of this attempt, read from the `trace` option. True when it cannot tell (a mode
 * this version does not know): the trace's copy of daebug's report is then made as before.
 */
export function recordsTrace(trace: PlaywrightWorkerOptions['trace'] | undefined, retry: number): boolean {
  const mode = typeof trace === 'string' ? trace : trace?.mode;
  switch (mode) {
    case 'off':
      return false;
    case 'on-first-retry':
    case 'retry-with-trace':
      return retry === 1;
    case 'on-all-retries':
      return retry > 0;
    case 'retain-on-first-failure':
      return retry === 0;
    default:
      return true;
  }
}
