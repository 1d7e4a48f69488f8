import type { BrowserContext } from '@playwright/test';

/**
 * The browser contexts the worker's Playwright has open right now: the default context of a browser reached with
 * `connectOverCDP()`, contexts made in `beforeAll`. They were made before the test's own capture listened, so no
 * `runAfterCreateBrowserContext` names them. Read through Playwright's private `_allContexts()`; a Playwright without
 * it gives none.
 */
export function openContexts(playwright: object): BrowserContext[] {
  const all = (playwright as { _allContexts?: () => BrowserContext[] })._allContexts;
  if (typeof all !== 'function') return [];
  try {
    return [...all.call(playwright)];
  } catch {
    return [];
  }
}
