/**
 * A test that times out with no browser error: its report says where it stopped (the step Playwright was running,
 * its error) and what the page did last, instead of "Unexpected errors: None." and nothing of the failure.
 */
import { test, expect } from '@playwright/test';
import { runForReport } from './helpers/report-by-title';
import { structureProblems } from './helpers/markdown-structure';

test('a timed-out test: its report says where it stopped and what the page was doing', async () => {
  const { run, json, md } = await runForReport(
    {
      'timeout.spec.ts': `
import { test } from 'daebug';
test('waits for a button that never comes', async ({ page }) => {
  test.setTimeout(4000);
  await page.goto('/index.html');
  await page.evaluate(() => console.log('rendering the cart'));
  await page.click('#save-that-never-renders');
});
`,
    },
    'waits for a button that never comes',
  );
  expect(json.test.status, run.output).toBe('timedOut');
  expect(json.test.failedAt).toEqual(expect.any(String));
  // Playwright 1.65 names the action "Click"; where it is in the spec says which.
  expect(json.test.failedStep).toMatch(/^Click/);
  expect(json.test.failedLocation).toBe('timeout.spec.ts:7');
  expect(json.test.failure).toMatch(/^Test timeout of 4000ms exceeded/);
  const section = md.slice(md.indexOf('## Where the test failed'), md.indexOf('## Unexpected errors'));
  expect(section).toMatch(/^- Timed out at \d\d:\d\d:\d\d, in `Click[^`]*` at `timeout\.spec\.ts:7`: Test timeout of 4000ms exceeded\./m);
  expect(section).toMatch(/`console\.log` in `page`: rendering the cart/);
  expect(md).toMatch(/## Unexpected errors\n\nNone\. The browser had no error that counts; the test failed for its own reason/);
  expect(structureProblems(md)).toEqual([]);
});
