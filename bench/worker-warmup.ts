import fs from 'node:fs';
import path from 'node:path';
import { fmt, log, median, quick, runPlaywright, suiteConfig, writeProject, type Row } from './lib';
import { buildRealmsApp } from './multi-realm';

/**
 * Issue 36: where a Playwright worker pays daebug's cost on the multi-realm app, per test. One project, one worker,
 * three kinds of test in the same file: bare Playwright (`bare`: no daebug fixture at all), daebug with capture off
 * (`off`) and daebug's default (`on`), each the app's demo flow. A test-scoped fixture registered before daebug's
 * times every test from its first fixture's setup to its last fixture's teardown on the worker's main thread
 * (`/proc/thread-self/schedstat`: nanoseconds, no sampling) and all its threads (`process.cpuUsage()`).
 *
 * - warm: one worker runs WARMUP_ROUNDS rounds of bare, off and on (the order turned each round); the first rounds
 *   are left out, and each round's off and on are compared to its bare: what a test costs once the code is hot.
 * - cold: a fresh worker runs WARMUP_COLD_TESTS tests of one kind, the kinds alternating run by run
 *   (WARMUP_COLD_RUNS each): what the first tests of each worker cost, as `--repeat-each` and small shards run them.
 *
 * Not the whole run's ratio (bench/paired.ts is): the runner, Chromium and the test-end message are outside.
 */
const WARM_ROUNDS = quick ? 4 : Number(process.env['WARMUP_ROUNDS'] ?? 25);
const WARM_SKIP = quick ? 1 : 3;
const COLD_TESTS = quick ? 2 : Number(process.env['WARMUP_COLD_TESTS'] ?? 6);
const COLD_RUNS = quick ? 1 : Number(process.env['WARMUP_COLD_RUNS'] ?? 5);
const KINDS = ['bare', 'off', 'on'] as const;
export type Kind = (typeof KINDS)[number];

/** The test of every kind: the multi-realm app's demo flow (as TypeScript inside the spec's template). */
const DEMO_FLOW = `  await page.goto('/bench/realms/index.html');
  expect(await page.evaluate(() => navigator.serviceWorker.ready.then((registration) => registration.active !== null))).toBe(true);
  await page.locator('.menu-item >> text=Demo').click();
  await expect(page.locator('#gzip')).toHaveText(/\\d+ bytes/);
  const showOriginal = page.locator('.setting-item-toggle', { hasText: 'Show original' }).locator('input');
  await showOriginal.click();
  await expect(showOriginal).toBeChecked();
  await page.locator('button >> text=Reset all').click();
  await expect(showOriginal).not.toBeChecked();
`;

/** The test's parameters: the page, or `{}` for a test that needs no browser. */
const PAGE_ARGS = '{ page }: { page: Page }';

const SPEC = (body: string, args: string) => `import fs from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import { daebugFixtures } from 'daebug';

const mainThreadNs = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
// Registered before daebug's fixtures: set up first, torn down last, so daebug's whole share of a test is inside.
const metered = base.extend<{ _meter: void }>({
  _meter: [async ({}, use, testInfo) => {
    const main0 = mainThreadNs();
    const all0 = process.cpuUsage();
    await use();
    const all = process.cpuUsage(all0);
    const kind = testInfo.titlePath.find((t) => /^(bare|off|on) /.test(t))!.split(' ')[0];
    fs.appendFileSync(process.env.WARMUP_LOG!, JSON.stringify({ kind, mainMs: (mainThreadNs() - main0) / 1e6, allMs: (all.user + all.system) / 1000 }) + '\\n');
  }, { auto: true }],
});
const test = metered.extend(daebugFixtures);

async function demo(${args}) {
${body}}

const kinds = process.env.WARMUP_KINDS!.split(',');
const rounds = Number(process.env.WARMUP_TESTS);
for (let round = 0; round < rounds; round++) {
  for (const kind of round % 2 ? [...kinds].reverse() : kinds) {
    if (kind === 'bare') metered.describe(kind + ' ' + round, () => metered('demo', demo));
    else test.describe(kind + ' ' + round, () => {
      test.use({ daebugCapture: kind === 'on' });
      test('demo', demo);
    });
  }
}
`;

export interface Sample {
  kind: Kind;
  mainMs: number;
  allMs: number;
}

function readSamples(file: string): Sample[] {
  return fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Sample);
}

/** Mean and standard error of `values`. */
export function meanAndError(values: readonly number[]): { mean: number; error: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length - 1);
  return { mean, error: Math.sqrt(variance / values.length) };
}

/** The warm test's project: one worker, daebug's reporter, the multi-realm app (built by the caller). */
function warmupProject(name = 'worker-warmup', body = DEMO_FLOW, args = PAGE_ARGS): { dir: string; logFile: string } {
  const config = suiteConfig(`[['dot'], ['daebug/reporter']]`).replace('workers: 2,', 'workers: 1,').replace('fullyParallel: true,', 'fullyParallel: false,');
  const dir = writeProject(name, { 'playwright.config.ts': config, 'tests/warmup.spec.ts': SPEC(body, args) });
  return { dir, logFile: path.join(dir, 'samples.jsonl') };
}

/** Each warm round's three tests, the first WARM_SKIP rounds left out: one worker, the kinds interleaved. */
export async function warmRounds(dir: string, logFile: string, rounds = WARM_ROUNDS): Promise<Record<Kind, Sample>[]> {
  fs.rmSync(logFile, { force: true });
  await runPlaywright(dir, [], { WARMUP_LOG: logFile, WARMUP_KINDS: KINDS.join(','), WARMUP_TESTS: String(rounds) });
  const samples = readSamples(logFile);
  const byRound: Record<Kind, Sample>[] = [];
  for (let at = WARM_SKIP * KINDS.length; at + KINDS.length <= samples.length; at += KINDS.length) {
    byRound.push(Object.fromEntries(samples.slice(at, at + KINDS.length).map((s) => [s.kind, s])) as Record<Kind, Sample>);
  }
  return byRound;
}

/**
 * A warm worker's tests, round by round: the multi-realm app's demo flow (the app built here), or `body` (the test's
 * code, with `expect` in scope, and `page` unless `args` is `{}`) in a project named `name`.
 */
export async function warmTests(rounds = WARM_ROUNDS, custom?: { name: string; body: string; args?: string }): Promise<Record<Kind, Sample>[]> {
  if (!custom) await buildRealmsApp();
  const { dir, logFile } = custom ? warmupProject(custom.name, custom.body, custom.args) : warmupProject();
  return warmRounds(dir, logFile, rounds);
}

export async function workerWarmup(): Promise<Row[]> {
  await buildRealmsApp();
  const { dir, logFile } = warmupProject();
  const rows: Row[] = [];
  const rounds = await warmRounds(dir, logFile);
  for (const kind of ['off', 'on'] as const) {
    for (const key of ['mainMs', 'allMs'] as const) {
      const { mean, error } = meanAndError(rounds.map((r) => r[kind][key] - r.bare[key]));
      const bare = median(rounds.map((r) => r.bare[key]));
      const label = `${kind === 'on' ? "daebug's default" : 'capture off'}, ${key === 'mainMs' ? "worker's main thread" : 'all worker threads'}`;
      log(`  warm, ${label}: ${fmt(mean, 2)} ± ${fmt(error, 2)} ms a test over bare (${fmt(bare)} ms), ${rounds.length} rounds`);
      rows.push({ bench: 'worker warm-up', metric: `warm worker, ${label}: extra ms a test (mean ± standard error, ${rounds.length} rounds)`, baseline: `${fmt(bare)} ms`, daebug: `${fmt(mean, 2)} ± ${fmt(error, 2)} ms`, ratio: '', target: '' });
    }
  }

  // Cold: a fresh worker per run, one kind a run.
  const cold: Record<Kind, Sample[][]> = { bare: [], off: [], on: [] };
  for (let run = 0; run < COLD_RUNS; run++) {
    for (const kind of run % 2 ? [...KINDS].reverse() : KINDS) {
      fs.rmSync(logFile, { force: true });
      await runPlaywright(dir, [], { WARMUP_LOG: logFile, WARMUP_KINDS: kind, WARMUP_TESTS: String(COLD_TESTS) });
      cold[kind].push(readSamples(logFile));
    }
  }
  const sumOf = (run: Sample[]) => run.reduce((total, s) => total + s.mainMs, 0);
  const bareSum = median(cold.bare.map(sumOf));
  for (const kind of ['off', 'on'] as const) {
    const extra = cold[kind].map((run, i) => sumOf(run) - sumOf(cold.bare[i]!));
    const byPosition = Array.from({ length: COLD_TESTS }, (_, at) => median(cold[kind].map((run, i) => run[at]!.mainMs - cold.bare[i]![at]!.mainMs)));
    const label = kind === 'on' ? "daebug's default" : 'capture off';
    log(`  cold, ${label}: ${fmt(median(extra))} ms over bare's ${fmt(bareSum)} ms for a fresh worker's ${COLD_TESTS} tests (runs ${extra.map((e) => fmt(e)).join(', ')}); by test: ${byPosition.map((e) => fmt(e)).join(', ')}`);
    rows.push({ bench: 'worker warm-up', metric: `fresh worker, ${label}: extra main-thread ms over its first ${COLD_TESTS} tests (median of ${COLD_RUNS} runs; by test ${byPosition.map((e) => fmt(e)).join(', ')})`, baseline: `${fmt(bareSum)} ms`, daebug: `${fmt(median(extra))} ms`, ratio: fmt((bareSum + median(extra)) / bareSum, 3), target: '' });
  }
  return rows;
}
