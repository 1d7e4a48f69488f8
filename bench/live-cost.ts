import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Recorder } from '../src/capture/recorder';
import { resolveOptions } from '../src/options';
import { LiveReport } from '../src/live/live-report';

/**
 * `npx tsx bench/live-cost.ts`: what the live report costs a worker, in process and without a browser. The idle
 * check runs every 2 s of a test; the write only after something changed (at most every 2 s).
 */
function medianNs(fn: () => void, rounds: number): number {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start));
  }
  return samples.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'daebug-live-cost-'));
const recorder = new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }));
const test = { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 1, project: '', expectedStatus: 'passed', retry: 0, startMs: Date.now() };
const live = new LiveReport(recorder, test, path.join(dir, 't.md'), 256 * 1024, process.ppid);
const write = () => {
  recorder.changed();
  live.update();
};
try {
  live.update();
  const rows: Array<[string, string]> = [];
  rows.push(['idle check, nothing changed', `${medianNs(() => live.update(), 100_000)} ns`]);
  rows.push(['timer per test (setInterval, unref, clearInterval)', `${medianNs(() => clearInterval(setInterval(() => undefined, 2000).unref()), 10_000)} ns`]);
  rows.push(['write, nothing recorded yet (the first write of every test)', `${(medianNs(write, 2000) / 1000).toFixed(0)} µs`]);
  const job = recorder.startSpan('eval', 'page', { code: 'run()' });
  const add = (k: number, message: string) => recorder.add({ type: 'console', level: 'log', source: 'console.log', realm: 'page', timeMs: job.startMs + 1 + k, message });
  for (let k = 0; k < 20; k++) add(k, `message ${k} { a: 1, b: "two" }`);
  rows.push(['write, a running job with 20 events', `${(medianNs(write, 2000) / 1000).toFixed(0)} µs`]);
  for (let k = 20; k < 1000; k++) add(k, `message ${k} ${'x'.repeat(80)}`);
  rows.push(['write, 1,000 events (the default maxEvents of one kind)', `${(medianNs(write, 200) / 1000).toFixed(0)} µs`]);
  for (const [what, cost] of rows) process.stdout.write(`${what.padEnd(62)} ${cost}\n`);
} finally {
  live.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
