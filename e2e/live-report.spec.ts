import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { reportSlug } from '../src/model/slug';
import { LIVE_ENV, liveEnvValue } from '../src/live/live-env';
import { structureProblems } from './helpers/markdown-structure';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';

/** The file's text, or '' while it does not exist yet. */
function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function ticks(markdown: string): number {
  return (markdown.match(/^tick \d+$/gm) ?? []).length;
}

interface Run {
  dir: Promise<string>;
  done: Promise<InlineRunResult>;
  /** Waits for a condition while the run goes on; a run that ends first fails with its output. */
  during(condition: Promise<unknown>): Promise<void>;
}

/** Starts a run and hands back its folder once it exists; `done` is the whole run. */
function startRun(files: Record<string, string>, options: Parameters<typeof runInlineTest>[1] = {}): Run {
  let resolveDir!: (dir: string) => void;
  const dir = new Promise<string>((resolve) => (resolveDir = resolve));
  const done = runInlineTest(files, { ...options, onSpawn: (_child, folder) => resolveDir(folder) });
  const ended = done.then((result) => {
    throw new Error(`the run ended before the condition held (exit ${result.exitCode}):\n${result.output}`);
  });
  ended.catch(() => undefined);
  return { dir, done, during: async (condition) => void (await Promise.race([condition, ended])) };
}

test('a long job shows its background events in the live report while it runs; the final report replaces it', async () => {
  test.setTimeout(120_000);
  const run = startRun({
    'live.spec.ts': `
import { test } from 'daebug';
test('ticks', async ({ page, daebug }) => {
  test.setTimeout(60_000);
  await page.goto('/index.html');
  await daebug.eval(page, async () => {
    for (let i = 1; i <= 10; i++) {
      console.log('tick ' + i);
      await new Promise((r) => setTimeout(r, 1000));
    }
    return 'done';
  });
});
`,
  });
  const dir = await run.dir;
  const slug = reportSlug({ file: 'live.spec.ts', titles: ['ticks'] });
  const mdFile = path.join(dir, 'reports', `${slug}.md`);
  const indexFile = path.join(dir, 'reports', 'index.md');

  await run.during(expect.poll(() => read(indexFile), { timeout: 60_000 }).toContain(`| running | live.spec.ts › ticks |`));
  expect(read(indexFile)).toContain(`[${slug}.md](${slug}.md)`);

  // In the middle of the job: some ticks, not all, and the placeholder.
  await run.during(expect.poll(() => { const md = read(mdFile); return md.includes('executing (') && ticks(md) >= 3; }, { timeout: 60_000 }).toBe(true));
  const middle = read(mdFile);
  const seen = ticks(middle);
  expect(seen).toBeLessThan(10);
  expect(middle).toContain('- Status: **running** (live report written at');
  expect(middle).toMatch(/> \*\*page\*\* to agent at \d\d:\d\d:\d\d \(executing\)\n```JSON console\.log\ntick 1\n```\n/);
  expect(middle).toMatch(/\n```\nexecuting \(\d+s\)\n/);
  expect(middle).not.toContain('"done"');
  expect(structureProblems(middle)).toEqual([]);

  // Later in the same job, the same file shows more.
  await run.during(expect.poll(() => { const md = read(mdFile); return md.includes('executing (') ? ticks(md) : 0; }, { timeout: 30_000 }).toBeGreaterThan(seen));

  const result = await run.done;
  expect(result.exitCode, result.output).toBe(0);
  const final = result.markdown[`${slug}.md`]!;
  expect(final).not.toContain('executing (');
  expect(final).not.toContain('live report');
  expect(final).toContain('- Status: **passed**');
  expect(final).toContain('```JSON\n"done"\n```');
  expect(result.reports[`${slug}.json`].events.filter((e: any) => e.source === 'console.log').map((e: any) => e.message)).toEqual(Array.from({ length: 10 }, (_, i) => `tick ${i + 1}`));
  expect(result.index.tests).toEqual([expect.objectContaining({ title: 'ticks', status: 'passed' })]);
  expect(read(indexFile)).not.toContain('| running |');
});

test('daebugLive: false writes no report until the test ends; the index still marks it running', async () => {
  test.setTimeout(120_000);
  // Not in the test's outputDir: the inner run cleans the same test-results folder when it starts.
  const barrier = path.join(__dirname, '..', '.e2e-tmp', `barrier-${randomUUID().slice(0, 8)}`);
  fs.mkdirSync(barrier, { recursive: true });
  const run = startRun(
    {
      'quiet.spec.ts': `
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from 'daebug';
test.use({ daebugLive: false });
test('quiet', async ({ page, daebug }) => {
  test.setTimeout(60_000);
  await page.goto('/index.html');
  await daebug.job('waits for the outer test', async () => {
    await page.evaluate(() => console.log('in the job'));
    await daebug.settle();
    fs.writeFileSync(path.join(process.env.BARRIER!, 'in-job'), '');
    await expect.poll(() => fs.existsSync(path.join(process.env.BARRIER!, 'release')), { timeout: 50_000 }).toBe(true);
  });
});
`,
    },
    { env: { BARRIER: barrier } },
  );
  const dir = await run.dir;
  const slug = reportSlug({ file: 'quiet.spec.ts', titles: ['quiet'] });
  await run.during(expect.poll(() => fs.existsSync(path.join(barrier, 'in-job')), { timeout: 60_000 }).toBe(true));
  await run.during(expect.poll(() => read(path.join(dir, 'reports', 'index.md')), { timeout: 10_000 }).toContain('| running | quiet.spec.ts › quiet |'));
  expect(fs.existsSync(path.join(dir, 'reports', `${slug}.md`))).toBe(false);
  fs.writeFileSync(path.join(barrier, 'release'), '');

  const result = await run.done;
  expect(result.exitCode, result.output).toBe(0);
  expect(result.markdown[`${slug}.md`]).toContain('in the job');
  expect(result.markdown[`${slug}.md`]).not.toContain('executing (');
});

test('a blob run writes no live reports, even where the environment names a live folder of another run', async () => {
  // As a Playwright run started inside a test of a run with daebug's reporter inherits it.
  const inherited = path.join(__dirname, '..', '.e2e-tmp', `inherited-${randomUUID().slice(0, 8)}`);
  const result = await runInlineTest(
    {
      'blob.spec.ts': `
import { test } from 'daebug';
test('blob', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, () => console.log('in a blob run'));
});
`,
    },
    { args: ['--reporter=blob'], env: { PLAYWRIGHT_BLOB_OUTPUT_DIR: 'blob', [LIVE_ENV]: liveEnvValue({ dir: inherited, maxReportBytes: 262144 }, process.pid) } },
  );
  expect(result.exitCode, result.output).toBe(0);
  expect(fs.existsSync(inherited)).toBe(false);
  expect(fs.existsSync(result.reportsDir)).toBe(false);
  expect(fs.readdirSync(path.join(result.dir, 'blob')).filter((f) => f.endsWith('.zip'))).toHaveLength(1);
});

test('daebugLive: a value that is not a boolean fails the test with DaebugOptionsError naming the option', async () => {
  const result = await runInlineTest({
    'bad.spec.ts': `
import { test } from 'daebug';
test.use({ daebugLive: 'yes' as never });
test('bad', async ({ page }) => { await page.goto('/index.html'); });
`,
  });
  expect(result.exitCode).not.toBe(0);
  expect(result.output).toContain('DaebugOptionsError');
  expect(result.output).toContain('Invalid daebug option "daebugLive"');
  expect(result.output).toContain('Accepted: true or false');
});
