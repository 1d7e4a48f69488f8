import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { reportByTitle, runInlineTest, type InlineRunResult } from './helpers/run-playwright';

// daebugValues (issue 25): at a test's end daebug reads logged values in full only where they can matter. A passing
// test's plain log keeps V8's preview (`preview: true`); an error, a warning, console.error, a failed test, a test
// that strict mode fails and whatever the test read itself are read in full (seed 002's serialization); 'full' reads
// everything. One inline run holds every case; each test's JSON and Markdown report are read back.

// Nested past V8's one-level preview, circular, with a getter: what the full read shows and the preview cannot.
const LOG = `() => {
  const value: any = { a: { b: { c: 1 } }, get g() { return 1; } };
  value.self = value;
  console.log('nested', value);
}`;
const FULL = 'nested {"a":{"b":{"c":1}},"g":"[Getter]","self":"[Circular]"}';
// The test ends while its page runs an 8 s task: a read would wait for it, the interrupt does not.
const BUSY_MS = 8000;
const BUSY = `() => {
  console.log('nested', { a: { b: { c: 1 } } });
  setTimeout(() => { const end = Date.now() + ${BUSY_MS}; while (Date.now() < end); }, 0);
}`;

const spec = `
import { test, expect } from 'daebug';

test.beforeEach(async ({ page }) => {
  await page.goto('/index.html');
});

test('a passing log', async ({ page }) => {
  await page.evaluate(${LOG});
});

test('a failing log', async ({ page }) => {
  await page.evaluate(${LOG});
  expect(1, 'this test fails on purpose').toBe(2);
});

test('a log the test read through events()', async ({ page, daebug }) => {
  await page.evaluate(${LOG});
  await expect.poll(() => daebug.events().filter((e) => e.source === 'console.log').length).toBe(1);
});

test('console.error and console.warn in a passing test', async ({ page }) => {
  await page.evaluate(() => {
    console.error('failed', { a: { b: { c: 1 } } });
    console.warn('careful', { a: { b: { c: 1 } } });
  });
});

test('an uncaught object in a passing test', async ({ page }) => {
  await page.evaluate(() => new Promise<void>((resolve) => {
    window.addEventListener('error', () => resolve(), { once: true });
    setTimeout(() => { throw { code: 7, detail: { deep: { x: 1 } } }; });
  }));
});

test('a log inside a job', async ({ page, daebug }) => {
  await daebug.job('log', () => page.evaluate(${LOG}));
});

test.describe(() => {
  test.use({ daebugStrict: true });
  test('a log in a test strict mode fails', async ({ page }) => {
    await page.evaluate(${LOG});
    await page.evaluate(() => console.error('strict fails on this'));
  });
  test('a log in a strict test with an expected error only', async ({ page, daebug }) => {
    daebug.expectError('expected here');
    await page.evaluate(${LOG});
    await page.evaluate(() => console.error('expected here', { a: { b: { c: 1 } } }));
  });
});

test('a passing test that ends while its page is busy', async ({ page }) => {
  await page.evaluate(${BUSY});
});

test.describe(() => {
  test.use({ daebugValues: 'full' });
  test('a passing log with daebugValues full', async ({ page }) => {
    await page.evaluate(${LOG});
  });
  test('a passing test that ends while its page is busy, with daebugValues full', async ({ page }) => {
    await page.evaluate(${BUSY});
  });
});
`;

// On Playwright's own sessions (tapped) and on daebug's (DAEBUG_OWN_SESSIONS), where values left to their preview
// are released one by one.
type Sessions = 'tapped' | 'own';
const runs = new Map<Sessions, Promise<InlineRunResult>>();
function run(sessions: Sessions): Promise<InlineRunResult> {
  let result = runs.get(sessions);
  if (!result) runs.set(sessions, (result = runInlineTest({ 'values.spec.ts': spec }, { env: sessions === 'own' ? { DAEBUG_OWN_SESSIONS: '1' } : {} })));
  return result;
}

async function reportOf(sessions: Sessions, title: string): Promise<{ json: any; md: string }> {
  return reportByTitle(await run(sessions), title);
}

const bySource = (json: any, source: string) => (json.events as any[]).filter((e) => e.source === source);

test.describe.configure({ mode: 'default', timeout: 180_000 });

for (const sessions of ['tapped', 'own'] as const) {
  test.describe(`${sessions} sessions`, () => {
    test("a passing test's plain log keeps V8's preview, says so in the JSON and once in the Markdown header", async () => {
      const { json, md } = await reportOf(sessions, 'a passing log');
      expect(json.test.status).toBe('passed');
      const [log] = bySource(json, 'console.log');
      // V8's preview: one level deep; nested objects are named, not shown; a getter's value is the preview's own.
      expect(log.message).toMatch(/^nested \{"a":Object,/);
      expect(log.message).not.toContain('"c":1');
      expect(log.preview).toBe(true);
      expect(md.match(/^- Previews: 1 event shows V8's preview of the logged values/gm)).toHaveLength(1);
      expect(md).toMatch(/^- Previews: .*daebugValues: 'full'/m);
    });

    test("the same log in a failing test is read in full, with seed 002's serialization", async () => {
      const { json, md } = await reportOf(sessions, 'a failing log');
      expect(json.test.status).toBe('failed');
      const [log] = bySource(json, 'console.log');
      expect(log.message).toBe(FULL);
      expect(log.preview).toBeUndefined();
      expect(md).not.toContain('- Previews:');
    });

    test('a log the test read through events(), or inside a job, is read in full', async () => {
      for (const title of ['a log the test read through events()', 'a log inside a job']) {
        const { json } = await reportOf(sessions, title);
        expect(json.test.status).toBe('passed');
        const [log] = bySource(json, 'console.log');
        expect(log.message, title).toBe(FULL);
        expect(log.preview, title).toBeUndefined();
      }
    });

    test('console.error, console.warn and an uncaught object are read in full in a passing test', async () => {
      const { json } = await reportOf(sessions, 'console.error and console.warn in a passing test');
      expect(json.test.status).toBe('passed');
      expect(bySource(json, 'console.error').map((e) => [e.message, e.preview])).toEqual([['failed {"a":{"b":{"c":1}}}', undefined]]);
      expect(bySource(json, 'console.warn').map((e) => [e.message, e.preview])).toEqual([['careful {"a":{"b":{"c":1}}}', undefined]]);
      const thrown = await reportOf(sessions, 'an uncaught object in a passing test');
      expect(bySource(thrown.json, 'window.onerror').map((e) => [e.message, e.preview])).toEqual([['{"code":7,"detail":{"deep":{"x":1}}}', undefined]]);
    });

    test('strict mode: a test it fails reads every value; a strict test with only an expected error keeps previews', async () => {
      const failed = await reportOf(sessions, 'a log in a test strict mode fails');
      expect(failed.json.test.status).toBe('failed');
      expect(bySource(failed.json, 'console.log').map((e) => [e.message, e.preview])).toEqual([[FULL, undefined]]);
      const passed = await reportOf(sessions, 'a log in a strict test with an expected error only');
      expect(passed.json.test.status).toBe('passed');
      expect(bySource(passed.json, 'console.log').map((e) => e.preview)).toEqual([true]);
      // An expected console.error does not count: its preview stays too.
      expect(bySource(passed.json, 'console.error').map((e) => [e.message, e.expected, e.preview])).toEqual([['expected here {"a":Object}', true, true]]);
    });

    test("daebugValues: 'full' reads a passing test's log in full", async () => {
      const { json, md } = await reportOf(sessions, 'a passing log with daebugValues full');
      expect(json.test.status).toBe('passed');
      expect(bySource(json, 'console.log').map((e) => [e.message, e.preview])).toEqual([[FULL, undefined]]);
      expect(md).not.toContain('- Previews:');
    });

    test("with nothing left to read, the test's end does not wait for the page's main thread; with 'full' it waits for the read", async () => {
      const auto = await reportOf(sessions, 'a passing test that ends while its page is busy');
      const [log] = bySource(auto.json, 'console.log');
      expect(log.preview).toBe(true);
      // The test started before its navigation: it ended before the page's task did.
      const [navigation] = bySource(auto.json, 'navigation');
      expect(Date.parse(navigation.time) + auto.json.test.duration).toBeLessThan(Date.parse(log.time) + BUSY_MS);
      const full = await reportOf(sessions, 'a passing test that ends while its page is busy, with daebugValues full');
      expect(bySource(full.json, 'console.log').map((e) => [e.message, e.preview])).toEqual([['nested {"a":{"b":{"c":1}}}', undefined]]);
      expect(full.json.test.duration).toBeGreaterThanOrEqual(BUSY_MS);
    });
  });
}

// A baseline: run 1 writes it; in strict run 2 the known errors keep their previews and do not fail the test, a new
// one fails it, and then every value of that test is read. A known error whose preview is not its full text (an
// object nested past V8's one level) is told by its shape (src/run/message-shape.ts) and keeps the group's fingerprint.
const baselineRun = (strict: boolean) => `
import { test } from 'daebug';
${strict ? "test.use({ daebugStrict: true, daebugBaseline: 'daebug-baseline.json' });" : ''}
test.beforeEach(async ({ page }) => {
  await page.goto('/index.html');
});
const known = () => console.error('known failure', { id: 1 });
const knownNested = () => console.error('known nested', { a: { b: { c: 1 } } });
test('only a known error', async ({ page }) => {
  await page.evaluate(${LOG});
  await page.evaluate(known);
  await page.evaluate(knownNested);
});
test('a known error and a new one', async ({ page }) => {
  await page.evaluate(${LOG});
  await page.evaluate(known);
  await page.evaluate(knownNested);
  ${strict ? "await page.evaluate(() => console.error('new failure', { a: { b: { c: 1 } } }));" : ''}
});
`;

test('with a baseline, a known error keeps its preview; a new error in a strict test has every value read', async () => {
  const first = await runInlineTest({ 'values.spec.ts': baselineRun(false) });
  expect(first.exitCode, first.output).toBe(0);
  execFileSync(process.execPath, [path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js'), 'baseline'], { cwd: first.dir, stdio: 'ignore' });
  expect(fs.existsSync(path.join(first.dir, 'daebug-baseline.json'))).toBe(true);
  fs.rmSync(first.reportsDir, { recursive: true });
  const second = await runInlineTest({ 'values.spec.ts': baselineRun(true) }, { dir: first.dir });
  const byTitle = new Map(Object.values(second.reports).map((r: any) => [r.test.title, r]));
  const onlyKnown = byTitle.get('only a known error');
  expect(onlyKnown.test.status, second.output).toBe('passed');
  expect(bySource(onlyKnown, 'console.error').map((e) => [e.message, e.known, e.preview])).toEqual([
    ['known failure {"id":1}', true, true],
    ['known nested {"a":Object}', true, true],
  ]);
  const nestedIn = (run: InlineRunResult) =>
    Object.values(run.reports).flatMap((r: any) => bySource(r, 'console.error')).filter((e: any) => e.message.startsWith('known nested')).map((e: any) => e.fingerprint);
  // Run 1 read it in full (no baseline), run 2 kept its preview: one fingerprint, the baseline's.
  const fingerprints = new Set([...nestedIn(first), ...nestedIn(second)]);
  expect(fingerprints.size, [...fingerprints].join()).toBe(1);
  expect(JSON.parse(fs.readFileSync(path.join(first.dir, 'daebug-baseline.json'), 'utf8')).groups.map((g: any) => g.fingerprint)).toContain([...fingerprints][0]);
  expect((second.index.groups as any[]).filter((g) => g.message.startsWith('known nested')).map((g) => [g.message, g.new, g.tests])).toEqual([['known nested {"a":{"b":{"c":1}}}', false, 2]]);
  expect(bySource(onlyKnown, 'console.log').map((e) => e.preview)).toEqual([true]);
  const withNew = byTitle.get('a known error and a new one');
  expect(withNew.test.status).toBe('failed');
  expect(bySource(withNew, 'console.error').map((e) => [e.message, e.known, e.preview])).toEqual([
    ['known failure {"id":1}', true, undefined],
    ['known nested {"a":{"b":{"c":1}}}', true, undefined],
    ['new failure {"a":{"b":{"c":1}}}', undefined, undefined],
  ]);
  expect(bySource(withNew, 'console.log').map((e) => [e.message, e.preview])).toEqual([[FULL, undefined]]);
});
