import { test, expect } from '@playwright/test';
import { onlyReport, runInlineTest } from './helpers/run-playwright';

const erroringSpec = (use: string) => `
import { test, expect } from 'daebug';
${use}
test('page with a background error', async ({ page, daebug }) => {
  await page.goto('/index.html');
  // The timer throws, then resolves the evaluation in the same task: settle() then has the error (with capture off it
  // waits for nothing).
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(() => { resolve(); throw new Error('unexpected kaboom'); }, 0)));
  await daebug.settle();
  expect(1).toBe(1);
});
`;

test('strict mode fails a test with an unexpected error and names the report', async () => {
  const result = await runInlineTest({ 'a.spec.ts': erroringSpec(`test.use({ daebugStrict: true });`) });
  expect(result.exitCode).toBe(1);
  expect(result.output).toContain('unexpected kaboom');
  expect(result.output).toMatch(/daebug: 1 unexpected error in the browser \(daebugStrict\)/);
  expect(result.output).toMatch(/\[window\.onerror\] in page: Error: unexpected kaboom/);
  const { json, md } = onlyReport(result);
  expect(result.output).toContain(json.markdownFile);
  expect(json.test.status).toBe('failed');
  expect(json.test.strict).toBe(true);
  expect(json.summary.unexpected).toBe(1);
  expect(md).toContain('## Unexpected errors');
  expect(md).toContain('```Error window.onerror');
});

test('strict mode passes when the error is in daebugIgnore, and marks it expected', async () => {
  const result = await runInlineTest({ 'a.spec.ts': erroringSpec(`test.use({ daebugStrict: true, daebugIgnore: [/kaboom/] });`) });
  expect(result.exitCode, result.output).toBe(0);
  const { json } = onlyReport(result);
  expect(json.test.status).toBe('passed');
  const error = json.events.find((e: any) => e.source === 'window.onerror');
  expect(error.expected).toBe(true);
  expect(json.summary.unexpected).toBe(0);
});

test('strict mode passes with daebug.expectError for this test only', async () => {
  const result = await runInlineTest({
    'a.spec.ts': `
import { test, expect } from 'daebug';
test.use({ daebugStrict: true });
test('expected', async ({ page, daebug }) => {
  daebug.expectError('kaboom');
  await page.goto('/index.html');
  await page.evaluate(() => { Promise.reject(new Error('kaboom rejected')); });
  await expect.poll(() => daebug.errors().length).toBe(1);
});
test('not expected', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => { Promise.reject(new Error('kaboom rejected')); });
  await expect.poll(() => daebug.errors().length).toBe(1);
});
`,
  });
  expect(result.exitCode).toBe(1);
  const byTitle = Object.fromEntries(Object.values(result.reports).map((r: any) => [r.test.title, r]));
  expect(byTitle['expected'].test.status).toBe('passed');
  expect(byTitle['not expected'].test.status).toBe('failed');
  expect(byTitle['not expected'].events.find((e: any) => e.source === 'unhandledrejection')).toBeTruthy();
});

test('default mode warns with an annotation and keeps the status', async () => {
  const result = await runInlineTest({ 'a.spec.ts': erroringSpec('') , 'ann.spec.ts': '' }, { reporter: { outputDir: 'out' }, args: ['a.spec.ts', '--reporter=json'] });
  expect(result.exitCode, result.output).toBe(0);
  const jsonStart = result.output.indexOf('{');
  const pw = JSON.parse(result.output.slice(jsonStart));
  const annotations = pw.suites[0].specs[0].tests[0].annotations;
  expect(annotations).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'daebug', description: expect.stringContaining('1 unexpected error') })]));
});

test('a test that already failed keeps its own failure first', async () => {
  const result = await runInlineTest({
    'a.spec.ts': `
import { test, expect } from 'daebug';
test.use({ daebugStrict: true });
test('fails twice', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(() => { resolve(); throw new Error('background one'); }, 0)));
  await daebug.settle();
  expect(1, 'the assertion').toBe(2);
});
`,
  });
  expect(result.exitCode).toBe(1);
  const assertionAt = result.output.indexOf('the assertion');
  const daebugAt = result.output.indexOf('unexpected error in the browser');
  expect(assertionAt).toBeGreaterThan(-1);
  expect(daebugAt).toBeGreaterThan(assertionAt);
});

test('capture off attaches nothing and the report says so', async () => {
  const result = await runInlineTest({ 'a.spec.ts': erroringSpec(`test.use({ daebugCapture: false, daebugStrict: true });`) });
  expect(result.exitCode, result.output).toBe(0);
  const { json, md } = onlyReport(result);
  expect(json.capture).toBe(false);
  expect(json.events).toEqual([]);
  expect(md).toContain('Capture was off');
});

test('a bad option fails fast, naming the option and what it accepts', async () => {
  const result = await runInlineTest({ 'a.spec.ts': erroringSpec(`test.use({ daebugStrict: 'yes' as any });`) });
  expect(result.exitCode).toBe(1);
  expect(result.output).toContain('Invalid daebug option "daebugStrict"');
  expect(result.output).toContain('Accepted: true or false');
});

test('a bad reporter option fails at start', async () => {
  const result = await runInlineTest({ 'a.spec.ts': erroringSpec('') }, { reporter: { outputDri: 'x' } });
  expect(result.exitCode).not.toBe(0);
  expect(result.output).toContain('Unknown daebug/reporter option "outputDri"');
  expect(result.output).toContain('outputDir');
});

test("no line of a strict failure is read again by Playwright as a stack frame", async () => {
  const result = await runInlineTest({
    'a.spec.ts': `
import { test } from 'daebug';
test.use({ daebugStrict: true });
test('positions in the message', async ({ page, daebug }) => {
  await page.goto('/index.html');
  // The timer throws, then resolves the evaluation in the same task: settle() then has the error.
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(() => { resolve(); throw new Error('at http://127.0.0.1/x.js:1:2'); }, 0)));
  await daebug.settle();
});
`,
  });
  expect(result.exitCode).toBe(1);
  expect(result.output).toMatch(/daebug: 1 unexpected error in the browser/);
  expect(result.output).toMatch(/↳ /);
  expect(result.output).not.toMatch(/at ↳|^\s+at .*x\.js:1:2\)?$/m);
});

test('allow-list entries that matched nothing are listed in the report and the annotation', async () => {
  const result = await runInlineTest(
    {
      'a.spec.ts': `
import { test } from 'daebug';
// A RegExp second would be read by test.use() as fixture options: daebug's error says so (see options.ts).
test.use({ daebugIgnore: [/kaboom/, 'ResizeObserver loop'] });
test('stale entries', async ({ page, daebug }) => {
  daebug.expectError(/never thrown/);
  daebug.expectError('second');
  await page.goto('/index.html');
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(() => { resolve(); throw new Error('kaboom, allowed'); }, 0)));
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(() => { resolve(); throw new Error('a second error'); }, 0)));
  await daebug.settle();
});
`,
    },
    // Playwright's JSON reporter on stdout for the annotations, daebug's (default outputDir) for the report.
    { args: ['--reporter=json,daebug/reporter'] },
  );
  expect(result.exitCode, result.output).toBe(0);
  const { json, md } = onlyReport(result);
  expect(json.staleAllowList).toEqual({ daebugIgnore: ['"ResizeObserver loop"'], expectError: ['/never thrown/'] });
  expect(md).toContain('## Allow-list entries that matched nothing');
  expect(md).toContain('- `daebugIgnore`: `"ResizeObserver loop"`');
  expect(md).toContain('- `expectError`: `/never thrown/`');
  const pw = JSON.parse(result.output.slice(result.output.indexOf('{')));
  const annotations = pw.suites[0].specs[0].tests[0].annotations;
  expect(annotations).toEqual([expect.objectContaining({ type: 'daebug', description: expect.stringContaining('allow-list entries that matched nothing: expectError /never thrown/') })]);
});
