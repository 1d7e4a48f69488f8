import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import type { CaptureRecord } from '../src/model/record';
import type { DaebugEvent } from '../src/model/schema';
import { childMain, fmt, log, mb, median, percentile, quick, repoRoot, tmpRoot, type Row } from './lib';

const TESTS = quick ? 500 : 5000;
const EVENTS = 20;
const ROUNDS = quick ? 1 : 3;
const TESTS_PER_FILE = 100;

const { DaebugReporter } = require(path.join(repoRoot, 'dist', 'reporter', 'index.js')) as typeof import('../src/reporter/index');
const { ATTACHMENT_NAME, ATTACHMENT_CONTENT_TYPE } = require(path.join(repoRoot, 'dist', 'model', 'attachment.js')) as typeof import('../src/model/attachment');
const { markEvents } = require(path.join(repoRoot, 'dist', 'run', 'mark-events.js')) as typeof import('../src/run/mark-events');

// Playwright's own Suite and TestCase, so both reporters walk the objects the runner gives them.
interface PwSuite extends Suite {
  location?: { file: string; line: number; column: number };
  _fullProject?: { project: unknown };
  _addSuite(suite: PwSuite): void;
  _addTest(test: PwTest): void;
}
interface PwTest extends TestCase {
  id: string;
  parent: PwSuite;
  results: TestResult[];
}
const common = require('playwright/lib/common') as {
  test: { Suite: new (title: string, type: string) => PwSuite; TestCase: new (title: string, fn: () => void, testType: unknown, location: object) => PwTest };
};
const runner = require('playwright/lib/runner') as {
  runnerReporters: { createReporters(config: object, mode: string, descriptions: [string, object][]): Promise<Array<Partial<V2Reporter>>> };
};
interface V2Reporter {
  onConfigure(config: FullConfig): void;
  onBegin(suite: Suite): void;
  onTestEnd(test: TestCase, result: TestResult): void;
  onEnd(result: FullResult): Promise<void> | void;
}

const dir = path.join(tmpRoot, 'reporter');
const configFile = path.join(dir, 'playwright.config.ts');
const project = {
  name: 'chromium',
  __projectId: 'chromium',
  outputDir: path.join(dir, 'test-results'),
  repeatEach: 1,
  retries: 0,
  metadata: {},
  testDir: path.join(dir, 'tests'),
  testIgnore: [],
  testMatch: '**/*.spec.ts',
  timeout: 30_000,
  use: {},
  dependencies: [],
  grep: /.*/,
  grepInvert: null,
  snapshotDir: path.join(dir, 'tests'),
};
const config = {
  configFile,
  rootDir: path.join(dir, 'tests'),
  projects: [project],
  version: '1.65.1',
  workers: 2,
  fullyParallel: false,
  forbidOnly: false,
  globalTimeout: 0,
  grep: /.*/,
  grepInvert: null,
  maxFailures: 0,
  metadata: {},
  preserveOutput: 'always',
  reporter: [],
  reportSlowTests: null,
  quiet: false,
  shard: null,
  updateSnapshots: 'missing',
  webServer: null,
} as unknown as FullConfig;

function event(test: number, j: number, timeMs: number): DaebugEvent {
  const time = new Date(timeMs).toISOString();
  const base = { realm: 'page', ts: time.slice(11, 19), time, expected: false };
  const location = { url: 'http://127.0.0.1:4617/bench/suite.html', line: 8 + j, column: 5 };
  const stack = (message: string) => `${message}\n    at load (http://127.0.0.1:4617/bench/app.js:${10 + j}:7)\n    at render (http://127.0.0.1:4617/bench/app.js:42:3)\n    at http://127.0.0.1:4617/bench/suite.html:12:5`;
  if (j % 10 === 3) return { ...base, type: 'error', source: 'window.onerror', message: `Error: background timer error in test ${test}`, stack: stack(`Error: background timer error in test ${test}`), location, unexpected: true };
  if (j % 10 === 7) return { ...base, type: 'error', source: 'unhandledrejection', message: 'Error: forgotten rejection', stack: stack('Error: forgotten rejection'), location, unexpected: true };
  if (j % 5 === 0) return { ...base, type: 'console', level: 'log', source: 'console.log', message: `item ${j} loaded {"id":${j},"name":"item-${j}","tags":["a","b"],"nested":{"ok":true,"n":${j}}}`, location, structured: true };
  if (j % 7 === 4) return { ...base, type: 'console', level: 'warn', source: 'console.warn', message: `message ${j} of ${EVENTS} ${j}`, stack: stack(`message ${j} of ${EVENTS} ${j}`), location };
  const level = ['log', 'info', 'debug'][j % 3]!;
  return { ...base, type: 'console', level, source: `console.${level}`, message: `message ${j} of ${EVENTS} ${j}`, location };
}

/**
 * Issue 17's grouping load: 3 errors per test, as the fixture hands them over (fingerprinted): one app error in
 * every test with other data each time, one of 40 component errors, and a third-party script's error in every
 * third test, after a navigation.
 */
function errorEvents(test: number, startMs: number): DaebugEvent[] {
  const at = (j: number) => {
    const time = new Date(startMs + 5 + j * 3).toISOString();
    return { realm: 'page', ts: time.slice(11, 19), time, expected: false };
  };
  const appFrame = (fn: string, line: number) => ({ url: `http://127.0.0.1:4617/assets/app.${(test % 3).toString(16).padStart(6, 'a')}.js`, line, column: 9, functionName: 'n', userCode: true, original: { source: 'src/invoices.ts', line, column: 3, functionName: fn } });
  const nav = { ...at(0), type: 'console' as const, level: 'debug', source: 'navigation', message: 'http://127.0.0.1:4617/shop/index.html' };
  const events: DaebugEvent[] = [
    nav,
    { ...at(1), type: 'error', source: 'window.onerror', message: `Error: Invoice ${test * 7} not found`, stack: `Error: Invoice ${test * 7} not found\n    at n (app.js:1:9)`, frames: [appFrame('loadInvoice', 12)], unexpected: true },
    { ...at(2), type: 'console', level: 'error', source: 'console.error', message: `TypeError: Cannot read properties of undefined (reading 'price') in Widget${test % 40}`, frames: [appFrame(`renderWidget${test % 40}`, 40 + (test % 40))], unexpected: true },
    test % 3 === 0
      ? { ...at(3), type: 'error', source: 'window.onerror', message: `Error: analytics ${test} failed`, frames: [{ url: 'https://cdn.analytics.test/a.js', line: 1, column: 100, userCode: true }], unexpected: true }
      : { ...at(3), type: 'error', source: 'unhandledrejection', message: `Error: request ${test} timed out after ${1000 + test}ms`, frames: [appFrame('fetchCart', 77)], unexpected: true },
  ];
  markEvents([events]);
  return events;
}

let eventsOf: (test: number, events: number, startMs: number) => DaebugEvent[] = (test, events, startMs) => Array.from({ length: events }, (_, j) => event(test, j, startMs + 5 + j * 3));

function record(test: number, events: number, startMs: number): CaptureRecord {
  return {
    version: 1,
    capture: true,
    strict: false,
    realms: ['page'],
    jobs: [],
    steps: [],
    events: eventsOf(test, events, startMs),
    dropped: { total: 0, bySource: {} },
    diagnostics: [],
  };
}

function step(title: string, category: string, startTime: Date, duration: number): TestResult['steps'][number] {
  return { title, titlePath: () => [title], category, startTime, duration, steps: [], annotations: [], attachments: [], location: undefined, error: undefined, parent: undefined } as unknown as TestResult['steps'][number];
}

function result(test: number, events: number): TestResult {
  const startMs = Date.UTC(2026, 0, 1) + test * 200;
  const startTime = new Date(startMs);
  const body = Buffer.from(JSON.stringify(record(test, events, startMs)));
  return {
    retry: 0,
    parallelIndex: test % 2,
    workerIndex: test % 2,
    duration: 150,
    startTime,
    stdout: [],
    stderr: [],
    attachments: [{ name: ATTACHMENT_NAME, contentType: ATTACHMENT_CONTENT_TYPE, body }],
    status: 'passed',
    steps: [step('page.goto(/bench/suite.html)', 'pw:api', startTime, 40), step('load the page', 'test.step', new Date(startMs + 40), 60)],
    errors: [],
    annotations: [],
  } as unknown as TestResult;
}

interface Tree {
  root: PwSuite;
  /** Makes test `i` (0-based) in its file's describe block, with one result. */
  makeTest(i: number, events: number): PwTest;
}

function tree(): Tree {
  const root = new common.test.Suite('', 'root');
  const projectSuite = new common.test.Suite('chromium', 'project');
  projectSuite._fullProject = { project };
  root._addSuite(projectSuite);
  const describes: PwSuite[] = [];
  const describeOf = (file: number) => {
    let describe = describes[file];
    if (!describe) {
      const fileSuite = new common.test.Suite(`file-${file}.spec.ts`, 'file');
      fileSuite.location = { file: path.join(config.rootDir, `file-${file}.spec.ts`), line: 0, column: 0 };
      projectSuite._addSuite(fileSuite);
      describe = new common.test.Suite('checkout flow', 'describe');
      describe.location = { file: fileSuite.location.file, line: 3, column: 1 };
      fileSuite._addSuite(describe);
      describes[file] = describe;
    }
    return describe;
  };
  return {
    root,
    makeTest(i, events) {
      const describe = describeOf(Math.floor(i / TESTS_PER_FILE));
      const test = new common.test.TestCase(`loads page ${i}`, () => undefined, undefined, { file: describe.location!.file, line: 4 + (i % TESTS_PER_FILE) * 4, column: 3 });
      test.id = `test-${i}`;
      describe._addTest(test);
      test.results.push(result(i, events));
      return test;
    },
  };
}

const fullResult = { status: 'passed', startTime: new Date(), duration: 1000 } as FullResult;

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

let folders = 0;

/**
 * A new, empty folder for one pass. Nothing is deleted until every pass is done: on ext4 with `discard` (this
 * machine), deleting 10,000 files stalls the next writes for seconds, and replacing a file by rename makes ext4
 * flush it first. A fresh outputDir is also what CI runs have.
 */
function fresh(name: string): string {
  const folder = path.join(dir, `${name}-${++folders}`);
  fs.mkdirSync(folder, { recursive: true });
  return folder;
}

/** CPU time of this process in ms: on a machine shared with other work, time spent descheduled does not count. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function runDaebug(suite: Suite, tests: readonly PwTest[]): Promise<{ totalMs: number; perTest: number[]; perTestCpu: number[] }> {
  return runDaebugIn(fresh('reports'), suite, tests);
}

async function runDaebugIn(outputDir: string, suite: Suite, tests: readonly PwTest[]): Promise<{ totalMs: number; perTest: number[]; perTestCpu: number[] }> {
  const reporter: Reporter = new DaebugReporter({ outputDir });
  gc();
  const perTest: number[] = [];
  const perTestCpu: number[] = [];
  const started = performance.now();
  reporter.onBegin!(config, suite);
  for (const test of tests) {
    const at = performance.now();
    const cpuAt = cpuMs();
    reporter.onTestEnd!(test, test.results[0]!);
    perTestCpu.push(cpuMs() - cpuAt);
    perTest.push(performance.now() - at);
  }
  await reporter.onEnd!(fullResult);
  return { totalMs: performance.now() - started, perTest, perTestCpu };
}

async function runJson(suite: Suite, tests: readonly PwTest[]): Promise<{ totalMs: number; bytes: number }> {
  const outputFile = path.join(fresh('json'), 'report.json');
  const reporters = await runner.runnerReporters.createReporters({ configDir: dir, config: { tags: [], reporter: [] } }, 'test', [['json', { outputFile }]]);
  const reporter = reporters[reporters.length - 1]!;
  gc();
  const started = performance.now();
  reporter.onConfigure?.(config);
  reporter.onBegin?.(suite);
  for (const test of tests) reporter.onTestEnd?.(test, test.results[0]!);
  await reporter.onEnd?.(fullResult);
  return { totalMs: performance.now() - started, bytes: fs.statSync(outputFile).size };
}

/** Heap after GC as tests are written, from results made one at a time and not kept by this harness. */
async function heapGrowth(events: number): Promise<{ at: number[]; heap: number[]; bytesPerTest: number }> {
  const reporter: Reporter = new DaebugReporter({ outputDir: fresh('reports-heap') });
  const { root, makeTest } = tree();
  reporter.onBegin!(config, root);
  const at: number[] = [];
  const heap: number[] = [];
  const every = TESTS / 5;
  for (let i = 0; i < TESTS; i++) {
    const test = makeTest(i, events);
    reporter.onTestEnd!(test, test.results[0]!);
    // Playwright keeps its TestCase; the harness drops the result so only the reporter's own memory remains.
    test.results.length = 0;
    if ((i + 1) % every === 0) {
      gc();
      at.push(i + 1);
      heap.push(process.memoryUsage().heapUsed);
    }
  }
  await reporter.onEnd!(fullResult);
  const bytesPerTest = (heap[heap.length - 1]! - heap[0]!) / (at[at.length - 1]! - at[0]!);
  return { at, heap, bytesPerTest };
}

async function heapOfTreeAlone(): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const { makeTest } = tree();
  const kept: PwTest[] = [];
  for (let i = 0; i < TESTS; i++) {
    const test = makeTest(i, 0);
    test.results.length = 0;
    kept.push(test);
  }
  gc();
  const bytes = (process.memoryUsage().heapUsed - before) / TESTS;
  kept.length = 0;
  return bytes;
}

/** 5,000 synthetic results with 20 events each, fed in process to daebug/reporter and to Playwright's json reporter. */
export async function reporterThroughput(): Promise<Row[]> {
  fs.rmSync(dir, { recursive: true, force: true });
  const { root, makeTest } = tree();
  const tests = Array.from({ length: TESTS }, (_, i) => makeTest(i, EVENTS));
  // Warm both code paths so the first measured round is not the JIT's.
  await runDaebug(root, tests.slice(0, 200));
  await runJson(root, tests);

  const daebug: Array<{ totalMs: number; perTest: number[]; perTestCpu: number[] }> = [];
  const json: Array<{ totalMs: number; bytes: number }> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const a = await runJson(root, tests);
    const b = await runDaebug(root, tests);
    json.push(a);
    daebug.push(b);
    log(`  reporter round ${round}: json ${fmt(a.totalMs, 0)} ms (${mb(a.bytes)} file), daebug ${fmt(b.totalMs, 0)} ms, median onTestEnd ${fmt(median(b.perTest), 3)} ms`);
  }
  const perTestMedian = median(daebug.map((d) => median(d.perTest)));
  const perTestCpu = median(daebug.map((d) => median(d.perTestCpu)));
  const p99 = median(daebug.map((d) => percentile(d.perTest, 99)));
  const max = median(daebug.map((d) => Math.max(...d.perTest)));
  const daebugTotal = median(daebug.map((d) => d.totalMs));
  const jsonTotal = median(json.map((j) => j.totalMs));
  // Per-test time late in the run against early: a cost that grew with tests already written would show here.
  const early = median(daebug.map((d) => median(d.perTest.slice(0, TESTS / 5))));
  const late = median(daebug.map((d) => median(d.perTest.slice(-TESTS / 5))));

  tests.length = 0;
  root.suites.length = 0;
  const treeBytes = await heapOfTreeAlone();
  const heap20 = await heapGrowth(EVENTS);
  const heap200 = await heapGrowth(EVENTS * 10);
  log(`  reporter heap after GC at ${heap20.at.join(', ')} tests: ${heap20.heap.map(mb).join(', ')} (20 events/test)`);
  log(`  reporter heap after GC at ${heap200.at.join(', ')} tests: ${heap200.heap.map(mb).join(', ')} (200 events/test)`);
  log(`  Playwright's own TestCase and suites, without results: ${fmt(treeBytes, 0)} bytes/test (included above)`);
  const ownBytes = heap20.bytesPerTest - treeBytes;
  const grouping = await groupingRun();
  fs.rmSync(dir, { recursive: true, force: true });
  return [
    {
      bench: '3 reporter',
      metric: `grouping: median onTestEnd, ${TESTS} tests × 3 errors (${grouping.groups} groups; p99)`,
      baseline: '',
      daebug: `${fmt(grouping.perTest, 3)} ms (${fmt(grouping.p99, 2)})`,
      ratio: '',
      target: '≤ 0.5 ms',
      met: grouping.perTest <= 0.5,
    },
    {
      bench: '3 reporter',
      metric: 'grouping: whole run per test (onEnd included)',
      baseline: '',
      daebug: `${fmt(grouping.totalPerTest, 3)} ms`,
      ratio: '',
      target: '≤ 0.5 ms',
      met: grouping.totalPerTest <= 0.5,
    },
    {
      bench: '3 reporter',
      metric: `grouping: index.md of ${TESTS} tests with errors`,
      baseline: '',
      daebug: `${grouping.indexLines} lines, ${fmt(grouping.indexBytes / 1024, 0)} KB`,
      ratio: '',
      target: '≤ 300 lines',
      met: grouping.indexLines <= 300,
    },
    {
      bench: '3 reporter',
      metric: `median onTestEnd, ${TESTS} tests × ${EVENTS} events (p99, max)`,
      baseline: '',
      daebug: `${fmt(perTestMedian, 3)} ms (${fmt(p99, 2)}, ${fmt(max, 1)})`,
      ratio: '',
      target: '< 0.5 ms',
      met: perTestMedian < 0.5,
    },
    {
      bench: '3 reporter',
      metric: 'median onTestEnd, CPU time',
      baseline: '',
      daebug: `${fmt(perTestCpu, 3)} ms`,
      ratio: '',
      target: '',
    },
    {
      bench: '3 reporter',
      metric: `whole run per test, vs Playwright json (median of ${ROUNDS})`,
      baseline: `${fmt(jsonTotal / TESTS, 3)} ms`,
      daebug: `${fmt(daebugTotal / TESTS, 3)} ms`,
      ratio: fmt(daebugTotal / jsonTotal, 2),
      target: '',
    },
    {
      bench: '3 reporter',
      metric: `median onTestEnd, first vs last ${TESTS / 5} tests`,
      baseline: `${fmt(early, 3)} ms`,
      daebug: `${fmt(late, 3)} ms`,
      ratio: fmt(late / early, 2),
      target: 'no growth',
      met: late / early < 1.25,
    },
    {
      bench: '3 reporter',
      metric: `heap kept per test written, 20 / 200 events (${heap20.at[0]}→${TESTS})`,
      baseline: '',
      daebug: `${fmt(ownBytes, 0)} B / ${fmt(heap200.bytesPerTest - treeBytes, 0)} B`,
      ratio: '',
      target: 'not growing with events',
      met: heap200.bytesPerTest - treeBytes < 2 * Math.max(ownBytes, 1024),
    },
  ];
}

/** Issue 17: the reporter with grouping, on 5,000 tests with 3 errors each; index.md must stay bounded. */
async function groupingRun(): Promise<{ perTest: number; p99: number; totalPerTest: number; indexLines: number; indexBytes: number; groups: number }> {
  const previous = eventsOf;
  eventsOf = (test, _events, startMs) => errorEvents(test, startMs);
  try {
    const { root, makeTest } = tree();
    const tests = Array.from({ length: TESTS }, (_, i) => makeTest(i, 3));
    await runDaebug(root, tests.slice(0, 200));
    const runs: Array<{ totalMs: number; perTest: number[]; folder: string }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const folder = fresh('reports-grouping');
      const run = await runDaebugIn(folder, root, tests);
      runs.push({ ...run, folder });
      log(`  reporter grouping round ${round}: ${fmt(run.totalMs, 0)} ms, median onTestEnd ${fmt(median(run.perTest), 3)} ms`);
    }
    const last = runs[runs.length - 1]!;
    const indexMd = fs.readFileSync(path.join(last.folder, 'index.md'), 'utf8');
    const index = JSON.parse(fs.readFileSync(path.join(last.folder, 'index.json'), 'utf8')) as { groups: unknown[] };
    return {
      perTest: median(runs.map((r) => median(r.perTest))),
      p99: median(runs.map((r) => percentile(r.perTest, 99))),
      totalPerTest: median(runs.map((r) => r.totalMs)) / TESTS,
      indexLines: indexMd.split('\n').length,
      indexBytes: Buffer.byteLength(indexMd),
      groups: index.groups.length,
    };
  } finally {
    eventsOf = previous;
  }
}

childMain(reporterThroughput);
