import { test, expect } from '@playwright/test';
import { reported, observedIn, describeInSessionModes, type HostileRun } from './helpers/hostile';

// Issue 36: where daebug reads Playwright's own sessions (the tap), it opens no CDP session of its own while every
// target of the tests is one Playwright holds (pages, frames, dedicated and service workers): that session cost each
// worker a Playwright API call and a round trip and each test about ten discovery events. A shared worker, which
// Playwright lets go of, opens it, and is captured on it. Without the tap (DAEBUG_OWN_SESSIONS), the session is how
// daebug reads everything, so it is open from the first test: the control that the count below counts.
//
// A page, nested dedicated workers and a service worker, then a shared worker, then a service worker again.
// One worker runs the tests in order; a worker fixture counts `browser.newBrowserCDPSession()` calls (daebug's only
// way to open that session) and each test records the count at its end.
const spec = `
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect } from 'daebug';

let opened = 0;
const test = base.extend<{}, { counted: void }>({
  counted: [async ({ browser }, use) => {
    const open = browser.newBrowserCDPSession.bind(browser);
    browser.newBrowserCDPSession = () => { opened++; return open(); };
    await use();
  }, { scope: 'worker', auto: true }],
});

function observe(name: string, value: unknown): void {
  const dir = path.join(__dirname, 'observed');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, name + '.json'), JSON.stringify(value));
}

test('a page, nested dedicated workers and a service worker', async ({ page, daebug }) => {
  await page.goto('/targets/nested.html');
  expect(await page.evaluate(() => (window as any).innerDone)).toEqual(['inner started', 'inner error seen']);
  await page.goto('/targets/sw.html');
  expect(await page.evaluate(() => (window as any).swDone)).toBe('sw after throw');
  await daebug.settle();
  observe('service-worker', { opened });
});

test('a shared worker', async ({ page, daebug }) => {
  await page.goto('/targets/shared.html');
  expect(await page.evaluate(() => (window as any).sharedDone)).toBe('shared after throw');
  await daebug.settle();
  observe('shared-worker', { opened });
});

test('a service worker again, after the shared worker', async ({ page, daebug }) => {
  await page.goto('/targets/sw.html');
  expect(await page.evaluate(() => (window as any).swDone)).toBe('sw after throw');
  await daebug.settle();
  observe('service-worker-again', { opened });
});
`;

const messagesIn = (run: HostileRun, title: string, realm: string): string[] =>
  (reported(run, title).json.events as Array<{ realm: string; message: string }>).filter((e) => e.realm === realm).map((e) => e.message);

test.describe.configure({ mode: 'default' });

describeInSessionModes(
  'capture-own-session',
  { 'own-session.spec.ts': spec },
  { configExtra: "workers: 1, fullyParallel: false, outputDir: './test-results',", timeoutMs: 110_000, setupTimeoutMs: 120_000 },
  (sessions, run) => {
    test('every test passed, each target captured', () => {
      expect(run.signal, 'the inline run ended by itself').toBeNull();
      for (const [title, r] of run.byTitle) expect.soft(r.json.test.status, `${title}\n${run.output.slice(-3000)}`).toBe('passed');
      expect([...run.byTitle.keys()]).toHaveLength(3);
      expect.soft(messagesIn(run, 'a page, nested dedicated workers and a service worker', 'worker:inner.js')).toEqual(expect.arrayContaining([expect.stringContaining('inner hello')]));
      for (const title of ['a page, nested dedicated workers and a service worker', 'a service worker again, after the shared worker']) {
        expect.soft(messagesIn(run, title, 'service-worker:sw.js'), title).toEqual(expect.arrayContaining([expect.stringContaining('sw uncaught')]));
      }
      const shared = messagesIn(run, 'a shared worker', 'shared-worker:shared.js');
      expect(shared, 'the shared worker is captured on daebug\'s own session').toEqual(expect.arrayContaining(['shared got boom', expect.stringContaining('shared uncaught'), expect.stringContaining('shared rejection')]));
    });

    test(sessions === 'playwright' ? "daebug's own session is opened by the shared worker, not before, and once" : "daebug's own session is open from the first test, once", () => {
      const counts = ['service-worker', 'shared-worker', 'service-worker-again'].map((name) => observedIn(run, name).opened as number);
      expect(counts).toEqual(sessions === 'playwright' ? [0, 1, 1] : [1, 1, 1]);
    });
  },
);
