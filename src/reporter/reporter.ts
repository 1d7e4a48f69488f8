import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import { LIVE_ENV, liveEnvValue } from '../live/live-env';
import { markRunEnded, removeEndedMarkers } from '../live/run-ended';
import { DaebugError, DaebugHistorySkippedError, debugLog } from '../errors';
import { formatMarkdown } from '../format/markdown';
import { formatIndexMarkdown, RUNNING_STATUS, type IndexEntry, type RunIndex } from '../format/index-markdown';
import { ATTACHMENT_NAME, MARKDOWN_ATTACHMENT_CONTENT_TYPE, MARKDOWN_ATTACHMENT_NAME } from '../model/attachment';
import { parseRecord, type RecordData } from '../model/record';
import { startRecordKey } from '../model/record-key';
import type { Attempt, Diagnostic, Report } from '../model/schema';
import { OUTPUT_DIR_ENV } from '../test-info/report-path';
import { reportSlug } from '../model/slug';
import type { StepSpan, TestMeta } from '../model/attempt';
import { buildAttempt } from '../diagnosis/build-attempt';
import { playwrightWillRetry } from './will-retry';
import { resolveHistoryOptions, resolveReporterOptions, type DaebugReporterOptions, type ResolvedHistoryOptions, type ResolvedReporterOptions } from './options';
import { cleanStaleTemps, removeInflightTemps, writeAtomic } from '../io/atomic-write';
import { WriteQueue } from './write-queue';
import { GitHubOutput } from './github';
import { RunGroups, testKeyOf } from '../run/groups';
import { RunUnmappedScripts } from '../run/unmapped-scripts';
import { RunHistoryBuilder } from '../history/collect';
import { runSource, type RunSource } from '../ci/commit';
import { endRunHistory, type RunHistoryOutcome } from './history';

const INDEX_EVERY_MS = 2000;

/** Writes `<slug>.md` and `<slug>.json` per test, plus `index.md` and `index.json`, into `outputDir`. */
class DaebugReporter implements Reporter {
  private readonly rawOptions: DaebugReporterOptions;
  private options: ResolvedReporterOptions;
  private config: FullConfig | undefined;
  private readonly earlier = new Map<string, Attempt[]>();
  private readonly index = new Map<string, IndexEntry>();
  /** Each test's slug, by test id: named at its begin, again at each attempt's end (a hash and a Unicode fold each time). */
  private readonly slugs = new Map<string, string>();
  private lastIndexWrite = 0;
  private indexTimer: NodeJS.Timeout | undefined;
  private readonly failedPaths = new Set<string>();
  private startedAt = new Date();
  private github: GitHubOutput | undefined;
  private readonly writes = new WriteQueue((error) => this.fail(error));
  private groups = new RunGroups();
  private unmapped = new RunUnmappedScripts();
  /** The baseline file the tests named (`daebugBaseline`), once one did. */
  private baselineFile: string | undefined;
  private historyOptions: ResolvedHistoryOptions;
  /** This run's history, while it runs; undefined when the history is off or the runner only lists tests. */
  private history: RunHistoryBuilder | undefined;
  private source: Promise<RunSource> | undefined;
  /** What the history said at the run's end, for index.md, index.json and the step summary. */
  private historyOutcome: RunHistoryOutcome | undefined;

  constructor(options: DaebugReporterOptions = {}) {
    this.rawOptions = options;
    this.options = resolveReporterOptions(options, process.cwd());
    this.historyOptions = resolveHistoryOptions(options, process.cwd());
    // Workers inherit the runner's environment, so the fixture can name the report file in failure messages.
    process.env[OUTPUT_DIR_ENV] = this.options.outputDir;
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, _suite: Suite): void {
    this.config = config;
    this.startedAt = new Date();
    this.groups = new RunGroups();
    this.unmapped = new RunUnmappedScripts();
    this.baselineFile = undefined;
    const configDir = config.configFile ? path.dirname(config.configFile) : config.rootDir;
    this.options = resolveReporterOptions(this.rawOptions, configDir);
    this.historyOptions = resolveHistoryOptions(this.rawOptions, configDir);
    this.historyOutcome = undefined;
    // `--list` runs no test; merge-reports (`_mode: 'merge'`) writes one run for all the shards it merges.
    const mode = (this.rawOptions as { _mode?: unknown })._mode;
    this.history = this.historyOptions.dir !== false && mode !== 'list' ? new RunHistoryBuilder() : undefined;
    this.source = this.history ? runSource(process.env, configDir) : undefined;
    process.env[OUTPUT_DIR_ENV] = this.options.outputDir;
    // The workers this runner forks keep their tests' reports up to date while they run (src/live/live-report.ts).
    process.env[LIVE_ENV] = liveEnvValue({ dir: this.options.outputDir, maxReportBytes: this.options.maxReportBytes }, process.pid);
    // And they mark their records as this run's: the reporter reads them without the schema (src/model/record.ts).
    startRecordKey();
    this.github = githubOutput(this.options, config);
    // Playwright stops gracefully on SIGINT (onEnd says 'interrupted'), but SIGTERM ends the runner at once.
    process.once('SIGTERM', this.onSigterm);
    try {
      fs.mkdirSync(this.options.outputDir, { recursive: true });
      cleanStaleTemps(this.options.outputDir);
      removeEndedMarkers(this.options.outputDir);
    } catch (error) {
      this.fail(new DaebugError('DAEBUG_REPORT_WRITE_FAILED', `daebug could not create ${this.options.outputDir}: ${(error as Error).message}`, { hint: 'Check that the reporter outputDir is writable; tests are not affected.', context: { path: this.options.outputDir } }));
    }
  }

  /** Marks the test as running in the index; its worker writes the live report (src/live/live-report.ts). */
  onTestBegin(test: TestCase, result: TestResult): void {
    try {
      this.markRunning(test, result);
    } catch (error) {
      this.fail(error);
    }
  }

  private markRunning(test: TestCase, result: TestResult): void {
    const slug = this.slugOf(test);
    const file = this.relativeFile(test.location.file);
    const entry: IndexEntry & { repeatEachIndex?: number } = {
      title: test.title,
      titlePath: [file, ...titlesOf(test)],
      file,
      line: test.location.line,
      project: projectOf(test),
      status: RUNNING_STATUS,
      expectedStatus: test.expectedStatus,
      retry: result.retry,
      attempts: (this.earlier.get(test.id)?.length ?? 0) + 1,
      duration: 0,
      summary: { errors: 0, unexpected: 0, console: 0, dropped: 0 },
      markdown: `${slug}.md`,
      json: `${slug}.json`,
    };
    if (test.repeatEachIndex > 0) entry.repeatEachIndex = test.repeatEachIndex;
    this.index.set(test.id, entry);
    this.scheduleIndex();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    try {
      this.writeTest(test, result);
    } catch (error) {
      this.fail(error);
    }
  }

  private slugOf(test: TestCase): string {
    const known = this.slugs.get(test.id);
    if (known !== undefined) return known;
    const several = (this.config?.projects.length ?? 1) > 1;
    // The fixture names the same file in failure messages (src/test-info/report-path.ts slugForTestInfo): keep both in step.
    const slug = reportSlug({ file: this.relativeFile(test.location.file), titles: titlesOf(test), project: several ? projectOf(test) : undefined, repeatEachIndex: test.repeatEachIndex });
    this.slugs.set(test.id, slug);
    return slug;
  }

  private relativeFile(file: string): string {
    const root = this.config?.rootDir ?? process.cwd();
    return path.relative(root, file).split(path.sep).join('/');
  }

  private writeTest(test: TestCase, result: TestResult): void {
    const slug = this.slugOf(test);
    const meta: TestMeta = {
      title: test.title,
      titlePath: [this.relativeFile(test.location.file), ...titlesOf(test)],
      file: this.relativeFile(test.location.file),
      line: test.location.line,
      project: projectOf(test),
      status: result.status,
      expectedStatus: test.expectedStatus,
      retry: result.retry,
      duration: result.duration,
    };
    // Each repeat (--repeat-each) is a TestCase of its own (own id, own slug); 0 is left out so reports without repeats do not change.
    if (test.repeatEachIndex > 0) meta.repeatEachIndex = test.repeatEachIndex;
    const failing = failingStep(result.steps);
    if (failing && result.status !== test.expectedStatus) {
      meta.failedAt = new Date(failing.endMs).toISOString();
      meta.failedStep = failing.title;
      if (failing.location) meta.failedLocation = `${this.relativeFile(failing.location.file)}:${failing.location.line}`;
    }
    const failure = result.status !== test.expectedStatus ? firstErrorLine(result) : undefined;
    if (failure) meta.failure = failure;
    const { record, invalid } = readRecord(result);
    const attempt = buildAttempt(record, meta, collectSteps(result.steps));
    if (invalid.length) {
      const outcome = record ? ' Another `daebug` attachment of this test is valid: the report uses that one.' : ' This report has no captured events.';
      const notes = invalid.map((d) => ({ ...d, message: d.message + outcome }));
      attempt.diagnostics = record ? [...(attempt.diagnostics ?? []), ...notes] : notes;
    }
    const exit = record ? undefined : result.errors.map((e) => e.message ?? '').find((m) => /worker process exited unexpectedly/i.test(m));
    if (exit) {
      attempt.diagnostics = [
        ...(attempt.diagnostics ?? []).filter((d) => d.code === 'DAEBUG_RECORD_INVALID'),
        {
          code: 'DAEBUG_NO_RECORD',
          message: `The Playwright worker process exited in the middle of this test (${exit.replace(/^Error: /, '')}): what daebug captured in it was lost with the process.`,
          hint: 'Look for what ended the worker (out of memory, process.exit(), a native crash); the other tests keep their reports.',
          time: new Date().toISOString(),
        },
      ];
    }
    this.addToGroups(attempt, `${slug}.md`);
    this.history?.addAttempt(attempt);
    const earlier = this.earlier.get(test.id) ?? [];
    const report: Report = { ...attempt, markdownFile: `${slug}.md` };
    if (earlier.length) report.attempts = earlier;
    const willRetry = playwrightWillRetry(test, result);
    if (willRetry) this.earlier.set(test.id, [...earlier, attempt]);
    else this.earlier.delete(test.id);
    if (!willRetry) this.github?.testEnded({ report, titlePath: meta.titlePath, file: test.location.file, line: test.location.line }, this.groups.hasBaseline);

    const markdown = formatMarkdown(report, { maxBytes: record?.maxReportBytes ?? this.options.maxReportBytes, jsonFile: `${slug}.json` });
    // Before the writes: the HTML report keeps the report when the output folder cannot be written.
    attachMarkdown(result, markdown);
    fs.mkdirSync(this.options.outputDir, { recursive: true });
    const mdFile = path.join(this.options.outputDir, `${slug}.md`);
    const jsonFile = path.join(this.options.outputDir, `${slug}.json`);
    // Without its JSON the test has no report: the live Markdown, which says it is still running, must not stay.
    this.writes.write([[jsonFile, JSON.stringify(report, null, 2) + '\n'], [mdFile, markdown]], () => fs.rmSync(mdFile, { force: true }));
    const entry: IndexEntry & { repeatEachIndex?: number } = {
      title: test.title,
      titlePath: meta.titlePath,
      file: meta.file,
      line: meta.line,
      project: meta.project,
      status: result.status,
      expectedStatus: test.expectedStatus,
      retry: result.retry,
      attempts: earlier.length + 1,
      duration: result.duration,
      summary: attempt.summary,
      markdown: `${slug}.md`,
      json: `${slug}.json`,
    };
    if (meta.repeatEachIndex !== undefined) entry.repeatEachIndex = meta.repeatEachIndex;
    this.index.set(test.id, entry);
    this.scheduleIndex();
  }

  /** Every attempt counts for the run's groups: a retry that no longer has an error makes its group intermittent. */
  private addToGroups(attempt: Attempt, report: string): void {
    const baseline = attempt.test.baseline;
    if (baseline !== undefined && this.baselineFile === undefined) {
      this.baselineFile = baseline;
      this.groups.noteBaseline();
      try {
        // Required here: the baseline's reader and its schema load only in runs whose tests use a baseline.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { readBaseline } = require('../run/baseline-file') as typeof import('../run/baseline-file');
        this.groups.setBaseline(readBaseline(baseline));
      } catch (error) {
        // The tests read it a moment ago; a merge on another machine may not have it: groups are then new by the events' marks.
        this.fail(error);
      }
    }
    this.groups.addAttempt({ testKey: testKeyOf(attempt.test), report }, attempt.events);
    this.unmapped.add(testKeyOf(attempt.test), attempt);
  }

  /** At most one index write per INDEX_EVERY_MS; a change inside that time is written when it is over. */
  private scheduleIndex(): void {
    if (this.indexTimer) return;
    const wait = this.lastIndexWrite + INDEX_EVERY_MS - Date.now();
    if (wait <= 0) {
      this.writeIndex(RUNNING_STATUS);
      return;
    }
    this.indexTimer = setTimeout(() => {
      this.indexTimer = undefined;
      this.writeIndex(RUNNING_STATUS);
    }, wait);
    this.indexTimer.unref();
  }

  async onEnd(result: FullResult): Promise<void> {
    process.off('SIGTERM', this.onSigterm);
    clearTimeout(this.indexTimer);
    this.indexTimer = undefined;
    this.endUnfinished();
    await this.endHistory(result);
    this.writeIndex(result.status);
    try {
      this.github?.end(this.groups.groups(), this.historyOutcome?.summary);
    } catch (error) {
      this.fail(error);
    }
    // Playwright awaits onEnd, also after Ctrl-C: every finished test's report is on disk before the run exits.
    await this.writes.drain();
    // A worker killed in the middle of writing its live report left its temp file: its process is gone now.
    try {
      cleanStaleTemps(this.options.outputDir);
    } catch (error) {
      debugLog(error);
    }
  }

  /** Writes this run's history file, prunes the folder, and reads it back for the index's history sections. */
  private async endHistory(result: FullResult): Promise<void> {
    const history = this.history;
    const dir = this.historyOptions.dir;
    this.history = undefined;
    if (!history || dir === false || !history.size) return;
    try {
      const mode = (this.rawOptions as { _mode?: unknown })._mode;
      const shard = this.config?.shard;
      this.historyOutcome = endRunHistory({
        dir,
        keep: this.historyOptions.runs,
        builder: history,
        source: (await this.source) ?? {},
        startedAt: this.startedAt,
        endedAt: new Date(),
        status: result.status,
        ...(shard ? { shard: { current: shard.current, total: shard.total } } : {}),
        merged: mode === 'merge',
        fingerprints: this.groups.groups().map((g) => g.fingerprint),
        onSkip: (file: string, reason: string) => this.fail(new DaebugHistorySkippedError(file, reason)),
      });
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * When the run ends, a test still marked running never ended (SIGTERM, a runner that stops at once): like any test
   * that did not finish it has no report, and its live report, which would say it is still running, goes.
   */
  private endUnfinished(): void {
    for (const [id, entry] of this.index) {
      if (entry.status !== RUNNING_STATUS) continue;
      this.index.delete(id);
      const md = path.join(this.options.outputDir, entry.markdown);
      // A retry's live report replaced its earlier attempt's: that attempt's JSON stays, and the live text with it.
      if (fs.existsSync(path.join(this.options.outputDir, entry.json))) continue;
      try {
        fs.rmSync(md, { force: true });
      } catch (error) {
        debugLog(error);
      }
    }
  }

  private readonly onSigterm = (): void => {
    clearTimeout(this.indexTimer);
    markRunEnded(this.options.outputDir, process.pid);
    this.endUnfinished();
    // The process ends right after this handler: what the queue holds is written now, on this thread.
    this.writes.flushSync();
    this.writeIndex('interrupted', { now: true });
    // A write that was under way on the thread pool when the signal came would leave its temp file behind.
    removeInflightTemps();
    // With this listener gone, SIGTERM's default action ends the process as it would have without daebug.
    if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
  };

  private writeIndex(status: string, { now = false }: { now?: boolean } = {}): void {
    this.lastIndexWrite = Date.now();
    const index: RunIndex = {
      schemaVersion: 1,
      status,
      interrupted: status === 'interrupted',
      startedAt: this.startedAt.toISOString(),
      updatedAt: new Date().toISOString(),
      outputDir: this.options.outputDir,
      tests: [...this.index.values()],
      groups: this.groups.groups(),
    };
    if (this.baselineFile !== undefined) index.baseline = this.baselineFile;
    const outcome = this.historyOutcome;
    if (outcome && index.groups) {
      for (const group of index.groups) {
        const seen = outcome.firstSeen.get(group.fingerprint);
        if (seen) group.firstSeen = seen;
      }
    }
    if (outcome) index.history = outcome.summary;
    const fixed = this.groups.fixed();
    if (fixed) index.fixed = fixed;
    const unmapped = this.unmapped.notes();
    if (unmapped.length) index.unmappedByCause = unmapped;
    try {
      fs.mkdirSync(this.options.outputDir, { recursive: true });
      const json: [string, string] = [path.join(this.options.outputDir, 'index.json'), JSON.stringify(index, null, 2) + '\n'];
      const shown = index.baseline === undefined ? undefined : path.relative(process.cwd(), index.baseline) || index.baseline;
      const md: [string, string] = [path.join(this.options.outputDir, 'index.md'), formatIndexMarkdown(index, shown === undefined ? {} : { baselineShown: shown })];
      if (now) {
        writeAtomic(...json);
        writeAtomic(...md);
      } else this.writes.write([json, md]);
    } catch (error) {
      this.fail(error);
    }
  }

  // Playwright swallows a reporter's errors, so daebug reports its own, once per path, and never fails the tests.
  private fail(error: unknown): void {
    debugLog(error);
    const key = error instanceof DaebugError ? String(error.context['path'] ?? error.message) : String(error);
    if (this.failedPaths.has(key)) return;
    this.failedPaths.add(key);
    const text = error instanceof DaebugError ? `${error.code}: ${error.message}` : `daebug reporter: ${error instanceof Error ? error.stack : String(error)}`;
    process.stderr.write(`${text}\n`);
  }
}

/** Output for GitHub Actions, when the run is inside it and the options leave some on. */
function githubOutput(options: ResolvedReporterOptions, config: FullConfig): GitHubOutput | undefined {
  if (process.env['GITHUB_ACTIONS'] !== 'true' || (options.githubAnnotations === false && !options.githubSummary)) return undefined;
  return new GitHubOutput({
    annotations: options.githubAnnotations === true ? 'auto' : options.githubAnnotations === false ? 'off' : options.githubAnnotations,
    summary: options.githubSummary,
    maxAnnotations: options.maxAnnotations,
    root: process.env['GITHUB_WORKSPACE'] || config.rootDir,
    outputDir: options.outputDir,
    summaryFile: process.env['GITHUB_STEP_SUMMARY'] || undefined,
    // The reporter prints nothing else (printsToStdio is false), but workflow commands must reach the job log.
    write: (text) => process.stdout.write(text),
  });
}

/**
 * Adds the Markdown report to the test's result, replacing one added earlier (a blob merged by merge-reports).
 * Playwright's reporters share the result objects and the HTML reporter reads attachments in its onEnd, so
 * this works in either reporter order; a blob reporter serialises at onTestEnd, so in a sharded run the
 * attachment is in the blob when daebug comes first, and is added again when merge-reports runs daebug.
 * A text body, not the file's path: the HTML report shows text bodies inline, and each attempt keeps its own
 * report while the file on disk is rewritten by the next retry.
 */
function attachMarkdown(result: TestResult, markdown: string): void {
  const attachments = result.attachments;
  for (let i = attachments.length - 1; i >= 0; i--) if (attachments[i]!.name === MARKDOWN_ATTACHMENT_NAME) attachments.splice(i, 1);
  attachments.push({ name: MARKDOWN_ATTACHMENT_NAME, contentType: MARKDOWN_ATTACHMENT_CONTENT_TYPE, body: Buffer.from(markdown) });
}

function projectOf(test: TestCase): string {
  let suite: Suite | undefined = test.parent;
  while (suite) {
    const project = suite.project();
    if (project) return project.name;
    suite = suite.parent;
  }
  return '';
}

/** describe titles and the test title, without the root, project and file suites. */
function titlesOf(test: TestCase): string[] {
  const titles: string[] = [];
  let suite: Suite | undefined = test.parent;
  while (suite && suite.type === 'describe') {
    // Anonymous describes have no title, in Playwright's titlePath as in the worker's (src/test-info/report-path.ts).
    if (suite.title) titles.unshift(suite.title);
    suite = suite.parent;
  }
  return [...titles, test.title];
}

/**
 * The fixture's record, validated (src/model/record.ts). Every `daebug` attachment that is unreadable, not
 * JSON, of another version or of the wrong shape becomes a DAEBUG_RECORD_INVALID diagnostic; the last valid
 * one is the record (the fixture attaches at the test's end, after anything the test attached itself).
 */
function readRecord(result: TestResult): { record: RecordData | undefined; invalid: Diagnostic[] } {
  let record: RecordData | undefined;
  const invalid: Diagnostic[] = [];
  for (const attachment of result.attachments) {
    if (attachment.name !== ATTACHMENT_NAME || (!attachment.body && !attachment.path)) continue;
    let text: string;
    try {
      text = attachment.body ? attachment.body.toString('utf8') : fs.readFileSync(attachment.path!, 'utf8');
    } catch (error) {
      debugLog(error);
      invalid.push({
        code: 'DAEBUG_RECORD_INVALID',
        message: `daebug could not read this test's record (the \`daebug\` attachment at ${attachment.path}): ${(error as Error).message}.`,
        hint: 'Playwright keeps attachments in the test output folder until the run ends: check that nothing removes it during the run.',
        time: new Date().toISOString(),
      });
      continue;
    }
    const parsed = parseRecord(text);
    if (parsed.ok) record = parsed.record;
    else {
      debugLog(new DaebugError('DAEBUG_RECORD_INVALID', parsed.diagnostic.message));
      invalid.push(parsed.diagnostic);
    }
  }
  return { record, invalid };
}

/** The end of the last step or action that failed (its error is the test's failure), in ms; undefined without one. */
/** The step or action that failed last, and its end: the innermost one when it ends with its parent. */
function failingStep(steps: readonly TestStep[]): { endMs: number; title: string; location: TestStep['location'] } | undefined {
  let latest: { endMs: number; title: string; location: TestStep['location'] } | undefined;
  for (const step of steps) {
    if (step.error) {
      const endMs = step.startTime.getTime() + Math.max(0, step.duration);
      if (latest === undefined || endMs > latest.endMs) latest = { endMs, title: step.title, location: step.location };
    }
    const inner = failingStep(step.steps);
    if (inner !== undefined && (latest === undefined || inner.endMs >= latest.endMs)) latest = inner;
  }
  return latest;
}

/** The first line of the attempt's first error, without the terminal's colours. */
function firstErrorLine(result: TestResult): string | undefined {
  const message = result.errors.find((e) => e.message)?.message ?? result.error?.message;
  // eslint-disable-next-line no-control-regex
  const line = message?.replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((l) => l.trim());
  return line?.trim().slice(0, 500) || undefined;
}

function collectSteps(steps: readonly TestStep[], out: StepSpan[] = [], prefix = 's'): StepSpan[] {
  steps.forEach((step, i) => {
    const id = `${prefix}${i + 1}`;
    if (step.category === 'test.step') out.push({ id: `step-${id}`, title: step.title, startMs: step.startTime.getTime(), endMs: step.startTime.getTime() + Math.max(0, step.duration) });
    collectSteps(step.steps, out, `${id}.`);
  });
  return out;
}

export default DaebugReporter;
export { DaebugReporter };
