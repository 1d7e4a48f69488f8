import type { Browser } from '@playwright/test';

/**
 * Tells, once `browser` disconnected, whether Playwright had been asked to close it (`browser.close()`, or closing a
 * persistent context, which closes its browser): the disconnect is then the test's own doing, not a crash. Read from
 * Playwright's server object, taken now (it cannot be reached once the browser is gone), where the runner drives
 * the browser in its own process; elsewhere (a Playwright server, another Playwright) the answer is undefined.
 */
export function closeRequestOf(browser: Browser): () => boolean | undefined {
  let server: { _startedClosing?: unknown } | undefined;
  try {
    const toImpl = (browser as unknown as { _connection?: { toImpl?: (object: unknown) => unknown } })._connection?.toImpl;
    server = typeof toImpl === 'function' ? (toImpl(browser) as { _startedClosing?: unknown } | undefined) : undefined;
  } catch {
    server = undefined;
  }
  return () => (typeof server?._startedClosing === 'boolean' ? server._startedClosing : undefined);
}
