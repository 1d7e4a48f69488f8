import { test, expect } from 'daebug';

// A demo of what daebug records: each test passes, and reports/ shows what happened in the background.

test('a page with background errors, a forgotten rejection and console output', async ({ page }) => {
  await page.goto('/background.html');
  await expect(page.locator('h1, button').first()).toBeVisible();
  await page.waitForTimeout(100);
});

test('eval jobs carry the background events they caused', async ({ page, daebug }) => {
  await page.goto('/index.html');
  const result = await daebug.eval(page, async () => {
    setTimeout(() => { throw new Error('background error'); }, 10);
    Promise.reject(new Error('forgotten rejection'));
    console.log('computing', { step: 1, items: ['a', 'b'] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    return 'success';
  });
  expect(result).toBe('success');
  expect(await daebug.eval(page, () => function myFunc() {})).toBeUndefined();
});

test('clicks inside a job and a step', async ({ page, daebug }) => {
  await page.goto('/background.html');
  await daebug.job('click boom', async () => {
    await page.click('#boom');
    await page.waitForTimeout(50);
  });
  await test.step('click reject', async () => {
    await page.click('#reject');
    await page.waitForTimeout(50);
  });
  expect(daebug.errors().map((e) => e.message)).toContain('Error: clicked boom');
});

test('a web worker logs, throws and rejects', async ({ page, daebug }) => {
  await page.goto('/worker.html');
  for (const command of ['log', 'warn', 'throw', 'reject']) await daebug.eval(page, (cmd) => (window as any).send(cmd), command);
  await page.waitForTimeout(50);
  expect(daebug.events().some((e) => e.realm === 'worker:worker.js')).toBe(true);
});

test.describe('strict mode', () => {
  test.use({ daebugStrict: true, daebugIgnore: ['background timer error'] });

  test('passes when the only errors are expected', async ({ page, daebug }) => {
    daebug.expectError('forgotten rejection');
    await page.goto('/background.html');
    await page.waitForTimeout(100);
  });
});
