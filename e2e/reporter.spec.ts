import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { reportSchema } from '../src/model/schema';
import { runInlineTest } from './helpers/run-playwright';

test('retries: every attempt is visible in one report, and the index lists every test', async () => {
  const result = await runInlineTest(
    {
      'flaky.spec.ts': `
import { test, expect } from 'daebug';
test('flaky', async ({ page }, testInfo) => {
  await page.goto('/index.html');
  await page.evaluate((n) => console.log('attempt', n), testInfo.retry);
  expect(testInfo.retry, 'fails on the first attempt').toBe(1);
});
test('steady', async ({ page }) => {
  await page.goto('/index.html');
});
`,
    },
    { configExtra: 'retries: 1,' },
  );
  expect(result.exitCode, result.output).toBe(0);
  const flaky = Object.values(result.reports).find((r: any) => r.test.title === 'flaky') as any;
  expect(flaky.test.retry).toBe(1);
  expect(flaky.test.status).toBe('passed');
  expect(flaky.attempts).toHaveLength(1);
  expect(flaky.attempts[0].test).toMatchObject({ retry: 0, status: 'failed' });
  expect(flaky.attempts[0].events.find((e: any) => e.source === 'console.log').message).toBe('attempt 0');
  expect(flaky.events.find((e: any) => e.source === 'console.log').message).toBe('attempt 1');
  const md = result.markdown[flaky.markdownFile]!;
  expect(md).toContain('## Earlier attempts');
  expect(md).toContain('- Retry: 1');

  for (const report of Object.values(result.reports)) reportSchema.parse(report);
  expect(result.index.status).toBe('passed');
  expect(result.index.interrupted).toBe(false);
  expect(result.index.tests.map((t: any) => [t.title, t.status, t.attempts])).toEqual(
    expect.arrayContaining([
      ['flaky', 'passed', 2],
      ['steady', 'passed', 1],
    ]),
  );
  for (const entry of result.index.tests) {
    expect(fs.existsSync(path.join(result.reportsDir, entry.markdown))).toBe(true);
    expect(fs.existsSync(path.join(result.reportsDir, entry.json))).toBe(true);
    expect(entry.summary).toEqual(expect.objectContaining({ errors: expect.any(Number), unexpected: expect.any(Number), console: expect.any(Number), dropped: expect.any(Number) }));
  }
  const indexMd = fs.readFileSync(path.join(result.reportsDir, 'index.md'), 'utf8');
  expect(indexMd).toContain(`[${flaky.markdownFile}](${flaky.markdownFile})`);
});

test('several projects: the slug names the project and reports do not collide', async () => {
  const result = await runInlineTest(
    { 'p.spec.ts': `import { test } from 'daebug';\ntest('same title', async ({ page }) => { await page.goto('/index.html'); });\n` },
    { configExtra: "projects: [{ name: 'alpha' }, { name: 'Beta Project' }]," },
  );
  expect(result.exitCode, result.output).toBe(0);
  const names = Object.keys(result.reports).sort();
  expect(names).toHaveLength(2);
  expect(names[0]).toMatch(/^p-same-title-alpha-[0-9a-f]{8}\.json$/);
  expect(names[1]).toMatch(/^p-same-title-beta-project-[0-9a-f]{8}\.json$/);
  expect(Object.values(result.reports).map((r: any) => r.test.project).sort()).toEqual(['Beta Project', 'alpha']);
});

test('the JSON Schema file ships in the build and describes the pinned fields', () => {
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'dist', 'report.schema.json'), 'utf8'));
  expect(schema.required).toEqual(expect.arrayContaining(['schemaVersion', 'test', 'jobs', 'events', 'summary']));
  expect(Object.keys(schema.properties.test.properties)).toEqual(expect.arrayContaining(['title', 'titlePath', 'file', 'line', 'project', 'status', 'expectedStatus', 'retry', 'duration', 'strict']));
  const event = schema.properties.events.items;
  expect(Object.keys(event.properties)).toEqual(expect.arrayContaining(['type', 'level', 'source', 'realm', 'ts', 'time', 'message', 'stack', 'location', 'jobId', 'step', 'expected']));
  const job = schema.properties.jobs.items;
  expect(Object.keys(job.properties)).toEqual(expect.arrayContaining(['id', 'title', 'realm', 'code', 'startedAt', 'finishedAt', 'durationMs', 'ok', 'value', 'error', 'events']));
  expect(Object.keys(schema.properties.summary.properties)).toEqual(expect.arrayContaining(['errors', 'unexpected', 'console', 'dropped']));
});

test('no browser anywhere: a clear message that names both ways to get one', async () => {
  const result = await runInlineTest({ 'x.spec.ts': `import { test } from 'daebug';\ntest('x', async () => {});\n` }, { env: { DAEBUG_CHROMIUM: '/nonexistent/chromium' } });
  expect(result.exitCode).not.toBe(0);
  expect(result.output).toContain('DAEBUG_BROWSER_NOT_FOUND');
  expect(result.output).toContain('npx playwright install chromium');
  expect(result.output).toContain('apt-get install -y chromium');
});
