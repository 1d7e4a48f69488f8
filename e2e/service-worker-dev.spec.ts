import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { structureProblems } from './helpers/markdown-structure';
import { markdownSection, reportByTitle } from './helpers/report-by-title';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';
import { parseSeedErrors, type SeedErrorBlock } from './helpers/seed-error-blocks';
import { startSvelteKitDev } from './helpers/sveltekit-dev-server';
import type { LocalServer } from './helpers/local-server';

// Issue 37, 5.2: a dev-mode service worker as SvelteKit's dev server serves it (fixtures/sveltekit-sw, served by
// e2e/helpers/sveltekit-dev-server.ts): `/service-worker.js` is the module `import '/src/service-worker.js';`, and the
// real source's fetch handler is SvelteKit's own (`respondWith(fetch(...))`, falling back to the cache). The test
// goes offline and the page asks for data. What Chromium 150 emits then (seen on raw CDP sessions): in the worker, its
// fetch fails (net::ERR_INTERNET_DISCONNECTED, initiator the `fetch(request)` line), the fetch's promise rejects
// (`TypeError: Failed to fetch`, with a stack at that line) and `respondWith()`'s value, `undefined`, rejects twice
// with `TypeError: Failed to convert value to 'Response'.`, which has no stack and is placed at line 1, column 1 of
// `/service-worker.js`, the import line; in the page, the request fails (net::ERR_FAILED) and its fetch rejects
// (`TypeError: Failed to fetch` in the app's code). All of it is one offline fetch: one problem, and no error is
// placed on the import line. `npx daebug` runs dist/cli/bin.js: run `npm run build` after changing src/.
const bin = path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js');
const workerSource = fs.readFileSync(path.resolve(__dirname, '..', 'fixtures', 'sveltekit-sw', 'src', 'service-worker.js'), 'utf8').split('\n');
const fetchLine = workerSource.findIndex((l) => l.includes('const promise = fetch(request);')) + 1;
const fetchColumn = workerSource[fetchLine - 1]!.indexOf('fetch(') + 1;

const spec = `
import { test, expect } from 'daebug';

async function offlineFetch(page, context, daebug) {
  await page.goto(process.env.SVELTEKIT_ORIGIN + '/');
  // SvelteKit's worker does not claim the page that registered it: the page is controlled once reloaded.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);
  await page.click('#load');
  // The page's fetch rejects last: the worker's errors came before it.
  await expect.poll(() => daebug.errors().some((e) => e.realm === 'page' && e.source === 'unhandledrejection')).toBe(true);
  await daebug.settle();
}

test('offline: the service worker cannot answer', async ({ page, context, daebug }) => {
  await offlineFetch(page, context, daebug);
});

test.describe('without failed requests', () => {
  test.use({ daebugNetwork: 'off' });
  test('offline, no network capture: nothing places the worker rejection', async ({ page, context, daebug }) => {
    await offlineFetch(page, context, daebug);
  });
});

test.describe('strict', () => {
  test.use({ daebugStrict: true });
  test('offline, strict: the failure names the same lines', async ({ page, context, daebug }) => {
    await offlineFetch(page, context, daebug);
  });
});
`;

let server: LocalServer;
let run: InlineRunResult;

const isConversion = (e: { message: string }) => e.message === "TypeError: Failed to convert value to 'Response'.";
const workerRealm = 'service-worker:service-worker.js';

function cliErrors(title: string): SeedErrorBlock[] {
  const result = spawnSync(process.execPath, [bin, 'errors', '--test', title, '--dir', run.reportsDir], { cwd: run.dir, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: 30_000 });
  expect(result.status, result.stderr).toBe(0);
  return parseSeedErrors(result.stdout).blocks;
}

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startSvelteKitDev();
  run = await runInlineTest({ 'sveltekit-sw.spec.ts': spec }, { env: { SVELTEKIT_ORIGIN: server.origin } });
  // The strict test fails: its failure message is in the run's output.
  expect(run.output).toMatch(/1 failed[\s\S]*2 passed/);
});

test.afterAll(async () => {
  await server?.close();
});

test('what Chromium emits: the worker fails its fetch, rejects, and rejects its respondWith() without a stack at the import line', () => {
  const { json } = reportByTitle(run, 'offline: the service worker cannot answer');
  const events = json.events as any[];
  const workerRequest = events.find((e) => e.source === 'network' && e.realm === workerRealm);
  expect(workerRequest?.network, JSON.stringify(events, null, 2)).toMatchObject({ url: `${server.origin}/api/items.json`, errorText: 'net::ERR_INTERNET_DISCONNECTED' });
  expect(workerRequest.network.initiator.original).toMatchObject({ line: fetchLine, column: fetchColumn });
  const conversions = events.filter((e) => e.realm === workerRealm && isConversion(e));
  expect(conversions.length).toBeGreaterThanOrEqual(1);
  for (const conversion of conversions) {
    expect(conversion.source).toBe('unhandledrejection');
    // The JSON keeps the browser's place; no frame or code frame is made of it.
    expect(conversion.location).toEqual({ url: `${server.origin}/service-worker.js`, line: 1, column: 1 });
    expect(conversion.frames ?? []).toEqual([]);
    expect(conversion.snippet).toBeUndefined();
  }
  expect(events.find((e) => e.source === 'network' && e.realm === 'page')?.network).toMatchObject({ errorText: 'net::ERR_FAILED' });
});

test("one offline fetch is one problem: every error it caused is linked to the worker's failed request", () => {
  const { json, md } = reportByTitle(run, 'offline: the service worker cannot answer');
  expect(structureProblems(md)).toEqual([]);
  const events = json.events as any[];
  const at = (find: (e: any) => boolean) => events.findIndex(find);
  const workerRequest = at((e) => e.source === 'network' && e.realm === workerRealm);
  const pageRequest = at((e) => e.source === 'network' && e.realm === 'page');
  const workerRejection = at((e) => e.realm === workerRealm && e.message === 'TypeError: Failed to fetch');
  const pageRejection = at((e) => e.realm === 'page' && e.source === 'unhandledrejection');
  expect(events[workerRejection].causedBy).toBe(workerRequest);
  for (const conversion of events.filter(isConversion)) expect(conversion.causedBy).toBe(workerRequest);
  expect(events[pageRequest].causedBy).toBe(workerRequest);
  expect(events[pageRejection].causedBy).toBe(pageRequest);
  // Before: "3 independent problems, fix each" (2 on a navigation, which has no fetch of the page's own to reject).
  expect(md).not.toMatch(/independent problems/);
  expect(md).toContain('→ explains unexpected errors');
});

test('the respondWith() rejection is placed at the fetch that failed, never at the import line, in the Markdown and the CLI', () => {
  const { md } = reportByTitle(run, 'offline: the service worker cannot answer');
  expect(md).not.toContain('service-worker.js:1:1');
  expect(md).not.toContain("import '/src/service-worker.js'");
  const entry = md.split('\n').find((line) => /^\d+\. `unhandledrejection` in `service-worker:service-worker\.js`.*the app's call that made the request behind it/.test(line));
  expect(entry, markdownSection(md, 'Unexpected errors')).toContain(`\`src/service-worker.js:${fetchLine}:${fetchColumn}\``);
  // Its hint is the service worker's, not the one for a `.json()` without a stack.
  expect(md).toContain("A service worker's `event.respondWith(…)` got something that is not a Response");

  const blocks = cliErrors('offline: the service worker cannot answer');
  const conversion = blocks.find((b) => b.message === "TypeError: Failed to convert value to 'Response'.");
  expect(conversion?.location, JSON.stringify(blocks, null, 2)).toEqual({ file: 'src/service-worker.js', line: fetchLine, column: fetchColumn });
  expect(conversion!.fields['found']).toContain("the app's call that made the request behind it (GET");
  expect(conversion!.fields['code']).toContain('const promise = fetch(request);');
  expect(blocks.filter((b) => b.location?.line === 1 && b.location.file.endsWith('/service-worker.js'))).toEqual([]);
  // The page's own fetch stays where the page made it; its hint names the worker's failure, not CORS.
  const page = blocks.find((b) => b.fields['time']?.includes('in page)'));
  expect(page?.location).toEqual({ file: 'src/app.js', line: 3, column: 26 });
  expect(page!.fields['hint']).toContain("was failed by the page's service worker (net::ERR_FAILED): its own fetch of it failed (net::ERR_INTERNET_DISCONNECTED");
  expect(page!.fields['hint']).not.toContain('CORS: does the response allow');
});

test('with nothing to place it by, the rejection is left unplaced and says why, in the Markdown and the CLI', () => {
  const { json, md } = reportByTitle(run, 'offline, no network capture: nothing places the worker rejection');
  expect((json.events as any[]).filter((e) => e.source === 'network')).toEqual([]);
  expect(md).not.toContain("import '/src/service-worker.js'");
  const why = `no line to fix: the browser gave no stack, only its default place, line 1 of \`${server.origin}/service-worker.js\`, the realm's main script`;
  expect(md).toMatch(new RegExp(`^\\d+\\. \`unhandledrejection\` in \`service-worker:service-worker\\.js\` at [\\d:]+ \\(${why.replace(/[.()`/]/g, '\\$&')}\\)`, 'm'));

  const conversion = cliErrors('offline, no network capture').find((b) => b.message === "TypeError: Failed to convert value to 'Response'.");
  expect(conversion).toBeDefined();
  expect(conversion!.location).toBeUndefined();
  expect(conversion!.stack).toEqual([]);
  expect(conversion!.fields['note']).toBe(why.replace(/`/g, ''));
});

test('the strict failure names the same lines as the report', () => {
  const { json } = reportByTitle(run, 'offline, strict: the failure names the same lines');
  expect(json.test.status).toBe('failed');
  const failure = run.output.slice(run.output.indexOf('daebug: '), run.output.indexOf('Report: '));
  expect(failure, run.output).toMatch(/unexpected errors in the browser \(daebugStrict\)/);
  expect(failure).not.toContain('service-worker.js:1:1');
  const conversion = failure.split('\n').findIndex((line) => line.includes("Failed to convert value to 'Response'"));
  expect(conversion, failure).toBeGreaterThan(-1);
  const place = failure.split('\n')[conversion + 1]!;
  expect(place).toContain(`↳ src/service-worker.js:${fetchLine}:${fetchColumn} (the app's call that made the request behind it (GET`);
  expect(failure.split('\n').slice(conversion + 2, conversion + 8).join('\n')).toContain('const promise = fetch(request);');
});
