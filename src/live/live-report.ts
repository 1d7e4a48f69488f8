import fs from 'node:fs';
import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { Recorder } from '../capture/recorder';
import { DaebugError, DaebugReportWriteError } from '../errors';
import { slugForTestInfo } from '../test-info/report-path';
import { testHeader } from '../test-info/test-header';
import { writeAtomicAsync } from '../io/atomic-write';
import { LIVE_ENV, liveReportsTarget, type WorkerLiveTarget } from './live-env';
import type { RunningTest } from './live-view';

/** The formatter, loaded with the first write: a worker whose tests all end within LIVE_EVERY_MS never needs it. */
const liveView = () => require('./live-view') as typeof import('./live-view');
import { runEnded } from './run-ended';

/** The cadence: a live report is rewritten at most this often. */
export const LIVE_EVERY_MS = 2000;

/**
 * When nothing happened, the report is still rewritten this often: its `executing (Ns)` would otherwise stand still
 * while the test waits (a hanging click, a long poll), and a reader would take the test for one that just started.
 */
export const LIVE_IDLE_REFRESH_MS = 10_000;

/**
 * Keeps `<slug>.md` up to date while a test runs. Every LIVE_EVERY_MS it compares the recorder's change count with
 * the one it last wrote: when nothing happened that is all it does, but every LIVE_IDLE_REFRESH_MS, when the time
 * the report shows is refreshed. It only formats what the recorder already holds
 * (values not read yet show V8's preview): reading values would be protocol traffic the user's trace could show.
 */
export class LiveReport {
  private readonly timer: NodeJS.Timeout;
  private written = -1;
  private writtenAtMs = 0;
  private stopped = false;
  /** The write under way: writes run on libuv's thread pool, so the test goes on meanwhile. */
  private writing: Promise<void> | undefined;

  constructor(
    private readonly recorder: Recorder,
    private readonly test: RunningTest,
    private readonly file: string,
    private readonly maxBytes: number,
    private readonly runnerPid: number,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => void this.update(), LIVE_EVERY_MS);
    // A test that ends before the next tick must not be kept alive by it.
    this.timer.unref();
  }

  /**
   * Writes the live report if anything changed since the last write and no write is under way; resolves when that
   * write is done. The file is written off the test's thread: a slow disk must not slow the test down.
   */
  update(): Promise<void> {
    if (this.stopped || this.writing) return this.writing ?? Promise.resolve();
    const now = this.now();
    if (this.recorder.changes === this.written && now - this.writtenAtMs < LIVE_IDLE_REFRESH_MS) return Promise.resolve();
    if (!this.runGoesOn()) return this.stop();
    const first = this.written === -1;
    this.written = this.recorder.changes;
    this.writtenAtMs = now;
    const content = liveView().formatLiveReport(this.recorder.record(), this.test, now, this.maxBytes);
    this.writing = this.write(content, first).finally(() => (this.writing = undefined));
    return this.writing;
  }

  private async write(content: string, first: boolean): Promise<void> {
    try {
      if (first) await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
      // Checked right before the rename: a test that ended meanwhile has its final report from the reporter.
      const wanted = () => !this.stopped && this.runGoesOn();
      await writeAtomicAsync(this.file, content, wanted);
      if (!this.stopped && !this.runGoesOn()) {
        // The runner ended between the check and the rename and has already swept this test's live file: take back
        // what was just written, so no live report of an unfinished test outlives the run.
        await fs.promises.rm(this.file, { force: true });
        void this.stop();
      }
    } catch (error) {
      // The final report is written by the reporter all the same; one diagnostic says why there was no live one.
      void this.stop();
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

  /**
   * At the test's end, before the record is attached: from here on only the reporter writes this file. Resolves once a
   * write under way is over (it renames nothing after this call), so the reporter's final report is the last write.
   */
  stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    return this.writing ?? Promise.resolve();
  }
}

/**
 * Starts the live report of a test (first written at the first tick), when daebug's reporter runs in this run (not under
 * `--reporter=blob` alone, nor in merge-reports, which has no workers). Undefined otherwise.
 */
export function startLiveReport(recorder: Recorder, testInfo: TestInfo, target: WorkerLiveTarget | undefined = liveReportsTarget(process.env[LIVE_ENV], process.ppid)): LiveReport | undefined {
  if (!target) return undefined;
  const slug = slugForTestInfo(testInfo);
  const test: RunningTest = { ...testHeader(testInfo), startMs: Date.now() };
  const live = new LiveReport(recorder, test, path.join(target.dir, `${slug}.md`), recorder.options.limitsSet?.maxReportBytes ?? target.maxReportBytes, target.runner);
  // No write now: the first is at the first tick (LIVE_EVERY_MS). Most tests end before it, and their final report
  // comes first; a write at the start cost every test a format and an atomic write for a file nobody read (issue 25).
  return live;
}
