import { writeAtomic, writeAtomicAsync } from '../io/atomic-write';

/** Past this many writes waiting, the next is written at once on the runner's thread. */
export const MAX_WAITING = 64;

/** Files written one after another; when one fails, those after it are not written (a report's `.md` needs its `.json`). */
type Files = Array<[file: string, content: string]>;

interface Job {
  /** The files' names, joined: a newer write with the same key replaces this one while it waits. */
  key: string;
  files: Files;
  /** Runs after a failed write, after the error was reported. */
  onFail: (() => void) | undefined;
}

/**
 * The reporter's file writes, off the runner's event loop: each file is written atomically (temp file, rename) on
 * libuv's thread pool, one after another in the order they were asked for. A write waiting for its turn is replaced
 * by a newer write of the same file (the index). The runner dispatches tests from the thread these writes would
 * otherwise block: a rename that waits on the file system's journal held up every worker's next test.
 * Past MAX_WAITING writes waiting (a slow disk), a new one is written synchronously: memory stays bounded and nothing
 * is dropped. `drain()` resolves when everything asked for is on disk; `flushSync()` writes what is left at once (SIGTERM).
 */
export class WriteQueue {
  private readonly jobs: Job[] = [];
  /** The waiting jobs by key: looking one up must not cost a scan of the queue (a backlog of thousands of reports). */
  private readonly waiting = new Map<string, Job>();
  private running: Job | undefined;
  private drained: Promise<void> = Promise.resolve();
  private resolveDrained: (() => void) | undefined;
  /** Set by flushSync: a write still in flight on the thread pool must not land after the synchronous ones. */
  private flushed = false;

  constructor(private readonly onError: (error: unknown) => void) {}

  /**
   * Writes the files in order, after the writes asked for before; stops at the first that fails. Replaces a write of
   * the same files that has not started yet.
   */
  write(files: Files, onFail?: () => void): void {
    const key = files.map(([file]) => file).join('\0');
    if (this.flushed) return void this.writeNow({ key, files, onFail });
    const waiting = this.waiting.get(key);
    if (waiting) {
      waiting.files = files;
      waiting.onFail = onFail;
      return;
    }
    const job: Job = { key, files, onFail };
    // A disk slower than the tests: the run slows down instead of holding every report in memory. A write of the
    // file in flight waits its turn, so the older content cannot land after it.
    if (this.jobs.length >= MAX_WAITING && this.running?.key !== key) return void this.writeNow(job);
    this.jobs.push(job);
    this.waiting.set(key, job);
    if (this.running) return;
    this.drained = new Promise((resolve) => (this.resolveDrained = resolve));
    void this.next();
  }

  /** Resolves once every write asked for so far is on disk (or failed and was reported). */
  drain(): Promise<void> {
    return this.drained;
  }

  /** Writes everything not on disk yet, synchronously: the write in flight again, then the waiting ones. */
  flushSync(): void {
    const left = this.running ? [this.running, ...this.jobs] : [...this.jobs];
    this.jobs.length = 0;
    this.waiting.clear();
    this.flushed = true;
    for (const job of left) this.writeNow(job);
  }

  private writeNow(job: Job): void {
    try {
      for (const [file, content] of job.files) writeAtomic(file, content);
    } catch (error) {
      this.failed(job, error);
    }
  }

  private failed(job: Job, error: unknown): void {
    this.onError(error);
    try {
      job.onFail?.();
    } catch (cleanupError) {
      this.onError(cleanupError);
    }
  }

  private async next(): Promise<void> {
    while ((this.running = this.jobs.shift())) {
      const job = this.running;
      this.waiting.delete(job.key);
      try {
        for (const [file, content] of job.files) await writeAtomicAsync(file, content, () => !this.flushed);
      } catch (error) {
        this.failed(job, error);
      }
    }
    this.running = undefined;
    this.resolveDrained?.();
  }
}
