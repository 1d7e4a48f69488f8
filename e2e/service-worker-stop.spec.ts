import { test, expect } from '@playwright/test';
import { reported, describeInSessionModes } from './helpers/hostile';

// Issue 37, 5.6: "a `page.crash` of a service worker recorded 2 s before the test's first navigation". Chromium ends
// a service worker's thread the same way whether it stopped it or the worker crashed: `Inspector.targetCrashed` on the
// worker's own session, and nothing on the browser's (seen on Chromium 150: for a context closed while its worker
// ran, for `ServiceWorker.stopAllWorkers`, which stops a worker as idling does, and for its process killed). daebug
// took each for a crash, and a stopped worker never answered its round trips again: a settle after the stop left
// the test hanging in its context's teardown. Only the ServiceWorker domain tells a crash (running, then stopped)
// from a stop (running, stopping, stopped). fixtures/targets/sw.js is the worker; each test below runs on both ways
// daebug reads a target (Playwright's own sessions and daebug's own).
const spec = `
import { test, expect } from 'daebug';
import type { Browser, BrowserContext, Page } from '@playwright/test';

async function withServiceWorker(browser: Browser, baseURL: string | undefined): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/targets/sw.html');
  expect(await page.evaluate(() => (window as any).swDone)).toBe('sw after throw');
  return { context, page };
}

test('closes a context of its own while its service worker runs', async ({ page, browser, baseURL, daebug }) => {
  await page.goto('/index.html');
  const { context } = await withServiceWorker(browser, baseURL);
  await context.close();
  await page.evaluate(() => console.log('after the close'));
  await expect.poll(() => daebug.events().some((e) => e.message === 'after the close')).toBe(true);
  await daebug.settle();
});

test('the next test', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.settle();
});

test('its service worker is stopped, as Chromium stops an idle one, then starts again', async ({ page, daebug }) => {
  await page.goto('/targets/sw.html');
  expect(await page.evaluate(() => (window as any).swDone)).toBe('sw after throw');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  const stopped = new Promise<void>((resolve) => cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => versions.some((v) => v.runningStatus === 'stopped') && resolve()));
  await cdp.send('ServiceWorker.stopAllWorkers');
  await stopped;
  // A stopped worker answers no round trip: the barrier must not wait for it.
  await daebug.settle();
  // A message starts it again; what it logs then is captured.
  const reply = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const answer = new Promise((resolve) => navigator.serviceWorker.addEventListener('message', (e) => e.data === 'sw after throw' && resolve(e.data)));
    registration.active!.postMessage('boom');
    return answer;
  });
  expect(reply).toBe('sw after throw');
  await expect.poll(() => daebug.events().filter((e) => e.message === 'sw got boom').length).toBe(2);
  await daebug.settle();
});

test('the process of a service worker it owns is killed', async ({ page, browser, baseURL, daebug }) => {
  await page.goto('/index.html');
  const cdp = await browser.newBrowserCDPSession();
  const renderers = async () => {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo' as never)) as { processInfo: Array<{ type: string; id: number }> };
    return processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  };
  const before = new Set(await renderers());
  const { context } = await withServiceWorker(browser, baseURL);
  // The processes its context's page and worker run in: the ones that came with it.
  const theirs = (await renderers()).filter((pid) => !before.has(pid));
  expect(theirs.length).toBeGreaterThan(0);
  for (const pid of theirs) process.kill(pid, 'SIGKILL');
  await expect.poll(() => daebug.events().some((e) => e.source === 'page.crash' && e.realm.includes('service-worker:'))).toBe(true);
  await daebug.settle();
  await context.close();
});
`;

interface Brief {
  realm: string;
  source: string;
  message: string;
}

test.describe.configure({ mode: 'default' });

// One worker: the tests run one after the other in one browser, as a suite's do.
describeInSessionModes('service-worker-stop', { 'sw.spec.ts': spec }, { timeoutMs: 170_000, setupTimeoutMs: 180_000 }, (_sessions, run) => {
    const events = (title: string): Brief[] => (reported(run, title).json.events as Brief[]).map(({ realm, source, message }) => ({ realm, source, message }));
    const crashes = (title: string) => events(title).filter((e) => e.source === 'page.crash');

    test('every test ran to its end and passed', () => {
      expect(run.signal, 'the inline run ended by itself').toBeNull();
      expect([...run.byTitle.keys()], run.output.slice(-4000)).toHaveLength(4);
      for (const [title, r] of run.byTitle) expect.soft(r.json.test.status, `${title}\n${run.output.slice(-4000)}`).toBe('passed');
    });

    test("a service worker stopped by its context's close is no crash, in that test or the next", () => {
      const closed = events('closes a context of its own while its service worker runs');
      // The worker ran and was captured: what follows is about how it ended.
      expect(closed.filter((e) => e.realm === 'context-2:service-worker:sw.js' && e.source === 'console.log').map((e) => e.message)).toContain('sw got boom');
      expect(crashes('closes a context of its own while its service worker runs')).toEqual([]);
      expect(crashes('the next test')).toEqual([]);
      expect(events('the next test').filter((e) => e.realm !== 'page')).toEqual([]);
    });

    test('a service worker Chromium stopped is no crash, the test does not hang on it, and it is captured again once it starts', () => {
      const title = 'its service worker is stopped, as Chromium stops an idle one, then starts again';
      expect(reported(run, title).json.test.status, run.output.slice(-3000)).toBe('passed');
      expect(crashes(title)).toEqual([]);
      const worker = events(title).filter((e) => e.realm === 'service-worker:sw.js');
      // Twice each: before the stop, and after the message started it again.
      expect(worker.filter((e) => e.source === 'console.log' && e.message === 'sw got boom')).toHaveLength(2);
      expect(worker.filter((e) => e.source === 'self.onerror' && e.message === 'Error: sw uncaught')).toHaveLength(2);
    });

    test("a service worker whose process died is still a crash, in its own realm", () => {
      const found = crashes('the process of a service worker it owns is killed');
      expect(found.filter((e) => e.realm === 'context-2:service-worker:sw.js'), JSON.stringify(found)).toEqual([
        { realm: 'context-2:service-worker:sw.js', source: 'page.crash', message: 'The service worker crashed: its process ended while it ran.' },
      ]);
    });
});
