import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { reported, observedIn, describeInSessionModes } from './helpers/hostile';

// Capture contract (issue 8), targets: every page, popup, worker (nested, shared, service), context and pool a
// test creates is captured under a realm of its own, and causal order holds. One inline run holds every scenario
// (pages and scripts in fixtures/targets/); each inline test only drives the browser, waits on something the page
// reports, calls `daebug.settle()`, and writes what `daebug.events()` returned to observed/<name>.json. The tests
// below assert on those observations and on the JSON reports.
const ORDER_RUNS = 10;
// The popup closes in its first task: a race with attaching, so it runs several times.
const POPUP_RUNS = 5;

const spec = `
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from 'daebug';

/** What the test itself saw through the daebug fixture, for the outer spec to assert on. */
function observe(name: string, value: unknown): void {
  const dir = path.join(__dirname, 'observed');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, name + '.json'), JSON.stringify(value, null, 2));
}
const brief = (events: any[]) => events.map((e) => ({ realm: e.realm, type: e.type, source: e.source, message: e.message }));

for (let i = 0; i < ${POPUP_RUNS}; i++) {
  test('popup that logs, errors and closes ' + i, async ({ page, daebug }) => {
    await page.goto('/index.html');
    await page.evaluate(() => {
      (window as any).ready = new Promise((resolve) => window.addEventListener('message', (e) => e.data === 'popup ready' && resolve(true)));
      (window as any).popup = window.open('/targets/popup-close.html');
    });
    expect(await page.evaluate(() => (window as any).ready)).toBe(true);
    await daebug.settle();
    await page.evaluate(() => (window as any).popup.postMessage('close', '*'));
    await expect.poll(() => page.evaluate(() => (window as any).popup.closed)).toBe(true);
    await daebug.settle();
    observe('popup-' + i, brief(daebug.events()));
  });
}

test('nested dedicated worker', async ({ page, daebug }) => {
  await page.goto('/targets/nested.html');
  // Resolves once outer.js saw inner.js's uncaught error (inner.js logged before it threw).
  expect(await page.evaluate(() => (window as any).innerDone)).toEqual(['inner started', 'inner error seen']);
  await daebug.settle();
  observe('nested', brief(daebug.events()));
});

test('service worker logs and throws', async ({ page, daebug }) => {
  await page.goto('/targets/sw.html');
  // Resolves with the reply sw.js sends in a timer after it threw from its message handler.
  expect(await page.evaluate(() => (window as any).swDone)).toBe('sw after throw');
  await daebug.settle();
  observe('service-worker', brief(daebug.events()));
});

test('shared worker logs and throws', async ({ page, daebug }) => {
  await page.goto('/targets/shared.html');
  expect(await page.evaluate(() => (window as any).sharedDone)).toBe('shared after throw');
  await daebug.settle();
  observe('shared-worker', brief(daebug.events()));
});

test('context created by the test', async ({ page, browser, baseURL, daebug }) => {
  await page.goto('/index.html');
  const ctx = await browser.newContext({ baseURL });
  const p = await ctx.newPage();
  await p.goto('/targets/context.html');
  expect(await p.evaluate(() => (window as any).workerDone)).toBe('x error seen');
  await daebug.settle();
  observe('context-2', brief(daebug.events()));
  await ctx.close();
});

test('page created with browser.newPage', async ({ page, browser, baseURL, daebug }) => {
  await page.goto('/index.html');
  const p = await browser.newPage({ baseURL });
  await p.goto('/targets/context.html');
  expect(await p.evaluate(() => (window as any).workerDone)).toBe('x error seen');
  await daebug.settle();
  observe('browser-new-page', brief(daebug.events()));
  await p.close();
});

test('persistent context launched by the test', async ({ page, playwright, browserName, launchOptions, baseURL, daebug }) => {
  await page.goto('/index.html');
  // A browser of its own (chromium.launchPersistentContext, as extension tests do), with its one context.
  const ctx = await playwright[browserName].launchPersistentContext('', { ...launchOptions, baseURL });
  const p = ctx.pages()[0] ?? (await ctx.newPage());
  await p.goto('/targets/context.html');
  expect(await p.evaluate(() => (window as any).workerDone)).toBe('x error seen');
  await daebug.settle();
  observe('persistent-context', brief(daebug.events()));
  await ctx.close();
});

test('pool of two workers from one script', async ({ page, daebug }) => {
  await page.goto('/targets/pool.html');
  expect(await page.evaluate(() => (window as any).poolReady)).toEqual(['one', 'two']);
  await daebug.settle();
  const before = brief(daebug.events());
  // Terminate the worker named 'two' (the second one started); Playwright sees it close.
  await page.evaluate(() => (window as any).pool[1].worker.terminate());
  await expect.poll(() => page.workers().length).toBe(1);
  await daebug.settle();
  observe('pool', { before, after: brief(daebug.events()) });
});

test.describe(() => {
  test.use({ daebugLimits: { eventsPerSecond: 100000 } });
  test('values logged while the test settles', async ({ page, daebug }) => {
    test.setTimeout(90_000);
    await page.setContent('<p>ticks</p>');
    // A timer logs an object every few ms while the test settles again and again: after each settle's read, the
    // page has logged more, whose values are still to be read.
    await page.evaluate(() => {
      let i = 0;
      const timer = setInterval(() => {
        console.log('tick', { i, nested: { deep: [i] } });
        if (++i === 150) clearInterval(timer);
      }, 0);
    });
    await expect.poll(async () => {
      await daebug.settle();
      return daebug.events().filter((e) => e.message.startsWith('tick')).length;
      // Under a loaded machine 150 timer ticks and a settle's round trip each take far longer than expect's 5 s.
    }, { intervals: [0], timeout: 80_000 }).toBe(150);
  });
});

for (let i = 0; i < ${ORDER_RUNS}; i++) {
  test('causal order ' + i, async ({ page, daebug }) => {
    await page.goto('/index.html');
    // order.html starts order-worker.js at once; the worker logs in its first line.
    await page.goto('/targets/order.html');
    expect(await page.evaluate(() => (window as any).orderReady)).toBe('order worker ready');
    await daebug.settle();
    observe('order-' + i, brief(daebug.events()));
  });
}
`;

interface Brief {
  realm: string;
  type: string;
  source: string;
  message: string;
}

test.describe.configure({ mode: 'default' });

// Both ways daebug reads a target: Playwright's own sessions (PlaywrightTap, where the runner drives the browser in its
// process) and daebug's own sessions (everywhere else).
describeInSessionModes(
  'capture-targets',
  { 'targets.spec.ts': spec },
  { configExtra: "workers: 2, fullyParallel: true, outputDir: './test-results',", timeoutMs: 230_000, setupTimeoutMs: 240_000 },
  (_sessions, run) => {
    const observed = (name: string): any => observedIn(run, name);

    function reportEvents(title: string): Brief[] {
      return (reported(run, title).json.events as any[]).map((e) => ({ realm: e.realm, type: e.type, source: e.source, message: e.message }));
    }

    const show = (events: Brief[]) => events.map((e) => `${e.realm} ${e.source} ${JSON.stringify(e.message).slice(0, 120)}`).join('\n');
    const matching = (events: Brief[], realm: string, source: string, message: string | RegExp) =>
      events.filter((e) => e.realm === realm && e.source === source && (typeof message === 'string' ? e.message === message : message.test(e.message)));

    /** Asserts that `events` hold exactly one event of `source` in `realm` whose message is (or matches) `message`: not lost, not captured twice. */
    function expectEvent(events: Brief[], realm: string, source: string, message: string | RegExp, label: string): void {
      const found = matching(events, realm, source, message).length;
      expect.soft(found, `${label}: expected one ${source} ${message} in realm ${realm}, found ${found}; got:\n${show(events)}`).toBe(1);
    }

    test('every target scenario ran to its end', () => {
      expect(run.signal, 'the inline run ended by itself').toBeNull();
      const titles = [...run.byTitle.keys()];
      expect(titles, run.output.slice(-4000)).toHaveLength(8 + POPUP_RUNS + ORDER_RUNS);
      for (const [title, r] of run.byTitle) expect.soft(r.json.test.status, `${title}\n${run.output.slice(-4000)}`).toBe('passed');
    });

    test(`1. a popup that logs and errors in its first task, then closes, keeps its events under page-2 (${POPUP_RUNS} runs)`, () => {
      for (let i = 0; i < POPUP_RUNS; i++) {
        const title = `popup that logs, errors and closes ${i}`;
        const r = reported(run, title).json;
        expect.soft(r.realms, `run ${i}`).toEqual(expect.arrayContaining(['page', 'page-2']));
        for (const [label, events] of [[`run ${i} report`, reportEvents(title)], [`run ${i} daebug.events()`, observed(`popup-${i}`) as Brief[]]] as const) {
          expectEvent(events, 'page-2', 'console.log', 'popup hello', label);
          expectEvent(events, 'page-2', 'console.error', 'popup console error', label);
          expectEvent(events, 'page-2', 'window.onerror', 'Error: popup uncaught before close', label);
        }
      }
    });

    test('2. a worker started by a worker is captured as worker:inner.js', () => {
      const title = 'nested dedicated worker';
      const r = reported(run, title).json;
      expect.soft(r.realms).toEqual(expect.arrayContaining(['page', 'worker:outer.js', 'worker:inner.js']));
      for (const [label, events] of [['report', reportEvents(title)], ['daebug.events()', observed('nested') as Brief[]]] as const) {
        expectEvent(events, 'worker:outer.js', 'console.log', 'outer hello', label);
        expectEvent(events, 'worker:inner.js', 'worker.start', /\/targets\/inner\.js$/, label);
        expectEvent(events, 'worker:inner.js', 'console.log', /^inner hello .*depth/, label);
        expectEvent(events, 'worker:inner.js', 'self.onerror', 'Error: inner uncaught', label);
        // The error propagates to outer.js's Worker.onerror: still one event, in the realm that threw it, and none says "null".
        const errors = events.filter((e) => e.type === 'error');
        expect(errors.map((e) => `${e.realm} ${e.message}`), label).toEqual(['worker:inner.js Error: inner uncaught']);
        expect(events.filter((e) => e.message === 'null'), label).toEqual([]);
      }
    });

    test('3a. a service worker is captured as service-worker:sw.js: console, uncaught error and rejection', () => {
      const title = 'service worker logs and throws';
      const r = reported(run, title).json;
      expect.soft(r.realms).toEqual(expect.arrayContaining(['page', 'service-worker:sw.js']));
      for (const [label, events] of [['report', reportEvents(title)], ['daebug.events()', observed('service-worker') as Brief[]]] as const) {
        expectEvent(events, 'service-worker:sw.js', 'console.log', 'sw got boom', label);
        expectEvent(events, 'service-worker:sw.js', 'self.onerror', 'Error: sw uncaught', label);
        expectEvent(events, 'service-worker:sw.js', 'unhandledrejection', 'Error: sw rejection', label);
      }
    });

    test("3b. a service worker's console.log while its script first runs (install) is kept", () => {
      const events = reportEvents('service worker logs and throws');
      expectEvent(events, 'service-worker:sw.js', 'console.log', /^sw hello .*script/, 'report');
      expectEvent(observed('service-worker'), 'service-worker:sw.js', 'console.log', /^sw hello .*script/, 'daebug.events()');
    });

    test('3c. a shared worker is captured as shared-worker:shared.js: console, uncaught error and rejection', () => {
      const title = 'shared worker logs and throws';
      const r = reported(run, title).json;
      expect.soft(r.realms).toEqual(expect.arrayContaining(['page', 'shared-worker:shared.js']));
      for (const [label, events] of [['report', reportEvents(title)], ['daebug.events()', observed('shared-worker') as Brief[]]] as const) {
        expectEvent(events, 'shared-worker:shared.js', 'console.log', /^shared hello .*script/, label);
        expectEvent(events, 'shared-worker:shared.js', 'console.log', 'shared got boom', label);
        expectEvent(events, 'shared-worker:shared.js', 'self.onerror', 'Error: shared uncaught', label);
        expectEvent(events, 'shared-worker:shared.js', 'unhandledrejection', 'Error: shared rejection', label);
      }
    });

    for (const [title, name] of [
      ['context created by the test', 'context-2'],
      ['page created with browser.newPage', 'browser-new-page'],
      ['persistent context launched by the test', 'persistent-context'],
    ] as const) {
      test(`4. ${title}: its page and worker are captured as context-2:page and context-2:worker:x.js`, () => {
        const r = reported(run, title).json;
        expect.soft(r.realms).toEqual(expect.arrayContaining(['page', 'context-2:page', 'context-2:worker:x.js']));
        for (const [label, events] of [['report', reportEvents(title)], ['daebug.events()', observed(name) as Brief[]]] as const) {
          // The test's own page stays `page`, unprefixed.
          expectEvent(events, 'page', 'navigation', /\/index\.html$/, label);
          expectEvent(events, 'context-2:page', 'navigation', /\/targets\/context\.html$/, label);
          expectEvent(events, 'context-2:page', 'console.log', /^context page hello .*context/, label);
          expectEvent(events, 'context-2:page', 'window.onerror', 'Error: context page uncaught', label);
          expectEvent(events, 'context-2:worker:x.js', 'console.log', 'x worker hello', label);
          expectEvent(events, 'context-2:worker:x.js', 'self.onerror', 'Error: x worker uncaught', label);
          // Nothing of the second context leaks into the first context's realms.
          expect.soft(events.filter((e) => /context page|x worker/.test(e.message) && !e.realm.startsWith('context-2:')), `${label}:\n${show(events)}`).toEqual([]);
        }
      });
    }

    test("4b. the persistent context's browser, closed by the test itself, is not reported as a crash", () => {
      const events = reportEvents('persistent context launched by the test');
      expect(events.filter((e) => e.source === 'browser.disconnected'), show(events)).toEqual([]);
    });

    test('5. two workers from one script URL get worker:w.js and worker:w.js#2; terminating one closes only that realm', () => {
      const { before, after } = observed('pool') as { before: Brief[]; after: Brief[] };
      const realmOf = (events: Brief[], message: string) => events.find((e) => e.source === 'console.log' && e.message === message)?.realm;
      const one = realmOf(after, 'w started one');
      const two = realmOf(after, 'w started two');
      expect([one, two].sort(), `each worker has a realm of its own:\n${show(after)}`).toEqual(['worker:w.js', 'worker:w.js#2']);
      // Both started, neither closed, before the terminate.
      expect(before.filter((e) => e.source === 'worker.close'), show(before)).toEqual([]);
      expect(before.filter((e) => e.source === 'worker.start').map((e) => e.realm).sort(), show(before)).toEqual(['worker:w.js', 'worker:w.js#2']);
      // The terminated worker (named 'two') closed; the other did not.
      expect(after.filter((e) => e.source === 'worker.close').map((e) => e.realm), show(after)).toEqual([two]);

      const title = 'pool of two workers from one script';
      const r = reported(run, title).json;
      const events = reportEvents(title);
      expect(r.realms).toEqual(expect.arrayContaining(['page', 'worker:w.js', 'worker:w.js#2']));
      expect(realmOf(events, 'w started one'), show(events)).toBe(one);
      expect(realmOf(events, 'w started two'), show(events)).toBe(two);
      // The report also holds what the end of the test closed: the terminated worker's close comes first, and once.
      const closes = events.filter((e) => e.source === 'worker.close');
      expect(closes.filter((e) => e.realm === two), show(events)).toHaveLength(1);
      expect(closes[0]?.realm, show(events)).toBe(two);
      expect(closes.every((e) => e.realm === one || e.realm === two), show(events)).toBe(true);
    });

    /** Positions of the document's navigation, the worker's start and the worker's first console event. */
    function causalPositions(events: Brief[]): { navigation: number; start: number; firstConsole: number } {
      return {
        navigation: events.findIndex((e) => e.realm === 'page' && e.source === 'navigation' && e.message.endsWith('/targets/order.html')),
        start: events.findIndex((e) => e.realm === 'worker:order-worker.js' && e.source === 'worker.start'),
        firstConsole: events.findIndex((e) => e.realm === 'worker:order-worker.js' && e.source.startsWith('console.')),
      };
    }

    test('9. values logged while the test settles are all read: a read lets go of its own objects only, not of those logged since', () => {
      const ticks = (reported(run, 'values logged while the test settles').json.events as any[]).filter((e) => e.source === 'console.log');
      expect(ticks).toHaveLength(150);
      expect(ticks.filter((e) => e.preview).map((e) => e.message)).toEqual([]);
      expect(ticks.map((e) => e.message)).toEqual(Array.from({ length: 150 }, (_, i) => `tick {"i":${i},"nested":{"deep":[${i}]}}`));
    });

    test(`8. causal order, ${ORDER_RUNS} runs: navigation, then worker.start, then the worker's first console event`, () => {
      const problems: string[] = [];
      for (let i = 0; i < ORDER_RUNS; i++) {
        for (const [label, events] of [['report', reportEvents(`causal order ${i}`)], ['daebug.events()', observed(`order-${i}`) as Brief[]]] as const) {
          const at = causalPositions(events);
          const ok = at.navigation >= 0 && at.start > at.navigation && at.firstConsole > at.start;
          if (!ok) problems.push(`run ${i} (${label}): ${JSON.stringify(at)}\n${show(events)}`);
          const first = events[at.firstConsole];
          if (ok && (first?.source !== 'console.log' || first.message !== 'order worker first')) problems.push(`run ${i} (${label}): first worker console event is ${JSON.stringify(first)}`);
        }
      }
      expect(problems, problems.join('\n\n')).toEqual([]);
    });
  },
);
