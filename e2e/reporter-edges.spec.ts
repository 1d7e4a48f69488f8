import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { reportSchema } from '../src/model/schema';
import { reportSlug } from '../src/model/slug';
import { runInlineTest } from './helpers/run-playwright';

test('--repeat-each: every repeat has its own report files and its own index row', async () => {
  const result = await runInlineTest(
    {
      'rep.spec.ts': `
import { test, expect } from 'daebug';
test('counted', async ({ page }, testInfo) => {
  await page.goto('/index.html');
  await page.evaluate((n) => console.log('repeat', n), testInfo.repeatEachIndex);
});
test('strict', async ({ page, daebug }, testInfo) => {
  await page.goto('/index.html');
  await page.evaluate((n) => { setTimeout(() => { throw new Error('boom in repeat ' + n); }, 0); }, testInfo.repeatEachIndex);
  await expect.poll(() => daebug.errors().length).toBe(1);
});
`,
    },
    { args: ['--repeat-each=2'], use: 'daebugStrict: true,' },
  );
  // Both repeats of 'strict' fail on their background error; 'counted' passes twice.
  expect(result.exitCode, result.output).toBe(1);
  expect(result.output).toMatch(/2 failed[\s\S]*2 passed/);

  // Repeat 0 keeps the slug a run without repeats gives; repeat 1 ends in -repeat1-<hash>.
  const slug = (title: string, repeatEachIndex: number) => reportSlug({ file: 'rep.spec.ts', titles: [title], repeatEachIndex });
  expect(slug('counted', 0)).toBe(reportSlug({ file: 'rep.spec.ts', titles: ['counted'] }));
  expect(slug('counted', 1)).toMatch(/^rep-counted-repeat1-[0-9a-f]{8}$/);
  const expected = ['counted', 'strict'].flatMap((t) => [0, 1].map((r) => `${slug(t, r)}.json`)).sort();
  expect(Object.keys(result.reports).sort()).toEqual(expected);
  expect(Object.keys(result.markdown).sort()).toEqual(expected.map((n) => n.replace(/\.json$/, '.md')));

  for (const r of [0, 1]) {
    const json = result.reports[`${slug('counted', r)}.json`];
    reportSchema.parse(json);
    expect(json.markdownFile).toBe(`${slug('counted', r)}.md`);
    expect(json.test.repeatEachIndex).toBe(r === 0 ? undefined : r);
    expect(json.attempts).toBeUndefined();
    expect(json.diagnostics).toEqual([]);
    expect(json.events.filter((e: any) => e.source === 'console.log').map((e: any) => e.message)).toEqual([`repeat ${r}`]);
    expect(result.markdown[`${slug('counted', r)}.md`]).toContain(`repeat ${r}`);
    expect(result.markdown[`${slug('counted', r)}.md`]).not.toContain(`repeat ${1 - r}`);

    // The fixture's strict failure message names this repeat's own file.
    const strict = result.reports[`${slug('strict', r)}.json`];
    expect(strict.test.status).toBe('failed');
    expect(strict.events.filter((e: any) => e.unexpected).map((e: any) => e.message)).toEqual([expect.stringContaining(`boom in repeat ${r}`)]);
    expect(result.output).toContain(`Report: reports/${slug('strict', r)}.md`);
  }

  // One index row per repeat (each repeat is its own TestCase id), each pointing at its own files.
  expect(result.index.tests).toHaveLength(4);
  const rows = result.index.tests.map((t: any) => [t.title, t.repeatEachIndex ?? 0, t.markdown, t.json, t.attempts]);
  expect(rows).toEqual(
    expect.arrayContaining(['counted', 'strict'].flatMap((t) => [0, 1].map((r) => [t, r, `${slug(t, r)}.md`, `${slug(t, r)}.json`, 1]))),
  );
  for (const entry of result.index.tests) {
    expect(result.reports[entry.json].test.title).toBe(entry.title);
    expect(result.reports[entry.json].test.repeatEachIndex ?? 0).toBe(entry.repeatEachIndex ?? 0);
  }
  const indexMd = fs.readFileSync(path.join(result.reportsDir, 'index.md'), 'utf8');
  for (const name of expected) expect(indexMd).toContain(`(${name.replace(/\.json$/, '.md')})`);
});

test('test.fail() that passes is retried: both attempts are kept', async () => {
  const result = await runInlineTest(
    {
      'fail.spec.ts': `
import { test } from 'daebug';
test('should fail but passes', async ({ page }, testInfo) => {
  test.fail();
  await page.goto('/index.html');
  await page.evaluate((n) => console.log('attempt', n), testInfo.retry);
});
test.fail('declared failing, passes', async ({ page }, testInfo) => {
  await page.goto('/index.html');
  await page.evaluate((n) => console.log('attempt', n), testInfo.retry);
});
`,
    },
    { configExtra: 'retries: 1,' },
  );
  expect(result.exitCode, result.output).toBe(1);
  expect(Object.keys(result.reports)).toHaveLength(2);
  for (const report of Object.values(result.reports) as any[]) {
    reportSchema.parse(report);
    expect(report.test).toMatchObject({ status: 'passed', expectedStatus: 'failed', retry: 1 });
    expect(report.attempts).toHaveLength(1);
    expect(report.attempts[0].test).toMatchObject({ retry: 0, status: 'passed', expectedStatus: 'failed' });
    expect(report.attempts[0].events.filter((e: any) => e.source === 'console.log').map((e: any) => e.message)).toEqual(['attempt 0']);
    expect(report.events.filter((e: any) => e.source === 'console.log').map((e: any) => e.message)).toEqual(['attempt 1']);
    const md = result.markdown[report.markdownFile]!;
    expect(md).toContain('## Earlier attempts');
    expect(md).toContain('attempt 0');
    expect(md).toContain('attempt 1');
  }
  expect(result.index.tests.map((t: any) => [t.title, t.attempts]).sort()).toEqual([
    ['declared failing, passes', 2],
    ['should fail but passes', 2],
  ]);
});

test('a record that is not JSON, of another version or of the wrong shape: DAEBUG_RECORD_INVALID, and the report is still written', async () => {
  const result = await runInlineTest({
    'bogus.spec.ts': `
import fs from 'node:fs';
import { test } from '@playwright/test';
const attach = (body: string) => test.info().attach('daebug', { body, contentType: 'application/json' });
test('not json', async () => {
  await attach('{ this is not json');
});
test('future version', async () => {
  await attach(JSON.stringify({ version: 2, events: [] }));
});
test('wrong shape', async () => {
  await attach(JSON.stringify({ version: 1, capture: true, strict: false, realms: [], jobs: [], dropped: { total: 0, bySource: {} }, diagnostics: [],
    events: [{ type: 'console', source: 'console.log', realm: 'page', ts: 'noon', time: 't', message: 'm', expected: false }] }));
});
test('not an object', async () => {
  await attach('null');
});
test('from a file', async ({}, testInfo) => {
  const file = testInfo.outputPath('record.json');
  fs.writeFileSync(file, '<html>not a record</html>');
  await testInfo.attach('daebug', { path: file, contentType: 'application/json' });
});
`,
    'mixed.spec.ts': `
import { test } from 'daebug';
test('real record and a bogus one', async ({ page }, testInfo) => {
  await page.goto('/index.html');
  await page.evaluate(() => console.log('still captured'));
  await testInfo.attach('daebug', { body: 'garbage', contentType: 'application/json' });
});
`,
  });
  expect(result.exitCode, result.output).toBe(0);
  expect(result.output).not.toContain('daebug reporter:');
  const byTitle = Object.fromEntries((Object.values(result.reports) as any[]).map((r) => [r.test.title, r]));
  expect(Object.keys(byTitle).sort()).toEqual(['from a file', 'future version', 'not an object', 'not json', 'real record and a bogus one', 'wrong shape']);
  const invalid = (title: string) => {
    const report = byTitle[title];
    reportSchema.parse(report);
    const found = report.diagnostics.filter((d: any) => d.code === 'DAEBUG_RECORD_INVALID');
    expect(found, title).toHaveLength(1);
    expect(found[0].hint, title).toBeTruthy();
    expect(result.markdown[report.markdownFile], title).toContain('DAEBUG_RECORD_INVALID');
    expect(result.markdown[report.markdownFile], title).toContain(found[0].message.slice(0, 60));
    return { report, message: found[0].message as string };
  };
  for (const title of ['not json', 'future version', 'wrong shape', 'not an object', 'from a file']) {
    const { report, message } = invalid(title);
    expect(report.events, title).toEqual([]);
    expect(report.jobs, title).toEqual([]);
    expect(report.test.status, title).toBe('passed');
    expect(report.diagnostics.map((d: any) => d.code), title).toEqual(['DAEBUG_RECORD_INVALID']);
    expect(message, title).toContain('This report has no captured events.');
    expect(report.capture, title).toBeUndefined();
    expect(result.markdown[report.markdownFile], title).not.toContain('Capture was off');
  }
  expect(invalid('not json').message).toMatch(/not JSON .*"\{ this is not json"/);
  expect(invalid('future version').message).toContain('its version is 2, this reporter reads version 1');
  expect(invalid('wrong shape').message).toMatch(/does not match the record schema: events\[0\]\.ts: /);
  expect(invalid('not an object').message).toContain('null, not a record object (expected version 1)');
  expect(invalid('from a file').message).toContain('not JSON');

  const mixed = invalid('real record and a bogus one');
  expect(mixed.message).toContain('Another `daebug` attachment of this test is valid');
  expect(mixed.report.events.map((e: any) => e.message)).toContain('still captured');

  expect(result.index.tests).toHaveLength(6);
  for (const entry of result.index.tests) expect(fs.existsSync(path.join(result.reportsDir, entry.markdown))).toBe(true);
});

test("a describe-level test.skip(condition) skips tests that never ran: no DAEBUG_NO_RECORD for them", async () => {
  const result = await runInlineTest({
    'skip.spec.ts': `
import { test } from 'daebug';
test.describe('only elsewhere', () => {
  test.skip(true, 'not on this platform');
  test('skipped one', async ({ page }) => {
    await page.goto('/index.html');
  });
});
test('ran', async ({ page }) => {
  await page.goto('/index.html');
});
`,
  });
  expect(result.exitCode, result.output).toBe(0);
  const skipped = Object.values(result.reports).find((r: any) => r.test.title === 'skipped one') as any;
  expect(skipped.test.status).toBe('skipped');
  expect(skipped.diagnostics).toEqual([]);
  const md = result.markdown[skipped.markdownFile]!;
  expect(md).not.toContain('DAEBUG_NO_RECORD');
  expect(md).not.toContain('Import `test`');
  const ran = Object.values(result.reports).find((r: any) => r.test.title === 'ran') as any;
  expect(ran.diagnostics).toEqual([]);
});

test('--list: the reporter accepts what Playwright gives it in list mode, lists the tests and writes no report', async () => {
  const result = await runInlineTest(
    {
      'listed.spec.ts': `
import { test } from 'daebug';
test('one', async ({ page }) => { await page.goto('/index.html'); });
test('two', async () => {});
`,
    },
    { args: ['--list'] },
  );
  // Playwright 1.65 adds onlyFailures: false to every reporter's options in list mode; daebug refused it as unknown.
  expect(result.output).not.toContain('DAEBUG_OPTIONS_INVALID');
  expect(result.exitCode, result.output).toBe(0);
  expect(result.output).toMatch(/Total: 2 tests in 1 file/);
  expect(Object.keys(result.reports)).toEqual([]);
});
