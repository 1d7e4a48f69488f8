import fs from 'node:fs';
import path from 'node:path';
import { fmt, launchOptions, log, median, port, quick, runPlaywright, writeProject, type Row } from './lib';

// What `daebugNetwork` costs: the same page of 50 requests (6 failing) loaded LOADS times in one test, under
// `daebugNetwork: 'off'` (Chromium's Log lines only, the cheap alternative) and `'report'` (the Network domain on
// daebug's session), and under bare Playwright. Runs alternate (bare, off, report, bare, …); medians of ROUNDS.
const LOADS = quick ? 5 : 20;
const ROUNDS = quick ? 1 : 5;
const MODES = ['bare', 'off', 'report'] as const;
type Mode = (typeof MODES)[number];

function spec(mode: Mode): string {
  const from = mode === 'bare' ? '@playwright/test' : 'daebug';
  return `import fs from 'node:fs';
import { test } from '${from}';
${mode === 'bare' ? '' : `test.use({ daebugNetwork: '${mode}' });`}
test('loads', async ({ page }) => {
  await page.goto('/bench/network.html');
  await page.waitForSelector('body[data-done]', { state: 'attached' });
  const started = performance.now();
  for (let i = 0; i < ${LOADS}; i++) {
    await page.goto('/bench/network.html?load=' + i);
    await page.waitForSelector('body[data-done]', { state: 'attached' });
  }
  fs.writeFileSync('loads-ms.txt', String(performance.now() - started));
});
`;
}

function project(mode: Mode): string {
  const reporter = mode === 'bare' ? "[['list']]" : "[['list'], ['daebug/reporter', { outputDir: 'reports' }]]";
  return writeProject(`network-${mode}`, {
    'playwright.config.ts': `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: 'tests', workers: 1, retries: 0, timeout: 120_000, reporter: ${reporter},
  use: { baseURL: 'http://127.0.0.1:${port}', launchOptions: ${JSON.stringify(launchOptions())} },
});
`,
    'tests/loads.spec.ts': spec(mode),
  });
}

/** The report of the `report` run must hold the page's failures: a capture that saw nothing cannot pass for a cheap one. */
function check(dir: string): void {
  const reports = fs.readdirSync(path.join(dir, 'reports')).filter((f) => f.endsWith('.json') && f !== 'index.json');
  const report = JSON.parse(fs.readFileSync(path.join(dir, 'reports', reports[0]!), 'utf8')) as { summary: { network?: number } };
  if ((report.summary.network ?? 0) < 6 * LOADS) throw new Error(`network-cost: expected ${6 * LOADS} network events or more, the report has ${report.summary.network}`);
}

export async function networkCost(): Promise<Row[]> {
  const dirs = Object.fromEntries(MODES.map((mode) => [mode, project(mode)])) as Record<Mode, string>;
  const loads: Record<Mode, number[]> = { bare: [], off: [], report: [] };
  const cpu: Record<Mode, number[]> = { bare: [], off: [], report: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of MODES) {
      const result = await runPlaywright(dirs[mode]);
      if (!/1 passed/.test(result.output)) throw new Error(`network-cost: the ${mode} run failed:\n${result.output}`);
      loads[mode].push(Number(fs.readFileSync(path.join(dirs[mode], 'loads-ms.txt'), 'utf8')));
      cpu[mode].push(result.cpuMs);
      log(`  round ${round + 1} ${mode}: ${fmt(loads[mode].at(-1)!, 0)} ms for ${LOADS} loads, CPU ${fmt(result.cpuMs, 0)} ms`);
    }
  }
  check(dirs.report);
  const rows: Row[] = [];
  for (const mode of ['off', 'report'] as const) {
    const wall = median(loads[mode]) / median(loads.bare);
    const cpuRatio = median(cpu[mode]) / median(cpu.bare);
    rows.push({ bench: '5 network', metric: `wall of ${LOADS} loads, daebugNetwork '${mode}'`, baseline: `${fmt(median(loads.bare), 0)} ms`, daebug: `${fmt(median(loads[mode]), 0)} ms`, ratio: fmt(wall, 3), target: '', met: undefined });
    rows.push({ bench: '5 network', metric: `CPU of the run, daebugNetwork '${mode}'`, baseline: `${fmt(median(cpu.bare), 0)} ms`, daebug: `${fmt(median(cpu[mode]), 0)} ms`, ratio: fmt(cpuRatio, 3), target: '', met: undefined });
  }
  return rows;
}
