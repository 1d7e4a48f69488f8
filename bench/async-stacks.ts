import { chromium, type CDPSession, type Page } from '@playwright/test';
import { childMain, fmt, launchOptions, log, median, quick, type Row } from './lib';

const ROUNDS = quick ? 3 : 15;

/** Page work daebugAsyncStacks makes V8 track: awaits, promise chains, timers, as a busy single-page app does. */
const WORKLOADS: Record<string, string> = {
  'awaits (20,000 in a loop)': `(async () => { for (let i = 0; i < 20000; i++) await Promise.resolve(i); })()`,
  'promise chains (5,000 × then × 4)': `Promise.all(Array.from({ length: 5000 }, (_, i) => Promise.resolve(i).then((x) => x + 1).then((x) => x * 2).then(String).then((s) => s.length)))`,
  'timers (2,000 setTimeout 0)': `Promise.all(Array.from({ length: 2000 }, (_, i) => new Promise((resolve) => setTimeout(() => resolve(i), 0))))`,
};

async function timed(page: Page, code: string): Promise<number> {
  return page.evaluate(async (source) => {
    const start = performance.now();
    await (0, eval)(source);
    return performance.now() - start;
  }, code);
}

/**
 * The in-page cost of CDP's async stack traces (`Runtime.setAsyncCallStackDepth`, depth 8, what daebugAsyncStacks
 * sends) next to daebug's default (Runtime enabled, no async stacks): two pages of one browser, each workload run
 * in both, alternating (A B A B …), medians of the in-page durations.
 */
export async function asyncStacks(): Promise<Row[]> {
  const browser = await chromium.launch(launchOptions());
  try {
    const arms: Array<{ page: Page; session: CDPSession }> = [];
    for (const depth of [0, 8]) {
      const page = await browser.newPage();
      await page.goto('about:blank');
      const session = await page.context().newCDPSession(page);
      await session.send('Runtime.enable');
      if (depth) await session.send('Runtime.setAsyncCallStackDepth', { maxDepth: depth });
      arms.push({ page, session });
    }
    const rows: Row[] = [];
    for (const [name, code] of Object.entries(WORKLOADS)) {
      for (const arm of arms) await timed(arm.page, code); // warm-up
      const off: number[] = [];
      const on: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        off.push(await timed(arms[0]!.page, code));
        on.push(await timed(arms[1]!.page, code));
      }
      const ratio = median(on) / median(off);
      log(`  ${name}: off ${off.map((n) => fmt(n)).join(' ')} | on ${on.map((n) => fmt(n)).join(' ')}`);
      rows.push({ bench: '5 async stacks', metric: `${name}, in-page ms (median of ${ROUNDS})`, baseline: `${fmt(median(off))} ms`, daebug: `${fmt(median(on))} ms`, ratio: fmt(ratio, 2), target: '≤ 1.05 to be on by default', met: ratio <= 1.05 });
    }
    return rows;
  } finally {
    await browser.close();
  }
}

childMain(asyncStacks);
