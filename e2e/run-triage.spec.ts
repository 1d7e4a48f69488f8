import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { readReports, runInlineTest } from './helpers/run-playwright';

// The app is served by page.route under the fixtures server's origin, so each test can pick its bundle's name;
// the "third-party" widget comes from localhost, another origin than the page's 127.0.0.1.
const app = `
import { test as base, expect } from 'daebug';

const APP_JS = [
  "function loadInvoice(id) { throw new Error('Invoice ' + id + ' not found'); }",
  "function boom(kind) { throw new TypeError(kind === 'alpha' ? 'alpha broke' : 'beta broke'); }",
  "window.run = (what, arg) => setTimeout(() => (what === 'invoice' ? loadInvoice(arg) : boom(arg)));",
].join('\\n');
const WIDGET_JS = "setTimeout(function widget() { throw new Error('widget failed to render'); });";

export const test = base.extend<{ openApp: (bundle: string, options?: { widget?: boolean }) => Promise<void> }>({
  openApp: async ({ page }, use) => {
    await use(async (bundle, options = {}) => {
      await page.route('**/triage/**', (route) => {
        const url = new URL(route.request().url());
        if (url.pathname.endsWith('.html')) {
          const widget = options.widget ? '<script src="http://localhost:' + url.port + '/triage/widget.js"></script>' : '';
          return route.fulfill({ contentType: 'text/html', body: '<!doctype html><body><script src="/triage/' + bundle + '"></script>' + widget + '</body>' });
        }
        return route.fulfill({ contentType: 'text/javascript', body: url.pathname.endsWith('widget.js') ? WIDGET_JS : APP_JS });
      });
      await page.goto('/triage/index.html');
    });
  },
});

/** Runs window.run(what, arg) and waits until the page saw the error it throws. */
export async function throwIn(page: import('@playwright/test').Page, what: string, arg: unknown): Promise<void> {
  await page.evaluate(([what, arg]) => new Promise<void>((resolve) => {
    window.addEventListener('error', () => resolve(), { once: true });
    (window as any).run(what, arg);
  }), [what, arg] as const);
}

export { expect };
`;

const run1 = `
import { test, throwIn, expect } from './app';
test('invoice 3310', async ({ page, openApp }) => {
  await openApp('app.91d2e0.js');
  await throwIn(page, 'invoice', 3310);
});
test('invoice 7 from another build', async ({ page, openApp }) => {
  await openApp('app.4c7b13.js');
  await throwIn(page, 'invoice', 7);
});
test('alpha', async ({ page, openApp }) => {
  await openApp('app.91d2e0.js');
  await throwIn(page, 'boom', 'alpha');
});
test('widget', async ({ page, openApp, daebug }) => {
  await openApp('app.91d2e0.js', { widget: true });
  await expect.poll(async () => { await daebug.settle(); return daebug.errors().length; }).toBeGreaterThan(0);
});
`;

// Run 2: the invoice error again (known), alpha gone, beta new on alpha's line, the widget gone (fixed).
const run2 = `
import { test, throwIn } from './app';
test.use({ daebugStrict: true, daebugBaseline: 'daebug-baseline.json' });
test('invoice 3310', async ({ page, openApp }) => {
  await openApp('app.aa11bb.js');
  await throwIn(page, 'invoice', 42);
});
test('alpha', async ({ page, openApp }) => {
  await openApp('app.aa11bb.js');
  await throwIn(page, 'invoice', 9);
  await throwIn(page, 'boom', 'beta');
});
test('widget', async ({ page, openApp }) => {
  await openApp('app.aa11bb.js');
});
`;

const daebugCli = path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js');

function cli(dir: string, args: string[]): string {
  return execFileSync(process.execPath, [daebugCli, ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function groupsByMessage(index: any): Map<string, any> {
  return new Map((index.groups as any[]).map((g) => [g.message.replace(/^Uncaught /, ''), g]));
}



test('one error from several tests and two bundles is one group; other messages on its line are not; a third-party error is third-party', async () => {
  const result = await runInlineTest({ 'app.ts': app, 'a.spec.ts': run1 });
  expect(result.exitCode, result.output).toBe(0);
  const groups = groupsByMessage(result.index);
  const invoice = [...groups.values()].find((g) => /Invoice \d+ not found/.test(g.message));
  expect(invoice, JSON.stringify(result.index.groups, null, 2)).toBeTruthy();
  expect(invoice.tests).toBe(2);
  expect(invoice.count).toBe(2);
  expect(invoice.reports).toHaveLength(2);
  expect(invoice.origin).toBe('app');
  expect(invoice.unexpected).toBe(true);
  expect(invoice.where).toMatch(/app\.[0-9a-f]{6}\.js:1 in loadInvoice/);
  expect(invoice.new).toBeUndefined();
  const alpha = [...groups.values()].find((g) => /alpha broke/.test(g.message));
  expect(alpha.tests).toBe(1);
  expect(alpha.fingerprint).not.toBe(invoice.fingerprint);
  const widget = [...groups.values()].find((g) => /widget failed/.test(g.message));
  expect(widget.origin).toBe('third-party');
  // Every unexpected event of the reports carries its group's fingerprint.
  const fingerprints = new Set(Object.values(result.reports).flatMap((r: any) => r.events.filter((e: any) => e.unexpected).map((e: any) => e.fingerprint)));
  expect([...fingerprints].sort()).toEqual([invoice.fingerprint, alpha.fingerprint, widget.fingerprint].sort());

  const indexMd = fs.readFileSync(path.join(result.reportsDir, 'index.md'), 'utf8');
  expect(indexMd.indexOf('## Errors across the run')).toBeLessThan(indexMd.indexOf('## Tests'));
  expect(indexMd).toMatch(/3 distinct unexpected errors/);
  expect(indexMd).toMatch(/Invoice <?\d+>? not found.*2 tests, 2 times/);

  // The CLI groups the same way from the reports.
  const fromCli = JSON.parse(cli(result.dir, ['groups', '--json']));
  expect(fromCli.groups.map((g: any) => [g.fingerprint, g.count, g.tests]).sort()).toEqual(result.index.groups.map((g: any) => [g.fingerprint, g.count, g.tests]).sort());
  expect(cli(result.dir, ['groups'])).toContain('2 tests, 2 times');
});

test('a baseline from run 1 makes strict run 2 fail only on the new error, lists the fixed group, and --prune drops it', async () => {
  const first = await runInlineTest({ 'app.ts': app, 'a.spec.ts': run1 });
  expect(first.exitCode, first.output).toBe(0);
  expect(cli(first.dir, ['baseline'])).toMatch(/Wrote 3 error groups to daebug-baseline\.json/);
  const baselineFile = path.join(first.dir, 'daebug-baseline.json');
  const written = fs.readFileSync(baselineFile, 'utf8');
  expect(JSON.parse(written).groups).toHaveLength(3);
  // Stable text: written again from the same run, it is the same.
  cli(first.dir, ['baseline']);
  expect(fs.readFileSync(baselineFile, 'utf8')).toBe(written);

  fs.rmSync(first.reportsDir, { recursive: true });
  const second = await runInlineTest({ 'a.spec.ts': run2 }, { dir: first.dir });
  expect(second.exitCode, second.output).toBe(1);
  expect(second.output).toMatch(/1 failed/);
  expect(second.output).toMatch(/daebug: 1 new unexpected error in the browser \(daebugStrict; 1 known error in the baseline daebug-baseline\.json left aside\)/);
  expect(second.output).toContain('beta broke');
  expect(second.output).not.toMatch(/\d+\. \[window\.onerror\] in page: .*Invoice/);
  const tests = new Map((second.index.tests as any[]).map((t) => [t.title, t]));
  expect(tests.get('invoice 3310').status).toBe('passed');
  expect(tests.get('invoice 3310').summary).toMatchObject({ unexpected: 1, known: 1 });
  expect(tests.get('alpha').status).toBe('failed');

  const groups = groupsByMessage(second.index);
  const invoice = [...groups.values()].find((g) => /Invoice/.test(g.message));
  const beta = [...groups.values()].find((g) => /beta broke/.test(g.message));
  expect(invoice).toMatchObject({ new: false, tests: 2, count: 2 });
  expect(beta).toMatchObject({ new: true, tests: 1 });
  expect(second.index.baseline).toBe(baselineFile);
  expect(second.index.fixed.map((f: any) => f.message).sort()).toEqual([expect.stringMatching(/widget failed/), expect.stringMatching(/alpha broke/)]);

  const indexMd = fs.readFileSync(path.join(second.reportsDir, 'index.md'), 'utf8');
  expect(indexMd).toMatch(/2 distinct unexpected errors \(fingerprints\), 1 new since the baseline/);
  expect(indexMd).toMatch(/1\. \*\*new\*\* · \[window\.onerror\] .*beta broke/);
  expect(indexMd).toMatch(/### Fixed since the baseline \(2 groups/);
  const alphaMd = Object.entries(second.markdown).find(([name]) => name.includes('alpha'))![1];
  expect(alphaMd).toMatch(/known \(in baseline\)/);
  expect(alphaMd).toMatch(/\*\*new\*\* \(not in baseline\)/);

  // What is new, from the reports.
  const fresh = JSON.parse(cli(first.dir, ['groups', '--new', '--json']));
  expect(fresh.groups.map((g: any) => g.fingerprint)).toEqual([beta.fingerprint]);
  const newErrors = JSON.parse(cli(first.dir, ['errors', '--new', '--json']));
  expect(newErrors.errors.map((e: any) => e.message)).toEqual([expect.stringMatching(/beta broke/)]);

  expect(cli(first.dir, ['baseline', '--prune'])).toMatch(/dropped 2 fixed groups, kept 1/);
  const pruned = JSON.parse(fs.readFileSync(baselineFile, 'utf8'));
  expect(pruned.groups.map((g: any) => g.fingerprint)).toEqual([invoice.fingerprint]);
});

test('a missing or malformed baseline fails the test with an error that names the file', async () => {
  const spec = (file: string) => `
import { test } from 'daebug';
test.use({ daebugStrict: true, daebugBaseline: '${file}' });
test('t', async ({ page }) => { await page.goto('/index.html'); });
`;
  const malformed = await runInlineTest({ 'a.spec.ts': spec('broken-baseline.json'), 'broken-baseline.json': '{"daebugBaseline": 1, "groups": [{"fingerprint": 12}]}' });
  expect(malformed.exitCode).toBe(1);
  expect(malformed.output).toMatch(/daebug baseline \S*broken-baseline\.json: it is not a daebug baseline at groups\.0\.fingerprint/);
  expect(malformed.output).toContain('does not treat every error as new');
  const missing = await runInlineTest({ 'a.spec.ts': spec('nowhere.json') });
  expect(missing.exitCode).toBe(1);
  expect(missing.output).toMatch(/daebug baseline \S*nowhere\.json: the file does not exist/);
  const cliMissing = (() => {
    try {
      cli(missing.dir, ['baseline', '--prune', '--out', 'nowhere.json']);
      return '';
    } catch (error) {
      return String((error as { stderr?: string }).stderr);
    }
  })();
  expect(cliMissing).toMatch(/DAEBUG_BASELINE_INVALID: daebug baseline \S*nowhere\.json: the file does not exist/);
});

test('an error in one of three repeats is intermittent', async () => {
  const result = await runInlineTest(
    {
      'a.spec.ts': `
import { test } from 'daebug';
test('sometimes', async ({ page }, testInfo) => {
  await page.goto('/index.html');
  if (testInfo.repeatEachIndex === 1) {
    await page.evaluate(() => new Promise<void>((resolve) => {
      window.addEventListener('error', () => resolve(), { once: true });
      setTimeout(() => { throw new Error('flaky ' + Math.random()); });
    }));
  }
});
`,
    },
    { args: ['--repeat-each=3'] },
  );
  expect(result.exitCode, result.output).toBe(0);
  expect(result.index.groups).toHaveLength(1);
  expect(result.index.groups[0]).toMatchObject({ intermittent: true, attempts: { seen: 1, total: 3 }, tests: 1, count: 1 });
  expect(fs.readFileSync(path.join(result.reportsDir, 'index.md'), 'utf8')).toMatch(/intermittent \(1 of 3 attempts\)/);
});

test('a run in blob shards merged with merge-reports has the same groups as the whole run', async () => {
  test.setTimeout(240_000);
  const files = { 'app.ts': app, 'a.spec.ts': run1, 'b.spec.ts': run1.replace(/test\('/g, "test('b ") };
  const whole = await runInlineTest(files);
  expect(whole.exitCode, whole.output).toBe(0);
  const shard1 = await runInlineTest(files, { args: ['--shard=1/2', '--reporter=blob'], env: { PLAYWRIGHT_BLOB_OUTPUT_DIR: 'blobs' } });
  const shard2 = await runInlineTest({}, { dir: shard1.dir, args: ['--shard=2/2', '--reporter=blob'], env: { PLAYWRIGHT_BLOB_OUTPUT_DIR: 'blobs-2' } });
  expect(shard1.exitCode, shard1.output).toBe(0);
  expect(shard2.exitCode, shard2.output).toBe(0);
  for (const zip of fs.readdirSync(path.join(shard1.dir, 'blobs-2'))) fs.copyFileSync(path.join(shard1.dir, 'blobs-2', zip), path.join(shard1.dir, 'blobs', zip));
  const merged = await runInlineTest({}, { dir: shard1.dir, command: ['merge-reports', '--reporter=daebug/reporter', 'blobs'] });
  expect(merged.exitCode, merged.output).toBe(0);
  const mergedIndex = readReports(path.join(shard1.dir, 'reports')).index;
  const shape = (index: any) => (index.groups as any[]).map((g) => ({ fingerprint: g.fingerprint, count: g.count, tests: g.tests, origin: g.origin, reports: [...g.reports].sort() })).sort((a, b) => a.fingerprint.localeCompare(b.fingerprint));
  expect(shape(mergedIndex)).toEqual(shape(whole.index));
  expect(mergedIndex.groups.find((g: any) => /Invoice/.test(g.message)).tests).toBe(4);
});
