import { linkPackage } from '../scripts/link-package';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LaunchOptions } from '@playwright/test';

export const repoRoot = path.resolve(__dirname, '..');
export const tmpRoot = path.join(repoRoot, '.bench-tmp');
export const quick = process.env['BENCH_QUICK'] === '1';
export const port = Number(process.env['BENCH_PORT'] ?? 4617);
const cli = require.resolve('@playwright/test/cli', { paths: [repoRoot] });

/** One line of the summary table: a measured figure next to its baseline, and the target it is held to. */
export interface Row {
  bench: string;
  metric: string;
  baseline: string;
  daebug: string;
  ratio: string;
  target: string;
  /** undefined when the figure has no target. */
  met?: boolean | undefined;
}

export function median(values: readonly number[]): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : String(n));
export const mb = (bytes: number): string => `${fmt(bytes / 1024 / 1024)} MB`;

export { linkPackage };

let installed = false;

/**
 * Installs the built package as a copy in `.bench-tmp/node_modules/daebug`, where the generated projects find it
 * before the repository's link: a path inside node_modules, as a user's install is. Through the link the real path is
 * the repository's `dist/`, which Playwright treats as the suite's own code and compiles with Babel in the runner and
 * in every worker, a cost no installed package pays.
 */
export function installPackage(): void {
  if (installed) return;
  const target = path.join(tmpRoot, 'node_modules', 'daebug');
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(target, 'package.json'));
  fs.cpSync(path.join(repoRoot, 'dist'), path.join(target, 'dist'), { recursive: true });
  installed = true;
}

export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

export function loadAverage(): string {
  return os.loadavg().map((n) => n.toFixed(2)).join(' ');
}

/** Launch options resolved once here, so the generated configs are plain `@playwright/test` configs. */
export function launchOptions(): LaunchOptions {
  const { chromiumLaunchOptions } = require(path.join(repoRoot, 'dist', 'browser', 'index.js')) as typeof import('../src/browser/index');
  return chromiumLaunchOptions();
}

export function machine(): { cpus: number; cpuModel: string; memory: string; node: string; chromium: string; playwright: string; date: string } {
  const executable = launchOptions().executablePath ?? (require('@playwright/test') as typeof import('@playwright/test')).chromium.executablePath();
  let chromium = 'unknown';
  try {
    chromium = execFileSync(executable, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // A Chromium that cannot print its version still runs the benchmarks.
  }
  const playwright = (require('@playwright/test/package.json') as { version: string }).version;
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    chromium,
    playwright,
    date: new Date().toISOString().slice(0, 10),
  };
}

/** Writes a project's files into a fresh folder under .bench-tmp/ and returns the folder. */
/** The Playwright config of a generated suite project: 2 workers, fullyParallel, the bench server as baseURL. */
export function suiteConfig(reporters: string, use: Record<string, unknown> = {}): string {
  return `import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests',
  workers: 2,
  fullyParallel: true,
  retries: 0,
  timeout: 30_000,
  reporter: ${reporters},
  use: { baseURL: 'http://127.0.0.1:${port}', launchOptions: ${JSON.stringify(launchOptions())}, ...${JSON.stringify(use)} },
});
`;
}

export function writeProject(name: string, files: Record<string, string>): string {
  const dir = path.join(tmpRoot, name);
  fs.rmSync(dir, { recursive: true, force: true });
  // A package.json of its own: else the repository's is the nearest, and Node resolves 'daebug' to the repository
  // itself (a package's self-reference), not to the installed copy (installPackage).
  files = { 'package.json': `${JSON.stringify({ name: `bench-${name}`, private: true, type: 'commonjs' }, null, 2)}\n`, ...files };
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

export interface RunResult {
  wallMs: number;
  /** CPU time of the runner, its workers and every browser process they started; NaN when it could not be read. */
  cpuMs: number;
  /** With `split`: the CPU of Playwright's runner and of its workers (Node processes); the rest of `cpuMs` is the browsers'. */
  runnerMs?: number;
  workersMs?: number;
  /** With `split`: how many worker processes the run started. */
  workerCount?: number;
  output: string;
}

/** Environment that makes each Node process of a run log its CPU at exit (bench/cpu-at-exit.cjs) into `file`. */
function splitEnv(file: string): Record<string, string> {
  fs.rmSync(file, { force: true });
  const preload = `--require ${path.join(__dirname, 'cpu-at-exit.cjs')}`;
  return { NODE_OPTIONS: [process.env['NODE_OPTIONS'], preload].filter(Boolean).join(' '), DAEBUG_BENCH_CPU_LOG: file };
}

function readSplit(file: string): { runnerMs: number; workersMs: number; workerCount: number } {
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
  const entries = lines.map((line) => JSON.parse(line) as { kind: string; ms: number });
  const sum = (kind: string) => (entries.some((e) => e.kind === kind) ? entries.filter((e) => e.kind === kind).reduce((total, e) => total + e.ms, 0) : NaN);
  return { runnerMs: sum('runner'), workersMs: sum('worker'), workerCount: entries.filter((e) => e.kind === 'worker').length };
}

let perfWorks: boolean | undefined;

/** `perf stat` counts the CPU of every descendant, Chromium's zygote children included. */
function hasPerf(): boolean {
  if (perfWorks === undefined) {
    try {
      execFileSync('perf', ['stat', '-e', 'task-clock', '-x,', '-o', '/dev/null', '--', 'true'], { stdio: 'ignore' });
      perfWorks = true;
    } catch {
      perfWorks = false;
    }
  }
  return perfWorks;
}

export const cpuSource = (): string => (hasPerf() ? 'perf stat task-clock' : 'unavailable (no perf)');

/**
 * Runs `playwright test` in a project folder and times it from spawn to exit. With `perf` installed it also counts the
 * CPU time of the whole process tree, a figure that other load on the machine disturbs far less than wall time.
 */
export async function runPlaywright(dir: string, args: string[] = [], env: Record<string, string> = {}, options: { split?: boolean } = {}): Promise<RunResult> {
  linkPackage();
  if (dir.startsWith(tmpRoot + path.sep)) installPackage();
  const splitFile = path.join(dir, '.cpu-split.jsonl');
  if (options.split) env = { ...env, ...splitEnv(splitFile) };
  const perfOut = path.join(dir, '.perf-stat.txt');
  fs.rmSync(perfOut, { force: true });
  const command = [process.execPath, cli, 'test', ...args];
  const [file, ...argv] = hasPerf() ? ['perf', 'stat', '-e', 'task-clock', '-x,', '-o', perfOut, '--', ...command] : command;
  const started = performance.now();
  const child = spawn(file!, argv, {
    cwd: dir,
    env: { ...process.env, FORCE_COLOR: '0', CI: '', PW_TEST_REPORTER: '', PLAYWRIGHT_HTML_OPEN: 'never', DAEBUG_OUTPUT_DIR: '', TEST_WORKER_INDEX: '', TEST_PARALLEL_INDEX: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const wallMs = performance.now() - started;
  if (exitCode !== 0) throw new Error(`playwright test in ${path.relative(repoRoot, dir)} exited with ${exitCode}:\n${output.slice(-4000)}`);
  // perf's CSV line: "12345.67,msec,task-clock,…".
  const line = fs.existsSync(perfOut) ? fs.readFileSync(perfOut, 'utf8').split('\n').find((l) => l.includes('task-clock')) : undefined;
  const cpuMs = line ? Number(line.split(',')[0]) : NaN;
  return { wallMs, cpuMs, output, ...(options.split ? readSplit(splitFile) : {}) };
}

/** Test durations as the `list` reporter prints them: "✓  12 tests/a.spec.ts:3:1 › t 12 (345ms)". */
export function listDurations(output: string): number[] {
  const durations: number[] = [];
  for (const line of output.split('\n')) {
    const match = /^\s*(?:✓|ok)\s.*\((\d+(?:\.\d+)?)(ms|s|m)\)\s*$/.exec(line);
    if (!match) continue;
    const value = Number(match[1]);
    durations.push(match[2] === 'ms' ? value : match[2] === 's' ? value * 1000 : value * 60_000);
  }
  return durations;
}

/** Starts fixtures/server.mjs on the bench port; the returned function stops it. */
export async function startServer(): Promise<() => void> {
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'fixtures', 'server.mjs'), String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fixtures server exited with ${code} (is port ${port} taken? set BENCH_PORT)`)));
    child.stdout!.once('data', () => resolve());
  });
  return () => void child.kill();
}

/** Runs a bench file in its own Node process (fresh heap, --expose-gc) and returns the rows it prints as JSON. */
export async function runChild(file: string, nodeArgs: string[] = []): Promise<Row[]> {
  const child = spawn(process.execPath, ['--expose-gc', ...nodeArgs, '--import', 'tsx', path.join(__dirname, file), '--child'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  if (exitCode !== 0) throw new Error(`bench/${file} exited with ${exitCode}`);
  return JSON.parse(output.trim().split('\n').pop() ?? '[]') as Row[];
}

/** For a bench file run as a child: prints its rows as one JSON line on stdout (logs go to stderr). */
export function childMain(run: () => Promise<Row[]>): void {
  if (!process.argv.includes('--child')) return;
  run().then(
    (rows) => process.stdout.write(`${JSON.stringify(rows)}\n`),
    (error: unknown) => {
      log(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exitCode = 1;
    },
  );
}

export function table(rows: readonly Row[]): string {
  const head = ['bench', 'metric', 'baseline', 'daebug', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [r.bench, r.metric, r.baseline, r.daebug, r.ratio, r.target, r.met === undefined ? '' : r.met ? 'yes' : 'NO']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

const TICKS = 100; // USER_HZ

function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

/** CPU ms of this process's descendants (browsers, their renderers; from /proc), living ones (utime+stime) plus reaped ones (cutime+cstime of live parents). */
export function descendantCpuMs(): number {
  let ticks = 0;
  for (const pid of descendants(process.pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1000) / TICKS;
}
