import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Recorder, type EventDraft } from '../../src/capture/recorder';
import { resolveOptions } from '../../src/options';
import { enrich, DEFAULT_ENRICH_LIMITS } from '../../src/stack/enrich';
import { pageFetcher, withTimeout } from '../../src/stack/fetch';
import type { Fetcher, FetchResult } from '../../src/stack/fetch-result';
import { LruCache } from '../../src/stack/lru';
import { MAX_MAPPINGS_CHARS, SourceMaps, type ScriptInfo } from '../../src/stack/source-maps';
import { bundle, positionOf } from './helpers/bundle';
import { fingerprintWhere } from '../../src/run/fingerprint';

const files = {
  'main.ts': "import { total } from './cart';\nexport function start(): number {\n  return total([]);\n}\n(window as any).start = start;\n",
  'cart.ts': "export function total(items: number[]): number {\n  const first = items[0] as unknown as { price: number };\n  return first.price * 2;\n}\n",
};
const app = bundle(files, 'main.ts');
const ORIGIN = 'http://app.test';

function recorder(): Recorder {
  return new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }));
}

/** A server in a dictionary; counts requests. */
function server(routes: Record<string, FetchResult | (() => Promise<FetchResult>)>): Fetcher & { requests: string[] } {
  const requests: string[] = [];
  const fetcher = async (url: string) => {
    requests.push(url);
    const route = routes[url];
    if (!route) return { ok: false as const, reason: 'HTTP 404' };
    return typeof route === 'function' ? route() : route;
  };
  return Object.assign(fetcher, { requests });
}

const js = (text: string): FetchResult => ({ ok: true, text, contentType: 'text/javascript' });

/** The browser's stack for `start()` throwing in the bundle at `url`. */
function bundleError(url: string, source = 'window.onerror'): EventDraft {
  const thrown = positionOf(app.js, '.price');
  const call = positionOf(app.js, 'return r([])');
  const minified = [...app.js.slice(0, thrown.column).matchAll(/function (\w+)\(/g)].pop()?.[1];
  const caller = [...app.js.slice(0, call.column).matchAll(/function (\w+)\(/g)].pop()?.[1];
  const message = "TypeError: Cannot read properties of undefined (reading 'price')";
  return {
    type: 'error',
    source,
    realm: 'page',
    timeMs: Date.now(),
    message,
    stack: `${message}\n    at ${minified} (${url}:${thrown.line}:${thrown.column + 1})\n    at ${caller} (${url}:${call.line}:${call.column + 7})`,
    location: { url, line: thrown.line, column: thrown.column + 1 },
  };
}

function run(rec: Recorder, fetcher: Fetcher, cache = new LruCache<Promise<ScriptInfo>>(50, 20 * 1024 * 1024), limits = DEFAULT_ENRICH_LIMITS) {
  const maps = new SourceMaps(fetcher, cache);
  return { maps, done: enrich(rec, maps, limits) };
}

describe('enrich', () => {
  it('maps a bundled error to the original file, line and function, with a code frame, a hint and its ignore pattern', async () => {
    const rec = recorder();
    rec.add(bundleError(`${ORIGIN}/dist/app.js`));
    const fetcher = server({ [`${ORIGIN}/dist/app.js`]: js(app.js), [`${ORIGIN}/dist/app.js.map`]: js(app.map) });
    await run(rec, fetcher).done;
    const [event] = rec.events();
    assert.deepEqual(event?.frames?.[0]?.original, { source: 'src/cart.ts', line: 3, column: 16, functionName: 'total' });
    assert.equal(event?.frames?.[0]?.userCode, true);
    assert.equal(event?.frames?.[1]?.original?.source, 'src/main.ts');
    assert.equal(event?.frames?.[1]?.original?.functionName, 'start');
    assert.match(event?.snippet ?? '', /^> 3 \|   return first\.price \* 2;\n {4}\| {16}\^$/m);
    assert.match(event?.hint ?? '', /before `\.price` is undefined in src\/cart\.ts:3:16/);
    assert.doesNotMatch(event?.hint ?? '', /daebugIgnore/);
    // The pattern is for the JSON report only; the Markdown says once what to do with it.
    assert.equal(event?.ignorePattern, "TypeError: Cannot read properties of undefined (reading 'price')");
    assert.deepEqual(fetcher.requests, [`${ORIGIN}/dist/app.js`, `${ORIGIN}/dist/app.js.map`]);
  });

  it('marks frames of sources on the map ignoreList (or x_google_ignoreList) as library frames, never user code', async () => {
    for (const field of ['ignoreList', 'x_google_ignoreList']) {
      const rec = recorder();
      rec.add(bundleError(`${ORIGIN}/dist/app.js`));
      const parsed = JSON.parse(app.map) as { sources: string[] };
      const map = JSON.stringify({ ...parsed, [field]: [parsed.sources.indexOf('../src/cart.ts')] });
      await run(rec, server({ [`${ORIGIN}/dist/app.js`]: js(app.js), [`${ORIGIN}/dist/app.js.map`]: js(map) }), new LruCache<Promise<ScriptInfo>>(50, 1 << 24)).done;
      const [event] = rec.events();
      assert.equal(event?.frames?.[0]?.library, 'cart', field);
      assert.notEqual(event?.frames?.[0]?.userCode, true, field);
      assert.equal(event?.frames?.[1]?.userCode, true, field);
      assert.match(event?.hint ?? event?.snippet ?? '', /src\/main\.ts/, field);
    }
  });

  it('calls a bundle without its map "not mapped", not your code, and keeps its place in the fingerprint', async () => {
    const rec = recorder();
    const url = `${ORIGIN}/assets/entry.client-B_LRRdWc.js`;
    rec.add(bundleError(url));
    const before = { ...rec.events()[0]!, frames: [{ url, line: 1, column: 1, userCode: true }] };
    await run(rec, server({ [url]: js(app.js.replace(/\n\/\/# sourceMappingURL=.*$/m, '')) })).done;
    const [event] = rec.events();
    assert.equal(event?.frames?.some((f) => f.userCode), false, JSON.stringify(event?.frames));
    assert.ok(event?.frames?.every((f) => f.unmappedReason), 'each frame says why it is not mapped');
    // The same place as when such a frame counted as the app's: fingerprints and baselines stay.
    assert.equal(fingerprintWhere(event!.frames), fingerprintWhere(before.frames));
  });

  it('names no component by a minifier\'s name that the sources do not have', async () => {
    const rec = recorder();
    rec.add({ type: 'console', source: 'console.error', level: 'error', realm: 'page', timeMs: Date.now(), message: 'Each child in a list should have a unique "key" prop.\n\nCheck the render method of `Ui`. See https://react.dev/link/warning-keys for more information.' });
    rec.add({ type: 'console', source: 'console.error', level: 'error', realm: 'page', timeMs: Date.now(), message: 'Each child in a list should have a unique "key" prop.\n\nCheck the render method of `PriceList`. See https://react.dev/link/warning-keys for more information.' });
    await run(rec, server({})).done;
    const [minified, named] = rec.events();
    assert.equal(minified?.component, undefined);
    assert.equal(named?.component?.name, 'PriceList');
  });

  it('never takes line 1 of an HTML document for the user frame', async () => {
    const rec = recorder();
    rec.add({ type: 'error', source: 'unhandledrejection', realm: 'page', timeMs: Date.now(), message: 'SyntaxError: Unexpected token', location: { url: `${ORIGIN}/index.html`, line: 1, column: 2 } });
    await run(rec, server({})).done;
    const [event] = rec.events();
    assert.equal(event?.frames?.some((f) => f.userCode), false);
    assert.equal(event?.snippet, undefined);
  });

  it("maps each cause's and AggregateError member's own stack, and keeps the code frame with the event", async () => {
    const rec = recorder();
    const inner = bundleError(`${ORIGIN}/dist/app.js`);
    const event = rec.add({ ...bundleError(`${ORIGIN}/dist/app.js`), message: 'Error: checkout failed', stack: undefined, location: undefined, callFrames: [] });
    event.cause = [{ name: 'TypeError', message: "Cannot read properties of undefined (reading 'price')", stack: inner.stack! }, { message: '{"code":7}' }];
    event.aggregate = [{ name: 'TypeError', message: "Cannot read properties of undefined (reading 'price')", stack: inner.stack! }];
    await run(rec, server({ [`${ORIGIN}/dist/app.js`]: js(app.js), [`${ORIGIN}/dist/app.js.map`]: js(app.map) })).done;
    const [out] = rec.events();
    assert.deepEqual(out?.cause?.[0]?.frames?.[0]?.original, { source: 'src/cart.ts', line: 3, column: 16, functionName: 'total' });
    assert.equal(out?.cause?.[1]?.frames, undefined);
    assert.equal(out?.aggregate?.[0]?.frames?.[1]?.original?.source, 'src/main.ts');
    assert.equal(out?.cause?.[0] && 'snippet' in out.cause[0], false);
  });

  it('gives a rejection placed at line 1 of the page no user frame and no code frame of the HTML', async () => {
    const rec = recorder();
    const page = `${ORIGIN}/index.html`;
    rec.add({ type: 'error', source: 'unhandledrejection', realm: 'page', timeMs: Date.now(), message: 'SyntaxError: Unexpected token \'o\', "not found" is not valid JSON', location: { url: page, line: 1, column: 2 } });
    await run(rec, server({ [page]: { ok: true, text: '<!doctype html>\n<html></html>', contentType: 'text/html' } })).done;
    const [out] = rec.events();
    assert.equal(out?.frames?.[0]?.userCode, false);
    assert.equal(out?.snippet, undefined);
    assert.match(out?.hint ?? '', /No frame of this rejection is in your code/);
  });

  it('fetches each script and map once per process, however many tests use them', async () => {
    const cache = new LruCache<Promise<ScriptInfo>>(50, 20 * 1024 * 1024);
    const fetcher = server({ [`${ORIGIN}/dist/app.js`]: js(app.js), [`${ORIGIN}/dist/app.js.map`]: js(app.map) });
    for (let test = 0; test < 3; test++) {
      const rec = recorder();
      rec.add(bundleError(`${ORIGIN}/dist/app.js#hash`));
      rec.add(bundleError(`${ORIGIN}/dist/app.js`, 'unhandledrejection'));
      await run(rec, fetcher, cache).done;
      assert.ok(rec.events().every((e) => e.frames?.[0]?.original?.source === 'src/cart.ts'));
    }
    assert.equal(fetcher.requests.length, 2);
  });

  it('fetches nothing when no stack points at a script', async () => {
    const rec = recorder();
    rec.add({ type: 'console', source: 'console.log', realm: 'page', timeMs: Date.now(), message: 'hello', location: { url: 'http://app.test/a.js', line: 1, column: 1 } });
    rec.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: Date.now(), message: 'Error: x', stack: 'Error: x\n    at eval (:1:15)' });
    const fetcher = server({});
    await run(rec, fetcher).done;
    assert.deepEqual(fetcher.requests, []);
    const [log, error] = rec.events();
    assert.equal(log?.frames, undefined, 'a console.log without a stack is not mapped');
    assert.deepEqual(error?.frames, [{ functionName: 'eval', url: '', line: 1, column: 15 }]);
  });

  for (const broken of [
    { name: 'a map that 404s', map: undefined, reason: /source map http:\/\/app\.test\/dist\/app\.js\.map: HTTP 404/ },
    { name: 'a malformed map', map: js('{"version":3,"mappings":"AAAA'), reason: /is malformed: not valid JSON/ },
    { name: 'a huge map', map: js(`{"version":3,"sources":["a.ts"],"mappings":"${'A'.repeat(MAX_MAPPINGS_CHARS + 1)}"}`), reason: /is too large to decode \(4\.0 MB of mappings\)/ },
    { name: 'a slow map', map: () => withTimeout(new Promise<FetchResult>(() => undefined), 50), reason: /timed out after 50 ms/ },
  ]) {
    it(`degrades on ${broken.name}: the frame stays unmapped with the reason, and a diagnostic says so`, async () => {
      const rec = recorder();
      rec.add(bundleError(`${ORIGIN}/dist/app.js`));
      await run(rec, server({ [`${ORIGIN}/dist/app.js`]: js(app.js), ...(broken.map ? { [`${ORIGIN}/dist/app.js.map`]: broken.map } : {}) })).done;
      const [event] = rec.events();
      const frame = event?.frames?.[0];
      assert.equal(frame?.original, undefined);
      assert.match(frame?.unmappedReason ?? '', broken.reason);
      assert.equal(frame?.userCode, true);
      assert.match(event?.snippet ?? '', /^> 1 \| /m, 'the code frame falls back to the generated code');
      assert.ok(event?.hint);
      const diagnostics = rec.record().diagnostics;
      assert.equal(diagnostics[0]?.code, 'DAEBUG_SOURCE_MAP_FAILED');
      assert.match(diagnostics[0]?.message ?? '', broken.reason);
    });
  }

  it('survives a fetcher that throws, and tries again in the next test', async () => {
    const cache = new LruCache<Promise<ScriptInfo>>(50, 1e7);
    let calls = 0;
    const throwing: Fetcher = async () => {
      calls++;
      throw new Error('context closed');
    };
    for (let test = 0; test < 2; test++) {
      const rec = recorder();
      rec.add(bundleError(`${ORIGIN}/dist/app.js`));
      await run(rec, throwing, cache).done;
      assert.match(rec.events()[0]?.frames?.[0]?.unmappedReason ?? '', /request failed: context closed/);
    }
    assert.equal(calls, 2);
  });

  it('stops waiting for lookups at the deadline', async () => {
    const rec = recorder();
    rec.add(bundleError(`${ORIGIN}/dist/app.js`));
    const started = Date.now();
    await run(rec, server({ [`${ORIGIN}/dist/app.js`]: () => new Promise<FetchResult>(() => undefined) }), undefined, { ...DEFAULT_ENRICH_LIMITS, lookupMs: 100 }).done;
    assert.ok(Date.now() - started < 1000);
    assert.equal(rec.events()[0]?.frames?.[0]?.unmappedReason, 'the source map lookup did not finish in time');
  });

  it('gives expected (ignored) errors frames but no code frame, hint or ignore pattern', async () => {
    const rec = recorder();
    rec.expect('price');
    rec.add(bundleError(`${ORIGIN}/dist/app.js`));
    await run(rec, server({ [`${ORIGIN}/dist/app.js`]: js(app.js), [`${ORIGIN}/dist/app.js.map`]: js(app.map) })).done;
    const [event] = rec.events();
    assert.equal(event?.frames?.[0]?.original?.source, 'src/cart.ts');
    assert.equal(event?.snippet, undefined);
    assert.equal(event?.hint, undefined);
    assert.equal(event?.ignorePattern, undefined);
  });

  it('reads file:// scripts and maps from disk', async () => {
    fs.mkdirSync(path.join(app.dir, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(app.dir, 'dist', 'app.js'), app.js);
    fs.writeFileSync(path.join(app.dir, 'dist', 'app.js.map'), app.map);
    const rec = recorder();
    rec.add(bundleError(pathToFileURL(path.join(app.dir, 'dist', 'app.js')).href));
    await enrich(rec, new SourceMaps(pageFetcher(), new LruCache(50, 1e7)), DEFAULT_ENRICH_LIMITS, app.dir);
    assert.deepEqual(rec.events()[0]?.frames?.[0]?.original, { source: 'src/cart.ts', line: 3, column: 16, functionName: 'total' });
  });

  it('maps daebug.eval code back to the spec line that holds it', async () => {
    const spec = path.join(app.dir, 'eval.spec.ts');
    const specText = [
      "import { test } from 'daebug';",
      "test('t', async ({ page, daebug }) => {",
      '  await daebug.eval(page, () => {',
      '    const x = 1;',
      '    return (window as any).shop.checkout(x);',
      '  });',
      '});',
    ].join('\n');
    fs.writeFileSync(spec, specText);
    const rec = recorder();
    const span = rec.startSpan('eval', 'page', { code: '() => {\n    const x = 1;\n    return window.shop.checkout(x);\n  }' });
    const message = 'TypeError: window.shop.checkout is not a function';
    rec.finishSpan(span, {
      ok: false,
      error: {
        message,
        stack: `${message}\n    at eval (eval at evaluate (:370:30), <anonymous>:3:24)\n    at UtilityScript.evaluate (<anonymous>:372:16)\n    at Daebug.eval (${path.resolve(__dirname, '../../src/fixture/daebug.ts')}:39:31)\n    at ${spec}:3:16`,
      },
    });
    await enrich(rec, new SourceMaps(pageFetcher(), new LruCache(50, 1e7)), DEFAULT_ENRICH_LIMITS, app.dir);
    const error = rec.record().jobs[0]?.error;
    assert.deepEqual(error?.frames?.[0]?.original, { source: 'eval.spec.ts', line: 5, column: 33 });
    assert.equal(error?.frames?.[0]?.userCode, true);
    assert.equal(error?.frames?.[1]?.userCode, undefined, "Playwright's injected script is not user code");
    assert.equal(error?.frames?.[2]?.userCode, undefined, "daebug's own frames are not user code");
    assert.deepEqual(error?.frames?.[3]?.original, { source: 'eval.spec.ts', line: 3, column: 16 });
    assert.match(error?.snippet ?? '', /^> 5 \|     return \(window as any\)\.shop\.checkout\(x\);\n {4}\| {33}\^$/m);
    assert.match(error?.hint ?? '', /Is `window\.shop\.checkout` spelled right .* in eval\.spec\.ts:5:33/);
  });

  it('marks the test frames of a daebug.job error as user code, with a code frame from disk', async () => {
    const spec = path.join(app.dir, 'job.spec.ts');
    fs.writeFileSync(spec, "test('t', async ({ daebug }) => {\n  await daebug.job('j', async () => {\n    throw new Error('job fails');\n  });\n});\n");
    const rec = recorder();
    const span = rec.startSpan('job', 'test', { title: 'j' });
    rec.finishSpan(span, { ok: false, error: { message: 'job fails', stack: `Error: job fails\n    at body (${spec}:3:11)\n    at /x/node_modules/playwright/lib/worker.js:1:2\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)` } });
    await enrich(rec, new SourceMaps(pageFetcher(), new LruCache(50, 1e7)), DEFAULT_ENRICH_LIMITS, app.dir);
    const frames = rec.record().jobs[0]?.error?.frames;
    assert.deepEqual(frames?.map((f) => f.userCode ?? false), [true, false, false]);
    assert.match(rec.record().jobs[0]?.error?.snippet ?? '', /> 3 \|     throw new Error\('job fails'\);/);
  });
});
