import type { Browser, CDPSession } from '@playwright/test';
import { internalCall } from './internal-call';
import { Target, type TargetInfo, type TargetListener, type TargetType } from './target';

const TOP_TYPES: ReadonlySet<string> = new Set(['page', 'service_worker', 'shared_worker']);
const DISCOVERY_FILTER = [{ type: 'page' }, { type: 'service_worker' }, { type: 'shared_worker' }];

/** How long `sync()` waits for targets to attach. */
const SYNC_MS = 2000;

const connections = new WeakMap<Browser, Promise<BrowserConnection>>();

/**
 * daebug's one browser-level CDP session per Chromium, for the whole Playwright worker. It discovers every page
 * (popups too), service worker and shared worker of every context, attaches to each on a session of its own, and
 * routes what they say to the test that is running. Between tests, what targets say is not kept.
 */
export class BrowserConnection implements TargetListener {
  private readonly targets = new Map<string, Target>();
  private readonly bySession = new Map<string, Target>();
  private readonly attaching = new Map<string, Promise<void>>();
  private listener: TargetListener | undefined;
  /** The running test's daebugAsyncStacks, as a depth: targets attached from now on get it when enabled. */
  asyncStackDepth = 0;
  /** Contexts whose test ended and that Playwright closes next: what their targets still say belongs to no test. */
  private readonly retired = new Set<string>();

  private constructor(private readonly session: CDPSession) {}

  /** The connection of `browser`, opened on first use; undefined when the browser is not Chromium. */
  static for(browser: Browser): Promise<BrowserConnection> {
    let connection = connections.get(browser);
    if (!connection) {
      connection = BrowserConnection.open(browser);
      connections.set(browser, connection);
      connection.catch(() => connections.delete(browser));
    }
    return connection;
  }

  private static async open(browser: Browser): Promise<BrowserConnection> {
    const session = await internalCall(browser, () => browser.newBrowserCDPSession());
    const connection = new BrowserConnection(session);
    session.on('Target.targetCreated', ({ targetInfo }) => void connection.batch(() => connection.attach(targetInfo)));
    session.on('Target.targetInfoChanged', ({ targetInfo }) => {
      const target = connection.targets.get(targetInfo.targetId);
      if (target) target.url = targetInfo.url;
    });
    session.on('Target.targetCrashed', ({ targetId }) => {
      const target = connection.targets.get(targetId);
      if (target) connection.onEvent(target, 'Target.targetCrashed', {});
    });
    // Messages can come before the attach's answer was handled: the target's id routes them then.
    session.on('Target.receivedMessageFromTarget', ({ sessionId, message, targetId }) => (connection.bySession.get(sessionId) ?? (targetId ? connection.targets.get(targetId) : undefined))?.receive(message));
    session.on('Target.detachedFromTarget', ({ sessionId }) => connection.detached(sessionId));
    await connection.send('Target.setDiscoverTargets', { discover: true, filter: DISCOVERY_FILTER });
    return connection;
  }

  private send(method: string, params?: object): Promise<any> {
    return internalCall(this.session, () => this.session.send(method as never, params as never));
  }

  /**
   * Runs `fn` as one internal Playwright call: the commands it sends share it. Playwright captures and maps a stack
   * for every API call it starts outside one, which made each of daebug's commands cost far more in the worker than
   * the command itself.
   */
  batch<T>(fn: () => Promise<T>): Promise<T> {
    return internalCall(this.session, fn);
  }

  /** Ignores a browser context from now on (its test ended; Playwright closes it next). */
  retire(browserContextId: string): void {
    this.retired.add(browserContextId);
  }

  private isRetired(target: Target): boolean {
    const id = target.root.browserContextId;
    return id !== undefined && this.retired.has(id);
  }

  /** Routes targets' events to `listener` (the running test), or nowhere. */
  route(listener: TargetListener | undefined): void {
    this.listener = listener;
    if (!listener) return;
    const network = this.wantsNetwork();
    for (const target of this.liveTargets()) target.setNetwork(network);
  }

  wantsNetwork(): boolean {
    return this.listener?.wantsNetwork?.() ?? false;
  }

  /** Sets the async stack depth of every live target and of those attached later; nothing is sent when it is unchanged. */
  async setAsyncStackDepth(depth: number): Promise<void> {
    if (depth === this.asyncStackDepth) return;
    this.asyncStackDepth = depth;
    // A target that closes meanwhile has nothing left to configure.
    await Promise.all(this.liveTargets().map((target) => target.setAsyncStackDepth(depth).catch(() => undefined)));
  }

  /** Every live target of a context still in use, children included, in the order they were attached. */
  liveTargets(): Target[] {
    const out: Target[] = [];
    const walk = (target: Target) => {
      if (target.closed || this.isRetired(target)) return;
      out.push(target);
      for (const child of target.children.values()) walk(child);
    };
    for (const target of this.targets.values()) walk(target);
    return out;
  }

  /** Resolves once every target the browser has now is attached and listened to. */
  async sync(): Promise<void> {
    const { targetInfos } = (await this.send('Target.getTargets', { filter: DISCOVERY_FILTER })) as { targetInfos: TargetInfo[] };
    await this.batch(async () => {
      for (const info of targetInfos) void this.attach(info);
    });
    // A target that never answers (a service worker being torn down, a frozen page) must not stall the test.
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, SYNC_MS)));
    await Promise.race([Promise.all(this.attaching.values()), giveUp]);
    clearTimeout(timer);
  }

  private attach(info: TargetInfo): Promise<void> {
    if (!TOP_TYPES.has(info.type) || this.targets.has(info.targetId) || (info.browserContextId && this.retired.has(info.browserContextId))) return this.attaching.get(info.targetId) ?? Promise.resolve();
    let sessionId = '';
    // Until the attach answers, commands name the target: they go out right behind it, a round trip sooner, which
    // is what lets daebug hear a popup that logs and closes in its first moments.
    const post = (message: string) => this.send('Target.sendMessageToTarget', sessionId ? { sessionId, message } : { targetId: info.targetId, message });
    const target = new Target(info.type as TargetType, info.url, info.targetId, info.browserContextId, undefined, post, this);
    this.targets.set(info.targetId, target);
    const attachedSession = this.send('Target.attachToTarget', { targetId: info.targetId, flatten: false }).then((result: { sessionId: string }) => {
      sessionId = result.sessionId;
      this.bySession.set(sessionId, target);
    });
    this.onAttached(target);
    const attached = Promise.all([attachedSession, target.enable(false)])
      .then(() => undefined)
      // A target that closed before daebug could attach (or while it did) leaves nothing to listen to.
      .catch(() => target.close())
      .finally(() => this.attaching.delete(info.targetId));
    this.attaching.set(info.targetId, attached);
    return attached;
  }

  private detached(sessionId: string): void {
    const target = this.bySession.get(sessionId);
    if (!target) return;
    this.bySession.delete(sessionId);
    this.targets.delete(target.targetId);
    target.close();
  }

  onEvent(target: Target, method: string, params: any): void {
    if (!this.isRetired(target)) this.listener?.onEvent(target, method, params);
  }

  onAttached(target: Target): void {
    if (!this.isRetired(target)) this.listener?.onAttached(target);
  }

  onDetached(target: Target): void {
    if (!target.parent) this.targets.delete(target.targetId);
    if (!this.isRetired(target)) this.listener?.onDetached(target);
  }
}
