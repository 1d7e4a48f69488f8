import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';
import { startServer, type LocalServer } from './helpers/local-server';
import { callTool, mcpClient } from './helpers/mcp-client';
import { historyRunSchema } from '../src/history/schema';

// Issue 35's four tests, run 6 times (retries: 1) against one history folder. Which run fails what is decided per run
// by environment variables, never by chance:
// - A: the app's /api/stock answers 502 to the first attempt of runs 2, 3 and 5: the stock does not show, the retry passes;
// - B: the test reads the page before it is ready on the first attempt of runs 3 and 6: no browser error at all;
// - C: the page always logs the same console.error, and the test passes;
// - D: from run 4 on, the cart's script throws a new error, and every attempt fails.
const RUNS = 6;
const A_FAILS = [2, 3, 5];
const B_LOSES = [3, 6];
const D_BROKEN_FROM = 4;
const commitOf = (run: number) => `${String(run).repeat(7)}${'0'.repeat(33)}`;

function page(body: string): string {
  return `<!doctype html><html><body>${body}</body></html>`;
}

function startApp(): Promise<LocalServer> {
  return startServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page(body));
    switch (url.pathname) {
      case '/favicon.ico':
        return void response.writeHead(204).end();
      case '/api/stock': {
        const fails = A_FAILS.includes(Number(url.searchParams.get('run'))) && url.searchParams.get('retry') === '0';
        if (fails) return void response.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ stock: 'in stock' }));
      }
      case '/shop.html':
        return html(`<p id="stock">loading</p><script>
fetch('/api/stock' + location.search)
  .then((r) => (r.ok ? r.json() : { stock: 'unavailable' }))
  .then((data) => { document.getElementById('stock').textContent = data.stock; document.body.dataset.done = '1'; });
</script>`);
      case '/race.html':
        // A losing attempt's page is slow on purpose: its one early read must come before "ready" even on a loaded
        // machine (with 300 ms a run under a CPU hog read "ready" and lost no race).
        return html(`<p id="ready">starting</p><script>setTimeout(() => { document.getElementById('ready').textContent = 'ready'; }, ${url.searchParams.has('slow') ? 10_000 : 300});</script>`);
      case '/news.html':
        return html(`<p id="news">news</p><script>console.error('analytics: consent missing'); document.body.dataset.done = '1';</script>`);
      case '/cart.html':
        return html(`<p id="total">0</p><script>
setTimeout(() => { document.body.dataset.done = '1'; });
function computeTotal() { if (location.search.includes('broken')) throw new Error('cart total is NaN'); return 42; }
document.getElementById('total').textContent = String(computeTotal());
</script>`);
      default:
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
}

const spec = `
import { test, expect } from 'daebug';

const app = process.env.APP_URL;
const run = Number(process.env.RUN);
const listed = (name) => (process.env[name] ?? '').split(',').filter(Boolean).map(Number);

test('A stock shows', async ({ page }, testInfo) => {
  await page.goto(app + '/shop.html?run=' + run + '&retry=' + testInfo.retry);
  await page.locator('body[data-done]').waitFor();
  expect(await page.locator('#stock').textContent()).toBe('in stock');
});

test('B ready in time', async ({ page }, testInfo) => {
  const loses = listed('B_LOSES').includes(run) && testInfo.retry === 0;
  await page.goto(app + (loses ? '/race.html?slow' : '/race.html'));
  // Losing the race: the test reads the page once, before the page is ready, instead of waiting for it.
  if (loses) expect(await page.locator('#ready').textContent()).toBe('ready');
  else await expect(page.locator('#ready')).toHaveText('ready');
});

test('C news', async ({ page, daebug }) => {
  await page.goto(app + '/news.html');
  await page.locator('body[data-done]').waitFor();
  await expect.poll(async () => { await daebug.settle(); return daebug.events().some((e) => e.source === 'console.error'); }).toBe(true);
});

test('D cart total', async ({ page }) => {
  const broken = run >= Number(process.env.D_BROKEN_FROM);
  await page.goto(app + '/cart.html' + (broken ? '?broken=1' : ''));
  await page.locator('body[data-done]').waitFor();
  expect(await page.locator('#total').textContent()).toBe('42');
});
`;

const bin = path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js');

function daebug(args: string[], cwd: string): { stdout: string; stderr: string; status: number | null } {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}

// One worker runs the six runs once; every test reads what they wrote.
test.describe.configure({ mode: 'default' });

let server: LocalServer;
const runs: InlineRunResult[] = [];

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startApp();
  let dir: string | undefined;
  for (let run = 1; run <= RUNS; run++) {
    const result = await runInlineTest(
      { 'shop.spec.ts': spec },
      {
        ...(dir ? { dir } : {}),
        configExtra: 'retries: 1,',
        // GitLab CI's variables name each run's commit: the history reads them as a CI's.
        env: { APP_URL: server.origin, RUN: String(run), B_LOSES: B_LOSES.join(','), D_BROKEN_FROM: String(D_BROKEN_FROM), GITLAB_CI: 'true', CI_COMMIT_SHA: commitOf(run), CI_COMMIT_REF_NAME: 'main' },
      },
    );
    dir = result.dir;
    runs.push(result);
    expect(result.exitCode, result.output).toBe(run >= D_BROKEN_FROM ? 1 : 0);
  }
});

test.afterAll(async () => {
  await server?.close();
});

test('each run wrote one valid history file into the default folder, outside the reports', () => {
  const dir = path.join(runs[0]!.dir, '.daebug', 'history');
  const files = fs.readdirSync(dir).sort();
  expect(files, files.join('\n')).toHaveLength(RUNS);
  files.forEach((name, i) => {
    expect(name).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{8}\.json$/);
    const run = historyRunSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
    expect(run).toMatchObject({ version: 1, commit: commitOf(i + 1), branch: 'main', ci: 'gitlab' });
    expect(run.tests).toHaveLength(4);
  });
  const last = runs[RUNS - 1]!;
  expect(last.index.history.dir).toBe(dir);
});

test('daebug flaky --json: A with its 5xx request on both sides, B with no browser cause, not C, D failing since run 4', () => {
  const { stdout, stderr, status } = daebug(['flaky', '--json'], runs[0]!.dir);
  expect(status, stderr).toBe(0);
  const report = JSON.parse(stdout);
  expect(report.runs).toBe(RUNS);
  const titles = (list: any[]) => list.map((t) => t.test.titlePath.at(-1));
  expect(titles(report.flaky).sort()).toEqual(['A stock shows', 'B ready in time']);
  expect(titles(report.failingSince)).toEqual(['D cart total']);

  const a = report.flaky.find((t: any) => t.test.titlePath.at(-1) === 'A stock shows');
  expect(a).toMatchObject({ runs: RUNS, attempts: RUNS + A_FAILS.length, failures: A_FAILS.length, retriesPassed: A_FAILS.length, firstFlaked: { run: A_FAILS[0], commit: commitOf(A_FAILS[0]!) } });
  const request = a.evidence.find((e: any) => e.subject.kind === 'request');
  expect(request, JSON.stringify(a.evidence, null, 2)).toMatchObject({
    subject: { method: 'GET', url: 'http://127.0.0.1/api/stock', status: 502 },
    failing: { present: 3, of: 3 },
    passing: { present: 0, of: RUNS },
  });
  expect(request.p).toBeLessThanOrEqual(0.05);
  // Nothing that passing attempts have as often: the evidence is only what the failing ones have.
  for (const e of a.evidence) expect(e.failing.present / e.failing.of).toBeGreaterThan(e.passing.present / e.passing.of);

  const b = report.flaky.find((t: any) => t.test.titlePath.at(-1) === 'B ready in time');
  expect(b).toMatchObject({ failures: B_LOSES.length, retriesPassed: B_LOSES.length, evidence: [] });

  const d = report.failingSince[0];
  expect(d).toMatchObject({ since: { run: D_BROKEN_FROM, commit: commitOf(D_BROKEN_FROM) }, runs: RUNS - D_BROKEN_FROM + 1, passedBefore: true });
  expect(d.appeared.some((s: any) => s.kind === 'group' && /cart total is NaN/.test(s.message)), JSON.stringify(d.appeared)).toBe(true);
  expect(report.rule).toMatch(/Fisher's exact test, p ≤ 0\.05/);
});

test('daebug flaky in the terminal says the same', () => {
  const { stdout, status, stderr } = daebug(['flaky'], runs[0]!.dir);
  expect(status, stderr).toBe(0);
  expect(stdout).toContain(`Flaky in the last ${RUNS} runs (2), most unstable first:`);
  expect(stdout).toMatch(/shop\.spec\.ts › A stock shows\n {2}flaky in 3 of 6 runs: 9 attempts, 3 failed, 3 retries passed; first flaked in run 2 of 6 \([^)]*commit 2222222 on main\)/);
  expect(stdout).toMatch(/- request GET http:\/\/127\.0\.0\.1\/api\/stock → 502: 3 of 3 failing, 0 of 6 passing \(p = 0\.012/);
  expect(stdout).toMatch(/shop\.spec\.ts › B ready in time\n {2}flaky in 2 of 6 runs[^\n]*\n {2}no browser evidence: look at timing, test order or the test's own waits/);
  expect(stdout).not.toContain('C news');
  expect(stdout).toMatch(/shop\.spec\.ts › D cart total\n {2}failing since run 4 of 6 \([^)]*commit 4444444 on main\): every attempt of the last 3 runs failed; not flaky\n {2}appeared in that run:\n {2}- \[window\.onerror\] Error: cart total is NaN/);
  expect(stdout).toContain("Evidence: an error group or failed request counted in the test's own failing and passing attempts, kept when one-sided Fisher's exact test");
});

test("daebug history D: D's timeline, one line per run, the new error marked in run 4", () => {
  const { stdout, status, stderr } = daebug(['history', 'D cart total'], runs[0]!.dir);
  expect(status, stderr).toBe(0);
  const lines = stdout.split('\n');
  expect(lines[0]).toBe('shop.spec.ts › D cart total');
  expect(lines[1]).toMatch(/^6 runs of 6 kept: failing since run 4 of 6/);
  const runLines = lines.filter((l) => /^run \d of 6/.test(l));
  expect(runLines).toHaveLength(RUNS);
  runLines.slice(0, 3).forEach((l) => expect(l).toMatch(/: passed \[passed\] \d+\.\d s$/));
  runLines.slice(3).forEach((l) => expect(l).toMatch(/: FAILED \[failed, failed\] \d+\.\d s$/));
  const run4 = lines.indexOf(runLines[3]!);
  expect(lines[run4 + 1]).toMatch(/^ {2}new \[window\.onerror\] Error: cart total is NaN/);
  expect(lines[lines.indexOf(runLines[4]!) + 1]).toMatch(/^ {6}\[window\.onerror\] Error: cart total is NaN/);

  const json = daebug(['history', 'D cart total', '--json'], runs[0]!.dir);
  const timeline = JSON.parse(json.stdout).timeline;
  expect(timeline).toMatchObject({ verdict: 'failing', since: { run: D_BROKEN_FROM }, runs: RUNS, of: RUNS });
  expect(timeline.entries.map((e: any) => e.verdict)).toEqual(['P', 'P', 'P', 'F', 'F', 'F']);
});

test('mcp: daebug_get_flaky and daebug_get_history answer with the CLI\'s text, the history folder found from the run\'s index', async () => {
  const cwd = runs[0]!.dir;
  // Started as an agent starts it: in the project, pointed at the reports only.
  const client = await mcpClient(runs.at(-1)!.reportsDir, { cwd });
  try {
    const text = async (name: string, args: Record<string, unknown>) => {
      const answer = await callTool(client, name, args);
      expect(answer.isError, answer.text).toBe(false);
      return answer.text;
    };
    const flaky = await text('daebug_get_flaky', {});
    expect(flaky).toBe(daebug(['flaky'], cwd).stdout.trimEnd());
    expect(flaky).toMatch(/shop\.spec\.ts › A stock shows\n {2}flaky in 3 of 6 runs/);
    expect(JSON.parse(await text('daebug_get_flaky', { json: true }))).toEqual(JSON.parse(daebug(['flaky', '--json'], cwd).stdout));
    const history = await text('daebug_get_history', { test: 'D cart total' });
    expect(history).toBe(daebug(['history', 'D cart total'], cwd).stdout.trimEnd());
    expect(history).toMatch(/^shop\.spec\.ts › D cart total\n6 runs of 6 kept: failing since run 4 of 6/);
    // Every test matches the spec file: the tool lists them and asks for one (an error, as the CLI's exit code 1).
    const several = await callTool(client, 'daebug_get_history', { test: 'shop.spec.ts' });
    expect(several.isError).toBe(true);
    expect(several.text).toBe(daebug(['history', 'shop.spec.ts'], cwd).stdout.trimEnd());
    expect(several.text).toMatch(/^4 tests in the history match "shop\.spec\.ts"; name one:/);
    for (const title of ['A stock shows', 'B ready in time', 'C news', 'D cart total']) expect(several.text).toContain(title);
  } finally {
    await client.close();
  }
});

test("the last run's index says what is flaky and failing, and when each group was first seen", () => {
  const last = runs[RUNS - 1]!;
  const md = fs.readFileSync(path.join(last.reportsDir, 'index.md'), 'utf8');
  expect(md).toContain(`## Flaky in the last ${RUNS} runs`);
  expect(md).toContain('## Failing since');
  expect(md).toMatch(/- \*\*shop\.spec\.ts › A stock shows\*\*: flaky in 3 of 6 runs[^\n]*\n {2}- request `GET http:\/\/127\.0\.0\.1\/api\/stock → 502`: 3 of 3 failing, 0 of 6 passing/);
  expect(md).toMatch(/- \*\*shop\.spec\.ts › B ready in time\*\*: flaky in 2 of 6 runs[^\n]*\n {2}- no browser evidence/);
  expect(md).toMatch(/- \*\*shop\.spec\.ts › D cart total\*\*: failing since run 4 of 6[^\n]*\n {2}- appeared in that run: \[window\.onerror\] Error: cart total is NaN/);
  const cart = last.index.groups.find((g: any) => /cart total is NaN/.test(g.message));
  expect(cart.firstSeen).toMatchObject({ runsAgo: RUNS - D_BROKEN_FROM, commit: commitOf(D_BROKEN_FROM) });
  expect(md).toContain(`first seen ${RUNS - D_BROKEN_FROM} runs ago, commit ${commitOf(D_BROKEN_FROM).slice(0, 7)}`);
  const consent = last.index.groups.find((g: any) => /consent missing/.test(g.message));
  expect(consent.firstSeen).toMatchObject({ runsAgo: RUNS - 1, commit: commitOf(1) });
  // In the run it appeared in, it was new.
  const fourth = runs[D_BROKEN_FROM - 1]!;
  expect(fourth.index.groups.find((g: any) => /cart total is NaN/.test(g.message)).firstSeen).toMatchObject({ runsAgo: 0 });
});
