import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';
import { findFiles, readZip } from './helpers/trace-zip';
import { startChromiumForCdp, startPlaywrightServer, type RemoteBrowser } from './helpers/remote-browsers';

// Remote browsers (issue 11.4): daebug works unchanged when the browser runs behind a Playwright server
// (`use: { connectOptions: { wsEndpoint } }`) or is reached with `chromium.connectOverCDP()` (the `browser` fixture
// overridden). Both are started here on 127.0.0.1; the generated project runs against the source-mapped fixture app.

const appSrc = path.resolve(__dirname, '..', 'fixtures', 'app', 'src');
const port = process.env['DAEBUG_FIXTURES_PORT'] ?? '4517';

/** `src/<file>:<line>:<col>` of `token` on the line holding `lineText` in a fixture source. */
function at(file: string, lineText: string, token: string): { where: string; line: number; text: string } {
  const lines = fs.readFileSync(path.join(appSrc, file), 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes(lineText));
  if (index === -1) throw new Error(`${lineText} is not in ${file}`);
  const text = lines[index]!;
  return { where: `src/${file}:${index + 1}:${text.indexOf(token, text.indexOf(lineText)) + 1}`, line: index + 1, text };
}

const spec = (importTest: string, more = '') => `
${importTest}
import { expect } from '@playwright/test';

test('page and worker errors', async ({ page, daebug }) => {
  await page.goto('/app/app.html');
  await page.evaluate(() => (window as any).daebugApp.checkoutLater());
  await page.evaluate(() => (window as any).daebugApp.saveCart());
  await page.evaluate(() => (window as any).daebugApp.startWorker());
  await expect.poll(() => daebug.events().map((e) => e.source), { timeout: 10000 }).toEqual(expect.arrayContaining(['window.onerror', 'console.error', 'self.onerror']));
});

test('a context the test makes itself', async ({ browser, baseURL, daebug }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/app/app.html');
  await page.evaluate(() => (window as any).daebugApp.loadProfileLater());
  await expect.poll(() => daebug.errors().length, { timeout: 10000 }).toBeGreaterThan(0);
  await context.close();
});
${more}`;

const DEFAULT_CONTEXT_TEST = 'the default context of the connected browser, in a later test';

// Runs after another test of the same worker: the default context was made before this test's capture listened.
const defaultContextTest = `
test('${DEFAULT_CONTEXT_TEST}', async ({ browser, daebug }) => {
  const page = await browser.contexts()[0]!.newPage();
  await page.goto('http://127.0.0.1:${port}/app/app.html');
  await page.evaluate(() => (window as any).daebugApp.checkoutLater());
  await expect.poll(() => daebug.errors().length, { timeout: 10000 }).toBeGreaterThan(0);
  await page.close();
});
`;

/** A project of its own per setup; traces on, to show that daebug's protocol calls stay out of them. */
function config(use: string): string {
  return `import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from 'daebug/browser';
export default defineConfig({
  workers: 1,
  timeout: 30000,
  reporter: [['line'], ['daebug/reporter', { outputDir: 'reports' }]],
  outputDir: './test-results',
  use: { baseURL: 'http://127.0.0.1:${port}', trace: 'on', ${use} },
});
`;
}

const cdpFixtures = (endpoint: string) => `
import type { Browser } from '@playwright/test';
import { test as daebugTest } from 'daebug';

export const test = daebugTest.extend<{}, { browser: Browser }>({
  browser: [
    async ({ playwright }, use) => {
      const browser = await playwright.chromium.connectOverCDP(${JSON.stringify(endpoint)});
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
});
`;

function byTitle(run: InlineRunResult, title: string): { json: any; md: string } {
  const entry = Object.entries(run.reports).find(([, r]) => r.test.title === title);
  if (!entry) throw new Error(`no report for ${title}:\n${run.output}`);
  return { json: entry[1], md: run.markdown[entry[0].replace(/\.json$/, '.md')] ?? '' };
}

interface TraceStep {
  type: string;
  callId: string;
  parentId?: string;
  method?: string;
  title?: string;
}

/**
 * The runner's steps of every trace of the run (`test.trace` inside each trace.zip) as `[title, in a fixture or hook]`:
 * every Playwright call made during a test shows there, and the trace viewer lists those outside fixtures and hooks
 * among the test's own actions.
 */
function tracedSteps(run: InlineRunResult): Array<[string, boolean]> {
  const zips = findFiles(path.join(run.dir, 'test-results'), 'trace.zip');
  if (zips.length < 2) throw new Error(`expected a trace.zip per test, found ${zips.length}\n${run.output}`);
  return zips.flatMap((zip) => {
    const steps = (readZip(zip).get('test.trace')?.toString('utf8') ?? '')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as TraceStep)
      .filter((e) => e.type === 'before');
    const byId = new Map(steps.map((e) => [e.callId, e]));
    const inFixture = (e: TraceStep | undefined): boolean => !!e && (e.method === 'fixture' || e.method === 'hook' || inFixture(e.parentId ? byId.get(e.parentId) : undefined));
    return steps.map((e): [string, boolean] => [e.title ?? '', inFixture(e)]);
  });
}

const thrown = at('pricing.ts', 'const unit = item.product!.price;', 'price;');
const workerThrow = at('jobs.ts', 'throw new RangeError(', 'new RangeError');
const rejected = at('api.ts', "throw new Error('profile payload has no id');", 'new Error');

const setups: Array<{ name: string; start: () => Promise<RemoteBrowser>; files: (endpoint: string) => Record<string, string>; tests: string[] }> = [
  {
    name: 'a Playwright server (run-server, connectOptions)',
    start: startPlaywrightServer,
    files: (endpoint) => ({
      'playwright.config.ts': config(`launchOptions: chromiumLaunchOptions(), connectOptions: { wsEndpoint: ${JSON.stringify(endpoint)} },`),
      'remote.spec.ts': spec("import { test } from 'daebug';"),
    }),
    tests: ['a context the test makes itself', 'page and worker errors'],
  },
  {
    name: 'a Chromium reached with connectOverCDP',
    start: startChromiumForCdp,
    files: (endpoint) => ({
      'playwright.config.ts': config(''),
      'fixtures.ts': cdpFixtures(endpoint),
      'remote.spec.ts': spec("import { test } from './fixtures';", defaultContextTest),
    }),
    tests: ['a context the test makes itself', 'page and worker errors', DEFAULT_CONTEXT_TEST],
  },
];

for (const setup of setups) {
  test.describe(setup.name, () => {
    test.describe.configure({ mode: 'default' });

    let remote: RemoteBrowser | undefined;
    let run: InlineRunResult;

    test.beforeAll(async () => {
      test.setTimeout(150_000);
      remote = await setup.start();
      run = await runInlineTest(setup.files(remote.endpoint), { timeoutMs: 120_000 });
    });

    test.afterAll(async () => {
      await remote?.stop();
    });

    test('the run passes and reports every test', () => {
      expect(run.exitCode, `${run.output}\n--- browser side ---\n${remote?.output()}`).toBe(0);
      expect(run.index.tests.map((t: any) => t.title).sort()).toEqual(setup.tests);
    });

    test('uncaught error, console.error and worker error are captured, source-mapped, with code frames', () => {
      const { json, md } = byTitle(run, 'page and worker errors');
      const uncaught = json.events.find((e: any) => e.source === 'window.onerror');
      expect(uncaught).toMatchObject({ realm: 'page', unexpected: true });
      expect(uncaught.frames[0]).toMatchObject({ url: expect.stringContaining('/app/dist/app.js'), original: { source: 'src/pricing.ts', line: thrown.line, functionName: 'priceOf' } });
      expect(uncaught.snippet).toContain(`> ${thrown.line} | ${thrown.text}`);
      expect(md).toContain(`  > ${thrown.where} in priceOf`);

      const logged = json.events.find((e: any) => e.source === 'console.error');
      expect(logged.message).toMatch(/^save failed TypeError: Cannot read properties of undefined \(reading 'price'\)/);
      expect(logged.frames[0].original).toMatchObject({ source: 'src/pricing.ts', line: thrown.line });

      const inWorker = json.events.find((e: any) => e.source === 'self.onerror');
      expect(inWorker.realm).toBe('worker:worker.js');
      expect(inWorker.frames[0].original).toMatchObject({ source: 'src/jobs.ts', line: workerThrow.line, functionName: 'validateJob' });
      expect(inWorker.snippet).toContain(`> ${workerThrow.line} | ${workerThrow.text}`);
      expect(md).toContain(`  > ${workerThrow.where} in validateJob`);
      expect(json.events.find((e: any) => e.source === 'worker.start')?.realm).toBe('worker:worker.js');

      expect(json.summary.unexpected).toBeGreaterThanOrEqual(3);
      expect(json.diagnostics ?? []).toEqual([]);
    });

    test('a context made with browser.newContext() is captured too', () => {
      const { json, md } = byTitle(run, 'a context the test makes itself');
      const rejection = json.events.find((e: any) => e.source === 'unhandledrejection');
      expect(rejection.frames[0].original).toMatchObject({ source: 'src/api.ts', line: rejected.line, functionName: 'parseProfile' });
      expect(md).toContain(`  > ${rejected.where} in parseProfile`);
      expect(json.diagnostics ?? []).toEqual([]);
    });

    if (setup.tests.includes(DEFAULT_CONTEXT_TEST)) {
      test("the connected browser's default context is captured in any test of the worker", () => {
        const { json, md } = byTitle(run, DEFAULT_CONTEXT_TEST);
        const uncaught = json.events.find((e: any) => e.source === 'window.onerror');
        expect(uncaught.frames[0].original).toMatchObject({ source: 'src/pricing.ts', line: thrown.line, functionName: 'priceOf' });
        expect(md).toContain(`  > ${thrown.where} in priceOf`);
      });
    }

    test("daebug's own protocol calls and source-map fetches stay out of the tests' traces", () => {
      const steps = tracedSteps(run);
      const body = steps.filter(([, inFixture]) => !inFixture).map(([title]) => title);
      // The test's own actions are there, else the check proves nothing. (Without internalCall, 12 of daebug's calls
      // show here.)
      expect(body).toEqual(expect.arrayContaining(['Navigate', 'Evaluate']));
      expect(body.filter((title) => /CDP session|CDP command|^GET$/.test(title))).toEqual([]);
    });
  });
}
