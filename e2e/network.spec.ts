import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportSchema } from '../src/model/schema';
import { attachGenericPage } from '../src/capture/generic';
import { Recorder } from '../src/capture/recorder';
import { resolveOptions } from '../src/options';
import { reported, sharedRun, type HostileRun } from './helpers/hostile';

// Network failures as events (issue 11 point 3) and browser lines that name their subject (issue 9 point 6). One
// inline run drives fixtures/network/: a page whose requests fail in every way daebug reports (404 fetch, missing
// script and stylesheet, refused, CORS, XHR 500, a dedicated worker's fetch) and one it aborts itself (a canceled
// line, not a failure: issue 24 item 3), under each `daebugNetwork` mode; the tests below read the JSON and Markdown
// reports it wrote.
const spec = `
import http from 'node:http';
import { test, expect } from 'daebug';

let corsOrigin = '';
let closedPort = 0;
let corsServer: http.Server;

test.beforeAll(async () => {
  // Another origin without Access-Control-Allow-Origin, and a port nothing listens on.
  corsServer = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => corsServer.listen(0, '127.0.0.1', resolve));
  corsOrigin = 'http://127.0.0.1:' + (corsServer.address() as any).port;
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as any).port;
  await new Promise((resolve) => closed.close(resolve));
});
test.afterAll(() => corsServer.close());

async function allFailures(page: any, daebug: any) {
  await page.goto('/network/index.html?refused=' + closedPort + '&cors=' + encodeURIComponent(corsOrigin));
  expect(await page.evaluate(() => (window as any).startWorker())).toBe('ready');
  // The worker is attached and listened to before it fetches (see fixtures/network/worker.js).
  await daebug.settle();
  return page.evaluate(() => (window as any).failures());
}

test('report', async ({ page, daebug }) => {
  expect(await allFailures(page, daebug)).toEqual([404, 500, 'Failed to fetch', 'Failed to fetch', 404, 'AbortError']);
  await daebug.settle();
  expect(daebug.errors()).toEqual([]);
});

test.describe('off', () => {
  test.use({ daebugNetwork: 'off' });
  test('off', async ({ page, daebug }) => {
    expect(await allFailures(page, daebug)).toEqual([404, 500, 'Failed to fetch', 'Failed to fetch', 404, 'AbortError']);
    await daebug.settle();
  });
});

test.describe('strict', () => {
  test.use({ daebugNetwork: 'strict', daebugStrict: true });
  test('strict fails', async ({ page, daebug }) => {
    await page.goto('/network/index.html');
    await daebug.settle();
  });
});

test.describe('ignore by url', () => {
  test.use({ daebugNetwork: 'strict', daebugStrict: true, daebugIgnore: ['/network/missing.'] });
  test('strict with ignore', async ({ page, daebug }) => {
    await page.goto('/network/index.html');
    await daebug.settle();
  });
});

test('json of a 404', async ({ page, daebug }) => {
  await page.goto('/network/json.html');
  await page.evaluate(() => { (window as any).loadCart(); });
  await expect.poll(() => daebug.errors().length).toBe(1);
  await daebug.settle();
});
`;

let run: HostileRun;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  run = await sharedRun('network', { 'network.spec.ts': spec }, { timeoutMs: 170_000 });
});

const networkEvents = (json: any) => json.events.filter((e: any) => e.source === 'network');
const pick = (e: any) => ({ realm: e.realm, method: e.network.method, path: new URL(e.network.url).pathname, status: e.network.status, errorText: e.network.errorText, resourceType: e.network.resourceType });

test('every kind of failed request is one network event with method, URL, status or error and resource type; an aborted fetch is a canceled line', async () => {
  const { json, md } = reported(run, 'report');
  expect(json.test.status, run.output).toBe('passed');
  reportSchema.parse(json);
  const events = networkEvents(json).map(pick);
  expect(events).toEqual(
    expect.arrayContaining([
      { realm: 'page', method: 'GET', path: '/network/missing.css', status: 404, errorText: undefined, resourceType: 'stylesheet' },
      { realm: 'page', method: 'GET', path: '/network/missing.js', status: 404, errorText: undefined, resourceType: 'script' },
      { realm: 'page', method: 'GET', path: '/api/cart.json', status: 404, errorText: undefined, resourceType: 'fetch' },
      { realm: 'page', method: 'POST', path: '/status', status: 500, errorText: undefined, resourceType: 'xhr' },
      { realm: 'page', method: 'GET', path: '/refused', status: undefined, errorText: 'net::ERR_CONNECTION_REFUSED', resourceType: 'fetch' },
      { realm: 'page', method: 'GET', path: '/cors', status: undefined, errorText: 'net::ERR_FAILED (CORS MissingAllowOriginHeader)', resourceType: 'fetch' },
      { realm: 'worker:worker.js', method: 'GET', path: '/from-worker.json', status: 404, errorText: undefined, resourceType: 'fetch' },
    ]),
  );
  // One event per request: no second event for the 404 stylesheet Chromium then drops, no "Failed to load" line.
  expect(events).toHaveLength(7);
  // The page aborted its own /slow fetch: a canceled line, not a failure (whether a router or an AbortController
  // cancels depends on timing, so it must not count).
  expect(json.events.filter((e: any) => e.source === 'network.canceled').map(pick)).toEqual([{ realm: 'page', method: 'GET', path: '/slow', status: undefined, errorText: 'net::ERR_ABORTED', resourceType: 'fetch' }]);
  expect(md).toMatch(/^`{3,}Text network\.canceled\nGET http:\/\/127\.0\.0\.1:\d+\/slow\?ms=5000 canceled \(net::ERR_ABORTED\)$/m);
  expect(json.events.filter((e: any) => /Failed to load resource/.test(e.message))).toEqual([]);
  // The browser's own favicon fetch 404s too (the page has no <link rel=icon>): not reported.
  expect(JSON.stringify(json.events)).not.toContain('favicon');
  // Reported, not unexpected: the header's counts agree with the fences.
  expect(json.summary).toMatchObject({ errors: 7, unexpected: 0, network: 7 });
  expect(md).toContain('- Events: 7 errors (0 unexpected), 7 of them failed requests, ');
  expect(md.match(/^`{3,}Error /gm)).toHaveLength(7);
  expect(md.match(/^`{3,}Error network$/gm)).toHaveLength(7);
  const cart = networkEvents(json).find((e: any) => e.network.url.endsWith('/api/cart.json'));
  expect(cart.message).toBe(`GET ${cart.network.url} 404 (Not Found)`);
  const fetchLine = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'network', 'network.js'), 'utf8').split('\n').findIndex((l) => l.includes("fetch('/api/cart.json')")) + 1;
  expect(cart.network.initiator).toMatchObject({ type: 'script', url: expect.stringMatching(/\/network\/network\.js$/), line: fetchLine });
  expect(md).toContain(`GET ${cart.network.url} 404 (Not Found)\nresource: fetch\ninitiator: script ${cart.network.initiator.url}:${fetchLine}:`);
  const css = networkEvents(json).find((e: any) => e.network.url.endsWith('/missing.css'));
  expect(css.network.initiator).toMatchObject({ type: 'parser', url: expect.stringContaining('/network/index.html') });
});

test("daebugNetwork: 'off' reports no network events, and Chromium's own lines name their URL", async () => {
  const { json, md } = reported(run, 'off');
  expect(json.test.status, run.output).toBe('passed');
  expect(networkEvents(json)).toEqual([]);
  const lines = json.events.filter((e: any) => e.source === 'browser.network');
  expect(lines.map((e: any) => new URL(e.location.url).pathname)).toEqual(expect.arrayContaining(['/network/missing.js', '/api/cart.json', '/refused']));
  expect(JSON.stringify(json.events)).not.toContain('favicon');
  const cart = lines.find((e: any) => e.location.url.endsWith('/api/cart.json'));
  expect(md).toContain(`${cart.message}\nurl: ${cart.location.url}`);
});

test("daebugNetwork: 'strict' makes failed requests unexpected: a strict test fails on them, unless ignored by URL", async () => {
  const failed = reported(run, 'strict fails');
  expect(failed.json.test.status).toBe('failed');
  expect(run.output).toMatch(/\[network\] in page: GET http:\/\/127\.0\.0\.1:\d+\/network\/missing\.js 404 \(Not Found\)/);
  expect(networkEvents(failed.json).every((e: any) => e.unexpected === true)).toBe(true);
  expect(failed.md).toMatch(/\d+\. `network` in `page` at .*\n`{3,}Error network\nGET /);
  // Each names what to check; the exact pattern to allow it, the URL's path, is in the JSON only.
  const pattern = (suffix: string) => networkEvents(failed.json).find((e: any) => e.network.url.endsWith(suffix))?.ignorePattern;
  expect(pattern('/network/missing.js')).toBe('/network/missing.js');
  expect(pattern('/network/missing.css')).toBe('/network/missing.css');
  expect(run.output).not.toContain('add to daebugIgnore:');
  expect(failed.md).not.toContain('add to daebugIgnore:');

  const ignored = reported(run, 'strict with ignore');
  expect(ignored.json.test.status, run.output).toBe('passed');
  const events = networkEvents(ignored.json);
  expect(events).toHaveLength(2);
  expect(events.every((e: any) => e.expected === true && !e.unexpected)).toBe(true);
});

test("other browsers' path (Playwright's response and requestfailed events): the same failures, one event each", async ({ page }) => {
  // The fallback for Firefox and WebKit, attached to a real Chromium page: the events are Playwright's own.
  const cors = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => cors.listen(0, '127.0.0.1', resolve));
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const recorder = new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {}, network: 'report' }));
  const detach = attachGenericPage(page, 'page', { recorder, network: true, workerRealm: () => 'worker' });
  try {
    await page.goto(`/network/index.html?refused=${closedPort}&cors=${encodeURIComponent(`http://127.0.0.1:${(cors.address() as AddressInfo).port}`)}`);
    expect(await page.evaluate(() => (window as any).failures())).toEqual([404, 500, 'Failed to fetch', 'Failed to fetch', 'no worker', 'AbortError']);
    await expect.poll(() => recorder.events().filter((e) => e.source === 'network').length).toBe(6);
    await expect.poll(() => recorder.events().filter((e) => e.source === 'network.canceled').length).toBe(1);
  } finally {
    await detach();
    cors.close();
  }
  const events = recorder.events();
  expect(events.filter((e) => e.source === 'network').map(pick)).toEqual(
    expect.arrayContaining([
      { realm: 'page', method: 'GET', path: '/network/missing.css', status: 404, errorText: undefined, resourceType: 'stylesheet' },
      { realm: 'page', method: 'GET', path: '/network/missing.js', status: 404, errorText: undefined, resourceType: 'script' },
      { realm: 'page', method: 'GET', path: '/api/cart.json', status: 404, errorText: undefined, resourceType: 'fetch' },
      { realm: 'page', method: 'POST', path: '/status', status: 500, errorText: undefined, resourceType: 'xhr' },
      { realm: 'page', method: 'GET', path: '/refused', status: undefined, errorText: 'net::ERR_CONNECTION_REFUSED', resourceType: 'fetch' },
      { realm: 'page', method: 'GET', path: '/cors', status: undefined, errorText: expect.stringMatching(/^net::ERR_FAILED/), resourceType: 'fetch' },
    ]),
  );
  expect(events.filter((e) => e.source === 'network.canceled').map(pick)).toEqual([{ realm: 'page', method: 'GET', path: '/slow', status: undefined, errorText: 'net::ERR_ABORTED', resourceType: 'fetch' }]);
  expect(events.filter((e) => /Failed to load resource/.test(e.message))).toEqual([]);
  expect(JSON.stringify(events)).not.toContain('favicon');
});

test('a JSON parse error of a 404 body: the hint names the failed response, not HTML', async () => {
  const { json } = reported(run, 'json of a 404');
  const error = json.events.find((e: any) => e.source === 'unhandledrejection');
  expect(error.message).toMatch(/"not found" is not valid JSON/);
  expect(error.hint).toContain(`GET ${json.events.find((e: any) => e.source === 'network').network.url} returned 404`);
  expect(error.hint).not.toMatch(/HTML/);
});
