import { fmt, launchOptions, log, median, quick, writeProject, type Row } from './lib';
import { alternatingRounds, CONTROL, type BenchProject } from './rounds';
import { meanAndError, warmTests } from './worker-warmup';

/**
 * Issue 49: the cost gate as decided, what a user's suite pays, in Node CPU (the browsers' noise does not reach it),
 * each figure beside a baseline measured in the same run:
 *
 * - a warm test: at most 0.2 ms with capture off, 2 ms with the default. bench/worker-warmup.ts's warm rounds (one
 *   worker, bare / capture off / default interleaved, `process.cpuUsage()` of the worker around each test, from a
 *   fixture set up before daebug's): each round's extra over its bare test, mean ± standard error, met when the mean
 *   is under the gate by two standard errors. Capture off on a test without a page, the default on one that opens a
 *   page which logs an object and warns; the other two pairings are figures. The multi-realm app's demo flow is
 *   `BENCH_ONLY=warmup`, a figure: its spread (a standard error of 1.5 ms) is wider than the gates.
 * - a fresh worker: at most 40 ms. Each worker process's CPU at its exit (bench/cpu-at-exit.cjs), one test a worker
 *   that opens a page and logs, `--repeat-each` starting a worker per repeat; each round's mean worker against bare's.
 * - a run's reporter: at most 60 ms. The runner's CPU with daebug's reporter against the same project without it.
 *
 * The projects run in alternating rounds, the order turning each round, with a second bare project as the A/A
 * control: its figure is what this machine's noise makes of a difference. The realistic suite's ratio is `paired`.
 */
const ROUNDS = quick ? 2 : Number(process.env['BENCH_GATE_ROUNDS'] ?? 8);
const WORKERS_A_RUN = quick ? 2 : 6;
const WARM_ROUNDS = quick ? 6 : Number(process.env['BENCH_GATE_WARM_ROUNDS'] ?? 60);
/** `BENCH_GATE_PARTS`: `warm` (a warm test), `processes` (a fresh worker, a run's reporter), or both (the default). */
const PARTS = (process.env['BENCH_GATE_PARTS'] ?? 'warm,processes').split(',');
const EMPTY_ROUNDS = quick ? 20 : Number(process.env['BENCH_GATE_EMPTY_ROUNDS'] ?? 300);

export const GATES = { warmOff: 0.2, warmDefault: 2, freshWorker: 40, reporter: 60 } as const;

/** The test of every figure: a page that logs an object and warns, and a web-first assertion. */
const PAGE_TEST = `  await page.setContent('<p>shop</p><script>console.log("cart", { items: 2 }); console.warn("slow image")</script>');
  await expect(page.locator('p')).toHaveText('shop');
`;

const SPEC = (from: string) => `import { test, expect } from '${from}';
test('a page that logs', async ({ page }) => {
${PAGE_TEST}});
`;

const CONFIG = (reporters: string, use: string) => `import { defineConfig } from '@playwright/test';
export default defineConfig({ testDir: 'tests', workers: 1, retries: 0, reporter: ${reporters}, use: { launchOptions: ${JSON.stringify(launchOptions())}, ...${use} } });
`;

function projects(): BenchProject[] {
  const project = (name: string, from: string, reporters: string, use: string): BenchProject => ({
    name,
    dir: writeProject(`gates-${name.replace(/\W+/g, '-')}`, { 'tests/page.spec.ts': SPEC(from), 'playwright.config.ts': CONFIG(reporters, use) }),
  });
  return [
    project('bare', '@playwright/test', "[['dot']]", '{}'),
    project('capture off', 'daebug', "[['dot']]", '{ daebugCapture: false } as object'),
    project('default', 'daebug', "[['dot']]", '{}'),
    project('default with the reporter', 'daebug', "[['dot'], ['daebug/reporter']]", '{}'),
    project(CONTROL, '@playwright/test', "[['dot']]", '{}'),
  ];
}

function gateRow(metric: string, baseline: string, extra: number, target: number, detail: string): Row {
  return { bench: 'cost gate', metric: `${metric} (${detail})`, baseline, daebug: `+${fmt(extra, 2)} ms`, ratio: '', target: `≤ ${target} ms`, met: extra <= target };
}

export async function gates(): Promise<Row[]> {
  const rows: Row[] = [];
  if (PARTS.includes('warm')) rows.push(...(await warmGates()));
  if (PARTS.includes('processes')) rows.push(...(await processGates()));
  return rows;
}

/** A warm test's gates. */
async function warmGates(): Promise<Row[]> {
  const rows: Row[] = [];

  // Capture off on a test with no browser: its cost (the record, the fixtures, the attachments) does not depend on a
  // page, and a page's own spread (a standard error near 1 ms in 60 rounds) would hide a 0.2 ms gate.
  const empty = await warmTests(EMPTY_ROUNDS, { name: 'gates-warm-empty', body: '  expect(1).toBe(1);\n', args: '{}' });
  const page = await warmTests(WARM_ROUNDS, { name: 'gates-warm-page', body: PAGE_TEST });
  for (const [rounds, kind, label, target] of [
    [empty, 'off', 'capture off, a test without a page', GATES.warmOff],
    [page, 'on', 'default, a page that logs', GATES.warmDefault],
    [page, 'off', 'capture off, a page that logs', undefined],
    [empty, 'on', 'default, a test without a page', undefined],
  ] as const) {
    const extras = rounds.map((r) => r[kind].allMs - r.bare.allMs);
    const bare = median(rounds.map((r) => r.bare.allMs));
    const { mean, error } = meanAndError(extras);
    log(`  warm test, ${label}: mean +${fmt(mean, 3)} ± ${fmt(error, 3)} ms, median ${fmt(median(extras), 3)} ms over bare's ${fmt(bare, 2)} ms (${extras.length} rounds)`);
    const row: Row = { bench: 'cost gate', metric: `a warm test, ${label}: worker CPU over bare (mean ± standard error of ${extras.length} rounds; median ${fmt(median(extras), 3)})`, baseline: `${fmt(bare, 2)} ms`, daebug: `${fmt(mean, 3)} ± ${fmt(error, 3)} ms`, ratio: '', target: target === undefined ? 'a figure' : `≤ ${target} ms` };
    // Met when the mean is under the gate by two standard errors: a figure the noise could put above it is not met.
    rows.push(target === undefined ? row : { ...row, met: mean + 2 * error <= target });
  }

  return rows;
}

/** A fresh worker's gate and a run's reporter's, from the same alternating rounds. */
async function processGates(): Promise<Row[]> {
  const rows: Row[] = [];
  const all = projects();
  const workerCounts: Record<string, number[]> = {};
  const run = await alternatingRounds('gates', all, ROUNDS, (project, result) => (workerCounts[project.name] ??= []).push(result.workerCount ?? NaN), [`--repeat-each=${WORKERS_A_RUN}`]);
  const perWorker = (name: string) => run.series[name]!.workers.map((ms, i) => ms / workerCounts[name]![i]!);
  const bareWorker = perWorker('bare');
  const workerExtra = (name: string) => median(perWorker(name).map((ms, i) => ms - bareWorker[i]!));
  const counts = [...new Set(Object.values(workerCounts).flat())].join(', ');
  for (const name of ['capture off', 'default', CONTROL]) {
    const extra = workerExtra(name);
    log(`  fresh worker, ${name}: ${perWorker(name).map((v) => fmt(v, 0)).join(', ')} ms (bare ${bareWorker.map((v) => fmt(v, 0)).join(', ')})`);
    if (name === CONTROL) rows.push({ bench: 'cost gate', metric: `a fresh worker, ${CONTROL}: the noise of the figure above (median of ${ROUNDS} rounds)`, baseline: `${fmt(median(bareWorker), 0)} ms`, daebug: `${extra >= 0 ? '+' : ''}${fmt(extra, 2)} ms`, ratio: '', target: 'noise' });
    else rows.push(gateRow(`a fresh worker, ${name}: its process's CPU over bare's, one test that logs`, `${fmt(median(bareWorker), 0)} ms`, extra, GATES.freshWorker, `median of ${ROUNDS} rounds' mean of ${counts} workers`));
  }

  const runner = (name: string) => run.series[name]!.runner;
  const reporterExtras = runner('default with the reporter').map((ms, i) => ms - runner('default')[i]!);
  const controlExtras = runner(CONTROL).map((ms, i) => ms - runner('bare')[i]!);
  log(`  reporter a run: ${reporterExtras.map((v) => fmt(v, 0)).join(', ')} ms; A/A runner ${controlExtras.map((v) => fmt(v, 0)).join(', ')} ms`);
  rows.push(gateRow("a run's reporter: the runner's CPU with daebug/reporter over the same run without it", `${fmt(median(runner('default')), 0)} ms`, median(reporterExtras), GATES.reporter, `median of ${ROUNDS} rounds, ${WORKERS_A_RUN} tests a run; A/A runner ${fmt(median(controlExtras), 1)} ms`));
  return rows;
}
