import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { childMain, descendantCpuMs, fmt, launchOptions, loadAverage, log, median, port, quick, repoRoot, type Row } from './lib';
import { buildRealmsApp } from './multi-realm';

/**
 * Issue 36's profile of one realm's cost: what daebug does per target, each step alone, on the multi-realm app
 * (fixtures/bench/realms/: a page, its frame, a service worker and two dedicated workers, no console output). The
 * capture is daebug's own (dist/capture/cdp/browser-connection.js) routed to a listener that keeps nothing, so what is
 * measured is the per-target machinery, not the recorder. CPU of this process and of every browser process (from
 * /proc), per load or per call, medians of alternating rounds.
 *
 * - a load of the app without daebug, and with daebug's connection listening (the tap: Playwright's own sessions,
 *   Audits on the page, every message dispatched), and with daebug's own sessions (DAEBUG_OWN_SESSIONS: attach,
 *   hold, enable Runtime, Network, Page, Log, Audits and auto-attach per target);
 * - per target and call: the end-of-test round trip, the timer turn a barrier adds after a click, and the async
 *   stack depth command each test sends.
 * `npx tsx bench/realm-steps.ts --child` (the fixtures server on BENCH_PORT), or `BENCH_ONLY=steps npm run bench`.
 */
const ROUNDS = quick ? 2 : Number(process.env['BENCH_ROUNDS'] ?? 7);
const LOADS = quick ? 3 : 10;
const CALLS = quick ? 20 : 100;
const dist = (file: string) => path.join(repoRoot, 'dist', file);

/** CPU ms of this process and of all its descendants (browsers, their renderers and utilities). */
function cpuMs(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + descendantCpuMs();
}

const APP = `http://127.0.0.1:${port}/bench/realms/index.html`;

/** One load of the app as a test makes it: a fresh context, the page, its service worker ready, both workers used. */
async function load(browser: Browser): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(APP);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.locator('#demo').click();
  await page.locator('#gzip').filter({ hasText: /\d+ bytes/ }).waitFor();
  return { page, close: () => context.close() };
}

interface Listener {
  onEvent(): void;
  onAttached(): void;
  onDetached(): void;
  wantsNetwork(): boolean;
}

const quiet: Listener = { onEvent: () => undefined, onAttached: () => undefined, onDetached: () => undefined, wantsNetwork: () => true };

async function connect(browser: Browser) {
  const { BrowserConnection } = require(dist('capture/cdp/browser-connection.js')) as typeof import('../src/capture/cdp/browser-connection');
  const connection = await BrowserConnection.for(browser);
  connection.route(quiet as never);
  return connection;
}

async function realmSteps(): Promise<Row[]> {
  await buildRealmsApp();
  const launch = { ...launchOptions(), headless: true };
  const plain = await chromium.launch(launch);
  const tapped = await chromium.launch(launch);
  process.env['DAEBUG_OWN_SESSIONS'] = '1';
  const own = await chromium.launch(launch);
  const ownConnection = await connect(own);
  delete process.env['DAEBUG_OWN_SESSIONS'];
  const connection = await connect(tapped);
  if (!connection.tapsPlaywright || ownConnection.tapsPlaywright) throw new Error('realm-steps: expected one tapped and one own-session connection');
  const perLoad: Record<string, number[]> = { plain: [], tap: [], own: [] };
  const nodePerLoad: Record<string, number[]> = { plain: [], tap: [], own: [] };
  const perCall: Record<string, number[]> = { 'round trip (page)': [], 'round trip (worker)': [], 'timer turn (page)': [], 'async depth (any)': [], 'idle (no call)': [] };
  let realmsSeen = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 ? (['plain', 'tap', 'own'] as const) : (['own', 'tap', 'plain'] as const);
    for (const name of order) {
      const browser = name === 'plain' ? plain : name === 'tap' ? tapped : own;
      await (await load(browser)).close(); // warm: the first load of a round compiles and caches
      const at = cpuMs();
      const nodeAt = process.cpuUsage();
      for (let i = 0; i < LOADS; i++) await (await load(browser)).close();
      const node = process.cpuUsage(nodeAt);
      perLoad[name]!.push((cpuMs() - at) / LOADS);
      nodePerLoad[name]!.push((node.user + node.system) / 1000 / LOADS);
    }
    // Per call: on one live load of the tapped browser, each step CALLS times on each target of its kind.
    const live = await load(tapped);
    // This load's targets: the newest page with its workers, and the newest service worker (earlier loads' may
    // still be closing).
    const all = connection.liveTargets();
    const page = all.filter((t) => t.type === 'page').at(-1)!;
    const workers = [...page.children.values(), all.filter((t) => t.type === 'service_worker').at(-1)!].filter((t) => t.isWorker);
    const targets = [page, ...workers];
    realmsSeen = targets.length;
    const measure = async (label: string, calls: () => Promise<unknown>, count: number) => {
      const at = cpuMs();
      for (let i = 0; i < CALLS; i++) await calls();
      perCall[label]!.push((cpuMs() - at) / CALLS / count);
    };
    await measure('idle (no call)', () => new Promise((r) => setImmediate(r)), 1);
    await measure('round trip (page)', () => page.roundTrip(), 1);
    await measure('round trip (worker)', () => Promise.all(workers.map((w) => w.roundTrip())), workers.length);
    await measure('timer turn (page)', () => page.timerTurn(250), 1);
    await measure('async depth (any)', () => Promise.all(targets.map((t) => t.setAsyncStackDepth(0))), targets.length);
    await live.close();
    log(`  realm-steps round ${round}: load plain ${fmt(perLoad['plain']!.at(-1)!, 0)} ms, tap ${fmt(perLoad['tap']!.at(-1)!, 0)} ms, own ${fmt(perLoad['own']!.at(-1)!, 0)} ms CPU; per call ${Object.entries(perCall).map(([k, v]) => `${k} ${fmt(v.at(-1)!, 3)} ms`).join(', ')} (load ${loadAverage()})`);
  }
  await Promise.all([plain.close(), tapped.close(), own.close()]);
  const base = median(perLoad['plain']!);
  const rows: Row[] = [
    { bench: 'realm steps', metric: `one load of the multi-realm app (${realmsSeen} targets daebug reads: ${LOADS} loads a round, median of ${ROUNDS} rounds), CPU ms of Node and every browser process`, baseline: `${fmt(base, 0)} ms`, daebug: '', ratio: '', target: '' },
    ...(['tap', 'own'] as const).map((name): Row => ({
      bench: 'realm steps',
      metric: name === 'tap' ? "  daebug listening on Playwright's sessions (default): dispatch, Audits on the page" : '  daebug on its own sessions (DAEBUG_OWN_SESSIONS): attach, hold, enable 4-5 domains per target',
      baseline: `${fmt(base, 0)} ms`,
      daebug: `${fmt(median(perLoad[name]!), 0)} ms (+${fmt(median(perLoad[name]!) - base, 1)} ms; Node ${fmt(median(nodePerLoad[name]!), 1)} ms against ${fmt(median(nodePerLoad['plain']!), 1)} ms)`,
      ratio: fmt(median(perLoad[name]!) / base, 3),
      target: '',
    })),
    ...Object.entries(perCall).map(([label, values]): Row => ({ bench: 'realm steps', metric: `per target and call: ${label}, CPU ms (median of ${ROUNDS} rounds of ${CALLS})`, baseline: '', daebug: fmt(median(values), 3), ratio: '', target: '' })),
  ];
  return rows;
}

childMain(realmSteps);
export { realmSteps };
