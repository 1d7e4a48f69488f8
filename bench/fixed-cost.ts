import { fmt, log, loadAverage, median, quick, runPlaywright, writeProject, type Row } from './lib';

/**
 * Issue 36: what daebug costs when it captures nothing, split by process: a fresh Playwright worker and the run's
 * runner. Six empty tests (no browser, so Chromium's CPU, the noisiest part of a run, is out), `--repeat-each=5` with
 * one worker: five fresh workers a run, as the multi-realm app's shape starts them. Three projects, alternating round
 * by round: bare Playwright; daebug's fixtures with `daebugCapture: false` and the `dot` reporter alone; the same
 * with daebug's reporter. Each Node process logs its CPU at exit (bench/cpu-at-exit.cjs). Medians over the rounds.
 *
 * Read with bench/paired.ts, which gives the whole run's ratio: this one says where capture off's share is.
 */
const ROUNDS = quick ? 2 : Number(process.env['BENCH_ROUNDS'] ?? 12);
const REPEATS = 5;

const SPEC = (from: string) => `import { test, expect } from '${from}';
test.describe.configure({ mode: 'parallel' });
for (const n of [1, 2, 3, 4, 5, 6]) test(\`t\${n}\`, async () => { expect(n).toBeGreaterThan(0); });
`;

const CONFIG = (reporters: string, use: string) => `import { defineConfig } from '@playwright/test';
export default defineConfig({ testDir: 'tests', workers: 1, retries: 0, reporter: ${reporters}, use: ${use} });
`;

const KINDS = {
  bare: { from: '@playwright/test', reporters: "[['dot']]", use: '{}' },
  'capture off, dot': { from: 'daebug', reporters: "[['dot']]", use: '{ daebugCapture: false } as object' },
  'capture off, reporter': { from: 'daebug', reporters: "[['dot'], ['daebug/reporter']]", use: '{ daebugCapture: false } as object' },
} as const;
type Kind = keyof typeof KINDS;

export async function fixedCost(): Promise<Row[]> {
  const dirs = Object.fromEntries(
    (Object.keys(KINDS) as Kind[]).map((kind, i) => [kind, writeProject(`fixed-${i}`, { 'tests/e.spec.ts': SPEC(KINDS[kind].from), 'playwright.config.ts': CONFIG(KINDS[kind].reporters, KINDS[kind].use) })]),
  ) as Record<Kind, string>;
  const runner: Record<Kind, number[]> = { bare: [], 'capture off, dot': [], 'capture off, reporter': [] };
  const worker: Record<Kind, number[]> = { bare: [], 'capture off, dot': [], 'capture off, reporter': [] };
  const kinds = Object.keys(KINDS) as Kind[];
  // One run each first: the compile caches (Playwright's, daebug's) are written by the first run of a project.
  for (const kind of kinds) await runPlaywright(dirs[kind], [`--repeat-each=${REPEATS}`], {}, { split: true });
  const loads: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // The order turns each round: no kind always runs right after another.
    for (const kind of [...kinds.slice(round % kinds.length), ...kinds.slice(0, round % kinds.length)]) {
      const run = await runPlaywright(dirs[kind], [`--repeat-each=${REPEATS}`], {}, { split: true });
      runner[kind].push(run.runnerMs ?? NaN);
      worker[kind].push((run.workersMs ?? NaN) / (run.workerCount || NaN));
    }
    loads.push(loadAverage().split(' ')[0]!);
  }
  log(`  load average (1 min) after each round: ${loads.join(', ')}`);
  const rows: Row[] = [];
  for (const kind of kinds) {
    log(`  ${kind}: runner ${runner[kind].map((v) => fmt(v, 0)).join(', ')}; a worker ${worker[kind].map((v) => fmt(v, 0)).join(', ')}`);
    if (kind === 'bare') continue;
    for (const [metric, values] of [['runner CPU ms', runner], ['a fresh worker CPU ms (6 tests)', worker]] as const) {
      const base = median(values.bare);
      const ours = median(values[kind]);
      rows.push({ bench: `fixed cost: ${kind}`, metric, baseline: fmt(base, 0), daebug: fmt(ours, 0), ratio: `${ours >= base ? '+' : ''}${fmt(ours - base, 0)} ms`, target: 'a figure' });
    }
  }
  return rows;
}
