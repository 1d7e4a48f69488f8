import fs from 'node:fs';
import { consoleFlood } from './console-flood';
import { linkPackage, loadAverage, log, machine, quick, runChild, startServer, table, tmpRoot, type Row } from './lib';
import { suiteOverhead } from './suite-overhead';
import { networkCost } from './network-cost';
import { realSuite } from './real-suite';
import { paired } from './paired';
import { multiRealm } from './multi-realm';
import { workerWarmup } from './worker-warmup';
import { fixedCost } from './fixed-cost';
import { gates } from './gates';

/**
 * `npm run bench`: every benchmark measures daebug and its baseline in the same run, alternating,
 * and prints medians and ratios. Numbers never fail the run; only a benchmark that cannot run does.
 * BENCH_QUICK=1 makes a fast smoke run; BENCH_ONLY=gates,suite,real,realms,steps,warmup,fixed,paired,flood,reporter,event,network,async,history picks benchmarks.
 */
/** `server`: the benchmark's pages come from the fixture server, which main() starts once for all of them. */
const BENCHES: Record<string, { title: string; run: () => Promise<Row[]>; server?: true }> = {
  gates: { title: '0. the cost gate (issue 49): a warm test, a fresh worker, a run\'s reporter, in Node CPU', run: gates, server: true },
  suite: { title: '1. suite overhead', run: suiteOverhead, server: true },
  real: { title: '1b. real-suite shape (shop app)', run: realSuite, server: true },
  realms: { title: '1d. multi-realm app (issue 36: page, frame, service worker, two workers)', run: multiRealm, server: true },
  steps: { title: '1e. one realm, step by step (issue 36)', run: () => runChild('realm-steps.ts'), server: true },
  warmup: { title: '1f. a worker warm and cold, per test (issue 36)', run: workerWarmup, server: true },
  fixed: { title: '1g. capture off split by process: a fresh worker, the runner (issue 36)', run: fixedCost },
  paired: { title: '1c. paired runs (BENCH_PAIRED_SUITE=real|suite)', run: paired, server: true },
  flood: { title: '2. console flood', run: consoleFlood, server: true },
  reporter: { title: '3. reporter throughput', run: () => runChild('reporter-throughput.ts') },
  event: { title: '4. per-event cost', run: () => runChild('event-cost.ts') },
  network: { title: '5. network failures (daebugNetwork)', run: networkCost, server: true },
  async: { title: '5. async stack traces (daebugAsyncStacks)', run: () => runChild('async-stacks.ts') },
  history: { title: '6. history across runs (issue 35)', run: () => runChild('history.ts') },
};

async function main(): Promise<void> {
  const only = process.env['BENCH_ONLY']?.split(',').map((s) => s.trim()).filter(Boolean);
  const names = Object.keys(BENCHES).filter((name) => !only || only.includes(name));
  const info = machine();
  log(`daebug benchmarks${quick ? ' (BENCH_QUICK: smoke run, figures are not comparable)' : ''}`);
  log(`machine: ${info.cpus} × ${info.cpuModel}, ${info.memory}, ${info.node}, ${info.chromium}, Playwright ${info.playwright}, ${info.date}`);
  fs.mkdirSync(tmpRoot, { recursive: true });
  linkPackage();
  const stopServer = names.some((n) => BENCHES[n]!.server) ? await startServer() : () => undefined;
  const rows: Row[] = [];
  const started = performance.now();
  try {
    for (const name of names) {
      const bench = BENCHES[name]!;
      const at = performance.now();
      log(`\n${bench.title} (load average ${loadAverage()})`);
      rows.push(...(await bench.run()));
      log(`  ${bench.title} took ${((performance.now() - at) / 1000).toFixed(0)} s (load average ${loadAverage()})`);
    }
  } finally {
    stopServer();
  }
  process.stdout.write(`\n${table(rows)}\n\nTotal ${((performance.now() - started) / 1000).toFixed(0)} s; load average at the end ${loadAverage()}.\n`);
  const missed = rows.filter((r) => r.met === false);
  if (missed.length) process.stdout.write(`Targets missed on this run: ${missed.map((r) => `${r.bench} ${r.metric}`).join('; ')} (benchmarks never fail on a number).\n`);
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
