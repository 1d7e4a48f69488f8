import fs from 'node:fs';
import path from 'node:path';
import { omittedAnnotations, testAnnotations, unexpectedEvents } from '../ci/annotations';
import { sourceInRepo } from '../ci/repo-source';
import { firstLine } from '../text/first-line';
import { formatStepSummary, type SummaryRow } from '../format/github-summary';
import type { DaebugEvent, Report } from '../model/schema';
import type { ErrorGroup } from '../model/error-group';
import type { HistorySummary } from '../model/history-summary';

/** `all`: one per unexpected error; `new`: one per new group, at its first occurrence; `auto`: `new` once a baseline is set, else `all`. */
export type AnnotationMode = 'off' | 'auto' | 'all' | 'new';

export interface GitHubOutputOptions {
  annotations: AnnotationMode;
  summary: boolean;
  maxAnnotations: number;
  /** The repository root: GITHUB_WORKSPACE, else the config's rootDir. */
  root: string;
  outputDir: string;
  /** `$GITHUB_STEP_SUMMARY`: the file the summary is appended to. */
  summaryFile: string | undefined;
  write: (text: string) => void;
}

export interface FinishedTest {
  report: Report;
  titlePath: readonly string[];
  /** Absolute path of the spec file. */
  file: string;
  line: number;
}

/** Workflow commands in the job log and a job summary, for a run inside GitHub Actions. */
export class GitHubOutput {
  private annotated = 0;
  private omitted = 0;
  private readonly omittedTests = new Set<string>();
  private readonly rows: SummaryRow[] = [];
  private tests = 0;
  private readonly files = new Map<string, boolean>();
  private readonly annotatedGroups = new Set<string>();

  constructor(private readonly options: GitHubOutputOptions) {}

  /** A test's final attempt. Annotations go out at once, so the job log shows them while the run goes on. */
  testEnded(test: FinishedTest, withBaseline = false): void {
    this.tests++;
    const unexpected = unexpectedEvents(test.report);
    if (!unexpected.length) return;
    const location = { file: this.relative(test.file), line: test.line };
    // Anonymous describe blocks have empty titles.
    const titlePath = test.titlePath.filter(Boolean);
    const mode = this.options.annotations === 'auto' ? (withBaseline ? 'new' : 'all') : this.options.annotations;
    const annotate = mode === 'new' ? this.firstOfNewGroups(unexpected) : mode === 'all' ? unexpected : [];
    if (annotate.length) {
      const room = Math.max(0, this.options.maxAnnotations - this.annotated);
      // Only the errors that get a command are located: locating reads the file system.
      const shown = testAnnotations({
        report: { ...test.report, events: annotate.slice(0, room) },
        titlePath: test.report.test.project ? [`[${test.report.test.project}]`, ...titlePath] : titlePath,
        test: location,
        sourceInRepo: (source) => sourceInRepo(source, { root: this.options.root, cwd: process.cwd(), isFile: this.isFile }),
      });
      // A command counts only at the start of a line, and the dot reporter leaves its line open.
      if (shown.length) this.options.write(`\n${shown.join('\n')}\n`);
      this.annotated += shown.length;
      if (annotate.length > shown.length) {
        this.omitted += annotate.length - shown.length;
        this.omittedTests.add(`${location.file}:${location.line}:${titlePath.join(' › ')}`);
      }
    }
    const first = unexpected[0]!;
    this.rows.push({
      location: `${location.file}:${location.line}`,
      title: titlePath.join(' › '),
      status: test.report.test.status,
      strict: test.report.test.strict,
      unexpected: unexpected.length,
      firstError: `[${first.source}] ${firstLine(first.message, { max: 200, trim: true })}`,
      report: this.relative(path.join(this.options.outputDir, test.report.markdownFile ?? '')),
    });
  }

  /** With a baseline: the first new (not known) error of each group not annotated yet, one per group. */
  private firstOfNewGroups(events: readonly DaebugEvent[]): DaebugEvent[] {
    const first: DaebugEvent[] = [];
    for (const event of events) {
      if (event.known) continue;
      const key = event.fingerprint ?? `${event.source}\u0000${event.message}`;
      if (this.annotatedGroups.has(key)) continue;
      this.annotatedGroups.add(key);
      first.push(event);
    }
    return first;
  }

  /** The line for annotations over the cap, and the job summary. Errors are the caller's to report. */
  end(groups: readonly ErrorGroup[] = [], history?: HistorySummary): void {
    if (this.omitted) this.options.write(`\n${omittedAnnotations(this.omitted, this.omittedTests.size, this.options.maxAnnotations, this.relative(path.join(this.options.outputDir, 'index.md')))}\n`);
    if (this.options.summary && this.options.summaryFile) {
      fs.appendFileSync(this.options.summaryFile, formatStepSummary({ rows: this.rows, tests: this.tests, index: this.relative(path.join(this.options.outputDir, 'index.md')), groups, report: (name) => this.relative(path.join(this.options.outputDir, name)), ...(history ? { history } : {}) }));
    }
  }

  private readonly isFile = (file: string): boolean => {
    let known = this.files.get(file);
    if (known === undefined) {
      try {
        known = fs.statSync(file).isFile();
      } catch {
        known = false;
      }
      this.files.set(file, known);
    }
    return known;
  };

  private relative(file: string): string {
    const relative = path.relative(this.options.root, file);
    return (relative.startsWith('..') || path.isAbsolute(relative) ? file : relative).split(path.sep).join('/');
  }
}

