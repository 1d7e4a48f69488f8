import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { reportSchema } from '../src/model/schema';
import { hostileSpecs, listFiles } from './helpers/hostile';
import { structureProblems } from './helpers/markdown-structure';
import { readReports, runInlineTest, type InlineRunResult } from './helpers/run-playwright';

// Whole Playwright runs that end badly: interrupted by a signal, a worker process killed, an outputDir that
// cannot be written. Each case asserts that every report that exists is whole and valid.

const repoRoot = path.resolve(__dirname, '..');
const TEMP_MARK = '.daebug-tmp-';

function newDir(): string {
  const dir = path.join(repoRoot, '.e2e-tmp', randomUUID().slice(0, 8));
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The config runInlineTest writes, with a number of workers; a test here needs the folder before the run starts. */
function config(workers: number, outputDir = 'reports'): string {
  const port = process.env['DAEBUG_FIXTURES_PORT'] ?? '4517';
  return `import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from 'daebug/browser';
export default defineConfig({
  workers: ${workers},
  fullyParallel: true,
  timeout: 90000,
  outputDir: './test-results',
  reporter: [['line'], ['daebug/reporter', { outputDir: ${JSON.stringify(outputDir)} }]],
  use: { baseURL: 'http://127.0.0.1:${port}', launchOptions: chromiumLaunchOptions() },
});
`;
}

/** Every report file parses, is valid and is structurally intact; no temp file is left. */
function expectWholeReports(reportsDir: string): ReturnType<typeof readReports> {
  const names = fs.readdirSync(reportsDir);
  expect(names.filter((n) => n.includes(TEMP_MARK))).toEqual([]);
  const read = readReports(reportsDir);
  // A live report of a test that never ended does not outlive the run.
  expect(Object.keys(read.markdown).filter((md) => !read.reports[md.replace(/\.md$/, '.json')])).toEqual([]);
  for (const [name, json] of Object.entries(read.reports)) {
    const parsed = reportSchema.safeParse(json);
    expect(parsed.success, `${name}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))}`).toBe(true);
    expect(structureProblems(read.markdown[name.replace(/\.json$/, '.md')] ?? ''), name).toEqual([]);
  }
  return read;
}

function byTitle(reports: Record<string, any>): Map<string, any> {
  return new Map(Object.values(reports).map((r) => [r.test.title as string, r]));
}

/**
 * Until the run is where a signal must land: the six quick tests have their reports, and the four slow ones are in
 * flight, each with a live report that already holds its page's ticks. Ends early when the run itself does.
 */
async function untilInFlight(reportsDir: string, child: import('node:child_process').ChildProcess): Promise<void> {
  const count = (pattern: RegExp, holds?: string) => {
    const names = fs.existsSync(reportsDir) ? fs.readdirSync(reportsDir).filter((n) => pattern.test(n)) : [];
    // A live report is replaced by renaming: read what is there now, or nothing.
    return holds === undefined ? names.length : names.filter((n) => { try { return fs.readFileSync(path.join(reportsDir, n), 'utf8').includes(holds); } catch { return false; } }).length;
  };
  await expect
    .poll(() => (child.exitCode !== null ? 'the run ended' : { quick: count(/^interrupt-quick-.*\.json$/), slow: count(/^interrupt-slow-.*\.md$/, 'slow test tick') }), { timeout: 90_000 })
    .toEqual({ quick: 6, slow: 4 });
}

async function interruptedRun(signal: 'SIGINT' | 'SIGTERM', toGroup: boolean): Promise<InlineRunResult> {
  const dir = newDir();
  const reportsDir = path.join(dir, 'reports');
  let sent: Promise<void> | undefined;
  const result = await runInlineTest(
    { 'playwright.config.ts': config(4), ...hostileSpecs('interrupt') },
    {
      dir,
      detached: toGroup,
      timeoutMs: 150_000,
      onSpawn: (child) => {
        // The signal lands with the slow tests in flight.
        sent = untilInFlight(reportsDir, child).then(() => {
          if (toGroup) process.kill(-child.pid!, signal);
          else child.kill(signal);
        });
      },
    },
  );
  await sent;
  return result;
}

test.describe('interrupted runs', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a real SIGINT to the process group (Ctrl-C) while tests run: finished tests keep whole reports, the index says interrupted', async () => {
    const result = await interruptedRun('SIGINT', true);
    expect(result.exitCode, result.output.slice(-2000)).toBe(130);
    const read = expectWholeReports(result.reportsDir);
    const reports = byTitle(read.reports);
    for (let i = 0; i < 6; i++) expect(reports.get(`quick ${i}`)?.test.status).toBe('passed');
    expect(read.index.interrupted).toBe(true);
    expect(read.index.status).toBe('interrupted');
    // The index lists exactly the tests that have a report.
    expect(read.index.tests.map((t: any) => t.json).sort()).toEqual(Object.keys(read.reports).sort());
  });

  test('SIGTERM to the runner: finished tests keep whole reports and the index says interrupted', async () => {
    const result = await interruptedRun('SIGTERM', false);
    expect(result.signal).toBe('SIGTERM');
    const read = expectWholeReports(result.reportsDir);
    const reports = byTitle(read.reports);
    for (let i = 0; i < 6; i++) expect(reports.get(`quick ${i}`)?.test.status).toBe('passed');
    expect(read.index).toMatchObject({ status: 'interrupted', interrupted: true });
    expect(read.index.tests.length).toBe(Object.keys(read.reports).length);
  });
});

test('a killed worker process: every finished test has a report, the dead one says why, and stale temp files are cleaned', async () => {
  test.setTimeout(120_000);
  const dir = newDir();
  const reportsDir = path.join(dir, 'reports');
  fs.mkdirSync(reportsDir);
  // A temp file of a dead process (a crashed run) goes; one of a live process (this one) stays.
  const deadPid = deadProcessId();
  const stale = `old-report.json${TEMP_MARK}${deadPid}-1`;
  const live = `other-run.json${TEMP_MARK}${process.pid}-1`;
  fs.writeFileSync(path.join(reportsDir, stale), '{"truncated":');
  fs.writeFileSync(path.join(reportsDir, live), '{"in progress":');
  const result = await runInlineTest({ 'playwright.config.ts': config(1), ...hostileSpecs('crash') }, { dir, args: ['--workers=1'], configExtra: '' });
  expect(result.exitCode, result.output.slice(-2000)).toBe(1);
  const names = fs.readdirSync(reportsDir);
  expect(names).not.toContain(stale);
  expect(names).toContain(live);
  fs.rmSync(path.join(reportsDir, live));
  const read = expectWholeReports(reportsDir);
  const reports = byTitle(read.reports);
  expect(reports.get('crash: a test before the crash')?.test.status).toBe('passed');
  expect(reports.get('crash: a test after the crash')?.test.status).toBe('passed');
  const dead = reports.get('crash: the worker process is killed');
  expect(dead?.test.status).toBe('failed');
  expect(dead.diagnostics.map((d: any) => d.code)).toContain('DAEBUG_NO_RECORD');
  expect(dead.diagnostics.find((d: any) => d.code === 'DAEBUG_NO_RECORD').message).toMatch(/worker process exited/i);
  expect(read.index.tests).toHaveLength(3);
});

function deadProcessId(): number {
  for (let pid = 4_000_000; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

/** Mounts a tmpfs on `dir` (needs root with mount rights, as in the project's CI container); undefined when it cannot. */
function mountTmpfs(dir: string, options: string): (() => void) | undefined {
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return () => execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
}

test.describe('an outputDir that cannot be written', () => {
  test.describe.configure({ timeout: 120_000 });

  for (const [kind, options, reason] of [
    ['read-only', 'ro,size=1m', /EROFS|read-only/i],
    ['full', 'size=32k', /ENOSPC|no space/i],
  ] as const) {
    test(`a ${kind} outputDir gives DAEBUG_REPORT_WRITE_FAILED with the path and a hint, and the tests still pass`, async () => {
      const dir = newDir();
      const outDir = path.join(dir, 'out');
      const unmount = mountTmpfs(outDir, options);
      test.skip(!unmount, 'mounting a tmpfs needs root with mount rights');
      try {
        const result = await runInlineTest({ 'playwright.config.ts': config(2, 'out'), ...hostileSpecs('big') }, { dir });
        expect(result.exitCode, result.output.slice(-3000)).toBe(0);
        expect(result.output).toContain('3 passed');
        const failures = result.output.split('\n').filter((l) => l.startsWith('DAEBUG_REPORT_WRITE_FAILED'));
        expect(failures.length).toBeGreaterThan(0);
        expect(failures[0]).toContain(outDir);
        expect(failures[0]).toMatch(reason);
        expect(result.output).toContain('Hint: Check that the reporter outputDir exists, is writable and has free space; tests are not affected.');
        // One message per path, not one per retry of the same write.
        expect(new Set(failures).size).toBe(failures.length);
        // Whatever did get written is whole; no temp file is left behind.
        expectWholeReports(outDir);
        expect(listFiles(outDir).filter((f) => f.includes(TEMP_MARK))).toEqual([]);
      } finally {
        unmount?.();
      }
    });
  }
});
