import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cpuSource, fmt, listDurations, log, median, quick, repoRoot, runPlaywright, suiteConfig, writeProject, type Row } from './lib';
import { alternatingRounds, CONTROL, nodeExtraShare, perRoundRatios, type BenchProject } from './rounds';

const FILES = 4;
const TESTS_PER_FILE = quick ? 5 : 20;
const ROUNDS = quick ? 1 : Number(process.env['BENCH_ROUNDS'] ?? 5);

/**
 * How each test waits for the page after `page.goto()`. The default is the locator form Playwright recommends,
 * `locator.waitFor()`. `BENCH_SUITE_WAIT=selector` uses `page.waitForSelector()`, which returns an ElementHandle:
 * Playwright then injects its script into the page's main world to describe that handle, work still running in the
 * renderer when the test ends (a bare run closes the context in the middle of it; daebug's read at the test's end
 * waits for it). `expect` is `await expect(locator).toBeAttached()`, the web-first assertion;
 * `mixed` ends odd tests at `goto` and even ones after the assertion; `click` waits like `locator`, then clicks (daebug's barrier then also waits for the page's 0 ms timers); `goto`
 * waits for nothing more than the load event, so the test ends while the page may still be busy after its load.
 */
const WAITS = {
  locator: "await page.locator('body[data-done]').waitFor({ state: 'attached' });",
  selector: "await page.waitForSelector('body[data-done]', { state: 'attached' });",
  expect: "await expect(page.locator('body[data-done]')).toBeAttached();",
  // Then a click: an action that runs the page's handlers, after which daebug's end waits for 0 ms timers too.
  click: "await page.locator('body[data-done]').waitFor({ state: 'attached' }); await page.click('#app');",
  goto: '',
  // Half the tests end right after load, half after a web-first assertion (issue 25's object-logging page).
  mixed: "if (i % 2 === 0) await expect(page.locator('body[data-done]')).toBeAttached();",
} as const;
export type SuiteWait = keyof typeof WAITS;
const waitOption = process.env['BENCH_SUITE_WAIT'] ?? 'locator';
if (!(waitOption in WAITS)) throw new Error(`BENCH_SUITE_WAIT: "${waitOption}" is not one of ${Object.keys(WAITS).join(', ')}`);
export const SUITE_WAIT = waitOption as SuiteWait;
const WAIT = WAITS[SUITE_WAIT];
/** `BENCH_SUITE_PAGE=strings` loads fixtures/bench/suite-strings.html: the same calls with string arguments only. */
const PAGE = process.env['BENCH_SUITE_PAGE'] === 'strings' ? '/bench/suite-strings.html' : '/bench/suite.html';

function spec(importFrom: string): string {
  return `import { test, expect } from '${importFrom}';

for (let i = 1; i <= ${TESTS_PER_FILE}; i++) {
  test(\`page \${i}\`, async ({ page }) => {
    await page.goto('${PAGE}');
    ${WAIT}
  });
}
`;
}

function project(name: string, importFrom: string, reporters: string, use: Record<string, unknown> = {}): string {
  const files: Record<string, string> = { 'playwright.config.ts': suiteConfig(reporters, use) };
  for (let f = 0; f < FILES; f++) files[`tests/page-${f + 1}.spec.ts`] = spec(importFrom);
  return writeProject(name, files);
}

/** Checks that daebug saw what the page did, so a broken capture cannot pass for a fast one. */
function checkReports(dir: string): void {
  const reports = fs.readdirSync(path.join(dir, 'reports')).filter((f) => f.endsWith('.json') && f !== 'index.json');
  if (reports.length !== FILES * TESTS_PER_FILE) throw new Error(`suite-overhead: expected ${FILES * TESTS_PER_FILE} daebug reports, found ${reports.length}`);
  const report = JSON.parse(fs.readFileSync(path.join(dir, 'reports', reports[0]!), 'utf8')) as { summary: { console: number; unexpected: number } };
  if (report.summary.console < 20 || report.summary.unexpected < 4) throw new Error(`suite-overhead: report ${reports[0]} misses events: ${JSON.stringify(report.summary)}`);
}

/**
 * Extra daebug projects to split the cost by feature, run in the same alternating rounds:
 * BENCH_SUITE_VARIANTS='net-off={"daebugNetwork":"off"};live-off={"daebugLive":false}' (name=JSON of `use` options;
 * an "env" key in it sets environment variables of that run instead, e.g. own={"env":{"DAEBUG_OWN_SESSIONS":"1"}}).
 */
function variants(): Array<[string, Record<string, unknown>]> {
  const spec = process.env['BENCH_SUITE_VARIANTS'];
  if (!spec) return [];
  return spec.split(';').filter(Boolean).map((part) => {
    const at = part.indexOf('=');
    if (at < 1) throw new Error(`BENCH_SUITE_VARIANTS: "${part}" is not name={json}`);
    return [part.slice(0, at), JSON.parse(part.slice(at + 1)) as Record<string, unknown>];
  });
}

/**
 * The suite's projects: bare Playwright with `list` first, daebug's fixtures with `list` and daebug/reporter second,
 * then the A/A control (a second bare project: what this run's ratios can resolve) and the variants.
 */
export function suiteProjects(): BenchProject[] {
  const projects: BenchProject[] = [
    { name: 'baseline', dir: project('suite-baseline', '@playwright/test', `[['list']]`) },
    // Issue 25's object-logging page: 20 object logs and 2 errors per test, half the tests ending at load.
    { name: 'daebug', dir: project('suite-daebug', 'daebug', `[['list'], ['daebug/reporter']]`), target: SUITE_WAIT === 'mixed' && PAGE === '/bench/suite.html' ? 1.03 : undefined },
  ];
  if (process.env['BENCH_SUITE_CONTROL'] !== '0') projects.push({ name: CONTROL, dir: project('suite-baseline-again', '@playwright/test', `[['list']]`) });
  if (process.env['BENCH_SUITE_KNOWN'] === '1') projects.push(knownErrorsProject());
  for (const [name, { env, ...use }] of variants()) projects.push({ name, dir: project(`suite-${name}`, 'daebug', `[['list'], ['daebug/reporter']]`, use), env: env as Record<string, string> | undefined });
  return projects;
}

/**
 * `BENCH_SUITE_KNOWN=1`: daebug with a baseline that holds the page's errors and warnings, the way a team runs once it
 * has written one (`npx daebug baseline`): known errors keep V8's preview, so a passing test's end reads nothing. The
 * baseline is written from the project's own warm-up run (it starts from an empty one).
 */
function knownErrorsProject(): BenchProject {
  const dir = project('suite-known', 'daebug', `[['list'], ['daebug/reporter']]`, { daebugBaseline: 'daebug-baseline.json' });
  const file = path.join(dir, 'daebug-baseline.json');
  fs.writeFileSync(file, JSON.stringify({ daebugBaseline: 1, groups: [] }) + '\n');
  return {
    name: 'known',
    dir,
    afterWarmUp: () => {
      execFileSync(process.execPath, [path.join(repoRoot, 'dist', 'cli', 'bin.js'), 'baseline'], { cwd: dir, stdio: 'pipe' });
      const groups = (JSON.parse(fs.readFileSync(file, 'utf8')) as { groups: unknown[] }).groups.length;
      if (groups < 3) throw new Error(`suite-overhead: the baseline written from the warm-up run holds ${groups} groups`);
      log(`  suite-known: baseline of ${groups} groups written from the warm-up run`);
    },
  };
}

/** Checks that daebug's project of `suiteProjects()` saw what the page did. */
export function checkSuiteReports(projects: readonly BenchProject[]): void {
  checkReports(projects[1]!.dir);
  const known = projects.find((p) => p.name === 'known');
  if (known) checkKnown(known.dir);
}

/** The baseline project's reports: every warning and console.error known and left to its preview (nothing read). */
function checkKnown(dir: string): void {
  checkReports(dir);
  const file = fs.readdirSync(path.join(dir, 'reports')).find((f) => f.endsWith('.json') && f !== 'index.json')!;
  const { events } = JSON.parse(fs.readFileSync(path.join(dir, 'reports', file), 'utf8')) as { events: Array<{ source: string; known?: boolean; preview?: boolean }> };
  const counted = events.filter((e) => e.source === 'console.warn' || e.source === 'console.error');
  if (counted.length < 6 || counted.some((e) => !e.known || !e.preview)) throw new Error(`suite-overhead: ${file} has a warning or console.error that is not a known preview: ${JSON.stringify(counted)}`);
}

/** 80 tests on 2 workers: bare Playwright with `list` against daebug's fixtures with `list` and daebug/reporter. */
export async function suiteOverhead(): Promise<Row[]> {
  const projects = suiteProjects();
  const measured = projects[1]!.dir;
  // One test each first: compiles the specs into Playwright's cache and warms the disk.
  for (const { dir, env, afterWarmUp } of projects) {
    await runPlaywright(dir, ['--grep', 'page 1$'], env);
    afterWarmUp?.();
  }

  const durations: Record<string, number[]> = Object.fromEntries(projects.map(({ name }) => [name, []]));
  const { series, loads } = await alternatingRounds('suite', projects, ROUNDS, ({ name }, run) => {
    const tests = listDurations(run.output);
    if (tests.length !== FILES * TESTS_PER_FILE) throw new Error(`suite-overhead: ${name} printed ${tests.length} passed tests\n${run.output.slice(-2000)}`);
    durations[name]!.push(...tests);
  });
  checkReports(measured);
  const walls = Object.fromEntries(Object.entries(series).map(([name, s]) => [name, s.wall]));
  const cpus = Object.fromEntries(Object.entries(series).map(([name, s]) => [name, s.cpu]));

  const tests = FILES * TESTS_PER_FILE;
  const nodeCpu = (name: string) => median(series[name]!.runner) + median(series[name]!.workers);
  const perRound = (name: string) => perRoundRatios(series, name, 'baseline').map((r) => fmt(r, 3)).join(', ');
  const variantRows: Row[] = projects.slice(2).map(({ name }) => ({
    bench: '1 suite',
    metric: `${name === CONTROL ? name : `variant ${name}`}: wall / CPU ratio to baseline (CPU per round ${perRound(name)})`,
    baseline: '',
    daebug: `${fmt(median(walls[name]!) / 1000, 2)} s / ${fmt(median(cpus[name]!) / 1000, 1)} s`,
    ratio: `${fmt(median(walls[name]!) / median(walls['baseline']!), 3)} / ${fmt(median(cpus[name]!) / median(cpus['baseline']!), 3)}`,
    target: name === CONTROL ? 'noise' : '',
  }));
  const cpuRatio = median(cpus['daebug']!) / median(cpus['baseline']!);
  const cpuTarget = projects[1]!.target;
  const ratio = median(walls['daebug']!) / median(walls['baseline']!);
  const extraWallPerTest = median(walls['daebug']!.map((w, i) => (w - walls['baseline']![i]!) / tests));
  const extraTestMs = median(durations['daebug']!) - median(durations['baseline']!);
  return [
    {
      bench: '1 suite',
      metric: `wall, ${tests} tests, 2 workers, wait: ${SUITE_WAIT}, page ${PAGE} (median of ${ROUNDS})`,
      baseline: `${fmt(median(walls['baseline']!) / 1000, 2)} s`,
      daebug: `${fmt(median(walls['daebug']!) / 1000, 2)} s`,
      ratio: fmt(ratio, 3),
      target: '≤ 1.05 (aim 1.02)',
      met: ratio <= 1.05,
    },
    {
      bench: '1 suite',
      metric: 'extra wall per test (median of rounds)',
      baseline: '',
      daebug: `${fmt(extraWallPerTest, 1)} ms`,
      ratio: '',
      target: '',
    },
    {
      bench: '1 suite',
      metric: `CPU of runner, workers and browsers (${cpuSource()}; per round ${perRound('daebug')})`,
      baseline: `${fmt(median(cpus['baseline']!) / 1000, 1)} s`,
      daebug: `${fmt(median(cpus['daebug']!) / 1000, 1)} s`,
      ratio: fmt(cpuRatio, 3),
      target: cpuTarget ? `≤ ${cpuTarget}` : '',
      ...(cpuTarget ? { met: cpuRatio <= cpuTarget } : {}),
    },
    {
      bench: '1 suite',
      metric: "CPU of Playwright's runner and workers (Node), without the browsers (bench/cpu-at-exit.cjs); its extra as a share of the bare run's whole CPU",
      baseline: `${fmt(nodeCpu('baseline') / 1000, 2)} s`,
      daebug: `${fmt(nodeCpu('daebug') / 1000, 2)} s`,
      ratio: `${fmt(nodeCpu('daebug') / nodeCpu('baseline'), 3)} (+${fmt(nodeExtraShare(series, 'daebug', 'baseline') * 100, 2)} % of all)`,
      target: '',
    },
    {
      bench: '1 suite',
      metric: 'extra CPU per test (median of rounds)',
      baseline: '',
      daebug: `${fmt(median(cpus['daebug']!.map((c, i) => (c - cpus['baseline']![i]!) / tests)), 1)} ms`,
      ratio: '',
      target: '',
    },
    {
      bench: '1 suite',
      metric: 'median test duration (list reporter)',
      baseline: `${fmt(median(durations['baseline']!), 0)} ms`,
      daebug: `${fmt(median(durations['daebug']!), 0)} ms`,
      ratio: fmt(median(durations['daebug']!) / median(durations['baseline']!), 3),
      target: '',
    },
    {
      bench: '1 suite',
      metric: 'median extra ms per test',
      baseline: '',
      daebug: `${fmt(extraTestMs, 0)} ms`,
      ratio: '',
      target: '',
    },
    ...variantRows,
    { bench: '1 suite', metric: `load average after each run: ${loads.join('; ')}`, baseline: '', daebug: '', ratio: '', target: '' },
  ];
}
