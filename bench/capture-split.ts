import path from 'node:path';
import { chromium, type Browser, type CDPSession } from '@playwright/test';
import { descendantCpuMs, fmt, launchOptions, log, median, port, repoRoot } from './lib';

/**
 * Where capture's cost lands in Chromium: one browser, pages loaded one after another, each with a second CDP session
 * doing part of what daebug's capture does (the way `src/capture/cdp/` does it: a browser-level session, non-flat
 * attach). CPU of every Chromium process (from /proc) and of this process per page, variants alternating, medians.
 * Usage: npx tsx bench/capture-split.ts [rounds=6] [pages=20]   (needs the fixtures server on BENCH_PORT)
 */
type Variant = { name: string; domains: string[]; read?: boolean | 'trivial' | 'evaluate' | 'sleep' | 'page-evaluate' | 'cdp' | 'cdp-evaluate' | 'cdp-metrics' | 'cdp-read' | 'cdp-read-errors' | 'cdp-read-json' | 'cdp-audits' | 'cdp-read-eager' | 'cdp-formatter' | 'cdp-formatter-null' };
const ALL_VARIANTS: Variant[] = [
  { name: 'bare', domains: [] },
  { name: 'attach', domains: ['attach'] },
  { name: 'runtime', domains: ['Runtime.enable'] },
  { name: 'runtime+page+log', domains: ['Runtime.enable', 'Page.enable', 'Log.enable'] },
  { name: 'runtime+page', domains: ['Runtime.enable', 'Page.enable'] },
  { name: 'runtime+log', domains: ['Runtime.enable', 'Log.enable'] },
  { name: 'runtime+network', domains: ['Runtime.enable', 'Network.enable'] },
  { name: 'runtime+autoattach', domains: ['Runtime.enable', 'Target.setAutoAttach'] },
  { name: 'runtime+read', domains: ['Runtime.enable'], read: true },
  { name: 'runtime+audits', domains: ['Runtime.enable', 'Audits.enable'] },
  { name: 'runtime+trivial', domains: ['Runtime.enable'], read: 'trivial' },
  { name: 'runtime+evaluate', domains: ['Runtime.enable'], read: 'evaluate' },
  { name: 'runtime+sleep', domains: ['Runtime.enable'], read: 'sleep' },
  { name: 'bare+sleep', domains: [], read: 'sleep' },
  // What daebug costs the page when it reads Playwright's own session (PlaywrightTap): one round trip at the end.
  { name: 'bare+evaluate', domains: [], read: 'page-evaluate' },
  // A page session of Playwright's own kind (context.newCDPSession), then nothing, a Runtime.evaluate, or a command
  // Chromium dispatches on the renderer's IO thread, which interrupts running JavaScript (Performance.getMetrics).
  { name: 'cdp', domains: [], read: 'cdp' },
  { name: 'cdp+evaluate', domains: [], read: 'cdp-evaluate' },
  { name: 'cdp+metrics', domains: [], read: 'cdp-metrics' },
  // With Audits.enable too (browser issues).
  { name: 'cdp+audits', domains: [], read: 'cdp-audits' },
  // With Runtime on that session: daebug's end-of-test read of every logged value (READ_FN), of the errors' and
  // warnings' values only, and the cheapest read there is (JSON.stringify of each value, no serializer to compile).
  { name: 'cdp+read', domains: [], read: 'cdp-read' },
  { name: 'cdp+read-errors', domains: [], read: 'cdp-read-errors' },
  { name: 'cdp+read-json', domains: [], read: 'cdp-read-json' },
  // daebug's read as the values arrive (batched per turn, one in flight), then at the end the interrupt, or a wait
  // for a read still in flight.
  { name: 'cdp+read-eager', domains: [], read: 'cdp-read-eager' },
  // Values serialized as they are logged, by a DevTools custom formatter (window.devtoolsFormatters, which V8 calls
  // inside the console call for the session that enabled them), so the end has nothing to read: the interrupt.
  // Measured for the maintainers' decision in bench/README.md (2026-11-26, fourth); not what daebug does.
  { name: 'cdp+formatter', domains: [], read: 'cdp-formatter' },
  // The same formatter answering null at once: what V8's calling it costs without the serializer.
  { name: 'cdp+formatter-null', domains: [], read: 'cdp-formatter-null' },
  { name: 'all-read', domains: ['Network.enable', 'Runtime.enable', 'Page.enable', 'Log.enable', 'Target.setAutoAttach'] },
  { name: 'all', domains: ['Network.enable', 'Runtime.enable', 'Page.enable', 'Log.enable', 'Target.setAutoAttach'], read: true },
];
// BENCH_SPLIT=bare,attach,all picks variants by name.
const VARIANTS = process.env['BENCH_SPLIT'] ? ALL_VARIANTS.filter((v) => process.env['BENCH_SPLIT']!.split(',').includes(v.name)) : ALL_VARIANTS;

let eagerInFlightAtEnd = 0;

async function attach(browser: Browser, session: CDPSession, variant: Variant, serializer: string): Promise<() => Promise<void>> {
  const { targetInfos } = (await session.send('Target.getTargets' as never)) as unknown as { targetInfos: Array<{ targetId: string; type: string; attached: boolean; url: string }> };
  const page = targetInfos.find((t) => t.type === 'page' && (t.url === 'about:blank' || t.url.endsWith('/suite.html')));
  if (!page) throw new Error('no page');
  const { sessionId } = (await session.send('Target.attachToTarget' as never, { targetId: page.targetId, flatten: false } as never)) as unknown as { sessionId: string };
  let id = 0;
  const waiting = new Map<number, (v: any) => void>();
  const contexts: number[] = [];
  const objects: string[] = [];
  session.on('Target.receivedMessageFromTarget' as never, ((params: { sessionId: string; message: string }) => {
    if (params.sessionId !== sessionId) return;
    const message = JSON.parse(params.message);
    if (message.id !== undefined) return waiting.get(message.id)?.(message.result);
    if (message.method === 'Runtime.executionContextCreated') contexts.push(message.params.context.id);
    if (message.method === 'Runtime.consoleAPICalled') for (const arg of message.params.args) if (arg.objectId) objects.push(arg.objectId);
  }) as never);
  const send = (method: string, params: object = {}) =>
    new Promise<any>((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      void session.send('Target.sendMessageToTarget' as never, { sessionId, message: JSON.stringify({ id: n, method, params }) } as never);
    });
  await Promise.all(
    variant.domains.filter((method) => method !== 'attach').map((method) =>
      method === 'Network.enable'
        ? send(method, { maxTotalBufferSize: 0, maxResourceBufferSize: 0, maxPostDataSize: 0 })
        : method === 'Target.setAutoAttach'
          ? send(method, { autoAttach: true, waitForDebuggerOnStart: true, flatten: false, filter: [{ type: 'worker' }, { type: 'iframe' }] })
          : send(method),
    ),
  );
  return async () => {
    if (variant.read === 'sleep') await new Promise((r) => setTimeout(r, 10));
    else if (variant.read === 'evaluate') await send('Runtime.evaluate', { expression: '1', contextId: contexts.at(-1) });
    else if (variant.read && objects.length) {
      const fn = variant.read === 'trivial' ? 'function () { return arguments.length; }' : `function (limits, ...values) { const serialize = (${serializer}); return values.map((v) => serialize('console', [v], limits)); }`;
      await send('Runtime.callFunctionOn', { objectId: objects[0], functionDeclaration: fn, arguments: [{ value: { maxDepth: 5, maxBreadth: 50, maxLength: 10000 } }, ...objects.map((objectId) => ({ objectId }))], returnByValue: true, silent: true });
    }
    void browser;
    await session.send('Target.detachFromTarget' as never, { sessionId } as never);
  };
}

/** A custom formatter that serializes every object V8 wraps for the session, at the moment it wraps it. */
function formatterSource(serializer: string): string {
  return `(() => {
    const serialize = (${serializer});
    const limits = { maxDepth: 3, maxBreadth: 50, maxLength: 1000 };
    let busy = false;
    const formatter = {
      header(value) {
        if (busy) return null;
        busy = true;
        try { const text = serialize('console', [value], limits); return text === null ? null : ['span', {}, JSON.stringify(text)]; } catch { return null; } finally { busy = false; }
      },
      hasBody() { return false; },
    };
    Object.defineProperty(globalThis, 'devtoolsFormatters', { value: [formatter], writable: true, configurable: true, enumerable: false });
  })();`;
}

async function main(): Promise<void> {
  const numbers = process.argv.slice(2).filter((a) => /^\d+$/.test(a)).map(Number);
  const rounds = numbers[0] ?? 6;
  const pages = numbers[1] ?? 20;
  const { serializerFunctionSource } = require(path.join(repoRoot, 'dist', 'capture', 'serialize.js')) as typeof import('../src/capture/serialize');
  const serializer = serializerFunctionSource();
  const { READ_FN } = require(path.join(repoRoot, 'dist', 'capture', 'cdp', 'value-reads.js')) as typeof import('../src/capture/cdp/value-reads');
  const browser = await chromium.launch(launchOptions());
  const session = await browser.newBrowserCDPSession();
  const url = `http://127.0.0.1:${port}/bench/suite.html`;
  const cpu: Record<string, number[]> = Object.fromEntries(VARIANTS.map((v) => [v.name, []]));
  const node: Record<string, number[]> = Object.fromEntries(VARIANTS.map((v) => [v.name, []]));
  const samePage = process.argv.includes('--same-page');
  const gotoOnly = process.argv.includes('--goto-only');
  // --locator: the end waits with locator.waitFor(), which leaves no work of Playwright's running in the page.
  const locatorWait = process.argv.includes('--locator');
  const shared = samePage ? await (await browser.newContext()).newPage() : undefined;
  const runOne = async (variant: Variant) => {
    const context = shared ? shared.context() : await browser.newContext();
    const page = shared ?? (await context.newPage());
    const cdp = typeof variant.read === 'string' && variant.read.startsWith('cdp') ? await context.newCDPSession(page) : undefined;
    const logged: Array<{ type: string; args: Array<{ objectId?: string; value?: unknown }>; contextId: number }> = [];
    const eager = variant.read === 'cdp-read-eager';
    let inflight: Promise<unknown> | undefined;
    let scheduled = false;
    const readNow = (batch: typeof logged): Promise<unknown> => {
      const values = batch.flatMap((l) => l.args.map((a) => (a.objectId ? { objectId: a.objectId } : { value: a.value })));
      const layout = batch.flatMap((l) => ['console', l.args.length]);
      return cdp!.send('Runtime.callFunctionOn', { executionContextId: batch[0]!.contextId, functionDeclaration: READ_FN, arguments: [{ value: { maxDepth: 3, maxBreadth: 50, maxLength: 1000 } }, { value: layout }, ...values], returnByValue: true, silent: true }).catch(() => undefined);
    };
    const scheduleEager = () => {
      if (scheduled || inflight) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        if (inflight || !logged.length) return;
        inflight = readNow(logged.splice(0)).then(() => {
          inflight = undefined;
          if (logged.length) scheduleEager();
        });
      });
    };
    if (cdp) {
      // Every cdp variant enables Runtime, so they differ only in what they do at the end.
      cdp.on('Runtime.consoleAPICalled', (event) => {
        logged.push({ type: event.type, args: event.args, contextId: event.executionContextId });
        if (eager) scheduleEager();
      });
      await cdp.send('Runtime.enable');
      if (variant.read === 'cdp-formatter' || variant.read === 'cdp-formatter-null') {
        await cdp.send('Runtime.setCustomObjectFormatterEnabled', { enabled: true });
        await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: formatterSource(variant.read === 'cdp-formatter' ? serializer : '() => null'), runImmediately: true });
      }
      if (variant.read === 'cdp-audits') await cdp.send('Audits.enable');
    }
    const finish = cdp
      ? async () => {
          if (variant.read === 'cdp-evaluate') await cdp.send('Runtime.evaluate', { expression: '0' });
          if (variant.read === 'cdp-metrics' || variant.read === 'cdp-formatter' || variant.read === 'cdp-formatter-null') await cdp.send('Performance.getMetrics');
          if (eager) {
            if (inflight) eagerInFlightAtEnd++;
            if (logged.length) await readNow(logged.splice(0));
            else if (!inflight) await cdp.send('Performance.getMetrics');
            while (inflight) await inflight;
            return;
          }
          const reads = variant.read === 'cdp-read-errors' ? logged.filter((l) => l.type === 'error' || l.type === 'warning') : logged;
          if (!reads.length || !['cdp-read', 'cdp-read-errors', 'cdp-read-json'].includes(variant.read as string)) return;
          const values = reads.flatMap((l) => l.args.map((a) => (a.objectId ? { objectId: a.objectId } : { value: a.value })));
          const functionDeclaration = variant.read === 'cdp-read-json' ? 'function (limits, layout, ...values) { return values.map((v) => JSON.stringify(v)); }' : READ_FN;
          const layout = reads.flatMap((l) => ['console', l.args.length]);
          await cdp.send('Runtime.callFunctionOn', { executionContextId: reads[0]!.contextId, functionDeclaration, arguments: [{ value: { maxDepth: 3, maxBreadth: 50, maxLength: 1000 } }, { value: layout }, ...values], returnByValue: true, silent: true });
        }
      : variant.domains.length
      ? await attach(browser, session, variant, serializer)
      : variant.read === 'sleep'
        ? () => new Promise<void>((r) => setTimeout(r, 10))
        : variant.read === 'page-evaluate'
          ? async () => void (await page.evaluate('0'))
          : async () => undefined;
    await page.goto(url);
    // --goto-only: the test ends at the load event, while the page may still be busy after it.
    if (locatorWait) await page.locator('body[data-done]').waitFor({ state: 'attached' });
    else if (!gotoOnly) await page.waitForSelector('body[data-done]', { state: 'attached' });
    await finish();
    if (!shared) await context.close();
  };
  for (const variant of VARIANTS) await runOne(variant); // warm-up
  for (let round = 1; round <= rounds; round++) {
    const sums = new Map<string, { child: number; node: number }>(VARIANTS.map((v) => [v.name, { child: 0, node: 0 }]));
    // Variants alternate page by page, so the page's own drift (history, heap) spreads over all of them.
    for (let i = 0; i < pages; i++) {
      for (const variant of VARIANTS) {
        const startChild = descendantCpuMs();
        const startNode = process.cpuUsage();
        await runOne(variant);
        const used = process.cpuUsage(startNode);
        const sum = sums.get(variant.name)!;
        sum.child += descendantCpuMs() - startChild;
        sum.node += (used.user + used.system) / 1000;
      }
    }
    for (const variant of VARIANTS) {
      cpu[variant.name]!.push(sums.get(variant.name)!.child / pages);
      node[variant.name]!.push(sums.get(variant.name)!.node / pages);
    }
    log(`round ${round}: ${VARIANTS.map((v) => `${v.name} ${fmt(cpu[v.name]!.at(-1)!, 1)}`).join(', ')}`);
  }
  await browser.close();
  if (VARIANTS.some((v) => v.read === 'cdp-read-eager')) log(`cdp+read-eager: a read was still in flight at ${eagerInFlightAtEnd} of ${rounds * pages + 1} ends`);
  const bare = median(cpu[VARIANTS[0]!.name]!);
  for (const v of VARIANTS) log(`${v.name.padEnd(20)} Chromium ${fmt(median(cpu[v.name]!), 1)} ms/page (${median(cpu[v.name]!) >= bare ? '+' : ''}${fmt(median(cpu[v.name]!) - bare, 1)} against ${VARIANTS[0]!.name}), node ${fmt(median(node[v.name]!), 1)} ms/page`);
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
