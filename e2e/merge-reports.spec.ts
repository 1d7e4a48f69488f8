import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { readReports, runInlineTest } from './helpers/run-playwright';

const specA = `
import { test, expect } from 'daebug';
test('a1 background error', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, async () => { setTimeout(() => { throw new Error('a1 boom'); }); await new Promise((r) => setTimeout(r, 50)); return 'a1'; });
});
test('a2 console', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, () => { console.log('a2', { n: 2 }); console.warn('a2 warn'); });
});
`;
const specB = `
import { test, expect } from 'daebug';
test.describe('group', () => {
  test('b1 rejection', async ({ page, daebug }) => {
    await page.goto('/index.html');
    await page.evaluate(() => { Promise.reject(new Error('b1 rejected')); });
    await expect.poll(() => daebug.errors().length).toBe(1);
  });
  test('b2 worker', async ({ page, daebug }) => {
    await page.goto('/worker.html');
    // The worker starts on its own after load; waiting for it keeps the two runs' job windows alike.
    await page.evaluate(() => (window as any).send('noop'));
    // The job ends once the page saw the worker's uncaught error, in both runs: the error is inside the job.
    await daebug.eval(page, () => new Promise((resolve) => {
      (window as any).worker.addEventListener('error', () => resolve('thrown'), { once: true });
      (window as any).send('throw');
    }));
    // The page heard the worker's error: a barrier then has the worker's own event too.
    await daebug.settle();
  });
});
`;

const VOLATILE = new Set(['ts', 'time', 'startedAt', 'finishedAt', 'durationMs', 'duration', 'firstAt', 'lastAt', 'updatedAt', 'markdownFile']);

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !VOLATILE.has(key))
        .map(([key, v]) => [key, normalize(v)]),
    );
  }
  if (typeof value === 'string') return value.replace(/\d\d:\d\d:\d\d/g, 'HH:MM:SS').replace(/\(\d+(\.\d+)?m?s\)/g, '(D)').replace(/Duration: .*/g, 'Duration: D');
  return value;
}

test('a sharded run merged with merge-reports writes the same reports as an unsharded run', async () => {
  test.setTimeout(240_000);
  const files = { 'a.spec.ts': specA, 'b.spec.ts': specB };
  const whole = await runInlineTest(files);
  expect(whole.exitCode, whole.output).toBe(0);
  expect(Object.keys(whole.reports)).toHaveLength(4);

  // Each shard runs as on its own CI machine; the blobs are then gathered in one folder.
  const blobDir = 'all-blobs';
  const shard1 = await runInlineTest(files, { args: ['--shard=1/2', '--reporter=blob'], env: { PLAYWRIGHT_BLOB_OUTPUT_DIR: 'blob-1' } });
  const shard2 = await runInlineTest({}, { dir: shard1.dir, args: ['--shard=2/2', '--reporter=blob'], env: { PLAYWRIGHT_BLOB_OUTPUT_DIR: 'blob-2' } });
  expect(shard1.exitCode, shard1.output).toBe(0);
  expect(shard2.exitCode, shard2.output).toBe(0);
  // Blob runs write no daebug reports: the data travels inside the blobs as attachments.
  expect(fs.existsSync(path.join(shard1.dir, 'reports'))).toBe(false);
  fs.mkdirSync(path.join(shard1.dir, blobDir));
  for (const shardDir of ['blob-1', 'blob-2']) {
    for (const zip of fs.readdirSync(path.join(shard1.dir, shardDir))) fs.copyFileSync(path.join(shard1.dir, shardDir, zip), path.join(shard1.dir, blobDir, zip));
  }
  expect(fs.readdirSync(path.join(shard1.dir, blobDir)).filter((f) => f.endsWith('.zip'))).toHaveLength(2);

  const merged = await runInlineTest({}, { dir: shard1.dir, command: ['merge-reports', '--reporter=daebug/reporter', blobDir] });
  expect(merged.exitCode, merged.output).toBe(0);
  const mergedReports = readReports(path.join(shard1.dir, 'reports'));

  expect(Object.keys(mergedReports.reports).sort()).toEqual(Object.keys(whole.reports).sort());
  for (const name of Object.keys(whole.reports)) {
    expect(normalize(mergedReports.reports[name]), name).toEqual(normalize(whole.reports[name]));
    const md = name.replace(/\.json$/, '.md');
    expect(normalize(mergedReports.markdown[md]), md).toEqual(normalize(whole.markdown[md]));
  }
  expect(mergedReports.index.tests).toHaveLength(4);
});
