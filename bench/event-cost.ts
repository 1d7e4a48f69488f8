import path from 'node:path';
import { childMain, fmt, log, median, quick, repoRoot, type Row } from './lib';

const BATCH = 500;
const BATCHES = quick ? 40 : 400;
const WARMUP = quick ? 10 : 50;

const { TestCapture } = require(path.join(repoRoot, 'dist', 'capture', 'test-capture.js')) as typeof import('../src/capture/test-capture');
const { TappedTarget } = require(path.join(repoRoot, 'dist', 'capture', 'cdp', 'tapped-target.js')) as typeof import('../src/capture/cdp/tapped-target');
const { OwnSessionTarget } = require(path.join(repoRoot, 'dist', 'capture', 'cdp', 'own-session-target.js')) as typeof import('../src/capture/cdp/own-session-target');
const { Recorder } = require(path.join(repoRoot, 'dist', 'capture', 'recorder.js')) as typeof import('../src/capture/recorder');
const { resolveOptions } = require(path.join(repoRoot, 'dist', 'options.js')) as typeof import('../src/options');

type Listener = import('../src/capture/cdp/target').TargetListener;

/** What Chromium answers to a command: for the batched value read, one serialized value per read. */
function answer(method: string, params?: { arguments?: Array<{ value?: unknown }> }): unknown {
  if (method !== 'Runtime.callFunctionOn') return {};
  // The layout argument is [kind, count, kind, count, …].
  const reads = Array.isArray(params?.arguments?.[1]?.value) ? (params.arguments[1].value as unknown[]).length / 2 : 1;
  const value = { text: 'user loaded {"id":42,"name":"Ada","tags":["a","b"],"nested":{"ok":true,"n":1}}', structured: true };
  return { result: { type: 'object', value: Array.from({ length: reads }, () => value) } };
}

/**
 * A page target read on Playwright's own session (the tap, daebug's path in Chromium with Playwright ≥ 1.65): events
 * arrive as the objects Playwright parsed anyway, and commands are answered at once, without a browser's latency.
 */
function tappedTarget(listener: Listener): import('../src/capture/cdp/tapped-target').TappedTarget {
  const direct = async (method: string, params?: object) => answer(method, params as never);
  return new TappedTarget('page', 'http://127.0.0.1:4617/bench/suite.html', 'main', 'ctx', undefined, listener, direct, 'session');
}

/**
 * A page target on daebug's own session (the fallback: a Playwright server, an older Playwright, shared
 * workers): from the message text CDP delivers (`Target.receivedMessageFromTarget`), parsed by daebug.
 */
function ownSessionTarget(listener: Listener): import('../src/capture/cdp/own-session-target').OwnSessionTarget {
  const target = new OwnSessionTarget('page', 'http://127.0.0.1:4617/bench/suite.html', 'main', 'ctx', undefined, async (message: string) => {
    const { id, method, params } = JSON.parse(message) as { id: number; method: string; params?: { arguments?: Array<{ value?: unknown }> } };
    const result = answer(method, params);
    queueMicrotask(() => target.receive(JSON.stringify({ id, result })));
  }, listener);
  return target;
}

type Path = 'tap' | 'own';

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
async function batch(type: 'log' | 'error', spacingMs: number, path: Path): Promise<{ capture: number; record: number }> {
  const recorder = new Recorder(resolveOptions({ strict: false, capture: true, ignore: ['ResizeObserver loop'], limits: {} }));
  const capture = new TestCapture(recorder);
  let deliver: () => void;
  if (path === 'tap') {
    const target = tappedTarget(capture);
    const events = Array.from({ length: BATCH }, (_, i) => consoleEvent(type, 1_767_225_600_000 + i * spacingMs, i));
    deliver = () => {
      for (const params of events) target.dispatch('Runtime.consoleAPICalled', params);
    };
  } else {
    const target = ownSessionTarget(capture);
    const messages = Array.from({ length: BATCH }, (_, i) => JSON.stringify({ method: 'Runtime.consoleAPICalled', params: consoleEvent(type, 1_767_225_600_000 + i * spacingMs, i) }));
    deliver = () => {
      for (const message of messages) target.receive(message);
    };
  }
  const started = cpuMicros();
  deliver();
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

export async function measure(type: 'log' | 'error', spacingMs: number, path: Path = 'tap'): Promise<{ total: number; capture: number; record: number }> {
  for (let i = 0; i < WARMUP; i++) await batch(type, spacingMs, path);
  const runs: Array<{ capture: number; record: number }> = [];
  for (let i = 0; i < BATCHES; i++) runs.push(await batch(type, spacingMs, path));
  return { total: median(runs.map((r) => r.capture + r.record)), capture: median(runs.map((r) => r.capture)), record: median(runs.map((r) => r.record)) };
}

/** The worker's cost of one console event with an object argument, from CDP event to classified record. */
export async function eventCost(): Promise<Row[]> {
  // 20 ms apart: 50 events a second, under the default rate limit, so every event is stored and read back.
  const log_ = await measure('log', 20);
  const error = await measure('error', 20);
  // 0.01 ms apart: a flood, where all but 100 a second are counted as dropped.
  const flood = await measure('log', 0.01);
  const own = await measure('log', 20, 'own');
  log(`  per event: console.log ${fmt(log_.total, 2)} µs (capture ${fmt(log_.capture, 2)}, record ${fmt(log_.record, 2)}); console.error ${fmt(error.total, 2)} µs; over the rate limit ${fmt(flood.total, 2)} µs; console.log on daebug's own session ${fmt(own.total, 2)} µs`);
  const split = (r: { total: number; capture: number; record: number }) => `${fmt(r.total, 2)} µs (${fmt(r.capture, 2)} + ${fmt(r.record, 2)})`;
  return [
    {
      bench: '4 event',
      metric: `console.log with an object argument, CPU (capture + record), median of ${BATCHES}×${BATCH}`,
      baseline: '',
      daebug: split(log_),
      ratio: '',
      target: '≤ 3 µs',
      met: log_.total <= 3,
    },
    {
      bench: '4 event',
      metric: 'console.error with an object argument and a stack',
      baseline: '',
      daebug: split(error),
      ratio: '',
      target: '',
    },
    {
      bench: '4 event',
      metric: 'console.log over the rate limit (dropped)',
      baseline: '',
      daebug: `${fmt(flood.total, 2)} µs`,
      ratio: '',
      target: '',
    },
    {
      bench: '4 event',
      metric: "console.log on daebug's own session (the fallback path: JSON text parsed by daebug)",
      baseline: '',
      daebug: split(own),
      ratio: '',
      target: '',
    },
  ];
}

childMain(eventCost);
