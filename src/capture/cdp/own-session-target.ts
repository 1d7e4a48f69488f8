import { Target, type TargetInfo, type TargetListener, type TargetType } from './target';

// While the Network domain is on, every request sends these too; daebug reads none of them, so they are not parsed.
const UNREAD_EVENT = /^\{"method":"Network\.(?:dataReceived|requestWillBeSentExtraInfo|responseReceivedExtraInfo|resourceChangedPriority|requestServedFromCache|responseReceivedEarlyHints|policyUpdated|reportingApiReportAdded|reportingApiReportUpdated|directTCPSocket\w*|directUDPSocket\w*)"/;

// Children daebug holds at start and resumes once it listens. Service workers come through discovery instead.
const CHILD_FILTER = { page: [{ type: 'worker' }, { type: 'iframe' }], worker: [{ type: 'worker' }] };

/**
 * A target on daebug's own, non-flat session: commands are wrapped in `Target.sendMessageToTarget` by each
 * ancestor, and its own children arrive inside its messages, as text daebug parses.
 */
export class OwnSessionTarget extends Target {
  readonly tapped = false;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(value: any): void; reject(error: Error): void }>();
  /** Whether this session has heard its main frame navigate. */
  private heardNavigation = false;

  constructor(
    type: TargetType,
    url: string,
    targetId: string,
    browserContextId: string | undefined,
    parent: OwnSessionTarget | undefined,
    /** Sends a command's JSON text on the session (the parent's `Target.sendMessageToTarget`, or the browser's). */
    private readonly post: (message: string) => Promise<unknown>,
    listener: TargetListener,
  ) {
    super(type, url, targetId, browserContextId, parent, listener);
  }

  send(method: string, params?: object): Promise<any> {
    if (this.closed) return Promise.reject(new Error(`${this.type} target closed`));
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
    // Network first: Playwright's own session resumes a held worker too, and a request has no replay as console calls do.
    const commands: Array<Promise<unknown>> = this.listener.wantsNetwork?.() ? [this.enableNetwork()] : [];
    // A worker's children before its Runtime: Playwright's session may have resumed the worker already, and a nested
    // worker it started may have thrown. The parent's copy of that error (value null, the nested worker's frames) is
    // told apart by the child's URL, so the child must be attached before Runtime.enable reports or replays the copy.
    // Seen in 1 of 2 CI runs on Playwright 1.57 (capture-targets, own sessions 2).
    if (this.type !== 'page' && this.type !== 'iframe') commands.push(this.autoAttach(CHILD_FILTER.worker));
    commands.push(this.send('Runtime.enable'));
    const depth = this.listener.asyncStackDepth ?? 0;
    if (depth > 0) commands.push(this.setAsyncStackDepth(depth));
    if (this.type === 'page') commands.push(this.send('Page.enable'), this.send('Log.enable'), this.enableAudits());
    if (this.type === 'page' || this.type === 'iframe') commands.push(this.autoAttach(CHILD_FILTER.page));
    if (held) commands.push(this.send('Runtime.runIfWaitingForDebugger'));
    if (this.type === 'page' && !this.parent) commands.push(this.replayNavigation().catch(() => undefined));
    return Promise.all(commands);
  }

  /**
   * A page found by discovery (one the test made with `browser.newPage()`, or one that was open already) may have
   * navigated before its `Page.enable`: console calls are replayed by `Runtime.enable`, a navigation is not. Its
   * frame tree says where it is; unless the session heard a navigation meanwhile (events come before the answer),
   * that is its navigation. Seen missing on daebug's own sessions in 1 of 6 full e2e runs (capture-targets 4).
   */
  private async replayNavigation(): Promise<void> {
    const { frameTree } = (await this.send('Page.getFrameTree')) as { frameTree: { frame: { id: string; loaderId: string; url: string; urlFragment?: string } } };
    const frame = frameTree.frame;
    if (this.heardNavigation || this.closed || !frame.url || frame.url === 'about:blank') return;
    this.heardNavigation = true;
    this.listener.onEvent(this, 'Page.frameNavigated', { frame });
  }

  /** Chromium sends every request's events over daebug's session while Network is on: only for tests that want them. */
  setNetwork(on: boolean): void {
    if (on === this.network || this.closed) return;
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

  private autoAttach(filter: object[]): Promise<unknown> {
    return this.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false, filter });
  }

  /** A message of this target's session, as the text CDP delivers. */
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
    if (method === 'Page.frameNavigated' && !params?.frame?.parentId) this.heardNavigation = true;
    if (method === 'Target.receivedMessageFromTarget') (this.children.get(params.sessionId) as OwnSessionTarget | undefined)?.receive(params.message);
    else if (method === 'Target.attachedToTarget') this.attachChild(params);
    else if (method === 'Target.detachedFromTarget') this.children.get(params.sessionId)?.close();
    else if (method) this.listener.onEvent(this, method, params);
  }

  private attachChild(params: { sessionId: string; targetInfo: TargetInfo; waitingForDebugger: boolean }): void {
    const { sessionId, targetInfo } = params;
    const type: TargetType = targetInfo.type === 'iframe' ? 'iframe' : 'worker';
    const post = (message: string) => this.send('Target.sendMessageToTarget', { sessionId, message });
    const child = new OwnSessionTarget(type, targetInfo.url, targetInfo.targetId, this.browserContextId, this, post, this.listener);
    this.children.set(sessionId, child);
    this.listener.onAttached(child);
    // A child left waiting would hang the page's worker for good: it is resumed even if enabling fails.
    const enable = () => child.enable(params.waitingForDebugger).catch(() => (params.waitingForDebugger ? child.send('Runtime.runIfWaitingForDebugger').catch(() => undefined) : undefined));
    void (this.listener.batch ? this.listener.batch(enable) : enable());
  }

  protected override onClose(): void {
    for (const waiter of this.waiting.values()) waiter.reject(new Error(`${this.type} target closed`));
    this.waiting.clear();
  }
}
