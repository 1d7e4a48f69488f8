import { expect, type Page } from '@playwright/test';

/**
 * Three requests fixtures/network/canceled.html cancels itself: a fetch it aborts, a fetch of an iframe it removes, a
 * fetch its document leaves behind when the page navigates away. Each is canceled only once the browser sent it
 * (page.waitForRequest); the server answers /slow after 30 s, so the cancel always comes first. Used by the runner's
 * own page and, as a file of the inline project, by the inline spec of e2e/network-canceled.spec.ts.
 */
export async function cancelThree(page: Page): Promise<void> {
  await page.goto('/network/canceled.html');
  const aborting = page.waitForRequest(/from=abort/);
  await page.evaluate(() => (window as any).startAbortable());
  await aborting;
  expect(await page.evaluate(() => (window as any).abort())).toBe('AbortError');

  const framed = page.waitForRequest(/from=frame/);
  await page.evaluate(() => (window as any).addFrame());
  await framed;
  await page.evaluate(() => (window as any).removeFrame());

  const leftBehind = page.waitForRequest(/from=navigation/);
  await page.evaluate(() => (window as any).startPending());
  await leftBehind;
  await page.goto('/network/canceled.html?after');
}
