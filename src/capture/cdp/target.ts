/** A CDP target type daebug captures. */
export type TargetType = 'page' | 'iframe' | 'worker' | 'service_worker' | 'shared_worker';

export interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  browserContextId?: string;
}

/** Receives what a target's session says; the connection routes it to the test that runs. */
export interface TargetListener {
  /** Levels of async parents CDP adds to stack traces (`Runtime.setAsyncCallStackDepth`); 0 is off. */
  readonly asyncStackDepth?: number;
  onEvent(target: Target, method: string, params: any): void;
  onAttached(target: Target): void;
  onDetached(target: Target): void;
  /** Whether the running test wants failed requests (`daebugNetwork` is not `off`). */
  wantsNetwork?(): boolean;
  /** Runs `fn` so that the commands it sends share one internal Playwright call. */
  batch?<T>(fn: () => Promise<T>): Promise<T>;
  /** A service worker crashed: its process died while it ran (src/capture/cdp/service-worker-watch.ts). */
  onWorkerCrashed?(target: Target): void;
}

let nextKey = 0;

const TIMER_TURN = 'new Promise((resolve) => setTimeout(resolve, 0))';

/**
 * One target (page, frame, worker) daebug listens to, whichever session it is read on: daebug's own
 * (`OwnSessionTarget`) or Playwright's (`TappedTarget`).
 */
export abstract class Target {
  readonly key = `t${++nextKey}`;
  readonly children = new Map<string, Target>();
  closed = false;
  /** daebug reads this target's Network events (its session has the domain on). */
  network = false;
  /** Playwright's utility worlds and isolated worlds: their console traffic is not the page's. */
  readonly ignoredContexts = new Set<number>();
  /** Whether this target is read on Playwright's own session rather than one of daebug's. */
  abstract readonly tapped: boolean;
  /** The main frame's context in Playwright's utility world, an isolated world: page code cannot replace its timers. */
  utilityContextId: number | undefined;
  /**
   * A worker Chromium stopped: its context closed, it idled, a new version replaced it, or its process died. It
   * answers nothing until it starts again (a service worker does on its next event), so nothing waits for it.
   */
  stopped = false;
  /** Commands in flight (`request`), failed when the target stops or closes before answering. */
  private readonly unanswered = new Set<(error: Error) => void>();

  constructor(
    readonly type: TargetType,
    public url: string,
    readonly targetId: string,
    readonly browserContextId: string | undefined,
    readonly parent: Target | undefined,
    protected readonly listener: TargetListener,
  ) {}

  get root(): Target {
    return this.parent ? this.parent.root : this;
  }

  get isWorker(): boolean {
    return this.type !== 'page' && this.type !== 'iframe';
  }

  /** Sends a command to the target; rejects once it closed. */
  abstract send(method: string, params?: object): Promise<any>;

  /** Turns capture on; a target held at start (`held`) runs once daebug listens. */
  abstract enable(held: boolean): Promise<unknown>;

  /** Reads the target's Network events from now on, or stops (a target that outlived the test that attached it). */
  abstract setNetwork(on: boolean): void;

  /**
   * A command whose answer daebug waits for (a round trip, a value read): it fails at once while the target is
   * stopped, and when the target stops or closes before answering. A stopped worker keeps its session but answers
   * nothing, and a wait for it would hold the test's end, and the close of its context, for good.
   */
  request(method: string, params?: object): Promise<any> {
    if (this.stopped) return Promise.reject(new Error(`${this.type} stopped`));
    return new Promise((resolve, reject) => {
      this.unanswered.add(reject);
      this.send(method, params)
        .then(resolve, reject)
        .finally(() => this.unanswered.delete(reject));
    });
  }

  /**
   * What the target's own session says of its life. A worker's `Inspector.targetCrashed` is Chromium ending its
   * thread (WorkerDestroyed), which happens when it is stopped as well as when it crashed: either way it stops (for a
   * service worker, whether it crashed is the ServiceWorker domain's to say). `Inspector.targetReloadedAfterCrash`,
   * or a new execution context, says it runs again.
   */
  noteLife(method: string): void {
    if (!this.isWorker) return;
    if (method === 'Inspector.targetCrashed') {
      this.stopped = true;
      this.failUnanswered(`${this.type} stopped`);
    } else if (method === 'Inspector.targetReloadedAfterCrash' || method === 'Runtime.executionContextCreated') this.stopped = false;
  }

  private failUnanswered(why: string): void {
    for (const reject of this.unanswered) reject(new Error(why));
    this.unanswered.clear();
  }

  /** Async parents in this target's stack traces from now on (0 turns them off). */
  setAsyncStackDepth(maxDepth: number): Promise<unknown> {
    return this.send('Runtime.setAsyncCallStackDepth', { maxDepth });
  }

  /**
   * One round trip on the target's own thread: its answer comes after every event the target emitted before the
   * command ran there. Neither command waits for the JavaScript the target is running, so a test that ends while a
   * realm computes is not held for it, and its context closes on that work as it does without daebug:
   * - a page or frame answers `Performance.getMetrics`, which Chromium dispatches from the renderer's IO thread as an
   *   interrupt: it runs inside JavaScript that is running (Playwright's injected script describing the handle a
   *   `waitForSelector()` returned), not after it. Without `Performance.enable` the answer is an empty list.
   * - a worker or service worker has no Performance domain. It answers `Runtime.getIsolateId` between two steps of
   *   the script it is running (a worker's inspector commands run as interrupts; `Runtime.evaluate` is the one that
   *   waits for the task to end), after the events it emitted so far: a worker still compiling its bundle or busy
   *   in a loop when the test ended used to be waited for (issue 36; e2e/capture-bursts.spec.ts checks both).
   */
  roundTrip(): Promise<unknown> {
    const command = this.isWorker ? this.request('Runtime.getIsolateId') : this.request('Performance.getMetrics');
    return command.catch(() => undefined);
  }

  /**
   * A barrier that also waits for the timers the page set before it with no delay: a `setTimeout(fn, 0)` that an
   * action's handler queued, and the error it throws, come before the answer, because timers of equal delay fire in
   * the order they were set. It runs in Playwright's utility world when daebug saw it made (its `setTimeout` is the
   * browser's, not a fake clock's), else in the page's main world. Resolves false when the page did not answer
   * within `withinMs` (a long task, a fake clock) or could not run it; the caller then ends on `roundTrip()`.
   */
  timerTurn(withinMs: number): Promise<boolean> {
    const context = this.utilityContextId === undefined ? {} : { contextId: this.utilityContextId };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
    const turn = this.request('Runtime.evaluate', { expression: TIMER_TURN, awaitPromise: true, returnByValue: true, silent: true, ...context }).then(
      (response: { exceptionDetails?: unknown } | undefined) => !response?.exceptionDetails,
      () => false,
    );
    return Promise.race([turn, late]).finally(() => clearTimeout(timer));
  }

  /**
   * DevTools issues (CSP, CORS, mixed content, cookies, deprecations) from now on, and those the page had already.
   * A browser without the Audits domain only loses the issues: the console lines about the same problems remain.
   */
  enableAudits(): Promise<unknown> {
    return this.send('Audits.enable').catch(() => undefined);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.failUnanswered(`${this.type} target closed`);
    for (const child of this.children.values()) child.close();
    this.onClose();
    this.listener.onDetached(this);
  }

  /** What a subclass lets go of when the target closes. */
  protected onClose(): void {}
}
