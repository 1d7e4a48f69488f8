import fs from 'node:fs';
import path from 'node:path';
import { omittedAnnotations, testAnnotations, unexpectedEvents, firstLine } from '../ci/annotations';
import { sourceInRepo } from '../ci/repo-source';
import { formatStepSummary, type SummaryRow } from '../format/github-summary';
import type { Report } from '../model/schema';

export interface GitHubOutputOptions {
  annotations: boolean;
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

  constructor(private readonly options: GitHubOutputOptions) {}

  /** A test's final attempt. Annotations go out at once, so the job log shows them while the run goes on. */
  testEnded(test: FinishedTest): void {
    this.tests++;
    const unexpected = unexpectedEvents(test.report);
    if (!unexpected.length) return;
    const location = { file: this.relative(test.file), line: test.line };
    // Anonymous describe blocks have empty titles.
    const titlePath = test.titlePath.filter(Boolean);
    if (this.options.annotations) {
      const room = Math.max(0, this.options.maxAnnotations - this.annotated);
      // Only the errors that get a command are located: locating reads the file system.
      const shown = testAnnotations({
        report: { ...test.report, events: unexpected.slice(0, room) },
        titlePath: test.report.test.project ? [`[${test.report.test.project}]`, ...titlePath] : titlePath,
        test: location,
        sourceInRepo: (source) => sourceInRepo(source, { root: this.options.root, cwd: process.cwd(), isFile: this.isFile }),
      });
      // A command counts only at the start of a line, and the dot reporter leaves its line open.
      if (shown.length) this.options.write(`\n${shown.join('\n')}\n`);
      this.annotated += shown.length;
      if (unexpected.length > shown.length) {
        this.omitted += unexpected.length - shown.length;
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
      firstError: `[${first.source}] ${firstLine(first.message, 200)}`,
      report: this.relative(path.join(this.options.outputDir, test.report.markdownFile ?? '')),
    });
  }

  /** The line for annotations over the cap, and the job summary. Errors are the caller's to report. */
  end(): void {
    if (this.omitted) this.options.write(`\n${omittedAnnotations(this.omitted, this.omittedTests.size, this.options.maxAnnotations, this.relative(path.join(this.options.outputDir, 'index.md')))}\n`);
    if (this.options.summary && this.options.summaryFile) {
      fs.appendFileSync(this.options.summaryFile, formatStepSummary({ rows: this.rows, tests: this.tests, index: this.relative(path.join(this.options.outputDir, 'index.md')) }));
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

