/**
 * A test that waits for a page error itself (`page.waitForEvent('pageerror')`, a console error, the context's
 * `weberror`) expects it: strict mode passes such a test, and its report says why the error is expected. Real
 * Chromium, because what the waiter resolves with and what daebug captures come through different paths.
 */
import { test, expect } from '@playwright/test';
import { runInlineTest } from './helpers/run-playwright';
import { reportByTitle } from './helpers/report-by-title';

test('an error the test awaits is expected ("awaited by the test"); an error nobody awaited still fails a strict test', async () => {
  const run = await runInlineTest(
    {
      'awaited.spec.ts': `
import { test, expect } from 'daebug';
test('awaits its pageerror', async ({ page }) => {
  await page.goto('/index.html');
  const [error] = await Promise.all([
    page.waitForEvent('pageerror'),
    page.evaluate(() => { setTimeout(() => { throw new Error('the error under test'); }, 0); }),
  ]);
  expect(error.message).toBe('the error under test');
});
test('awaits its console error and weberror', async ({ page, context }) => {
  await page.goto('/index.html');
  const [message] = await Promise.all([page.waitForEvent('console'), page.evaluate(() => console.error('logged on purpose'))]);
  expect(message.text()).toBe('logged on purpose');
  const [web] = await Promise.all([
    context.waitForEvent('weberror'),
    page.evaluate(() => { setTimeout(() => { throw new Error('web error under test'); }, 0); }),
  ]);
  expect(web.error().message).toBe('web error under test');
});
test('awaits one error, another is a bug', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await Promise.all([
    page.waitForEvent('pageerror'),
    page.evaluate(() => { setTimeout(() => { throw new Error('awaited one'); }, 0); }),
  ]);
  await page.evaluate(() => { setTimeout(() => { throw new Error('nobody awaited this'); }, 0); });
  await expect.poll(() => daebug.errors().length).toBe(2);
});
`,
    },
    { use: 'daebugStrict: true,' },
  );
  expect(run.output).toMatch(/1 failed[\s\S]*2 passed/);

  const awaited = reportByTitle(run, 'awaits its pageerror');
  expect(awaited.json.test.status, run.output).toBe('passed');
  const error = awaited.json.events.find((e: any) => e.message.includes('the error under test'));
  expect(error).toMatchObject({ expected: true, expectedBy: "awaited by the test (page.waitForEvent('pageerror'))" });
  expect(error.unexpected).toBeUndefined();
  expect(awaited.md).toContain("expected: awaited by the test (page.waitForEvent('pageerror'))");
  expect(awaited.md).toMatch(/## Unexpected errors\n\nNone\./);

  const both = reportByTitle(run, 'awaits its console error and weberror');
  expect(both.json.test.status, run.output).toBe('passed');
  expect(both.json.events.filter((e: any) => e.expectedBy).map((e: any) => [e.source, e.expectedBy])).toEqual([
    ['console.error', "awaited by the test (page.waitForEvent('console'))"],
    [expect.any(String), "awaited by the test (context.waitForEvent('weberror'))"],
  ]);

  const mixed = reportByTitle(run, 'awaits one error, another is a bug');
  expect(mixed.json.test.status).toBe('failed');
  expect(mixed.json.events.filter((e: any) => e.unexpected).map((e: any) => e.message)).toEqual([expect.stringContaining('nobody awaited this')]);
  expect(mixed.json.events.find((e: any) => e.message.includes('awaited one')).expected).toBe(true);
});
