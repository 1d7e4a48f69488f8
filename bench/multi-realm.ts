import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { quick, repoRoot, runPlaywright, suiteConfig, writeProject, type Row } from './lib';
import { alternatingRounds, CONTROL, roundsRows, type BenchProject } from './rounds';

/**
 * Issue 36's gate: a real multi-realm app (fixtures/bench/realms/, shaped like SVGOMG in Playwright's
 * examples/svgomg), a page, a same-origin output frame, a service worker and two dedicated workers per test, a
 * minified bundle, and no console output at all. Its six tests are SVGOMG's own, run as its users run them:
 * `--repeat-each` and retries, 2 workers. Bare Playwright, daebug's default, daebug with capture off, and a second
 * bare project (the A/A control) run one after another in alternating rounds, as a CI runs suites.
 */
/** `--repeat-each` of a measured run (BENCH_REPEATS). */
export const REALM_REPEATS = quick ? 1 : Number(process.env['BENCH_REPEATS'] ?? 5);
const ROUNDS = quick ? 1 : Number(process.env['BENCH_ROUNDS'] ?? 5);
const APP = path.join(repoRoot, 'fixtures', 'bench', 'realms');

const PARALLEL = "test.describe.configure({ mode: 'parallel' });";

/** SVGOMG's six tests (without the file's imports and its describe.configure line). */
const TESTS_TEXT = `
test.beforeEach(async ({ page }) => {
  await page.goto('/bench/realms/index.html');
  // The service worker took the page (SVGOMG's offline shell) before the test goes on.
  expect(await page.evaluate(() => navigator.serviceWorker.ready.then((registration) => registration.active !== null))).toBe(true);
});

test('verify menu items', async ({ page }) => {
  await expect(page.locator('.menu li')).toHaveText(['Open SVG', 'Paste markup', 'Demo', 'Contribute']);
});

test.describe('demo tests', () => {
  test.beforeEach(async ({ page }) => {
    await page.locator('.menu-item >> text=Demo').click();
    await expect(page.locator('#gzip')).toHaveText(/\\d+ bytes/);
  });

  test('verify default global settings', async ({ page }) => {
    const items = page.locator('.settings-scroller .global .setting-item-toggle');
    await expect(items).toHaveText(['Show original', 'Compare gzipped', 'Prettify markup', 'Multipass']);
    const toggle = page.locator('.setting-item-toggle');
    await expect(toggle.locator('text=Show original').locator('input')).not.toBeChecked();
    await expect(toggle.locator('text=Compare gzipped').locator('input')).toBeChecked();
    await expect(toggle.locator('text=Prettify markup').locator('input')).not.toBeChecked();
    await expect(toggle.locator('text=Multipass').locator('input')).not.toBeChecked();
  });

  test('verify default features', async ({ page }) => {
    const enabled = ['Clean up attribute whitespace', 'Clean up IDs', 'Collapse useless groups', 'Convert non-eccentric <ellipse> to <circle>', 'Inline styles'];
    const disabled = ['Prefer viewBox to width/height', 'Remove raster images', 'Remove script elements', 'Remove style elements'];
    for (const option of enabled) await expect(page.locator('.setting-item-toggle', { hasText: option }).locator('input')).toBeChecked();
    for (const option of disabled) await expect(page.locator('.setting-item-toggle', { hasText: option }).locator('input')).not.toBeChecked();
  });

  test('reset settings', async ({ page }) => {
    const showOriginal = page.locator('.setting-item-toggle', { hasText: 'Show original' }).locator('input');
    await showOriginal.click();
    await expect(showOriginal).toBeChecked();
    await page.locator('button >> text=Reset all').click();
    await expect(showOriginal).not.toBeChecked();
  });

  test('download result', async ({ page }) => {
    const link = page.locator('a[title=Download]');
    await expect(link).toHaveAttribute('href', /blob/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('car-lite.svg');
    expect(fs.readFileSync((await download.path())!, 'utf-8')).toContain('<svg');
  });
});

test('open svg', async ({ page }) => {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('text=Open SVG')]);
  await chooser.setFiles({ name: 'file.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24v24H0z" fill="none"/><path d="M16.5 3c-1.74 0-3.41.81-4.5 2.09z"/></svg>') });
  const markup = await page.frameLocator('.svg-frame').locator('svg').evaluate((svg) => svg.outerHTML);
  expect(markup).toMatch(/<svg.*<\\/svg>/);
});
`;
const TESTS = 6 * REALM_REPEATS;

/**
 * `BENCH_REALM_SHAPE=one-worker`: the same tests, each defined REALM_REPEATS times in one file and run without
 * `--repeat-each`, so that one worker runs them all, as a long suite's worker runs hundreds. What a worker pays once
 * (its start, loading daebug) then weighs five times less than with `--repeat-each`, which starts a worker per repeat.
 */
const ONE_WORKER = process.env['BENCH_REALM_SHAPE'] === 'one-worker';

/** The run's arguments: SVGOMG's `--repeat-each`, or none for the one-worker shape. */
export function realmArgs(): string[] {
  return ONE_WORKER ? [] : [`--repeat-each=${REALM_REPEATS}`];
}

function specText(): string {
  if (!ONE_WORKER) return `\n${PARALLEL}\n${TESTS_TEXT}`;
  return `\n${PARALLEL}\nfor (let round = 0; round < ${REALM_REPEATS}; round++) test.describe(\`round \${round}\`, () => {${TESTS_TEXT}});\n`;
}

/** The app's bundle: minified, as SVGOMG ships it, with linked source maps. Rebuilt each run (a no-op in cost). */
export async function buildRealmsApp(): Promise<void> {
  await build({
    // The service worker at the app's root, so that its scope takes the page (a script's scope is its folder).
    entryPoints: [...['main', 'frame', 'optimizer-worker', 'gzip-worker'].map((name) => ({ in: path.join(APP, 'src', `${name}.ts`), out: `dist/${name}` })), { in: path.join(APP, 'src', 'sw.ts'), out: 'sw' }],
    outdir: APP,
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'iife',
    target: 'es2022',
    logLevel: 'warning',
  });
}

function writeRealmProject(name: string, importFrom: string, reporters: string, use: Record<string, unknown>): string {
  return writeProject(name, {
    'playwright.config.ts': suiteConfig(reporters, use).replace('retries: 0,', 'retries: 2,'),
    'tests/optimizer.spec.ts': `import fs from 'node:fs';\nimport { test, expect } from '${importFrom}';\n${specText()}`,
  });
}

export function realmProjects(): BenchProject[] {
  const project = (name: string, importFrom: string, reporters: string, use: Record<string, unknown>) => writeRealmProject(ONE_WORKER ? name.replace('realms-', 'realms-one-worker-') : name, importFrom, reporters, use);
  return [
    { name: 'baseline', dir: project('realms-baseline', '@playwright/test', `[['dot']]`, {}) },
    { name: 'daebug', dir: project('realms-daebug', 'daebug', `[['dot'], ['daebug/reporter']]`, {}), target: 1.02 },
    { name: 'capture-off', dir: project('realms-capture-off', 'daebug', `[['dot'], ['daebug/reporter']]`, { daebugCapture: false }), target: 1.01 },
    { name: CONTROL, dir: project('realms-baseline-again', '@playwright/test', `[['dot']]`, {}) },
  ];
}

/** daebug saw every realm of every test (page, service worker, both workers), so a broken capture cannot pass for a cheap one. */
export function checkRealmReports(dir: string): void {
  const files = fs.readdirSync(path.join(dir, 'reports')).filter((f) => f.endsWith('.json') && f !== 'index.json');
  if (files.length < TESTS) throw new Error(`multi-realm: expected ${TESTS} daebug reports, found ${files.length}`);
  for (const file of files) {
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'reports', file), 'utf8')) as { realms: string[]; test: { status: string } };
    const realms = report.realms.join(' ');
    for (const realm of ['page', 'worker:optimizer-worker.js', 'worker:gzip-worker.js']) {
      if (!report.realms.includes(realm) && !(realm === 'page' && realms.includes('page'))) throw new Error(`multi-realm: ${file} has no realm ${realm} (${realms})`);
    }
    if (report.test.status !== 'passed') throw new Error(`multi-realm: ${file} ${report.test.status}`);
  }
}

export async function multiRealm(): Promise<Row[]> {
  await buildRealmsApp();
  const projects = realmProjects();
  const args = realmArgs();
  for (const { dir, env } of projects) await runPlaywright(dir, ['--repeat-each=1'], env);
  const run = await alternatingRounds('multi-realm', projects, ROUNDS, undefined, args);
  checkRealmReports(projects[1]!.dir);
  // Judged by the median of the per-round ratios, as issue 36 states its gate.
  return roundsRows('multi-realm app', `${TESTS} tests × 5 realms, 2 workers`, projects, run, 'rounds');
}
