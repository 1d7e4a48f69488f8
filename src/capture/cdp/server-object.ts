import type { Browser } from '@playwright/test';

/**
 * Playwright's server-side object behind a client `Browser`, where the runner drives the browser in its own process
 * (a launched browser, or one reached with `connectOverCDP`); undefined elsewhere (a Playwright server, another
 * Playwright). Private API: callers check each field they read. It cannot be had once the browser is gone.
 */
export function serverObjectOf(browser: Browser): Record<string, unknown> | undefined {
  try {
    const toImpl = (browser as unknown as { _connection?: { toImpl?: (object: unknown) => unknown } })._connection?.toImpl;
    const server = typeof toImpl === 'function' ? toImpl(browser) : undefined;
    return server && typeof server === 'object' ? (server as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
