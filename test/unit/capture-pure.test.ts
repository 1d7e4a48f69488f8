import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KeepNewestLog, RateWindow } from '../../src/capture/budget';
import { orderTimeline } from '../../src/capture/timeline';
import { RealmNames } from '../../src/capture/realms';
import { formatPrimitiveArgs, previewText } from '../../src/capture/remote-object';
import { matchesIgnore } from '../../src/model/classify';
import { Recorder } from '../../src/capture/recorder';
import { defaultLimits } from '../../src/options';
import { messageFromStack } from '../../src/text/stack-message';

describe('KeepNewestLog', () => {
  const item = (n: number) => ({ n, timeMs: n, dropped: false });
  it('keeps the first items and the most recent, returning what fell between', () => {
    const log = new KeepNewestLog<ReturnType<typeof item>>(2, 3);
    const out: number[] = [];
    for (let i = 1; i <= 10; i++) {
      const evicted = log.push(item(i));
      if (evicted) out.push(evicted.n);
    }
    assert.deepEqual(log.toArray().map((i) => i.n), [1, 2, 8, 9, 10]);
    assert.deepEqual(out, [3, 4, 5, 6, 7]);
  });
  it('lets items another budget dropped leave without counting them again', () => {
    const log = new KeepNewestLog<ReturnType<typeof item>>(0, 2);
    const items = [1, 2].map(item);
    for (const i of items) log.push(i);
    items[0]!.dropped = true;
    assert.equal(log.push(item(3)), undefined);
    assert.equal(log.push(item(4))?.n, 2);
    assert.deepEqual(log.toArray().map((i) => i.n), [3, 4]);
  });
});

describe('RateWindow', () => {
  it('keeps the head and the newest of a second and hands back what it pushed out of the middle', () => {
    const window = new RateWindow<{ n: number; timeMs: number }>(4);
    const out: number[] = [];
    for (let i = 0; i < 10; i++) {
      const evicted = window.admit({ n: i, timeMs: 5000 + i });
      if (evicted) out.push(evicted.n);
    }
    // 0 is the head (a quarter of 4); 6, 7, 8, 9 are the newest 4.
    assert.deepEqual(out, [1, 2, 3, 4, 5]);
    assert.equal(window.admit({ n: 10, timeMs: 6000 }), undefined);
  });

  it('keeps #0 to #24 and the newest 100, #900 to #999, of a 1,000-item burst at 100 per second', () => {
    const window = new RateWindow<{ n: number; timeMs: number; dropped?: boolean }>(100);
    const items: { n: number; timeMs: number; dropped?: boolean }[] = Array.from({ length: 1000 }, (_, n) => ({ n, timeMs: 7000 + n / 1000 }));
    for (const item of items) {
      const out = window.admit(item);
      if (out) out.dropped = true;
    }
    const kept = items.filter((i) => !i.dropped).map((i) => i.n);
    assert.equal(kept.length, 125);
    assert.deepEqual(kept.slice(0, 25), Array.from({ length: 25 }, (_, n) => n));
    assert.deepEqual(kept.slice(25), Array.from({ length: 100 }, (_, n) => 900 + n));
  });

  it('keeps the newest 100 whole when a burst spans two seconds, however it is split', () => {
    for (const split of [1, 30, 99, 100, 110, 124, 125, 126, 500, 999]) {
      const window = new RateWindow<{ n: number; timeMs: number; dropped?: boolean }>(100);
      const items = Array.from({ length: 1000 }, (_, n) => ({ n, timeMs: n < split ? 7999 : 8000 }) as { n: number; timeMs: number; dropped?: boolean });
      for (const item of items) {
        const out = window.admit(item);
        if (out) out.dropped = true;
      }
      const kept = items.filter((i) => !i.dropped).map((i) => i.n);
      assert.equal(kept[0], 0, `split at ${split}`);
      assert.deepEqual(kept.slice(-100), Array.from({ length: 100 }, (_, n) => 900 + n), `split at ${split}`);
    }
  });

  it('with a limit of 1 keeps the newest', () => {
    const window = new RateWindow<{ n: number; timeMs: number }>(1);
    assert.equal(window.admit({ n: 0, timeMs: 1 }), undefined);
    assert.equal(window.admit({ n: 1, timeMs: 2 })?.n, 0);
  });
});

describe('orderTimeline', () => {
  it('keeps a stream in arrival order and puts an opener before its stream', () => {
    const nav = { timeMs: 100, seq: 1, stream: 'p' };
    const start = { timeMs: 101, seq: 2, stream: 'p', opens: 'w' };
    const workerLog = { timeMs: 90, seq: 3, stream: 'w' };
    const other = { timeMs: 95, seq: 4, stream: 'q' };
    const ordered = orderTimeline([other, workerLog, start, nav]).map((e) => e.item);
    assert.deepEqual(ordered, [nav, start, workerLog, other]);
  });
  it('orders different streams by their own clocks', () => {
    const a = { timeMs: 10, seq: 2, stream: 'a' };
    const b = { timeMs: 5, seq: 1, stream: 'b' };
    assert.deepEqual(orderTimeline([a, b]).map((e) => e.item), [b, a]);
  });
});

describe('formatPrimitiveArgs', () => {
  const s = (value: string) => ({ type: 'string', value });
  const n = (value: number) => ({ type: 'number', value });
  it('applies format specifiers like the console', () => {
    assert.equal(formatPrimitiveArgs([s('%s has %d items%c!'), s('cart'), n(3.7), s('color: red')]), 'cart has 3 items!');
    assert.equal(formatPrimitiveArgs([s('100%% done'), n(1)]), '100% done 1');
    assert.equal(formatPrimitiveArgs([s('a'), { type: 'undefined' }, { type: 'object', subtype: 'null' }, { type: 'bigint', unserializableValue: '5n' }]), 'a undefined null 5n');
  });
  it('renders a preview as JSON-like text', () => {
    const text = previewText({ type: 'object', preview: { properties: [{ name: 'a', type: 'number', value: '1' }, { name: 'b', type: 'string', value: 'x' }] } });
    assert.equal(text, '{"a":1,"b":"x"}');
  });
  it("names what a preview lists only the internals of (a Map, a Date, an element) by V8's description, and a function property by its type", () => {
    const internals = { properties: [{ name: 'size', type: 'number', value: '2' }] };
    assert.equal(previewText({ type: 'object', subtype: 'map', description: 'Map(2)', preview: internals }), 'Map(2)');
    assert.equal(previewText({ type: 'object', subtype: 'date', description: 'Thu Jan 01 1970', preview: { properties: [] } }), 'Thu Jan 01 1970');
    assert.equal(previewText({ type: 'object', subtype: 'node', description: 'span#target.label', preview: internals }), 'span#target.label');
    assert.equal(previewText({ type: 'object', preview: { properties: [{ name: 'f', type: 'function', value: '' }] } }), '{"f":function}');
  });
  it("names a class instance's class as DevTools does; a plain Object keeps its JSON-like form (issue 37)", () => {
    const scope = {
      type: 'object',
      className: 'DedicatedWorkerGlobalScope',
      description: 'DedicatedWorkerGlobalScope',
      preview: {
        overflow: true,
        properties: [
          { name: 'name', type: 'string', value: '' },
          { name: 'onmessage', type: 'object', subtype: 'null', value: 'null' },
          { name: 'cancelAnimationFrame', type: 'function', value: '' },
        ],
      },
    };
    assert.equal(previewText(scope), 'DedicatedWorkerGlobalScope {name: "", onmessage: null, cancelAnimationFrame: function, …}');
    assert.equal(previewText({ type: 'object', className: 'Cart', description: 'Cart', preview: { properties: [{ name: 'item-count', type: 'number', value: '2' }] } }), 'Cart {"item-count": 2}');
    const plain = { type: 'object', className: 'Object', description: 'Object', preview: { properties: [{ name: 'a', type: 'number', value: '1' }] } };
    assert.equal(previewText(plain), '{"a":1}');
    // Arrays and described built-ins are not class instances.
    assert.equal(previewText({ type: 'object', subtype: 'array', className: 'Array', description: 'Array(1)', preview: { properties: [{ name: '0', type: 'number', value: '1' }] } }), '[1]');
  });

  it('applies format specifiers to previews of objects too', () => {
    const object = { type: 'object', preview: { properties: [{ name: 'a', type: 'number', value: '1' }] } };
    const args = [s('%s is %o%c'), s('Bob'), object, s('color: red')];
    assert.equal(formatPrimitiveArgs(args, ['%s is %o%c', 'Bob', previewText(object), 'color: red']), 'Bob is {"a":1}');
  });
});

describe('matchesIgnore', () => {
  const e = { type: 'error' as const, source: 'window.onerror', message: 'Error: ResizeObserver loop limit exceeded', stack: 'Error: x\n    at vendor.js:1:1' };
  it('matches substrings and regexps against message and stack', () => {
    assert.ok(matchesIgnore(e, ['ResizeObserver']));
    assert.ok(matchesIgnore(e, [/vendor\.js/]));
    assert.ok(!matchesIgnore(e, ['nothing', /nope/]));
  });
  it('is not fooled by a global regexp lastIndex', () => {
    const re = /ResizeObserver/g;
    assert.ok(matchesIgnore(e, [re]));
    assert.ok(matchesIgnore(e, [re]));
  });
});

describe('Recorder', () => {
  const options = { strict: false, capture: true, ignore: [], limits: { ...defaultLimits, eventsPerSecond: 5, maxEvents: 12 } };
  it('over the per-realm rate drops from the middle of the second, keeps its head and newest, and counts it by source', () => {
    const recorder = new Recorder(options);
    for (let i = 0; i < 8; i++) recorder.add({ type: 'console', source: 'console.log', realm: 'page', timeMs: 1000, message: `m${i}` });
    recorder.add({ type: 'console', source: 'console.log', realm: 'worker:w.js', timeMs: 1000, message: 'other realm' });
    // The head is a quarter of 5 (1), the newest 5 stay whole.
    assert.deepEqual(recorder.events().filter((e) => e.realm === 'page').map((e) => e.message), ['m0', 'm3', 'm4', 'm5', 'm6', 'm7']);
    assert.equal(recorder.events().length, 7);
    assert.equal(recorder.dropped.total, 2);
    assert.deepEqual(recorder.dropped.bySource, { 'console.log': 2 });
  });
  it('keeps the first and the last errors of a burst, and ignored ones never push out unexpected ones', () => {
    const recorder = new Recorder({ ...options, ignore: ['noise'], limits: { ...defaultLimits } });
    recorder.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: 1, message: 'real before' });
    for (let i = 0; i < 1000; i++) recorder.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: 5000 + i / 10, message: `noise ${i}` });
    for (let i = 0; i < 1000; i++) recorder.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: 9000 + i / 10, message: `burst ${i}` });
    const errors = recorder.events().filter((e) => e.type === 'error');
    assert.ok(errors.some((e) => e.message === 'real before'));
    const burst = errors.filter((e) => e.message.startsWith('burst ')).map((e) => e.message);
    assert.deepEqual(burst.slice(0, 25), Array.from({ length: 25 }, (_, i) => `burst ${i}`));
    assert.deepEqual(burst.slice(-100), Array.from({ length: 100 }, (_, i) => `burst ${900 + i}`));
  });
  it('never lets console noise push out errors', () => {
    const recorder = new Recorder({ ...options, limits: { ...options.limits, eventsPerSecond: 1e6 } });
    recorder.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: 1, message: 'the error' });
    for (let i = 0; i < 100; i++) recorder.add({ type: 'console', source: 'console.log', realm: 'page', timeMs: 2 + i, message: `noise ${i}` });
    const events = recorder.events();
    assert.ok(events.some((e) => e.message === 'the error'));
    assert.equal(events.length, 13);
    assert.equal(events[events.length - 1]!.message, 'noise 99');
  });
  it('assigns events to the innermost job by time and marks expected ones', () => {
    const recorder = new Recorder({ ...options, ignore: ['benign'] });
    const job = recorder.startSpan('eval', 'page', { code: 'x' });
    recorder.add({ type: 'error', source: 'unhandledrejection', realm: 'page', timeMs: job.startMs + 0.5, message: 'benign failure' });
    for (const until = Date.now() + 2; Date.now() < until; );
    recorder.finishSpan(job, { ok: true, value: '1' });
    recorder.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: Date.now() + 10, message: 'later' });
    const [inJob, later] = recorder.events();
    assert.equal(inJob!.jobId, job.id);
    assert.equal(inJob!.expected, true);
    assert.equal(inJob!.unexpected, undefined);
    assert.equal(later!.jobId, undefined);
    assert.equal(later!.unexpected, true);
  });
  it("keeps a page's event stamped within the job's last millisecond in the job (CDP's clock has a fraction, Node's end has none)", () => {
    const recorder = new Recorder(options);
    const job = recorder.startSpan('eval', 'page', { code: 'x' });
    for (const until = Date.now() + 2; Date.now() < until; );
    recorder.finishSpan(job, { ok: true });
    recorder.add({ type: 'console', level: 'log', source: 'console.log', realm: 'page', timeMs: job.endMs! + 0.6, message: 'last thing the job did' });
    recorder.add({ type: 'console', level: 'log', source: 'console.log', realm: 'page', timeMs: job.endMs! + 1, message: 'after the job' });
    const [last, after] = recorder.events();
    assert.equal(last!.jobId, job.id);
    assert.equal(after!.jobId, undefined);
  });
  it('cuts long messages with a marker that gives the original length', () => {
    const recorder = new Recorder({ ...options, limits: { ...options.limits, maxMessageLength: 20 } });
    recorder.add({ type: 'console', source: 'console.log', realm: 'page', timeMs: 1, message: 'y'.repeat(50) });
    assert.equal(recorder.events()[0]!.message, `${'y'.repeat(20)} …[truncated, 50 chars]`);
  });
});

describe('messageFromStack', () => {
  it('keeps multi-line messages and drops frames', () => {
    assert.equal(messageFromStack('Error: line one\nline two\n    at f (a.js:1:1)'), 'Error: line one\nline two');
  });
});

describe('RealmNames', () => {
  it('names realms readably and uniquely, with a prefix for contexts other than the test’s own', () => {
    const realms = new RealmNames(new Set(['old']));
    const name = (type: any, url: string, browserContextId?: string, parentRealm?: string) => realms.name({}, { type, url, browserContextId, parentRealm });
    realms.claimPrimary('main');
    assert.equal(name('page', 'about:blank', 'old'), 'context-2:page');
    assert.equal(name('page', 'about:blank', 'main'), 'page');
    assert.equal(name('page', 'http://x/popup.html', 'main'), 'page-2');
    assert.equal(name('worker', 'http://x/js/w.js?v=1', 'main'), 'worker:w.js');
    assert.equal(name('worker', 'http://x/js/w.js?v=1', 'main'), 'worker:w.js#2');
    assert.equal(name('service_worker', 'http://x/sw.js', 'main'), 'service-worker:sw.js');
    assert.equal(name('shared_worker', 'http://x/s.js', 'main'), 'shared-worker:s.js');
    assert.equal(name('iframe', 'http://y/f.html', 'main', 'page'), 'page:frame');
    assert.equal(name('worker', 'blob:http://x/123', 'new'), 'context-3:worker:blob');
  });
  it('keeps a realm’s name for the same key', () => {
    const realms = new RealmNames();
    const key = {};
    assert.equal(realms.name(key, { type: 'page', url: '' }), 'page');
    assert.equal(realms.name(key, { type: 'page', url: '' }), 'page');
    assert.equal(realms.known(key), 'page');
  });
});
