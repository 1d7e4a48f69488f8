import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Attempt, DaebugEvent } from '../src/model/schema';
import type { HistoryRun, HistoryTest } from '../src/history/run-file';
import { childMain, fmt, log, median, quick, repoRoot, tmpRoot, type Row } from './lib';

/**
 * Issue 35's scale targets for the history across runs, on a synthetic suite (a seeded generator, the same figures
 * every time): writing a run's history adds at most 50 ms to a run of 1,000 tests, and `daebug flaky` over 100 runs
 * of 5,000 tests answers in at most 2 s with memory bounded by the history's size. `BENCH_ONLY=history`.
 */
const WRITE_TESTS = 1000;
const FLAKY_RUNS = quick ? 20 : 100;
const FLAKY_TESTS = quick ? 1000 : 5000;
const ROUNDS = quick ? 2 : 5;

const dist = (file: string) => path.join(repoRoot, 'dist', file);
const { RunHistoryBuilder } = require(dist('history/collect.js')) as typeof import('../src/history/collect');
const { newRunId, pruneRuns, writeRun } = require(dist('history/store.js')) as typeof import('../src/history/store');
const { endRunHistory } = require(dist('reporter/history.js')) as typeof import('../src/reporter/history');

/** Mulberry32: a small seeded generator, so every run of the benchmark writes the same history. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function event(partial: Partial<DaebugEvent>): DaebugEvent {
  return { type: 'error', source: 'window.onerror', realm: 'page', ts: '12:00:00', time: '2026-11-27T12:00:00.000Z', message: 'Error: boom', expected: false, ...partial } as DaebugEvent;
}

/** 1,000 attempts as the reporter has them: a console.error in one test in ten, a failed request and an uncaught error in 5 %. */
function attempts(): Attempt[] {
  const next = random(1);
  return Array.from({ length: WRITE_TESTS }, (_, i) => {
    const failed = next() < 0.05;
    const events: DaebugEvent[] = [];
    if (i % 10 === 0) events.push(event({ type: 'console', source: 'console.error', message: 'analytics: consent missing', unexpected: true, fingerprint: 'aaaaaaaaaaaa' }));
    if (failed) {
      events.push(event({ source: 'network', message: 'GET /api/stock 502', network: { method: 'GET', url: `http://127.0.0.1:4000/api/stock?id=${i}`, status: 502, resourceType: 'fetch' }, fingerprint: 'cccccccccccc' }));
      events.push(event({ message: `Error: stock ${i % 7} missing`, unexpected: true, fingerprint: `b${String(i % 7).repeat(11)}` }));
    }
    const test = { title: `pays ${i}`, titlePath: [`shop/checkout-${i % 50}.spec.ts`, 'checkout', `pays ${i}`], file: `shop/checkout-${i % 50}.spec.ts`, line: i, project: 'chromium', status: failed ? 'failed' : 'passed', expectedStatus: 'passed', retry: 0, duration: 1234, strict: false };
    return { schemaVersion: 1, test, jobs: [], events, summary: { errors: events.length, unexpected: events.filter((e) => e.unexpected).length, console: 0, dropped: 0 } } as Attempt;
  });
}

function historyDir(name: string): string {
  const dir = path.join(tmpRoot, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A synthetic run of `tests` tests: 2 % flaky (a 502 in a third of their runs' first attempts), 0.5 % broken from 80 % of the runs on. */
function syntheticRun(n: number, runs: number, tests: number, next: () => number): HistoryRun {
  const list: HistoryTest[] = [];
  for (let i = 0; i < tests; i++) {
    const file = `shop/area-${i % 100}/checkout-${i % 37}.spec.ts`;
    const t: HistoryTest = { project: 'chromium', file, titlePath: [file, `checkout ${i % 13}`, `pays with card ${i}`], attempts: [] };
    const other = i % 10 === 0 ? { other: ['aaaaaaaaaaaa'] } : {};
    const duration = 500 + Math.floor(next() * 2000);
    if (i % 50 === 0 && next() < 0.33) {
      t.attempts.push({ retry: 0, status: 'failed', ok: false, duration, ...other, requests: [{ method: 'GET', url: 'http://127.0.0.1/api/stock', status: 502 }] });
      t.attempts.push({ retry: 1, status: 'passed', ok: true, duration, ...other });
    } else if (i % 200 === 1 && n > runs * 0.8) {
      t.attempts.push({ retry: 0, status: 'failed', ok: false, duration, errors: ['bbbbbbbbbbbb'], cause: 'bbbbbbbbbbbb' });
      t.attempts.push({ retry: 1, status: 'failed', ok: false, duration, errors: ['bbbbbbbbbbbb'], cause: 'bbbbbbbbbbbb' });
    } else t.attempts.push({ retry: 0, status: 'passed', ok: true, duration, ...other });
    list.push(t);
  }
  const endedAt = new Date(Date.UTC(2026, 10, 1) + n * 3_600_000);
  return {
    version: 1,
    id: newRunId(endedAt, n.toString(16).padStart(8, '0')),
    startedAt: endedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    status: 'passed',
    commit: n.toString(16).padStart(40, '0'),
    branch: 'main',
    ci: 'github',
    groups: [
      { fingerprint: 'aaaaaaaaaaaa', source: 'console.error', message: 'analytics: consent missing', where: 'src/analytics.ts:12 in track' },
      { fingerprint: 'bbbbbbbbbbbb', source: 'window.onerror', message: 'Error: cart total is NaN', where: 'src/cart.ts:3 in total' },
      { fingerprint: 'cccccccccccc', source: 'network', message: 'GET /api/stock 502' },
    ],
    tests: list,
  };
}

function writeHistory(dir: string, runs: number, tests: number): number {
  const next = random(35);
  let bytes = 0;
  for (let n = 1; n <= runs; n++) bytes += fs.statSync(writeRun(dir, syntheticRun(n, runs, tests, next))).size;
  return bytes;
}

async function history(): Promise<Row[]> {
  const rows: Row[] = [];
  // 1. Writing: collecting 1,000 attempts, then the file, the prune; and the read-back for index.md, apart.
  const list = attempts();
  const collect: number[] = [];
  const write: number[] = [];
  const readBack: number[] = [];
  let fileBytes = 0;
  const full = historyDir('history-write-full');
  writeHistory(full, 99, WRITE_TESTS);
  for (let round = 0; round < ROUNDS; round++) {
    const dir = historyDir('history-write');
    const builder = new RunHistoryBuilder();
    let at = performance.now();
    for (const a of list) builder.addAttempt(a);
    collect.push(performance.now() - at);
    at = performance.now();
    const run = builder.run({ id: newRunId(new Date()), startedAt: new Date().toISOString(), endedAt: new Date().toISOString(), status: 'passed', commit: 'f'.repeat(40), branch: 'main', ci: 'github' });
    const file = writeRun(dir, run);
    pruneRuns(dir, 100);
    write.push(performance.now() - at);
    fileBytes = fs.statSync(file).size;
    // The reporter's whole end of run with a full history (99 runs of 1,000 tests, this one the 100th): write, prune, read back.
    const again = new RunHistoryBuilder();
    for (const a of list) again.addAttempt(a);
    at = performance.now();
    endRunHistory({ dir: full, keep: 100, builder: again, source: { commit: 'f'.repeat(40), branch: 'main', ci: 'github' }, startedAt: new Date(), endedAt: new Date(), status: 'passed', merged: false, fingerprints: ['aaaaaaaaaaaa'], onSkip: () => undefined });
    readBack.push(performance.now() - at);
    log(`  history write round ${round + 1}: collect ${fmt(collect[round]!, 1)} ms, file + prune ${fmt(write[round]!, 1)} ms, end of run with 100 runs read back ${fmt(readBack[round]!, 0)} ms`);
  }
  const writeMs = median(collect) + median(write);
  rows.push({ bench: 'history', metric: `write a run of ${WRITE_TESTS} tests (collect + file + prune), ms`, baseline: '', daebug: fmt(writeMs, 1), ratio: '', target: '<= 50', met: writeMs <= 50 });
  rows.push({ bench: 'history', metric: `run file bytes (${WRITE_TESTS} tests; per test)`, baseline: '', daebug: `${fileBytes} (${fmt(fileBytes / WRITE_TESTS, 0)})`, ratio: '', target: '' });
  rows.push({ bench: 'history', metric: `end of run with index sections (100 runs × ${WRITE_TESTS} tests read back), ms`, baseline: '', daebug: fmt(median(readBack), 0), ratio: '', target: '' });

  // 2. `daebug flaky` over 100 runs of 5,000 tests, as a user runs it: wall time of the process, and its peak RSS.
  const dir = historyDir('history-flaky');
  const bytes = writeHistory(dir, FLAKY_RUNS, FLAKY_TESTS);
  log(`  history of ${FLAKY_RUNS} runs × ${FLAKY_TESTS} tests: ${(bytes / 1e6).toFixed(1)} MB (${fmt(bytes / FLAKY_RUNS / FLAKY_TESTS, 0)} bytes per test and run)`);
  const wall: number[] = [];
  const rss: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const at = performance.now();
    const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, dist('cli/bin.js'), 'flaky', '--history', dir], { encoding: 'utf8' });
    wall.push(performance.now() - at);
    if (run.status !== 0) throw new Error(`daebug flaky failed: ${run.stderr}`);
    rss.push(Number(run.stderr.trim().split('\n').pop()) / 1024);
    log(`  daebug flaky round ${round + 1}: ${fmt(wall[round]!, 0)} ms, peak RSS ${fmt(rss[round]!, 0)} MB, ${run.stdout.split('\n').length} lines`);
  }
  rows.push({ bench: 'history', metric: `daebug flaky, ${FLAKY_RUNS} runs × ${FLAKY_TESTS} tests (${(bytes / 1e6).toFixed(0)} MB), wall ms`, baseline: '', daebug: fmt(median(wall), 0), ratio: '', target: '<= 2000', met: median(wall) <= 2000 });
  rows.push({ bench: 'history', metric: 'daebug flaky, peak RSS MB', baseline: '', daebug: fmt(median(rss), 0), ratio: '', target: '' });
  // Memory bounded by the history: twice the runs hold the same tests, the peak must not double.
  const twice = historyDir('history-flaky-twice');
  writeHistory(twice, FLAKY_RUNS * 2, FLAKY_TESTS);
  const big = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, dist('cli/bin.js'), 'flaky', '--history', twice], { encoding: 'utf8' });
  const bigRss = Number(big.stderr.trim().split('\n').pop()) / 1024;
  log(`  daebug flaky over ${FLAKY_RUNS * 2} runs: peak RSS ${fmt(bigRss, 0)} MB`);
  rows.push({ bench: 'history', metric: `daebug flaky, peak RSS MB with ${FLAKY_RUNS * 2} runs`, baseline: fmt(median(rss), 0), daebug: fmt(bigRss, 0), ratio: fmt(bigRss / median(rss), 2), target: '' });
  return rows;
}

childMain(history);
export { history };
