import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { findFiles, readZip } from './helpers/trace-zip';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';

// Issue 24, item 1. SvelteKit's test/utils.js overrides `context` and closes it after `use`: daebug's teardown then
// finds the test's context closed, and used to fetch scripts and maps through it ("Target page, context or browser
// has been closed"), so whether a test's frames were mapped depended on which test of the worker ran first. daebug
// now fetches with a client of its own, per worker, with the cookies it kept before the context closed. Each run
// below has one worker; the file runs twice, each time in another test order.

const appSrc = path.resolve(__dirname, '..', 'fixtures', 'app', 'src');
const pricing = fs.readFileSync(path.join(appSrc, 'pricing.ts'), 'utf8').split('\n');
const thrownLine = pricing.findIndex((l) => l.includes('const unit = item.product!.price;')) + 1;

const spec = `
import { test as base } from '@playwright/test';
import { test as daebugTest, expect, mergeTests } from 'daebug';

// The suite's fixture on top of daebug's: it closes the context before daebug's teardown runs (SvelteKit's order).
const suiteClosesFirst = daebugTest.extend({
  context: async ({ context }, use) => {
    await use(context);
    await context.close();
  },
});
// The same fixture under daebug's: daebug's teardown runs while the context is still open.
const daebugFirst = mergeTests(
  base.extend({
    context: async ({ context }, use) => {
      await use(context);
      await context.close();
    },
  }),
  daebugTest,
);

async function throwInApp(page: any, daebug: any, url: string) {
  await page.goto(url);
  await page.evaluate(() => (window as any).daebugApp.checkoutLater());
  await expect.poll(() => daebug.errors().length, { timeout: 5000 }).toBeGreaterThan(0);
}

const tests: Record<string, () => void> = {
  'suite closes first': () => suiteClosesFirst('suite closes first', async ({ page, daebug }) => throwInApp(page, daebug, '/app/app.html')),
  'daebug first': () => daebugFirst('daebug first', async ({ page, daebug }) => throwInApp(page, daebug, '/app/app.html')),
  plain: () => daebugTest('plain', async ({ page, daebug }) => throwInApp(page, daebug, '/app/app.html')),
  // The page, its script and its map are served only with a cookie the test set: daebug sends the cookies it kept.
  'signed-in script, suite closes first': () =>
    suiteClosesFirst('signed-in script, suite closes first', async ({ page, context, daebug, baseURL }) => {
      await context.addCookies([{ name: 'daebug_gate', value: 'open', url: baseURL! }]);
      await throwInApp(page, daebug, '/gated/app/app.html');
    }),
  // A staging server behind HTTP Basic that also wants a header: the config's httpCredentials and extraHTTPHeaders.
  'staging server, suite closes first': () =>
    suiteClosesFirst.describe(() => {
      suiteClosesFirst.use({ httpCredentials: { username: 'daebug', password: 'open' }, extraHTTPHeaders: { 'x-daebug-key': 'k1' } });
      suiteClosesFirst('staging server, suite closes first', async ({ page, daebug }) => throwInApp(page, daebug, '/basic/app/app.html'));
    }),
};
for (const title of process.env['DAEBUG_TEST_ORDER']!.split('|')) tests[title]!();
`;

const ORDERS = {
  'closing test first': ['suite closes first', 'signed-in script, suite closes first', 'staging server, suite closes first', 'daebug first', 'plain'],
  'plain test first': ['plain', 'daebug first', 'suite closes first', 'signed-in script, suite closes first', 'staging server, suite closes first'],
} as const;

test.describe.configure({ mode: 'default' });

const runs = new Map<string, InlineRunResult>();

test.beforeAll(async () => {
  test.setTimeout(180_000);
  for (const [name, order] of Object.entries(ORDERS)) {
    // The first run also records traces: daebug's own calls (cookies) must stay out of the tests' actions.
    const trace = name === 'closing test first';
    runs.set(name, await runInlineTest({ 'closed-context.spec.ts': spec }, { env: { DAEBUG_TEST_ORDER: order.join('|') }, use: trace ? "trace: 'on'," : '', configExtra: "outputDir: './test-results'," }));
  }
});

for (const [name, order] of Object.entries(ORDERS)) {
  test.describe(name, () => {
    for (const title of order) {
      test(`${title}: the error is mapped to src/pricing.ts, with no source-map diagnostic`, () => {
        const run = runs.get(name)!;
        const entry = Object.entries(run.reports).find(([, r]) => r.test.title === title);
        if (!entry) throw new Error(`no report for ${title}:\n${run.output}`);
        const [file, json] = entry;
        const md = run.markdown[file.replace(/\.json$/, '.md')] ?? '';
        expect(json.test.status).toBe('passed');
        const error = json.events.find((e: any) => e.source === 'window.onerror');
        expect(error.frames[0]).toMatchObject({ userCode: true, original: { source: 'src/pricing.ts', line: thrownLine, functionName: 'priceOf' } });
        expect(error.frames.some((f: any) => f.unmappedReason)).toBe(false);
        expect(json.diagnostics ?? []).toEqual([]);
        expect(json.unmappedScripts).toBeUndefined();
        expect(md).toMatch(new RegExp(`  > src/pricing\\.ts:${thrownLine}:\\d+ in priceOf`));
        expect(md).not.toContain('not mapped');
      });
    }

    test('the same error has one fingerprint in every test, and index.md has no source-map note', () => {
      const run = runs.get(name)!;
      const groups = run.index.groups.filter((g: any) => g.source === 'window.onerror');
      expect(groups).toHaveLength(1);
      expect(groups[0].tests).toBe(order.length);
      expect(run.index.unmappedByCause).toBeUndefined();
      expect(fs.readFileSync(path.join(run.reportsDir, 'index.md'), 'utf8')).not.toContain('## Source maps');
    });
  });
}

test("reading the closing context's cookies stays out of the tests' actions in the trace", () => {
  const run = runs.get('closing test first')!;
  const zips = findFiles(path.join(run.dir, 'test-results'), 'trace.zip');
  expect(zips.length).toBe(ORDERS['closing test first'].length);
  const titles = zips.flatMap((zip) =>
    (readZip(zip).get('test.trace')?.toString('utf8') ?? '')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; title?: string })
      .filter((e) => e.type === 'before')
      .map((e) => e.title ?? ''),
  );
  // The test's own calls are there, its own cookie call too, else the check proves nothing. daebug read the closing
  // context's cookies in the signed-in test (its script was mapped only with them); a call of the user's would read
  // "Get cookies".
  expect(titles).toEqual(expect.arrayContaining(['Navigate', 'Add cookies']));
  expect(titles.filter((t) => /cookie/i.test(t) && t !== 'Add cookies')).toEqual([]);
});
