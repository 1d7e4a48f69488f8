import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { reportSchema } from '../src/model/schema';
import { attachGenericPage } from '../src/capture/generic';
import { Recorder } from '../src/capture/recorder';
import { resolveOptions } from '../src/options';
import { cancelThree } from './helpers/cancel-requests';
import { closedPort } from './helpers/closed-port';
import { reported, sharedRun, type HostileRun } from './helpers/hostile';

// Canceled is not failed (issue 24 item 3). Routers, preloading and AbortController cancel requests on purpose, and
// whether they do depends on timing: a cancel must not come and go as a "new" error group between runs. One inline
// run drives fixtures/network/canceled.html: a fetch the page aborts, a fetch of an iframe the page removes, a fetch
// its document leaves behind when the page navigates away; then real failures (a 404 script, a refused connection),
// which still count. The tests below read the reports, the index and the baseline the CLI writes.
const spec = `
import { test, expect } from 'daebug';
import { cancelThree } from './cancel-requests';
import { closedPort } from './closed-port';

/** The three cancels (cancel-requests.ts), then until daebug heard them all. */
async function cancelThreeHeard(page: any, daebug: any) {
  await cancelThree(page);
  await expect.poll(async () => {
    await daebug.settle();
    return daebug.events().filter((e: any) => e.source === 'network.canceled' && /\\/slow\\?/.test(e.message)).length;
  }).toBe(3);
  expect(daebug.errors()).toEqual([]);
}

test('canceled by the page', async ({ page, daebug }) => {
  await cancelThreeHeard(page, daebug);
});

test.describe('strict', () => {
  test.use({ daebugNetwork: 'strict', daebugStrict: true });

  test('canceled under strict network mode', async ({ page, daebug }) => {
    await cancelThreeHeard(page, daebug);
  });

  test('real failures under strict network mode', async ({ page, daebug }) => {
    await page.goto('/network/index.html');
    expect(await page.evaluate((port) => fetch('http://127.0.0.1:' + port + '/refused').then(() => 'answered', (e) => e.message), await closedPort())).toBe('Failed to fetch');
    await expect.poll(async () => {
      await daebug.settle();
      return daebug.events().filter((e: any) => e.source === 'network').map((e: any) => new URL(e.network.url).pathname).sort();
    }).toEqual(['/network/missing.css', '/network/missing.js', '/refused']);
  });
});
`;

const daebugCli = path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js');

const helper = (name: string) => fs.readFileSync(path.join(__dirname, 'helpers', name), 'utf8');
const files = () => ({ 'canceled.spec.ts': spec, 'cancel-requests.ts': helper('cancel-requests.ts'), 'closed-port.ts': helper('closed-port.ts') });
let run: HostileRun;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  run = await sharedRun('network-canceled', files(), { timeoutMs: 170_000 });
});

const canceledOf = (json: any) => json.events.filter((e: any) => e.source === 'network.canceled');
const fromOf = (e: any) => new URL(e.network.url).searchParams.get('from');

test('an aborted fetch, a removed frame and a navigation are canceled lines in the transcript, not failed requests', async () => {
  const { json, md } = reported(run, 'canceled by the page');
  expect(json.test.status, run.output).toBe('passed');
  reportSchema.parse(json);
  const canceled = canceledOf(json).filter((e: any) => e.network.url.includes('/slow?'));
  expect(canceled.map(fromOf).sort()).toEqual(['abort', 'frame', 'navigation']);
  for (const event of canceled) {
    expect(event).toMatchObject({ type: 'console', level: 'info', network: { method: 'GET', resourceType: 'fetch', canceled: true } });
    expect(event.unexpected).toBeUndefined();
    expect(event.fingerprint).toBeUndefined();
  }
  const byFrom = new Map<string, any>(canceled.map((e: any) => [fromOf(e), e]));
  expect(byFrom.get('abort').network.errorText).toBe('net::ERR_ABORTED');
  expect(byFrom.get('frame').network.errorText).toBe('net::ERR_ABORTED');
  // Chromium sends nothing for a request its document left behind: daebug saw the new document replace it.
  expect(byFrom.get('navigation').message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/slow\?ms=30000&from=navigation canceled \(its document was replaced\)$/);

  expect(json.events.filter((e: any) => e.source === 'network'), JSON.stringify(json.events, null, 2)).toEqual([]);
  expect(json.summary).toMatchObject({ errors: 0, unexpected: 0 });
  expect(json.summary.network).toBeUndefined();
  const abort = byFrom.get('abort');
  expect(md).toContain(`\`\`\`Text network.canceled\nGET ${abort.network.url} canceled (net::ERR_ABORTED)\nresource: fetch\ninitiator: script `);
  expect(md).not.toMatch(/^`{3,}Error network/m);
});

test("daebug's own sessions (not Playwright's, tapped) see the same three cancels", async () => {
  test.setTimeout(120_000);
  const own = await sharedRun('network-canceled-own', files(), { env: { DAEBUG_OWN_SESSIONS: '1' }, args: ['--grep', 'canceled by the page'], timeoutMs: 110_000 });
  const { json } = reported(own, 'canceled by the page');
  expect(json.test.status, own.output).toBe('passed');
  expect(canceledOf(json).filter((e: any) => e.network.url.includes('/slow?')).map(fromOf).sort()).toEqual(['abort', 'frame', 'navigation']);
  expect(json.events.filter((e: any) => e.source === 'network')).toEqual([]);
});

test("under daebugNetwork: 'strict' a cancel is still no unexpected error: the strict test passes", async () => {
  const { json } = reported(run, 'canceled under strict network mode');
  expect(json.test.status, run.output).toBe('passed');
  expect(canceledOf(json).filter((e: any) => e.network.url.includes('/slow?')).map(fromOf).sort()).toEqual(['abort', 'frame', 'navigation']);
  expect(json.events.filter((e: any) => e.unexpected)).toEqual([]);
});

test('a 404 script and a refused connection still fail a strict test', async () => {
  const { json } = reported(run, 'real failures under strict network mode');
  expect(json.test.status).toBe('failed');
  const failures = json.events.filter((e: any) => e.source === 'network');
  expect(failures.map((e: any) => [new URL(e.network.url).pathname, e.network.status ?? e.network.errorText, e.unexpected]).sort()).toEqual([
    ['/network/missing.css', 404, true],
    ['/network/missing.js', 404, true],
    ['/refused', 'net::ERR_CONNECTION_REFUSED', true],
  ]);
  // The net::ERR_ABORTED Chromium sends after the script's 404 is neither a second failure nor a cancel.
  expect(canceledOf(json)).toEqual([]);
});

test('cancels make no group in the index and no entry in the baseline; the real failures do', async () => {
  const groups = run.index.groups as any[];
  expect(groups.filter((g) => /\/slow\?|canceled/.test(g.message) || g.source !== 'network'), JSON.stringify(groups, null, 2)).toEqual([]);
  expect(groups.map((g) => g.message.replace(/127\.0\.0\.1:\d+/, 'host')).sort()).toEqual([
    'GET http://host/network/missing.css 404 (Not Found)',
    'GET http://host/network/missing.js 404 (Not Found)',
    'GET http://host/refused failed: net::ERR_CONNECTION_REFUSED',
  ]);
  expect(fs.readFileSync(path.join(run.reportsDir, 'index.md'), 'utf8')).not.toContain('/slow?');

  const written = execFileSync(process.execPath, [daebugCli, 'baseline', '--out', 'canceled-baseline.json'], { cwd: run.dir, encoding: 'utf8' });
  expect(written).toMatch(/Wrote 3 error groups/);
  const baseline = JSON.parse(fs.readFileSync(path.join(run.dir, 'canceled-baseline.json'), 'utf8'));
  expect(baseline.groups.map((g: any) => g.source)).toEqual(['network', 'network', 'network']);
  expect(JSON.stringify(baseline)).not.toContain('/slow');
});

test("other browsers' path (Playwright's requestfailed): the same cancels are lines, a refused connection a failure", async ({ page }) => {
  const port = await closedPort();
  const recorder = new Recorder(resolveOptions({ strict: true, capture: true, ignore: [], limits: {}, network: 'strict' }));
  const detach = attachGenericPage(page, 'page', { recorder, network: true, workerRealm: () => 'worker' });
  const canceled = () => recorder.events().filter((e) => e.source === 'network.canceled' && e.network?.url.includes('/slow?'));
  try {
    await cancelThree(page);
    expect(await page.evaluate((port) => fetch(`http://127.0.0.1:${port}/refused`).then(() => 'answered', (e) => e.message), port)).toBe('Failed to fetch');
    await expect.poll(() => canceled().length).toBe(3);
    await expect.poll(() => recorder.events().filter((e) => e.source === 'network').length).toBe(1);
  } finally {
    await detach();
  }
  expect(canceled().map((e) => [new URL(e.network!.url).searchParams.get('from'), e.network!.errorText, e.unexpected]).sort()).toEqual([
    ['abort', 'net::ERR_ABORTED', undefined],
    ['frame', 'net::ERR_ABORTED', undefined],
    ['navigation', 'net::ERR_ABORTED', undefined],
  ]);
  const [refused] = recorder.events().filter((e) => e.source === 'network');
  expect(refused).toMatchObject({ unexpected: true, network: { errorText: 'net::ERR_CONNECTION_REFUSED' } });
});
