import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runInlineTest } from './helpers/run-playwright';

// A cart whose click handler throws: the total never updates, and toHaveText times out 2 s later.
const spec = `
import { test, expect } from 'daebug';

const APP_JS = [
  "function addItem(cart) { document.getElementById('total').textContent = String(cart.items.length + 1); }",
  "document.getElementById('add').addEventListener('click', () => addItem(undefined));",
  "console.warn('[analytics] consent banner not found');",
].join('\\n');

test.beforeEach(async ({ page }) => {
  await page.route('**/cause/**', (route) =>
    route.request().url().endsWith('.js')
      ? route.fulfill({ contentType: 'text/javascript', body: APP_JS })
      : route.fulfill({ contentType: 'text/html', body: '<!doctype html><button id="add">Add</button><span id="total">0</span><script src="/cause/app.js"></script>' }),
  );
  await page.goto('/cause/index.html');
});

test('the total updates after a click', async ({ page }) => {
  await page.click('#add');
  await expect(page.locator('#total')).toHaveText('1', { timeout: 2000 });
});

test('a passing test keeps its outcome', async ({ page }) => {
  await page.click('#add');
  await expect(page.locator('#total')).toHaveText('0');
});

test('a test expected to fail stays as expected', async ({ page }) => {
  test.fail();
  await page.click('#add');
  await expect(page.locator('#total')).toHaveText('1', { timeout: 500 });
});
`;

test('a failing toHaveText after a throwing click handler names the click error in the list output and in error-context.md', async () => {
  const result = await runInlineTest({ 'cart.spec.ts': spec }, { args: ['--reporter=list,daebug/reporter'], configExtra: "outputDir: 'test-results'," });
  expect(result.exitCode, result.output).toBe(1);
  expect(result.output).toMatch(/1 failed/);
  expect(result.output).toMatch(/2 passed/);

  // The list reporter prints the test's own failure, then daebug's section with the browser error that explains it.
  const failure = result.output.slice(result.output.indexOf('1) '));
  expect(failure).toContain('toHaveText');
  const section = failure.slice(failure.indexOf('daebug: the browser had'));
  expect(section).toMatch(/^daebug: the browser had 1 unexpected error in this test; the likeliest cause of the failure:/);
  expect(section).toMatch(/\[window\.onerror\] in page: (Uncaught )?TypeError: Cannot read properties of undefined \(reading 'items'\)/);
  expect(section).toMatch(/↳ http:\/\/127\.0\.0\.1:\d+\/cause\/app\.js:1:\d+ in addItem/);
  // toHaveText waited 2 s after the click threw.
  expect(section).toMatch(/\n\s+([2-9]|1\d)\.\d s before the test failed/);
  expect(section).toMatch(/why this one: the error that best explains the failure: in the realm the test was acting on, \d\.\d s before the failure/);
  expect(section).toMatch(/Report: \S*reports\/cart-the-total-updates-after-a-click-[0-9a-f]{8}\.md/);

  // Playwright's error-context.md, what agents and the HTML report's "Copy prompt" read, carries the same section.
  const context = fs.readFileSync(path.join(result.dir, 'test-results', 'cart-the-total-updates-after-a-click', 'error-context.md'), 'utf8');
  // test.fail() failed as expected: its error context is Playwright's alone.
  expect(fs.readFileSync(path.join(result.dir, 'test-results', 'cart-a-test-expected-to-fail-stays-as-expected', 'error-context.md'), 'utf8')).not.toContain('daebug:');
  expect(context).toContain('toHaveText');
  expect(context).toContain('daebug: the browser had 1 unexpected error');
  expect(context).toMatch(/TypeError: Cannot read properties of undefined \(reading 'items'\)/);
  expect(context).toMatch(/app\.js:1:\d+ in addItem/);

  // The report measures from the same moment: the end of the failing expect, which the runner knows.
  const reportName = Object.keys(result.markdown).find((name) => name.startsWith('cart-the-total-updates-after-a-click'))!;
  expect(result.markdown[reportName]).toMatch(/- Chosen: the error that best explains the failure: in the realm the test was acting on, ([2-9]|1\d)\.\d s before the failure/);
  expect(result.reports[reportName.replace(/\.md$/, '.json')].test.failedAt).toEqual(expect.any(String));

  // The outcome stays the test's own: the failing test failed once, the passing one passed, test.fail() is expected.
  const tests = new Map((result.index.tests as any[]).map((t) => [t.title, t]));
  expect(tests.get('the total updates after a click').status).toBe('failed');
  expect(tests.get('a passing test keeps its outcome').status).toBe('passed');
  expect(tests.get('a test expected to fail stays as expected')).toMatchObject({ status: 'failed', expectedStatus: 'failed' });
  expect(result.output.match(/daebug: the browser had/g)).toHaveLength(1);
});
