import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { APIRequestContext, BrowserContext, Cookie } from '@playwright/test';
import { Recorder } from '../../src/capture/recorder';
import { resolveOptions } from '../../src/options';
import { DEFAULT_ENRICH_LIMITS, enrich, hasStacksToMap } from '../../src/stack/enrich';
import { pageFetcher } from '../../src/stack/fetch';
import { httpGet } from '../../src/stack/http-get';
import { LruCache } from '../../src/stack/lru';
import { SourceMaps, type ScriptInfo } from '../../src/stack/source-maps';
import { cookieHeaderFor, TestContexts } from '../../src/stack/test-contexts';
import { bundle, positionOf } from './helpers/bundle';

// daebug's own fetcher (issue 24, item 1): scripts and maps are read by the worker, not through the test's browser
// context, which a suite's own `context` fixture may have closed. A real server on 127.0.0.1 answers.

const app = bundle({ 'main.ts': "import { total } from './cart';\n(window as any).start = () => total([]);\n", 'cart.ts': 'export function total(items: any[]): number {\n  return items[0].price * 2;\n}\n' }, 'main.ts');

let base = '';
const hits: Array<{ path: string; cookie: string | undefined; authorization?: string | undefined }> = [];
const server = http.createServer((req, res) => {
  const path = req.url ?? '/';
  hits.push({ path, cookie: req.headers.cookie, authorization: req.headers.authorization });
  // A staging server behind HTTP Basic (ada:secret), and one that wants the suite's own header.
  if (path.startsWith('/basic/')) {
    if (req.headers.authorization !== `Basic ${Buffer.from('ada:secret').toString('base64')}`) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="staging"' }).end('who?');
    return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(app.js);
  }
  if (path.startsWith('/keyed/')) {
    if (req.headers['x-staging-key'] !== 'k1') return void res.writeHead(403).end('no key');
    return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(app.js);
  }
  const gated = path.startsWith('/gated/');
  if (gated && !/session=s1/.test(req.headers.cookie ?? '')) return void res.writeHead(403).end('sign in');
  const file = gated ? path.slice('/gated'.length) : path;
  if (file === '/dist/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(app.js);
  if (file === '/dist/app.js.map') return void res.writeHead(200, { 'content-type': 'application/json' }).end(app.map);
  if (file === '/moved') return void res.writeHead(302, { location: '/gated/dist/app.js' }).end();
  if (file === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
  if (file === '/gzip') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync('zipped text'));
  if (file === '/big') return void res.writeHead(200).end('x'.repeat(5000));
  if (file === '/hang') return; // never answers
  res.writeHead(404).end('not found');
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const LIMITS = { timeoutMs: 2000, maxBytes: 1024 * 1024 };

/** A stand-in for a Playwright BrowserContext: its cookies, its request client, and its close event. */
function fakeContext(cookies: Cookie[]): BrowserContext & { close(): void; cookieReads: number; listenerCount(): number } {
  const listeners = new Set<() => void>();
  const context = {
    cookieReads: 0,
    request: { marker: 'request' } as unknown as APIRequestContext,
    async cookies() {
      context.cookieReads++;
      return cookies;
    },
    once(event: string, listener: () => void) {
      if (event === 'close') listeners.add(listener);
      return context;
    },
    off(event: string, listener: () => void) {
      if (event === 'close') listeners.delete(listener);
      return context;
    },
    close() {
      for (const listener of listeners) listener();
    },
    listenerCount: () => listeners.size,
  };
  return context as unknown as BrowserContext & { close(): void; cookieReads: number; listenerCount(): number };
}

function cookie(name: string, value: string, extra: Partial<Cookie> = {}): Cookie {
  return { name, value, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax', ...extra };
}

describe('httpGet', () => {
  it('reads a script with the cookie header, and follows a redirect', async () => {
    const result = await httpGet(`${base}/moved`, LIMITS, { cookieHeader: () => 'session=s1' });
    assert.equal(result.ok, true);
    assert.equal(result.ok && result.text, app.js);
    assert.deepEqual(hits.slice(-2).map((h) => [h.path, h.cookie]), [['/moved', 'session=s1'], ['/gated/dist/app.js', 'session=s1']]);
  });

  it('says what the server answered, and marks failures before any answer as in transit', async () => {
    assert.deepEqual(await httpGet(`${base}/missing.js.map`, LIMITS), { ok: false, reason: 'HTTP 404', status: 404 });
    assert.deepEqual(await httpGet(`${base}/gated/dist/app.js`, LIMITS), { ok: false, reason: 'HTTP 403', status: 403 });
    const refused = await httpGet('http://127.0.0.1:9/app.js', LIMITS);
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.reason : '', /^request failed: .*ECONNREFUSED/);
    assert.equal(!refused.ok && refused.inTransit, true);
    assert.deepEqual(await httpGet(`${base}/loop`, LIMITS), { ok: false, reason: 'more than 5 redirects' });
  });

  it('keeps to the limits: size, time; and decodes a gzip body', async () => {
    assert.deepEqual(await httpGet(`${base}/big`, { timeoutMs: 2000, maxBytes: 1000 }), { ok: false, reason: 'too large (0.0 MB, limit 0 MB)' });
    const started = Date.now();
    assert.deepEqual(await httpGet(`${base}/hang`, { timeoutMs: 150, maxBytes: 1000 }), { ok: false, reason: 'timed out after 150 ms' });
    assert.ok(Date.now() - started < 1500);
    const zipped = await httpGet(`${base}/gzip`, LIMITS);
    assert.equal(zipped.ok && zipped.text, 'zipped text');
  });
});

describe('cookieHeaderFor', () => {
  const now = 1_000_000;
  it('sends what a browser would: domain, path, secure and expiry rules', () => {
    const cookies = [
      cookie('host', '1'),
      cookie('sub', '2', { domain: '.app.test' }),
      cookie('other', '3', { domain: 'other.test' }),
      cookie('deep', '4', { domain: 'app.test', path: '/admin' }),
      cookie('secure', '5', { domain: 'app.test', secure: true }),
      cookie('old', '6', { domain: 'app.test', expires: now - 1 }),
      cookie('later', '7', { domain: 'app.test', expires: now + 100 }),
    ];
    assert.equal(cookieHeaderFor('http://www.app.test/a.js', cookies, now), 'sub=2');
    assert.equal(cookieHeaderFor('http://app.test/admin/a.js', cookies, now), 'deep=4; sub=2; later=7');
    assert.equal(cookieHeaderFor('http://app.test/administrator.js', cookies, now), 'sub=2; later=7');
    assert.equal(cookieHeaderFor('https://app.test/a.js', cookies, now), 'sub=2; secure=5; later=7');
    assert.equal(cookieHeaderFor('http://127.0.0.1:3000/a.js', [...cookies, cookie('host', '1'), cookie('lo', '8', { secure: true })], now), 'host=1; lo=8');
    assert.equal(cookieHeaderFor('http://nothing.test/', cookies, now), undefined);
  });
});

describe('TestContexts', () => {
  it("keeps a closing context's cookies only when there is a stack to map, and reads open contexts once, lazily", async () => {
    const closing = fakeContext([cookie('session', 's1')]);
    const idle = fakeContext([cookie('idle', 'x')]);
    const open = fakeContext([cookie('open', 'o')]);
    const contexts = new TestContexts();
    contexts.add(closing);
    contexts.add(idle);
    contexts.add(open);
    await contexts.beforeClose(idle, () => false);
    idle.close();
    await contexts.beforeClose(closing, () => true);
    closing.close();
    assert.equal(closing.cookieReads, 1);
    assert.equal(idle.cookieReads, 0, 'nothing to map: no protocol call');
    assert.equal(open.cookieReads, 0, 'open contexts are read when a URL needs their cookies');
    assert.equal(await contexts.cookieHeader(`${base}/a.js`), 'session=s1; open=o');
    assert.equal(await contexts.cookieHeader(`${base}/b.js`), 'session=s1; open=o');
    assert.equal(open.cookieReads, 1);
    assert.equal(contexts.openRequest(), open.request);
    open.close();
    assert.equal(contexts.openRequest(), undefined);
  });

  it('leaves no listener on a context that outlives the test (reused, or a connected browser\'s default)', () => {
    const reused = fakeContext([]);
    for (let test = 0; test < 3; test++) {
      const contexts = new TestContexts();
      contexts.add(reused);
      contexts.add(reused);
      assert.equal(reused.listenerCount(), 1);
      contexts.end();
    }
    assert.equal(reused.listenerCount(), 0);
  });
});

describe('hasStacksToMap', () => {
  it('is true only for a page stack with an http(s) frame: then a closing context lends its cookies', () => {
    const rec = new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }));
    rec.add({ type: 'console', source: 'console.log', realm: 'page', timeMs: Date.now(), message: 'hello', location: { url: `${base}/a.js`, line: 1, column: 1 } });
    rec.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: Date.now(), message: 'Error: x', stack: 'Error: x\n    at eval (:1:15)' });
    assert.equal(hasStacksToMap(rec), false);
    rec.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: Date.now(), message: 'Error: y', stack: `Error: y\n    at f (${base}/dist/app.js:1:10)` });
    assert.equal(hasStacksToMap(rec), true);
  });
});

describe("the worker's fetcher", () => {
  function bundleError(url: string): Recorder {
    const rec = new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }));
    const thrown = positionOf(app.js, '.price');
    const message = "TypeError: Cannot read properties of undefined (reading 'price')";
    rec.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: Date.now(), message, stack: `${message}\n    at t (${url}:${thrown.line}:${thrown.column + 1})` });
    return rec;
  }

  it('maps the same way whichever test of the worker runs first: each URL is fetched once, with the cookies the first test kept', async () => {
    const cache = new LruCache<Promise<ScriptInfo>>(50, 1 << 24);
    const url = `${base}/gated/dist/app.js`;
    const before = hits.length;
    // The first test's context was closed by the suite's fixture; its cookies were kept before it closed.
    const closedFirst = new TestContexts();
    const context = fakeContext([cookie('session', 's1')]);
    await closedFirst.beforeClose(context, () => true);
    context.close();
    // The second test has no cookie at all: the cached answer serves it.
    for (const page of [closedFirst, new TestContexts()]) {
      const rec = bundleError(url);
      await enrich(rec, new SourceMaps(pageFetcher(page), cache), DEFAULT_ENRICH_LIMITS);
      assert.deepEqual(rec.events()[0]?.frames?.[0]?.original, { source: 'src/cart.ts', line: 2, column: 19, functionName: 'total' });
    }
    assert.deepEqual(hits.slice(before).map((h) => h.path), ['/gated/dist/app.js', '/gated/dist/app.js.map']);
  });

  it("tries an open context's request client only when the worker cannot reach the server", async () => {
    const calls: string[] = [];
    const request = {
      async get(url: string) {
        calls.push(url);
        return { ok: () => true, status: () => 200, headers: () => ({ 'content-type': 'text/javascript' }), body: async () => Buffer.from('from the browser side'), dispose: async () => undefined };
      },
    } as unknown as APIRequestContext;
    const page = { cookieHeader: async () => undefined, openRequest: () => request };
    const fetch = pageFetcher(page, LIMITS);
    const reached = await fetch(`${base}/dist/app.js`);
    assert.equal(reached.ok && reached.text, app.js);
    const missing = await fetch(`${base}/nothing.js`);
    assert.equal(!missing.ok && missing.reason, 'HTTP 404');
    assert.deepEqual(calls, [], 'a server that answered is not asked again another way');
    const unreachable = await fetch('http://127.0.0.1:9/app.js');
    assert.equal(unreachable.ok && unreachable.text, 'from the browser side');
    assert.deepEqual(calls, ['http://127.0.0.1:9/app.js']);
  });
});

describe("the test's extraHTTPHeaders and httpCredentials", () => {
  it('answers a 401 with the credentials, as Playwright does, and sends them up front only with send: always', async () => {
    const credentials = { username: 'ada', password: 'secret' };
    assert.deepEqual(await httpGet(`${base}/basic/app.js`, LIMITS), { ok: false, reason: 'HTTP 401', status: 401 });
    hits.length = 0;
    const answered = await httpGet(`${base}/basic/app.js`, LIMITS, { credentials });
    assert.equal(answered.ok, true);
    assert.deepEqual(hits.map((h) => h.authorization === undefined), [true, false]);
    hits.length = 0;
    assert.equal((await httpGet(`${base}/basic/app.js`, LIMITS, { credentials: { ...credentials, send: 'always' } })).ok, true);
    assert.equal(hits.length, 1);
  });

  it('keeps credentials to their origin, and picks the set for the origin from a list', async () => {
    const elsewhere = { username: 'ada', password: 'secret', origin: 'https://staging.example.com' };
    assert.deepEqual(await httpGet(`${base}/basic/app.js`, LIMITS, { credentials: elsewhere }), { ok: false, reason: 'HTTP 401', status: 401 });
    const list = [elsewhere, { username: 'ada', password: 'secret', origin: base }];
    assert.equal((await httpGet(`${base}/basic/app.js`, LIMITS, { credentials: list })).ok, true);
  });

  it('sends the extra headers, and keeps its own accept-encoding', async () => {
    assert.deepEqual(await httpGet(`${base}/keyed/app.js`, LIMITS), { ok: false, reason: 'HTTP 403', status: 403 });
    const keyed = await httpGet(`${base}/keyed/app.js`, LIMITS, { extraHeaders: { 'X-Staging-Key': 'k1', 'Accept-Encoding': 'zstd' } });
    assert.equal(keyed.ok, true);
    assert.equal((await httpGet(`${base}/gzip`, LIMITS, { extraHeaders: { 'accept-encoding': 'identity' } })).ok, true);
  });

  it("reach the fetcher through the test's contexts", async () => {
    const contexts = new TestContexts({ extraHeaders: { 'x-staging-key': 'k1' }, credentials: { username: 'ada', password: 'secret' } });
    const fetcher = pageFetcher(contexts, LIMITS);
    assert.equal((await fetcher(`${base}/keyed/app.js`)).ok, true);
    assert.equal((await fetcher(`${base}/basic/app.js`)).ok, true);
  });
});
