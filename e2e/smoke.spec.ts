import { test, expect } from 'daebug';

test('captures background errors, rejections and console of a page', async ({ page, daebug }) => {
  await page.goto('/background.html');
  await page.waitForTimeout(200);
  await daebug.settle();
  const events = daebug.events();
  console.log(JSON.stringify(events, null, 1));
  expect(events.map((e) => e.source)).toEqual(expect.arrayContaining(['window.onerror', 'unhandledrejection', 'console.log', 'console.warn']));
});

test('eval job and worker', async ({ page, daebug }) => {
  await page.goto('/worker.html');
  const v = await daebug.eval(page, async () => { setTimeout(() => { throw new Error('during eval'); }, 5); await new Promise((r) => setTimeout(r, 50)); return { ok: 1 }; });
  expect(v).toEqual({ ok: 1 });
  await daebug.eval(page, () => (window as any).send('throw'));
  await daebug.eval(page, () => (window as any).send('reject'));
  await daebug.eval(page, () => (window as any).send('log'));
  await page.waitForTimeout(200);
  await daebug.settle();
  console.log(JSON.stringify(daebug.events(), null, 1));
});
