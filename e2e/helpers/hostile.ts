import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { reportSchema } from '../../src/model/schema';
import { readReports, runInlineTest, type InlineRunOptions, type InlineRunResult } from './run-playwright';
import { structureProblems } from './markdown-structure';

const repoRoot = path.resolve(__dirname, '..', '..');
const specsDir = path.join(repoRoot, 'fixtures', 'hostile', 'specs');

/** The inline spec `fixtures/hostile/specs/<name>.hostile.ts`, under the file name the inline project gets. */
export function hostileSpecs(...names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [`${name}.spec.ts`, fs.readFileSync(path.join(specsDir, `${name}.hostile.ts`), 'utf8')]));
}

export interface Reported {
  name: string;
  json: any;
  md: string;
}

export interface HostileRun extends InlineRunResult {
  durationMs: number;
  byTitle: Map<string, Reported>;
}

function withTitles(result: InlineRunResult, durationMs: number): HostileRun {
  const byTitle = new Map<string, Reported>();
  for (const [name, json] of Object.entries(result.reports)) {
    byTitle.set(json.test.title, { name, json, md: result.markdown[name.replace(/\.json$/, '.md')] ?? '' });
  }
  return { ...result, durationMs, byTitle };
}

/**
 * Runs an inline project once per Playwright run, however many outer tests read it: the result is kept on disk
 * next to the project, keyed by the runner's pid, so a worker restarted after a failed test reads it again
 * instead of running the project a second time.
 */
export async function sharedRun(key: string, files: Record<string, string>, options: InlineRunOptions = {}): Promise<HostileRun> {
  const cache = path.join(repoRoot, '.e2e-tmp', `hostile-${key}-${process.ppid}.json`);
  try {
    const runnerStart = fs.statSync(`/proc/${process.ppid}`).ctimeMs;
    if (fs.statSync(cache).mtimeMs > runnerStart) {
      const saved = JSON.parse(fs.readFileSync(cache, 'utf8')) as Omit<InlineRunResult, 'reports' | 'markdown' | 'index'> & { durationMs: number };
      return withTitles({ ...saved, ...readReports(saved.reportsDir) }, saved.durationMs);
    }
  } catch {
    // No cache yet (or no /proc): run the project.
  }
  const started = Date.now();
  const result = await runInlineTest(files, options);
  const durationMs = Date.now() - started;
  const { reports: _r, markdown: _m, index: _i, ...saved } = result;
  fs.writeFileSync(cache, JSON.stringify({ ...saved, durationMs }));
  return withTitles(result, durationMs);
}

export function reported(run: HostileRun, title: string): Reported {
  const found = run.byTitle.get(title);
  if (!found) throw new Error(`no report for "${title}"; reports: ${[...run.byTitle.keys()].map((t) => JSON.stringify(t)).join(', ')}\n${run.output.slice(-3000)}`);
  return found;
}

const REPORT_FILE = /^[a-z0-9._-]{1,125}\.(?:md|json)$/;

/**
 * What every hostile case asserts about its report: the run ended, the JSON is valid against reportSchema,
 * the Markdown's structure is the formatter's, and both files are plain names directly inside outputDir.
 */
export function expectSound(run: HostileRun, report: Reported): void {
  expect(run.signal, 'the run ended by itself').toBeNull();
  expect(run.exitCode, run.output.slice(-2000)).not.toBeNull();
  const parsed = reportSchema.safeParse(report.json);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 5))).toBe(true);
  expect(structureProblems(report.md), report.md.slice(0, 3000)).toEqual([]);
  for (const name of [report.name, report.json.markdownFile as string]) {
    expect(name).toMatch(REPORT_FILE);
    const file = path.join(run.reportsDir, name);
    expect(path.dirname(fs.realpathSync(file))).toBe(fs.realpathSync(run.reportsDir));
  }
}

/** Every file under `dir`, relative, with forward slashes. */
export function listFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full, base));
    else out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out;
}

/** Files named after a canary anywhere a bad report path could have put them (the repo, its parents, /tmp, /). */
export function filesNamed(canary: RegExp, roots: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (canary.test(entry.name)) found.push(full);
      if (entry.isDirectory() && depth > 0 && !['node_modules', '.git', 'proc', 'sys'].includes(entry.name)) walk(full, depth - 1);
    }
  };
  for (const root of roots) walk(root, root === '/' ? 0 : 6);
  return found;
}

export function eventsOf(report: Reported, source?: string): any[] {
  return (report.json.events as any[]).filter((e) => source === undefined || e.source === source);
}

export function messagesOf(report: Reported, source: string): string[] {
  return eventsOf(report, source).map((e) => e.message as string);
}

/** What an inline test saw through the daebug fixture and wrote to `observed/<name>.json` in its project. */
export function observedIn(run: HostileRun, name: string): any {
  const file = path.join(run.dir, 'observed', `${name}.json`);
  if (!fs.existsSync(file)) throw new Error(`the inline test did not record ${name}.json (did it fail before?)\n${run.output.slice(-4000)}`);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The two ways daebug reads a target: Playwright's own sessions (the tap, where the runner drives the browser in its
 * process) and daebug's own (`DAEBUG_OWN_SESSIONS=1`, the path for browsers driven from another process). */
export type SessionMode = 'playwright' | 'own';

/**
 * Declares one `<mode> sessions` describe per session mode. Its beforeAll runs `files` once (sharedRun, keyed
 * `<key>-<mode>`, with the mode's environment); `body` declares the tests, which read that run through `run`, a view
 * of it that is filled once the beforeAll has run (the tests only read it inside their own bodies).
 */
export function describeInSessionModes(key: string, files: Record<string, string>, options: InlineRunOptions & { setupTimeoutMs: number }, body: (sessions: SessionMode, run: HostileRun) => void): void {
  const { setupTimeoutMs, ...runOptions } = options;
  for (const sessions of ['playwright', 'own'] as const) {
    test.describe(`${sessions} sessions`, () => {
      let loaded: HostileRun | undefined;
      test.beforeAll(async () => {
        test.setTimeout(setupTimeoutMs);
        const env = { ...runOptions.env, ...(sessions === 'own' ? { DAEBUG_OWN_SESSIONS: '1' } : {}) };
        loaded = await sharedRun(`${key}-${sessions}`, files, { ...runOptions, env });
      });
      const run = new Proxy({} as HostileRun, {
        get: (_target, property) => {
          if (!loaded) throw new Error(`the ${key} run of ${sessions} sessions is read before its beforeAll ran`);
          return Reflect.get(loaded, property);
        },
      });
      body(sessions, run);
    });
  }
}
