import { test, expect } from '@playwright/test';
import { reportByTitle, runInlineTest, type InlineRunResult } from './helpers/run-playwright';

// daebug.settle(ms) on a page that cannot answer in time: the barrier goes on without throwing (the events emitted
// before the call are in), and the test's report says so with a DAEBUG_SETTLE_TIMEOUT diagnostic, which tells an
// agent why a value may be V8's preview. On an idle page there is no such diagnostic.

// The page logs an object, then a 0 ms timer runs a task of BUSY_MS: settle's read of the object's value waits behind it.
const BUSY_MS = 4000;
const SETTLE_MS = 300;

const spec = `
import { test, expect } from 'daebug';

test('settle while the page is busy with a value to read', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => {
    console.log('before the task', { a: { b: 1 } });
    setTimeout(() => { const end = Date.now() + ${BUSY_MS}; while (Date.now() < end); }, 0);
  });
  const started = Date.now();
  await daebug.settle(${SETTLE_MS});
  // settle went on at its timeout, long before the task ended, and the event itself is in.
  expect(Date.now() - started).toBeLessThan(${BUSY_MS} - 1000);
  expect(daebug.events().map((e) => e.message.split(' ')[0])).toContain('before');
});

test('settle on an idle page', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => console.log('idle', { a: { b: 1 } }));
  await daebug.settle();
  expect(daebug.events().find((e) => e.source === 'console.log')?.message).toBe('idle {"a":{"b":1}}');
});
`;

let result: Promise<InlineRunResult> | undefined;
const run = () => (result ??= runInlineTest({ 'settle.spec.ts': spec }));

test.describe.configure({ mode: 'default', timeout: 120_000 });

test('a settle that times out goes on, and the report says so with DAEBUG_SETTLE_TIMEOUT', async () => {
  const r = await run();
  expect(r.exitCode, r.output.slice(-3000)).toBe(0);
  const { json, md } = reportByTitle(r, 'settle while the page is busy with a value to read');
  expect(json.test.status).toBe('passed');
  const timeouts = (json.diagnostics as any[]).filter((d) => d.code === 'DAEBUG_SETTLE_TIMEOUT');
  expect(timeouts).toHaveLength(1);
  expect(timeouts[0].message).toBe(`daebug.settle() went on after ${SETTLE_MS} ms without every page's and worker's answer; 1 event still had values to read.`);
  expect(timeouts[0].hint).toMatch(/preview/);
  expect(md).toContain("daebug's own diagnostics");
  expect(md).toContain('DAEBUG_SETTLE_TIMEOUT');
  expect((json.events as any[]).some((e) => e.message.startsWith('before the task'))).toBe(true);
});

test('a settle that answers in time leaves no diagnostic', async () => {
  const r = await run();
  const { json } = reportByTitle(r, 'settle on an idle page');
  expect(json.test.status).toBe('passed');
  expect(json.diagnostics).toEqual([]);
});
