import fs from 'node:fs';
import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { Recorder } from '../capture/recorder';
import { DaebugError, DaebugReportWriteError } from '../errors';
import { slugForTestInfo } from '../report-path';
import { writeAtomic } from '../reporter/write';
import { LIVE_ENV, liveReportsTarget } from './live-env';
import { formatLiveReport, type RunningTest } from './live-view';
import { runEnded } from './run-ended';

/** The cadence: a live report is rewritten at most this often. */
export const LIVE_EVERY_MS = 2000;

/**
 * Keeps `<slug>.md` up to date while a test runs. Every LIVE_EVERY_MS it compares the recorder's change count with
 * the one it last wrote: when nothing happened that is all it does. It only formats what the recorder already holds
 * (values not read yet show V8's preview): reading values would be protocol traffic the user's trace could show.
 */
export class LiveReport {
  private readonly timer: NodeJS.Timeout;
  private written = -1;
  private stopped = false;

  constructor(
    private readonly recorder: Recorder,
    private readonly test: RunningTest,
    private readonly file: string,
    private readonly maxBytes: number,
    private readonly runnerPid: number,
  ) {
    this.timer = setInterval(() => this.update(), LIVE_EVERY_MS);
    // A test that ends before the next tick must not be kept alive by it.
    this.timer.unref();
  }

  /** Writes the live report if anything changed since the last write. */
  update(): void {
    if (this.stopped || this.recorder.changes === this.written) return;
    if (!this.runGoesOn()) return this.stop();
    const first = this.written === -1;
    this.written = this.recorder.changes;
    try {
      if (first) fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const written = writeAtomic(this.file, formatLiveReport(this.recorder.record(), this.test, Date.now(), this.maxBytes), () => this.runGoesOn());
      if (!written) this.stop();
      else if (!this.runGoesOn()) {
        // The runner ended between the check and the rename and has already swept this test's live file: take back
        // what was just written, so no live report of an unfinished test outlives the run.
        fs.rmSync(this.file, { force: true });
        this.stop();
      }
    } catch (error) {
      // The final report is written by the reporter all the same; one diagnostic says why there was no live one.
      this.stop();
      this.recorder.diagnose(error instanceof DaebugError ? error : new DaebugReportWriteError(this.file, error));
    }
  }

  /**
   * A runner that stopped (SIGTERM) has settled this test's files: its workers must not write after that, whether
   * it lingers for a moment (the marker) or is gone (another parent).
   */
  private runGoesOn(): boolean {
    return process.ppid === this.runnerPid && !runEnded(path.dirname(this.file), this.runnerPid);
  }

  /** At the test's end, before the record is attached: from here on only the reporter writes this file. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}

/**
 * Starts the live report of a test and writes its first version, when daebug's reporter runs in this run (not under
 * `--reporter=blob` alone, nor in merge-reports, which has no workers). Undefined otherwise.
 */
export function startLiveReport(recorder: Recorder, testInfo: TestInfo): LiveReport | undefined {
  const target = liveReportsTarget(process.env[LIVE_ENV], process.ppid);
  if (!target) return undefined;
  const slug = slugForTestInfo(testInfo);
  const file = path.relative(testInfo.config.rootDir, testInfo.file).split(path.sep).join('/');
  // The same header fields the reporter gives the final report (src/reporter/index.ts writeTest).
  const test: RunningTest = {
    title: testInfo.title,
    titlePath: [file, ...testInfo.titlePath.slice(1)],
    file,
    line: testInfo.line,
    project: testInfo.project.name,
    expectedStatus: testInfo.expectedStatus,
    retry: testInfo.retry,
    startMs: Date.now(),
  };
  if (testInfo.repeatEachIndex > 0) test.repeatEachIndex = testInfo.repeatEachIndex;
  const live = new LiveReport(recorder, test, path.join(target.dir, `${slug}.md`), recorder.options.limitsSet?.maxReportBytes ?? target.maxReportBytes, target.runner);
  live.update();
  return live;
}
