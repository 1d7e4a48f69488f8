import path from 'node:path';
import { childMain, fmt, log, median, quick, repoRoot, type Row } from './lib';

const BATCH = 500;
const BATCHES = quick ? 40 : 400;
const WARMUP = quick ? 10 : 50;

const { TestCapture } = require(path.join(repoRoot, 'dist', 'capture', 'test-capture.js')) as typeof import('../src/capture/test-capture');
const { Target } = require(path.join(repoRoot, 'dist', 'capture', 'cdp', 'target.js')) as typeof import('../src/capture/cdp/target');
const { Recorder } = require(path.join(repoRoot, 'dist', 'capture', 'recorder.js')) as typeof import('../src/capture/recorder');
const { resolveOptions } = require(path.join(repoRoot, 'dist', 'options.js')) as typeof import('../src/options');

/**
 * A page target that answers like Chromium does, at once: capture code runs exactly as in a test, from the
 * message text CDP delivers (`Target.receivedMessageFromTarget`) to the stored event, without a browser's latency.
 */
function fakeTarget(listener: import('../src/capture/cdp/target').TargetListener): import('../src/capture/cdp/target').Target {
  const target: import('../src/capture/cdp/target').Target = new Target('page', 'http://127.0.0.1:4617/bench/suite.html', 'main', 'ctx', undefined, async (message: string) => {
    const { id, method, params } = JSON.parse(message) as { id: number; method: string; params?: { arguments?: Array<{ value?: unknown }> } };
    let result: unknown = {};
    if (method === 'Runtime.callFunctionOn') {
      // One value per read in the batch: the layout argument is [kind, count, kind, count, …].
      const reads = Array.isArray(params?.arguments?.[1]?.value) ? (params.arguments[1].value as unknown[]).length / 2 : 1;
      const value = { text: 'user loaded {"id":42,"name":"Ada","tags":["a","b"],"nested":{"ok":true,"n":1}}', structured: true };
      result = { result: { type: 'object', value: Array.from({ length: reads }, () => value) } };
    }
    queueMicrotask(() => target.receive(JSON.stringify({ id, result })));
  }, listener);
  return target;
}

function consoleEvent(type: 'log' | 'error', timestamp: number, id: number): object {
  return {
    type,
    executionContextId: 1,
    timestamp,
    args: [
      { type: 'string', value: 'user loaded' },
      {
        type: 'object',
        className: 'Object',
        description: 'Object',
        objectId: `{"injectedScriptId":1,"id":${id}}`,
        preview: {
          type: 'object',
          description: 'Object',
          overflow: false,
          properties: [
            { name: 'id', type: 'number', value: '42' },
            { name: 'name', type: 'string', value: 'Ada' },
            { name: 'tags', type: 'object', value: 'Array(2)', subtype: 'array' },
            { name: 'nested', type: 'object', value: 'Object' },
          ],
        },
      },
    ],
    stackTrace: {
      callFrames: [
        { functionName: 'loadUser', scriptId: '5', url: 'http://127.0.0.1:4617/bench/app.js', lineNumber: 41, columnNumber: 12 },
        { functionName: 'render', scriptId: '5', url: 'http://127.0.0.1:4617/bench/app.js', lineNumber: 88, columnNumber: 3 },
        { functionName: '', scriptId: '6', url: 'http://127.0.0.1:4617/bench/suite.html', lineNumber: 11, columnNumber: 5 },
      ],
    },
  };
}

/**
 * CPU µs per event for one batch on a fresh recorder: capture (normalise, rate-limit, redact, store, read values
 * back) plus the test's share of `record()`, where events are classified.
 */
async function batch(type: 'log' | 'error', spacingMs: number): Promise<{ capture: number; record: number }> {
  const recorder = new Recorder(resolveOptions({ strict: false, capture: true, ignore: ['ResizeObserver loop'], limits: {} }));
  const capture = new TestCapture(recorder);
  const target = fakeTarget(capture);
  const messages = Array.from({ length: BATCH }, (_, i) => JSON.stringify({ method: 'Runtime.consoleAPICalled', params: consoleEvent(type, 1_767_225_600_000 + i * spacingMs, i) }));
  const started = cpuMicros();
  for (const message of messages) target.receive(message);
  await capture.flushReads();
  const captured = cpuMicros();
  const record = recorder.record();
  const ended = cpuMicros();
  if (spacingMs >= 10 && record.events.length !== BATCH) throw new Error(`event-cost: stored ${record.events.length} of ${BATCH}`);
  return { capture: (captured - started) / BATCH, record: (ended - captured) / BATCH };
}

/** CPU time of this process: on a machine shared with other work, time spent descheduled does not count. */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

async function measure(type: 'log' | 'error', spacingMs: number): Promise<{ total: number; capture: number; record: number }> {
  for (let i = 0; i < WARMUP; i++) await batch(type, spacingMs);
  const runs: Array<{ capture: number; record: number }> = [];
  for (let i = 0; i < BATCHES; i++) runs.push(await batch(type, spacingMs));
  return { total: median(runs.map((r) => r.capture + r.record)), capture: median(runs.map((r) => r.capture)), record: median(runs.map((r) => r.record)) };
}

/** The worker's cost of one console event with an object argument, from CDP event to classified record. */
export async function eventCost(): Promise<Row[]> {
  // 20 ms apart: 50 events a second, under the default rate limit, so every event is stored and read back.
  const log_ = await measure('log', 20);
  const error = await measure('error', 20);
  // 0.01 ms apart: a flood, where all but 100 a second are counted as dropped.
  const flood = await measure('log', 0.01);
  log(`  per event: console.log ${fmt(log_.total, 2)} µs (capture ${fmt(log_.capture, 2)}, record ${fmt(log_.record, 2)}); console.error ${fmt(error.total, 2)} µs; over the rate limit ${fmt(flood.total, 2)} µs`);
  return [
    {
      bench: '4 event',
      metric: `console.log with an object argument, CPU (capture + record), median of ${BATCHES}×${BATCH}`,
      baseline: '',
      daebug: `${fmt(log_.total, 2)} µs (${fmt(log_.capture, 2)} + ${fmt(log_.record, 2)})`,
      ratio: '',
      target: '< 10 µs',
      met: log_.total < 10,
    },
    {
      bench: '4 event',
      metric: 'console.error with an object argument and a stack',
      baseline: '',
      daebug: `${fmt(error.total, 2)} µs (${fmt(error.capture, 2)} + ${fmt(error.record, 2)})`,
      ratio: '',
      target: '< 10 µs',
      met: error.total < 10,
    },
    {
      bench: '4 event',
      metric: 'console.log over the rate limit (dropped)',
      baseline: '',
      daebug: `${fmt(flood.total, 2)} µs`,
      ratio: '',
      target: '',
    },
  ];
}

childMain(eventCost);
