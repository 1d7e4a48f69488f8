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
}

let nextKey = 0;

// While the Network domain is on, every request sends these too; daebug reads none of them, so they are not parsed.
const UNREAD_EVENT = /^\{"method":"Network\.(?:dataReceived|requestWillBeSentExtraInfo|responseReceivedExtraInfo|resourceChangedPriority|requestServedFromCache|responseReceivedEarlyHints|policyUpdated|reportingApiReportAdded|reportingApiReportUpdated|directTCPSocket\w*|directUDPSocket\w*)"/;

// Children daebug holds at start and resumes once it listens. Service workers come through discovery instead.
const CHILD_FILTER = { page: [{ type: 'worker' }, { type: 'iframe' }], worker: [{ type: 'worker' }] };

/**
 * One target (page, frame, worker) on daebug's own, non-flat session: commands are wrapped in
 * `Target.sendMessageToTarget` by each ancestor, and its own children arrive inside its messages.
 */
export class Target {
  readonly key = `t${++nextKey}`;
  readonly children = new Map<string, Target>();
  closed = false;
  /** The Network domain is on for this target's session. */
  network = false;
  /** Playwright's utility worlds and isolated worlds: their console traffic is not the page's. */
  readonly ignoredContexts = new Set<number>();
  private nextId = 0;
  /** A tapped target's async stack depth, sent once Playwright enabled Runtime on it. */
  private asyncDepthOnRuntime = 0;
  private readonly waiting = new Map<number, { resolve(value: any): void; reject(error: Error): void }>();

  constructor(
    readonly type: TargetType,
    public url: string,
    readonly targetId: string,
    readonly browserContextId: string | undefined,
    readonly parent: Target | undefined,
    private readonly post: (message: string) => Promise<unknown>,
    private readonly listener: TargetListener,
    /** Set for a target read on Playwright's own session (PlaywrightTap): commands go out on that session. */
    private readonly direct?: (method: string, params?: object) => Promise<any>,
    /** That session's id, for a tapped target. */
    readonly tapSessionId?: string,
  ) {}

  /** Whether this target is read on Playwright's own session rather than one of daebug's. */
  get tapped(): boolean {
    return this.direct !== undefined;
  }

  get root(): Target {
    return this.parent ? this.parent.root : this;
  }

  get isWorker(): boolean {
    return this.type !== 'page' && this.type !== 'iframe';
  }

  send(method: string, params?: object): Promise<any> {
    if (this.closed) return Promise.reject(new Error(`${this.type} target closed`));
    if (this.direct) return this.direct(method, params);
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.post(JSON.stringify({ id, method, params })).catch((error: Error) => {
        this.waiting.delete(id);
        reject(error);
      });
    });
  }

  /**
   * Turns capture on. Commands go out together and the target runs them in order, so a target held at start
   * (`waitForDebuggerOnStart`) resumes only after Runtime is enabled: none of its first messages is lost.
   */
  enable(held: boolean): Promise<unknown> {
    if (this.direct) {
      // Playwright's session has every domain daebug reads on already, and resumes the target itself. Async stacks
      // wait for its Runtime.enable (V8 ignores the depth before): its first execution context says it was done.
      this.network = this.listener.wantsNetwork?.() ?? false;
      this.asyncDepthOnRuntime = this.listener.asyncStackDepth ?? 0;
      return Promise.resolve();
    }
    // Network first: Playwright's own session resumes a held worker too, and a request has no replay as console calls do.
    const commands: Array<Promise<unknown>> = this.listener.wantsNetwork?.() ? [this.enableNetwork()] : [];
    commands.push(this.send('Runtime.enable'));
    const depth = this.listener.asyncStackDepth ?? 0;
    if (depth > 0) commands.push(this.setAsyncStackDepth(depth));
    if (this.type === 'page') commands.push(this.send('Page.enable'), this.send('Log.enable'));
    if (this.type === 'page' || this.type === 'iframe') commands.push(this.autoAttach(CHILD_FILTER.page));
    else commands.push(this.autoAttach(CHILD_FILTER.worker));
    if (held) commands.push(this.send('Runtime.runIfWaitingForDebugger'));
    return Promise.all(commands);
  }

  /**
   * Turns the Network domain on or off for a target that outlived the test that attached it. Chromium sends every
   * request's events over daebug's session while it is on, so it is on only for tests that want failed requests.
   */
  setNetwork(on: boolean): void {
    if (on === this.network || this.closed) return;
    // Playwright's own session always has Network on: daebug only stops reading it.
    if (this.direct) return void (this.network = on);
    if (on) void this.enableNetwork().catch(() => undefined);
    else {
      this.network = false;
      void this.send('Network.disable').catch(() => undefined);
    }
  }

  private enableNetwork(): Promise<unknown> {
    this.network = true;
    // daebug reads no bodies: Chromium keeps none of them (nor post data) for this session.
    return this.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0, maxPostDataSize: 0 });
  }

  /** Async parents in this target's stack traces from now on (0 turns them off). */
  setAsyncStackDepth(maxDepth: number): Promise<unknown> {
    return this.send('Runtime.setAsyncCallStackDepth', { maxDepth });
  }

  private autoAttach(filter: object[]): Promise<unknown> {
    return this.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false, filter });
  }

  /** An event of a tapped target, as Playwright's session received it. */
  dispatch(method: string, params: any): void {
    if (this.closed || (!this.network && method.startsWith('Network.'))) return;
    if (this.asyncDepthOnRuntime > 0 && method === 'Runtime.executionContextCreated') {
      void this.setAsyncStackDepth(this.asyncDepthOnRuntime).catch(() => undefined);
      this.asyncDepthOnRuntime = 0;
    }
    this.listener.onEvent(this, method, params);
  }

  receive(raw: string): void {
    if (this.network && UNREAD_EVENT.test(raw)) return;
    const message = JSON.parse(raw) as { id?: number; method?: string; params?: any; result?: unknown; error?: { message: string } };
    if (message.id !== undefined) {
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
      return;
    }
    const { method, params } = message;
    if (method === 'Target.receivedMessageFromTarget') this.children.get(params.sessionId)?.receive(params.message);
    else if (method === 'Target.attachedToTarget') this.attachChild(params);
    else if (method === 'Target.detachedFromTarget') this.children.get(params.sessionId)?.close();
    else if (method) this.listener.onEvent(this, method, params);
  }

  private attachChild(params: { sessionId: string; targetInfo: TargetInfo; waitingForDebugger: boolean }): void {
    const { sessionId, targetInfo } = params;
    const type: TargetType = targetInfo.type === 'iframe' ? 'iframe' : 'worker';
    const post = (message: string) => this.send('Target.sendMessageToTarget', { sessionId, message });
    const child = new Target(type, targetInfo.url, targetInfo.targetId, this.browserContextId, this, post, this.listener);
    this.children.set(sessionId, child);
    this.listener.onAttached(child);
    // A child left waiting would hang the page's worker for good: it is resumed even if enabling fails.
    const enable = () => child.enable(params.waitingForDebugger).catch(() => (params.waitingForDebugger ? child.send('Runtime.runIfWaitingForDebugger').catch(() => undefined) : undefined));
    void (this.listener.batch ? this.listener.batch(enable) : enable());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const child of this.children.values()) child.close();
    for (const waiter of this.waiting.values()) waiter.reject(new Error(`${this.type} target closed`));
    this.waiting.clear();
    this.listener.onDetached(this);
  }
}
