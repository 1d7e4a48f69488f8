import path from 'node:path';
import { test, expect } from '@playwright/test';
import { reported, sharedRun, type HostileRun } from './helpers/hostile';
import { findFiles, readZip } from './helpers/trace-zip';

// Capture contract (issue 8): daebug stays out of the user's trace. A test run with `trace: 'on'` that navigates,
// logs objects, throws, clicks (also inside a test.step), opens a popup, starts a worker and creates a second
// context must show no CDP traffic among the actions of its body: whatever daebug sends happens inside its own
// (boxed) fixture steps. The trace zip is read with node:zlib; test.trace holds the runner's steps and
// <n>-trace.trace the library's calls, both JSON lines of {type: 'before', callId, parentId?, title | apiName, …}.

const spec = `
import { test, expect } from 'daebug';

test('traced test', async ({ page, browser, baseURL, daebug }) => {
  await page.goto('/targets/trace.html');
  await page.evaluate(() => console.log('from evaluate', { a: 1, list: [1, 2] }));
  await page.click('#go');
  await test.step('user step', async () => {
    await page.click('#go');
    await page.evaluate(() => { setTimeout(() => { throw new Error('error in user step'); }); });
  });
  // trace.html's worker (x.js) throws; the page hears of it.
  expect(await page.evaluate(() => (window as any).workerDone)).toBe('x error seen');
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.evaluate(() => { window.open('/index.html'); })]);
  await popup.waitForLoadState();
  await popup.evaluate(() => console.log('popup says', { hi: true }));
  const ctx = await browser.newContext({ baseURL });
  const other = await ctx.newPage();
  await other.goto('/targets/context.html');
  expect(await other.evaluate(() => (window as any).workerDone)).toBe('x error seen');
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
  await daebug.settle();
  expect(daebug.errors().map((e) => e.message)).toEqual(expect.arrayContaining(['Error: clicked error']));
  await ctx.close();
});
`;

const CDP = /CDP|cdpSession|newCDPSession|newBrowserCDPSession|Target\.|Runtime\./i;

interface TraceEntry {
  type: string;
  callId: string;
  parentId?: string;
  title?: string;
  apiName?: string;
  class?: string;
  method?: string;
  params?: any;
  stack?: Array<{ file: string; line: number }>;
}

const lines = (buffer: Buffer | undefined): TraceEntry[] =>
  (buffer?.toString('utf8') ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TraceEntry);

interface Action {
  callId: string;
  title: string;
  /** Titles of the steps it sits in, outermost first. */
  path: string[];
  /** Inside a hook or a fixture (daebug's fixtures are boxed there), or a step daebug opened itself. */
  inFixture: boolean;
  where: string;
}

test.describe.configure({ mode: 'default' });

let run: HostileRun;
let runnerSteps: TraceEntry[] = [];
let libraryCalls: TraceEntry[] = [];
let actions: Action[] = [];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  run = await sharedRun('capture-trace', { 'trace.spec.ts': spec }, { use: "trace: 'on',", configExtra: "outputDir: './test-results',", timeoutMs: 170_000 });
  const zips = findFiles(path.join(run.dir, 'test-results'), 'trace.zip');
  if (zips.length !== 1) throw new Error(`expected one trace.zip under test-results, found ${zips.length}\n${run.output.slice(-3000)}`);
  const files = readZip(zips[0]!);
  runnerSteps = lines(files.get('test.trace')).filter((e) => e.type === 'before');
  libraryCalls = [...files.keys()].filter((n) => /^\d+-trace\.trace$/.test(n)).flatMap((n) => lines(files.get(n)).filter((e) => e.type === 'before'));
  const byId = new Map(runnerSteps.map((e) => [e.callId, e]));
  const titleOf = (e: TraceEntry) => e.title ?? e.apiName ?? `${e.class}.${e.method}`;
  const boxedHere = (e: TraceEntry) => e.method === 'hook' || e.method === 'fixture' || /^daebug\b/i.test(titleOf(e));
  actions = runnerSteps.map((e) => {
    const chain: TraceEntry[] = [];
    for (let p = e.parentId ? byId.get(e.parentId) : undefined; p; p = p.parentId ? byId.get(p.parentId) : undefined) chain.unshift(p);
    const top = e.stack?.[0];
    return {
      callId: e.callId,
      title: titleOf(e),
      path: chain.map(titleOf),
      inFixture: boxedHere(e) || chain.some(boxedHere),
      where: top ? `${path.basename(top.file)}:${top.line}` : '',
    };
  });
});

const listing = () => actions.map((a) => `${a.inFixture ? '  (fixture) ' : '  (body)    '}${[...a.path, a.title].join(' › ')}${a.where ? `  [${a.where}]` : ''}`).join('\n');

test('the traced test ran, and daebug captured it', () => {
  const r = reported(run, 'traced test').json;
  expect(r.test.status, run.output.slice(-3000)).toBe('passed');
  const has = (realm: string, source: string, message: RegExp) => (r.events as any[]).some((e) => e.realm === realm && e.source === source && message.test(e.message));
  expect.soft(has('page', 'console.log', /^from evaluate .*("a":1|a: 1)/), 'console.log with objects').toBe(true);
  expect.soft(has('page', 'window.onerror', /^Error: clicked error$/), 'the clicked error').toBe(true);
  expect.soft(has('page', 'window.onerror', /^Error: error in user step$/), 'the error in the user step').toBe(true);
  expect.soft(has('worker:x.js', 'self.onerror', /^Error: x worker uncaught$/), 'the worker error').toBe(true);
});

test("the trace holds the test body's own actions (else the check below proves nothing)", () => {
  // Older Playwrights name the target too (`Navigate to "/…"`, `Click locator('#go')`, as in 1.57): the title's first words count.
  const body = actions.filter((a) => !a.inFixture).map((a) => [...a.path, a.title].join(' › ').replace(/ (?:to "[^"]*"|locator\([^)]*\))/g, ''));
  expect(body, listing()).toEqual(expect.arrayContaining(['Navigate', 'Evaluate', 'Click', 'user step', 'user step › Click']));
  expect(actions.some((a) => a.inFixture), listing()).toBe(true);
});

test("daebug's fixtures make no step of their own in the trace (box: 'self'), but the recorder's; Playwright's own fixtures still do", () => {
  const fixtureSteps = actions.filter((a) => /^Fixture "/.test(a.title)).map((a) => a.title);
  // Playwright's own `context` and `page` fixtures are there, so the check below can fail.
  expect(fixtureSteps, listing()).toEqual(expect.arrayContaining(['Fixture "context"', 'Fixture "page"']));
  // The recorder keeps its boxed step (setup and teardown): its attachments belong to it (src/fixture/fixtures.ts).
  expect(fixtureSteps.filter((t) => /daebug/i.test(t)), listing()).toEqual(['Fixture "_daebugRecorder"', 'Fixture "_daebugRecorder"']);
  // daebug overrides `context` and `page`: each shows once in the setup and once in the teardown (Playwright's own
  // layer), not once more for daebug's.
  const count = (hook: string, title: string) => actions.filter((a) => a.title === title && a.path[0] === hook).length;
  const counts = ['Before Hooks', 'After Hooks'].flatMap((hook) => [count(hook, 'Fixture "context"'), count(hook, 'Fixture "page"')]);
  expect(counts, listing()).toEqual([1, 1, 1, 1]);
});

test("9. no CDP action among the test body's actions in test.trace", () => {
  const leaked = actions.filter((a) => !a.inFixture && CDP.test(a.title));
  expect(leaked.map((a) => `${[...a.path, a.title].join(' › ')} [${a.where}]`), `actions of the trace:\n${listing()}`).toEqual([]);
});

test('9. no CDP call in the library traces outside daebug fixture steps', () => {
  const byCallId = new Map(actions.map((a) => [a.callId, a]));
  const cdp = libraryCalls.filter((e) => e.class === 'CDPSession' || CDP.test(`${e.method ?? ''} ${e.apiName ?? ''} ${e.title ?? ''}`));
  // A library call with no runner step still shows in the trace viewer's action list, at the top.
  const leaked = cdp.filter((e) => !byCallId.get(e.callId)?.inFixture);
  expect(
    leaked.map((e) => `${e.class}.${e.method} ${e.apiName ?? e.title ?? ''} (${byCallId.get(e.callId)?.path.join(' › ') || 'no runner step'})`),
    `library calls:\n${libraryCalls.map((e) => `  ${e.callId} ${e.class}.${e.method}`).join('\n')}\n\nactions:\n${listing()}`,
  ).toEqual([]);
});
