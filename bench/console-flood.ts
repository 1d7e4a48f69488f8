import fs from 'node:fs';
import path from 'node:path';
import { fmt, launchOptions, log, mb, median, port, quick, runPlaywright, writeProject, type Row } from './lib';

const CALLS = quick ? 10_000 : 100_000;
const ROUNDS = quick ? 1 : 3;

// Worker-scoped, so it is torn down after every test fixture: VmHWM then covers daebug's teardown too.
const metricsFixture = `
const peakRss = () => Number(/VmHWM:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const write = (metrics: object) => {
  const file = process.env['BENCH_OUT']!;
  const old = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  fs.writeFileSync(file, JSON.stringify({ ...old, ...metrics }));
};
const test = base.extend<{}, { _peakRss: void }>({
  _peakRss: [async ({}, use) => { await use(); write({ peakRss: peakRss() }); }, { scope: 'worker', auto: true }],
});
`;

const bareSpec = `import fs from 'node:fs';
import { test as base } from '@playwright/test';
${metricsFixture}
test('flood', async ({ page }) => {
  let observed = 0;
  page.on('console', () => { observed++; });
  await page.goto('/bench/flood.html');
  const started = performance.now();
  await page.evaluate((n) => (window as any).flood(n), ${CALLS});
  while (observed < ${CALLS}) await sleep(10);
  write({ floodMs: performance.now() - started, observed });
});
`;

const daebugSpec = `import fs from 'node:fs';
import { test as base } from 'daebug';
${metricsFixture}
test('flood', async ({ page, daebug }) => {
  await page.goto('/bench/flood.html');
  const started = performance.now();
  await page.evaluate((n) => (window as any).flood(n), ${CALLS});
  // The page throws once after its loop; errors have their own rate budget, and CDP keeps a session's events in order.
  while (!daebug.errors().some((e) => e.message.includes('flood done'))) await sleep(10);
  write({ floodMs: performance.now() - started });
});
`;

const durationReporter = `const fs = require('node:fs');
module.exports = class {
  onTestEnd(test, result) {
    const file = process.env.BENCH_OUT;
    const old = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    fs.writeFileSync(file, JSON.stringify({ ...old, testMs: result.duration, status: result.status }));
  }
  printsToStdio() { return false; }
};
`;

function project(name: string, spec: string, reporters: string): string {
  return writeProject(name, {
    'playwright.config.ts': `import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests',
  workers: 1,
  timeout: 300_000,
  reporter: ${reporters},
  use: { baseURL: 'http://127.0.0.1:${port}', launchOptions: ${JSON.stringify(launchOptions())} },
});
`,
    'duration-reporter.cjs': durationReporter,
    'tests/flood.spec.ts': spec,
  });
}

interface Metrics {
  floodMs: number;
  observed?: number;
  peakRss: number;
  testMs: number;
  status: string;
}

async function once(dir: string): Promise<Metrics> {
  const out = path.join(dir, 'metrics.json');
  fs.rmSync(out, { force: true });
  await runPlaywright(dir, [], { BENCH_OUT: out });
  const metrics = JSON.parse(fs.readFileSync(out, 'utf8')) as Metrics;
  if (metrics.status !== 'passed') throw new Error(`console-flood: the test ${metrics.status} in ${dir}`);
  return metrics;
}

/** What daebug's report kept of the flood: console events stored plus those counted as dropped. */
function readReport(dir: string): { observed: number; dropped: number; jsonBytes: number; mdBytes: number; droppedShown: boolean } {
  const reports = path.join(dir, 'reports');
  const name = fs.readdirSync(reports).find((f) => f.endsWith('.json') && f !== 'index.json');
  if (!name) throw new Error('console-flood: daebug wrote no report');
  const json = JSON.parse(fs.readFileSync(path.join(reports, name), 'utf8')) as { events: Array<{ source: string }>; dropped: { total: number; bySource: Record<string, number> } };
  const md = fs.readFileSync(path.join(reports, name.replace(/\.json$/, '.md')), 'utf8');
  const stored = json.events.filter((e) => e.source === 'console.log').length;
  return {
    observed: stored + (json.dropped.bySource['console.log'] ?? 0),
    dropped: json.dropped.total,
    jsonBytes: fs.statSync(path.join(reports, name)).size,
    mdBytes: Buffer.byteLength(md),
    droppedShown: md.includes(`${json.dropped.total} events were dropped`),
  };
}

/** One page logs in a loop: a bare `page.on('console')` listener against daebug's CDP capture. */
export async function consoleFlood(): Promise<Row[]> {
  const bare = project('flood-bare', bareSpec, `[['list'], ['./duration-reporter.cjs']]`);
  const measured = project('flood-daebug', daebugSpec, `[['list'], ['./duration-reporter.cjs'], ['daebug/reporter']]`);
  const runs: Record<'bare' | 'daebug', Metrics[]> = { bare: [], daebug: [] };
  const reports: ReturnType<typeof readReport>[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [which, dir] of [['bare', bare], ['daebug', measured]] as const) {
      const metrics = await once(dir);
      if (which === 'daebug') {
        const report = readReport(dir);
        metrics.observed = report.observed;
        reports.push(report);
      }
      runs[which].push(metrics);
      log(`  flood round ${round} ${which}: ${metrics.observed} events in ${fmt(metrics.floodMs, 0)} ms, test ${fmt(metrics.testMs, 0)} ms, worker peak RSS ${mb(metrics.peakRss)}`);
    }
  }
  for (const m of [...runs.bare, ...runs.daebug]) {
    if (m.observed !== CALLS) throw new Error(`console-flood: observed ${m.observed} of ${CALLS} console calls`);
  }
  const rate = (m: Metrics) => (m.observed! / m.floodMs) * 1000;
  const bareRate = median(runs.bare.map(rate));
  const daebugRate = median(runs.daebug.map(rate));
  const bareRss = median(runs.bare.map((m) => m.peakRss));
  const daebugRss = median(runs.daebug.map((m) => m.peakRss));
  const report = reports[reports.length - 1]!;
  const bounded = report.mdBytes <= 256 * 1024 && report.droppedShown;
  return [
    {
      bench: '2 flood',
      metric: `events observed per second (${CALLS} calls, median of ${ROUNDS})`,
      baseline: `${fmt(bareRate / 1000, 1)} k/s`,
      daebug: `${fmt(daebugRate / 1000, 1)} k/s`,
      ratio: fmt(daebugRate / bareRate, 3),
      target: '≥ 0.9',
      met: daebugRate / bareRate >= 0.9,
    },
    {
      bench: '2 flood',
      metric: 'test wall time',
      baseline: `${fmt(median(runs.bare.map((m) => m.testMs)), 0)} ms`,
      daebug: `${fmt(median(runs.daebug.map((m) => m.testMs)), 0)} ms`,
      ratio: fmt(median(runs.daebug.map((m) => m.testMs)) / median(runs.bare.map((m) => m.testMs)), 3),
      target: '',
    },
    {
      bench: '2 flood',
      metric: 'worker peak RSS (VmHWM)',
      baseline: mb(bareRss),
      daebug: mb(daebugRss),
      ratio: `${daebugRss >= bareRss ? '+' : ''}${mb(daebugRss - bareRss)}`,
      target: '≤ +50 MB',
      met: daebugRss - bareRss <= 50 * 1024 * 1024,
    },
    {
      bench: '2 flood',
      metric: 'report size, dropped count shown',
      baseline: '',
      daebug: `md ${fmt(report.mdBytes / 1024)} KB, json ${fmt(report.jsonBytes / 1024)} KB, ${report.dropped} dropped${report.droppedShown ? ' (shown)' : ' (NOT shown)'}`,
      ratio: '',
      target: 'bounded, dropped shown',
      met: bounded,
    },
  ];
}
