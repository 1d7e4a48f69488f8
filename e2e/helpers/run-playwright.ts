import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { linkPackage } from '../../scripts/link-package';

const repoRoot = path.resolve(__dirname, '..', '..');
/**
 * Set by `npm run test:compat` (scripts/compat.ts): a folder with another @playwright/test and a packed daebug in its
 * node_modules. Each inline project gets a `node_modules` link to it, found before the repository's own, so that the
 * project's imports and daebug's (a copy there, not a link back here) all load that Playwright.
 */
const playwrightDir = process.env['DAEBUG_E2E_PLAYWRIGHT_DIR'] ? path.resolve(process.env['DAEBUG_E2E_PLAYWRIGHT_DIR']) : undefined;
const cli = require.resolve('@playwright/test/cli', { paths: [playwrightDir ?? repoRoot] });

if (!playwrightDir) linkPackage();

/** The version of @playwright/test that inline runs use. */
export function inlinePlaywrightVersion(): string {
  return (require(require.resolve('@playwright/test/package.json', { paths: [playwrightDir ?? repoRoot] })) as { version: string }).version;
}

function linkPlaywrightDir(dir: string): void {
  if (!playwrightDir) return;
  try {
    fs.symlinkSync(path.join(playwrightDir, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A package.json of the project's own: without it the repository's is the nearest, and Node resolves 'daebug' to
  // this repository itself (a package importing its own name) before it looks in node_modules.
  const manifest = path.join(dir, 'package.json');
  if (!fs.existsSync(manifest)) fs.writeFileSync(manifest, '{ "private": true }\n');
}

export interface InlineRunOptions {
  /** Extra CLI arguments, e.g. ['--reporter=blob'] or ['--shard=1/2']. */
  args?: string[];
  env?: Record<string, string>;
  /** Reporter options for daebug/reporter; `false` leaves the reporter out of the generated config. */
  reporter?: Record<string, unknown> | false;
  /** Extra config fields, as TypeScript source, spliced into defineConfig({...}). */
  configExtra?: string;
  /** `use` fields, as TypeScript source. */
  use?: string;
  timeoutMs?: number;
  /** Run in this folder instead of a new one (e.g. merge-reports after sharded runs). */
  dir?: string;
  /** Replaces the 'test' subcommand, e.g. ['merge-reports', '--reporter=daebug/reporter', 'blob-report']. */
  command?: string[];
  /** Called with the child process and the project folder once it started (e.g. to send it SIGINT, or to read reports while it runs). */
  onSpawn?: (child: import('node:child_process').ChildProcess, dir: string) => void;
  /** Start the CLI in a process group of its own, so `process.kill(-child.pid, 'SIGINT')` reaches it as Ctrl-C would. */
  detached?: boolean;
}

export interface InlineRunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  dir: string;
  reportsDir: string;
  /** Parsed `<slug>.json` reports keyed by file name (without index.json). */
  reports: Record<string, any>;
  /** Markdown reports keyed by file name (without index.md). */
  markdown: Record<string, string>;
  index: any;
}

/**
 * Writes a small Playwright project (like Playwright's own runInlineTest) inside the repo, so that
 * `import { test } from 'daebug'` resolves to this package's build, runs the real CLI on it and reads
 * what daebug's reporter wrote.
 */
export async function runInlineTest(files: Record<string, string>, options: InlineRunOptions = {}): Promise<InlineRunResult> {
  const dir = options.dir ?? path.join(repoRoot, '.e2e-tmp', randomUUID().slice(0, 8));
  fs.mkdirSync(dir, { recursive: true });
  linkPlaywrightDir(dir);
  const reporterOptions = options.reporter === false ? undefined : { outputDir: 'reports', ...(options.reporter ?? {}) };
  const port = process.env['DAEBUG_FIXTURES_PORT'] ?? '4517';
  const hasConfig = Object.keys(files).some((f) => /^playwright\.config\.[cm]?[jt]s$/.test(f));
  // Playwright's default outputDir is `test-results` beside the nearest package.json: this repository's, shared by
  // every inline run of every worker, and each run empties it when it starts (a test's file attachment vanished
  // under another run). Each project keeps its own.
  const outputDir = /\boutputDir\s*:/.test(options.configExtra ?? '') ? '' : "outputDir: './test-results',";
  if (!hasConfig && !options.dir) {
    fs.writeFileSync(
      path.join(dir, 'playwright.config.ts'),
      `import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from 'daebug/browser';
export default defineConfig({
  workers: 1,
  timeout: 30000,
  reporter: [['line']${reporterOptions ? `, ['daebug/reporter', ${JSON.stringify(reporterOptions)}]` : ''}],
  use: { baseURL: 'http://127.0.0.1:${port}', launchOptions: chromiumLaunchOptions(), ${options.use ?? ''} },
  ${outputDir}
  ${options.configExtra ?? ''}
});
`,
    );
  }
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  const args = options.command ?? ['test', ...(options.args ?? [])];
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: dir,
    env: { ...process.env, FORCE_COLOR: '0', CI: '', GITHUB_ACTIONS: '', GITLAB_CI: '', CIRCLECI: '', BUILDKITE: '', JENKINS_URL: '', PW_TEST_REPORTER: '', PLAYWRIGHT_HTML_OPEN: 'never', DAEBUG_OUTPUT_DIR: '', TEST_WORKER_INDEX: '', TEST_PARALLEL_INDEX: '', ...(options.env ?? {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  options.onSpawn?.(child, dir);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timeoutMs = options.timeoutMs ?? 120_000;
  const { exitCode, signal } = await new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    const timer = setTimeout(() => (options.detached && child.pid ? process.kill(-child.pid, 'SIGKILL') : child.kill('SIGKILL')), timeoutMs);
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      resolve({ exitCode: code, signal: sig });
    });
  });
  const reportsDir = path.join(dir, (reporterOptions?.['outputDir'] as string | undefined) ?? 'reports');
  return { exitCode, signal, output, dir, reportsDir, ...readReports(reportsDir) };
}

export function readReports(reportsDir: string): Pick<InlineRunResult, 'reports' | 'markdown' | 'index'> {
  const reports: Record<string, any> = {};
  const markdown: Record<string, string> = {};
  let index: any;
  if (fs.existsSync(reportsDir)) {
    for (const name of fs.readdirSync(reportsDir)) {
      const text = fs.readFileSync(path.join(reportsDir, name), 'utf8');
      if (name === 'index.json') index = JSON.parse(text);
      else if (name.endsWith('.json')) reports[name] = JSON.parse(text);
      else if (name.endsWith('.md') && name !== 'index.md') markdown[name] = text;
    }
  }
  return { reports, markdown, index };
}

/** The only report of a run with a single test. */
export function onlyReport(result: InlineRunResult): { json: any; md: string } {
  const names = Object.keys(result.reports);
  if (names.length !== 1) throw new Error(`expected one report, found ${names.length}: ${names.join(', ')}\n${result.output}`);
  const json = result.reports[names[0]!];
  return { json, md: result.markdown[names[0]!.replace(/\.json$/, '.md')] ?? '' };
}

/** The report of the run's test titled `title`, JSON and Markdown. */
export function reportByTitle(result: InlineRunResult, title: string): { json: any; md: string } {
  const name = Object.keys(result.reports).find((n) => result.reports[n].test.title === title);
  if (!name) throw new Error(`no report for ${title}\n${result.output.slice(-3000)}`);
  return { json: result.reports[name], md: result.markdown[name.replace(/\.json$/, '.md')] ?? '' };
}
