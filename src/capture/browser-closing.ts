import type { Browser } from '@playwright/test';
import { serverObjectOf } from './cdp/server-object';

/**
 * Tells, once `browser` disconnected, whether Playwright had been asked to close it (`browser.close()`, or closing a
 * persistent context, which closes its browser): the disconnect is then the test's own doing, not a crash. Read from
 * Playwright's server object, taken now (it cannot be reached once the browser is gone); where there is none (a
 * Playwright server, another Playwright) the answer is undefined.
 */
export function closeRequestOf(browser: Browser): () => boolean | undefined {
  const server = serverObjectOf(browser);
  return () => (typeof server?.['_startedClosing'] === 'boolean' ? server['_startedClosing'] : undefined);
}
