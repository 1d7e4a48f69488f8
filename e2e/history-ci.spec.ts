import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { runInlineTest } from './helpers/run-playwright';
import { historyRunSchema } from '../src/history/schema';

// The README's CI recipes, run as a CI would run them: each job starts from a fresh checkout, restores the history
// folder from a cache, runs Playwright, and saves the folder under a new key. The cache is a folder of copies here,
// with the lookup rules of actions/cache (an exact key, then restore-keys prefixes, newest entry first) and of
// GitLab's cache (the branch's key, then fallback_keys).

const spec = `
import { test, expect } from 'daebug';
const run = Number(process.env.RUN);
const fails = (process.env.FAILS ?? '').split(',').filter(Boolean).map(Number);

test('checkout pays', async ({ page }, testInfo) => {
  const loses = fails.includes(run) && testInfo.retry === 0;
  await page.setContent('<title>' + (loses ? 'pending' : 'paid') + '</title><p>pay</p>');
  expect(await page.title()).toBe('paid');
});

test('catalog lists', async ({ page }) => {
  await page.setContent('<ul><li>one</li></ul>');
  await expect(page.locator('li')).toHaveCount(1);
});
`;

const bin = path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js');

/** A cache of named folder copies, saved in order. */
class Cache {
  private readonly entries: Array<{ key: string; dir: string }> = [];
  constructor(private readonly root: string) {}

  /** actions/cache: the exact key, else the newest entry whose key starts with the first restore key that has one. */
  restore(target: string, key: string, restoreKeys: string[]): string | undefined {
    const hit = this.entries.find((e) => e.key === key) ?? restoreKeys.map((prefix) => [...this.entries].reverse().find((e) => e.key.startsWith(prefix))).find(Boolean);
    fs.rmSync(target, { recursive: true, force: true });
    if (hit) fs.cpSync(hit.dir, target, { recursive: true });
    return hit?.key;
  }

  save(source: string, key: string): void {
    const dir = path.join(this.root, `entry-${this.entries.length}`);
    fs.cpSync(source, dir, { recursive: true });
    this.entries.push({ key, dir });
  }
}

interface Job {
  run: number;
  branch: string;
  env: Record<string, string>;
}

async function ciJob(project: string, cache: Cache, job: Job, lookup: (branch: string, run: number) => { key: string; restoreKeys: string[] }): Promise<{ restored: string | undefined; output: string; exitCode: number | null }> {
  const history = path.join(project, '.daebug', 'history');
  // A fresh checkout: the reports and the history of the last job on this machine are gone.
  fs.rmSync(path.join(project, 'reports'), { recursive: true, force: true });
  const { key, restoreKeys } = lookup(job.branch, job.run);
  const restored = cache.restore(history, key, restoreKeys);
  const result = await runInlineTest({ 'shop.spec.ts': spec }, { dir: project, env: { RUN: String(job.run), FAILS: '2,4', ...job.env } });
  cache.save(history, key);
  return { restored, output: result.output, exitCode: result.exitCode };
}

function flakyJson(cwd: string): any {
  const run = spawnSync(process.execPath, [bin, 'flaky', '--json'], { cwd, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

const config = `
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from 'daebug/browser';
export default defineConfig({
  outputDir: './test-results',
  workers: 1,
  retries: 1,
  reporter: [['line'], ['daebug/reporter', { outputDir: 'reports' }]],
  use: { launchOptions: chromiumLaunchOptions() },
});
`;

/** A checkout of the project: its config and spec, the history folder left to the cache. */
async function firstProject(): Promise<string> {
  const dir = path.join(__dirname, '..', '.e2e-tmp', `history-ci-${randomUUID().slice(0, 8)}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'playwright.config.ts'), config);
  return dir;
}

test.describe.configure({ mode: 'default' });

test('GitHub Actions: actions/cache per branch with restore-keys falling back to main; the step summary says what flakes', async () => {
  test.setTimeout(180_000);
  const project = await firstProject();
  const cache = new Cache(path.join(project, '.cache'));
  // key: daebug-history-${{ github.ref_name }}-${{ github.run_id }}; restore-keys: daebug-history-${{ github.ref_name }}-, daebug-history-main-
  const lookup = (branch: string, run: number) => ({ key: `daebug-history-${branch}-${run}`, restoreKeys: [`daebug-history-${branch}-`, 'daebug-history-main-'] });
  const summary = path.join(project, 'step-summary.md');
  const jobs: Job[] = [1, 2, 3, 4].map((run) => {
    const branch = run <= 2 ? 'main' : 'feature';
    return { run, branch, env: { GITHUB_ACTIONS: 'true', GITHUB_SHA: `${run}`.repeat(40), GITHUB_REF_NAME: branch, GITHUB_HEAD_REF: '', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: project } };
  });
  const restored: Array<string | undefined> = [];
  for (const job of jobs) {
    fs.rmSync(summary, { force: true });
    const { restored: key, output, exitCode } = await ciJob(project, cache, job, lookup);
    expect(exitCode, output).toBe(0);
    restored.push(key);
  }
  // The first job has no cache; the feature branch's first job falls back to main's newest; its second has its own.
  expect(restored).toEqual([undefined, 'daebug-history-main-1', 'daebug-history-main-2', 'daebug-history-feature-3']);
  const files = fs.readdirSync(path.join(project, '.daebug', 'history'));
  expect(files).toHaveLength(4);
  const report = flakyJson(project);
  expect(report.runs).toBe(4);
  expect(report.flaky.map((t: any) => t.test.titlePath.at(-1))).toEqual(['checkout pays']);
  expect(report.flaky[0]).toMatchObject({ failures: 2, retriesPassed: 2, firstFlaked: { run: 2, branch: 'main', commit: '2'.repeat(40) } });
  expect(report.lastRun).toMatchObject({ branch: 'feature', commit: '4'.repeat(40) });
  const text = fs.readFileSync(summary, 'utf8');
  expect(text).toContain('#### Flaky in the last 4 runs');
  expect(text).toContain('**shop.spec.ts › checkout pays**: flaky in 2 of 4 runs');
});

test('GitLab CI: cache: with the branch key and fallback_keys to the default branch', async () => {
  test.setTimeout(180_000);
  const project = await firstProject();
  const cache = new Cache(path.join(project, '.cache'));
  // GitLab keeps one entry per key and overwrites it: the newest entry of a key is the one restored.
  const lookup = (branch: string) => ({ key: `daebug-history-${branch}`, restoreKeys: ['daebug-history-main'] });
  const restored: Array<string | undefined> = [];
  for (const [run, branch] of [[1, 'main'], [2, 'fix-checkout'], [3, 'fix-checkout']] as const) {
    const { restored: key, output, exitCode } = await ciJob(project, cache, { run, branch, env: { GITLAB_CI: 'true', CI_COMMIT_SHA: `${run}`.repeat(40), CI_COMMIT_REF_NAME: branch } }, lookup);
    expect(exitCode, output).toBe(0);
    restored.push(key);
  }
  expect(restored).toEqual([undefined, 'daebug-history-main', 'daebug-history-fix-checkout']);
  const report = flakyJson(project);
  expect(report.runs).toBe(3);
  expect(report.flaky[0]).toMatchObject({ test: { title: 'shop.spec.ts › checkout pays' }, firstFlaked: { run: 2, branch: 'fix-checkout' } });
});

test('a run cancelled half way (SIGINT to its process group) leaves a valid history: its own file whole, or none', async () => {
  test.setTimeout(120_000);
  const hanging = `
import { test } from 'daebug';
import fs from 'node:fs';
test('first', async ({ page }) => { await page.setContent('<p>one</p>'); });
test('hangs', async ({ page }) => {
  await page.setContent('<p>two</p>');
  fs.writeFileSync('started', '');
  await new Promise(() => {});
});
`;
  const first = await runInlineTest({ 'shop.spec.ts': spec, 'playwright.config.ts': config }, { env: { RUN: '1' } });
  expect(first.exitCode, first.output).toBe(0);
  fs.rmSync(path.join(first.dir, 'started'), { force: true });
  const cut = await runInlineTest(
    { 'shop.spec.ts': hanging },
    {
      dir: first.dir,
      detached: true,
      onSpawn: (child, dir) => {
        const timer = setInterval(() => {
          if (!fs.existsSync(path.join(dir, 'started'))) return;
          clearInterval(timer);
          process.kill(-child.pid!, 'SIGINT');
        }, 50);
        child.on('close', () => clearInterval(timer));
      },
    },
  );
  expect(cut.exitCode === 130 || cut.exitCode === 1 || cut.signal === 'SIGINT', cut.output).toBe(true);
  const dir = path.join(first.dir, '.daebug', 'history');
  const names = fs.readdirSync(dir);
  // No temp file and nothing else than whole runs.
  expect(names.every((n) => /^\d{8}T\d{9}Z-[0-9a-f]{8}\.json$/.test(n)), names.join('\n')).toBe(true);
  expect(names.length === 1 || names.length === 2, names.join('\n')).toBe(true);
  const runs = names.map((n) => historyRunSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8'))));
  if (runs.length === 2) {
    const interrupted = runs.find((r) => r.status === 'interrupted')!;
    expect(interrupted.tests.find((t) => t.titlePath.at(-1) === 'first')?.attempts[0]).toMatchObject({ status: 'passed', ok: true });
  }
  expect(flakyJson(first.dir).runs).toBe(runs.length);
});
