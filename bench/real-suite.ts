import fs from 'node:fs';
import path from 'node:path';
import { quick, runPlaywright, suiteConfig, writeProject, type Row } from './lib';
import { alternatingRounds, CONTROL, roundsRows, type BenchProject } from './rounds';

/**
 * A suite of the shape real suites have (issue 25): a small shop (fixtures/bench/shop/) with three pages, a dedicated
 * worker, a service worker, a few object logs and one failed request per page, and tests that navigate, click, fill
 * and assert with web-first assertions the way Playwright's examples do. Bare Playwright, daebug's default, and daebug
 * with `daebugCapture: false` (the fixture and reporter alone) run in alternating rounds.
 */
const REPEATS = quick ? 1 : 3;
const ROUNDS = quick ? 1 : Number(process.env['BENCH_ROUNDS'] ?? 7);

const SPECS: Record<string, string> = {
  products: `
  test('lists the products', async ({ page }) => {
    await page.goto('/bench/shop/index.html');
    await expect(page.getByRole('listitem')).toHaveCount(4);
    await expect(page.getByText('24.50')).toBeVisible();
  });
  test('adds an item to the cart', async ({ page }) => {
    await page.goto('/bench/shop/index.html');
    await page.getByRole('button', { name: 'Add Kettle' }).click();
    await page.getByRole('button', { name: 'Add Mug' }).click();
    await expect(page.locator('#count')).toHaveText('2');
    await expect(page.locator('#total')).toHaveText('30.75');
  });
  test('filters the list', async ({ page }) => {
    await page.goto('/bench/shop/index.html');
    await page.getByPlaceholder('Filter').fill('tea');
    await expect(page.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'Teapot' })).toBeVisible();
  });
  test('opens a product', async ({ page }) => {
    await page.goto('/bench/shop/index.html');
    await page.getByRole('link', { name: 'Mug' }).click();
    await expect(page.getByRole('heading', { name: 'Mug' })).toBeVisible();
    await expect(page).toHaveURL(/id=3/);
  });`,
  product: `
  test('shows the price', async ({ page }) => {
    await page.goto('/bench/shop/product.html?id=2');
    await expect(page.locator('#price')).toHaveText('18.00');
  });
  test('adds a quantity', async ({ page }) => {
    await page.goto('/bench/shop/product.html?id=4');
    await page.getByLabel('Quantity').fill('3');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByText('Added')).toBeVisible();
    await expect(page.locator('#count')).toHaveText('3');
  });
  test('goes back to the products', async ({ page }) => {
    await page.goto('/bench/shop/product.html?id=1');
    await page.getByRole('link', { name: 'Products' }).click();
    await expect(page.getByRole('heading', { name: 'Products' })).toBeVisible();
  });`,
  cart: `
  test('shows what was added', async ({ page }) => {
    await page.goto('/bench/shop/index.html');
    await page.getByRole('button', { name: 'Add Teapot' }).click();
    await page.getByRole('link', { name: /Cart/ }).click();
    await expect(page.getByRole('listitem')).toHaveText(['Teapot']);
    await expect(page.locator('#total')).toHaveText('18.00');
  });
  test('checks out', async ({ page }) => {
    await page.goto('/bench/shop/cart.html');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Check out' }).click();
    await expect(page.getByText('Thank you')).toBeVisible();
  });
  test('clears the cart', async ({ page }) => {
    await page.goto('/bench/shop/product.html?id=3');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.goto('/bench/shop/cart.html');
    await expect(page.getByRole('listitem')).toHaveCount(1);
    await page.getByRole('button', { name: 'Clear cart' }).click();
    await expect(page.getByRole('listitem')).toHaveCount(0);
  });`,
};
const TESTS_PER_REPEAT = Object.values(SPECS).reduce((sum, body) => sum + (body.match(/\n {2}test\(/g)?.length ?? 0), 0);
const TESTS = TESTS_PER_REPEAT * REPEATS;

function spec(importFrom: string, body: string): string {
  return `import { test, expect } from '${importFrom}';\n\nfor (let round = 1; round <= ${REPEATS}; round++) {\ntest.describe(\`round \${round}\`, () => {${body}\n});\n}\n`;
}

function project(name: string, importFrom: string, reporters: string, use: Record<string, unknown>): string {
  const files: Record<string, string> = { 'playwright.config.ts': suiteConfig(reporters, use) };
  for (const [file, body] of Object.entries(SPECS)) files[`tests/${file}.spec.ts`] = spec(importFrom, body);
  return writeProject(name, files);
}

/** Checks that daebug saw the shop's background (worker, service worker, failed request), so a broken capture cannot pass for a cheap one. */
function checkReports(dir: string): void {
  const files = fs.readdirSync(path.join(dir, 'reports')).filter((f) => f.endsWith('.json') && f !== 'index.json');
  if (files.length !== TESTS) throw new Error(`real-suite: expected ${TESTS} daebug reports, found ${files.length}`);
  const events = files.flatMap((file) => (JSON.parse(fs.readFileSync(path.join(dir, 'reports', file), 'utf8')) as { events: Array<{ source: string; message: string; realm: string }> }).events);
  const seen = {
    worker: events.some((e) => e.message.startsWith('worker total')),
    serviceWorker: events.some((e) => e.message.startsWith('service worker active')),
    failedRequest: events.some((e) => e.source === 'network' && e.message.includes('recommendations-')),
    objectLog: events.some((e) => e.message.startsWith('boot')),
  };
  const missing = Object.entries(seen).filter(([, ok]) => !ok).map(([what]) => what);
  if (missing.length) throw new Error(`real-suite: daebug's reports miss ${missing.join(', ')}`);
}

/** The real suite's projects: bare first, daebug's default, capture off, and a second bare project (the A/A control). */
export function realProjects(): BenchProject[] {
  return [
    { name: 'baseline', dir: project('real-baseline', '@playwright/test', `[['list']]`, {}) },
    { name: 'daebug', dir: project('real-daebug', 'daebug', `[['list'], ['daebug/reporter']]`, {}), target: 1.02 },
    { name: 'capture-off', dir: project('real-capture-off', 'daebug', `[['list'], ['daebug/reporter']]`, { daebugCapture: false }), target: 1.01 },
    { name: CONTROL, dir: project('real-baseline-again', '@playwright/test', `[['list']]`, {}) },
  ];
}

/** Checks that daebug's project of `realProjects()` saw the shop's background. */
export function checkRealReports(projects: readonly BenchProject[]): void {
  checkReports(projects[1]!.dir);
}

/**
 * Bare Playwright, daebug's default and daebug with capture off, in alternating rounds, and a second bare project:
 * the A/A control, whose ratio to the first is this machine's noise in the same run (what any ratio here can resolve).
 * Each run's CPU is split into Playwright's runner, its workers and the browsers (bench/cpu-at-exit.cjs): daebug's
 * Node side is measured on its own, where Chromium's ±10 % from run to run does not reach it.
 */
export async function realSuite(): Promise<Row[]> {
  const projects = realProjects();
  // One file each first: compiles the specs into Playwright's cache and warms the disk.
  for (const { dir } of projects) await runPlaywright(dir, ['tests/product.spec.ts']);
  const run = await alternatingRounds('real-suite', projects, ROUNDS);
  checkReports(projects[1]!.dir);
  return roundsRows('real suite', `${TESTS} tests, 2 workers`, projects, run, 'medians');
}
