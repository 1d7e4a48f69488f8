import type { Browser, CDPSession } from '@playwright/test';
import { debugLog } from '../../errors';
import { internalCall } from './internal-call';
import { tapPlaywright, type PlaywrightTap, type TapMessage } from './playwright-tap';
import { OwnSessionTarget } from './own-session-target';
import { ServiceWorkerWatch, type ServiceWorkerVersion } from './service-worker-watch';
import { TAPPED_METHODS, TappedTarget } from './tapped-target';
import type { Target, TargetInfo, TargetListener, TargetType } from './target';

const TOP_TYPES: ReadonlySet<string> = new Set(['page', 'service_worker', 'shared_worker']);
/** What Playwright attaches to itself, from the browser (top) and from a page or worker (child). */
const TAPPED_TOP_TYPES: ReadonlySet<string> = new Set(['page', 'service_worker']);
const TAPPED_CHILD_TYPES: ReadonlySet<string> = new Set(['iframe', 'worker']);
const DISCOVERY_FILTER = [{ type: 'page' }, { type: 'service_worker' }, { type: 'shared_worker' }];

/** How long `sync()` waits for targets to attach. */
const SYNC_MS = 2000;

const connections = new WeakMap<Browser, Promise<BrowserConnection>>();

/**
 * daebug's connection to one Chromium, for the whole Playwright worker. It knows every page (popups too), frame,
 * worker, service worker and shared worker of every context, and routes what they say to the test that is running.
 * Between tests, what targets say is not kept.
 *
 * With the tap (PlaywrightTap), targets are read on Playwright's own sessions, and daebug's own browser-level session
 * is opened only for what Playwright does not hold: a shared worker, or a page that existed before the tap. Most
 * workers never open it: it cost each of them a Playwright API call, a discovery round trip and about ten discovery
 * events per test through Playwright's client (issue 36). Without the tap, that session discovers and attaches to
 * everything.
 */
export class BrowserConnection implements TargetListener {
  private readonly targets = new Map<string, Target>();
  private readonly bySession = new Map<string, OwnSessionTarget>();
  private readonly attaching = new Map<string, Promise<void>>();
  private listener: TargetListener | undefined;
  /** The running test's daebugAsyncStacks, as a depth: targets attached from now on get it when enabled. */
  asyncStackDepth = 0;
  /** Contexts whose test ended and that Playwright closes next: what their targets still say belongs to no test. */
  private readonly retired = new Set<string>();
  /** Targets read on Playwright's own sessions, by Playwright's session id. */
  private readonly tapped = new Map<string, TappedTarget>();
  /** With a tap: the pages and service workers that existed before it, which daebug attaches to itself. */
  private readonly before = new Set<string>();
  /** Which service worker that ended crashed, rather than being stopped. */
  private readonly serviceWorkers = new ServiceWorkerWatch();

  /** daebug's own browser-level session, once opened (`ownSession`). */
  private session: CDPSession | undefined;
  private opening: Promise<CDPSession> | undefined;

  private constructor(
    private readonly browser: Browser,
    private readonly tap: PlaywrightTap | undefined,
  ) {}

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
    const tap = await tapPlaywright(browser);
    const connection = new BrowserConnection(browser, tap);
    if (tap) {
      // Listening first: a target Playwright attaches from now on is the tap's, one that existed already is daebug's.
      tap.listen((message) => connection.onTapMessage(message));
      const { targetInfos } = (await tap.send('', 'Target.getTargets', { filter: DISCOVERY_FILTER })) as { targetInfos: TargetInfo[] };
      for (const info of targetInfos) if (!connection.targets.has(info.targetId)) connection.before.add(info.targetId);
      if (connection.before.size === 0) return connection;
    }
    await connection.ownSession();
    // Pages the browser had before daebug came (a persistent context's first page) are listened to before the test
    // goes on: a navigation made before Page.enable would not be heard.
    await connection.sync();
    return connection;
  }

  /**
   * daebug's own browser-level session, opened once: it discovers pages, service workers and shared workers, and
   * attaches to those that are daebug's to read (all of them without the tap; with it, those Playwright does not hold).
   * Discovery announces the targets that exist when it starts too.
   */
  private ownSession(): Promise<CDPSession> {
    this.opening ??= (async () => {
      const session = await internalCall(this.browser, () => this.browser.newBrowserCDPSession());
      this.session = session;
      session.on('Target.targetCreated', ({ targetInfo }) => void this.batch(() => this.attach(targetInfo)));
      session.on('Target.targetInfoChanged', ({ targetInfo }) => {
        const target = this.targets.get(targetInfo.targetId);
        if (target) target.url = targetInfo.url;
      });
      session.on('Target.targetCrashed', ({ targetId }) => {
        const target = this.targets.get(targetId);
        if (target) this.onEvent(target, 'Target.targetCrashed', {});
      });
      // Messages can come before the attach's answer was handled: the target's id routes them then.
      session.on('Target.receivedMessageFromTarget', ({ sessionId, message, targetId }) => (this.bySession.get(sessionId) ?? this.ownTarget(targetId))?.receive(message));
      session.on('Target.detachedFromTarget', ({ sessionId }) => this.detached(sessionId));
      await this.send('Target.setDiscoverTargets', { discover: true, filter: DISCOVERY_FILTER });
      return session;
    })();
    // One that failed (the browser closing, a Playwright that refused) is tried again by the next target that needs it.
    this.opening.catch(() => {
      this.opening = undefined;
      this.session = undefined;
    });
    return this.opening;
  }

  private async send(method: string, params?: object): Promise<any> {
    const session = this.session ?? (await this.ownSession());
    return internalCall(session, () => session.send(method as never, params as never));
  }

  /**
   * Runs `fn` as one internal Playwright call: the commands it sends share it. Playwright captures and maps a stack
   * for every API call it starts outside one, which made each of daebug's commands cost far more in the worker than
   * the command itself.
   */
  batch<T>(fn: () => Promise<T>): Promise<T> {
    // Commands to tapped targets go out on Playwright's server side, with no API call to share.
    if (!this.session || (this.tap && this.liveTargets().every((target) => target.tapped))) return fn();
    return internalCall(this.session, fn);
  }

  /** Whether pages and workers are read on Playwright's own sessions (PlaywrightTap). */
  get tapsPlaywright(): boolean {
    return this.tap !== undefined;
  }

  /** Ignores a browser context from now on (its test ended; Playwright closes it next). */
  retire(browserContextId: string): void {
    this.retired.add(browserContextId);
    this.serviceWorkers.forget(browserContextId);
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
    // With the tap and no session of daebug's own, every target is Playwright's, known the moment it attached.
    if (!this.opening) return;
    await this.opening;
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
    // Playwright attaches to every new page and service worker itself: the tap reads them on its session.
    if (this.tap && TAPPED_TOP_TYPES.has(info.type) && !this.before.has(info.targetId)) return Promise.resolve();
    let sessionId = '';
    // Until the attach answers, commands name the target: they go out right behind it, a round trip sooner, which
    // is what lets daebug hear a popup that logs and closes in its first moments.
    const post = (message: string) => this.send('Target.sendMessageToTarget', sessionId ? { sessionId, message } : { targetId: info.targetId, message });
    const target = new OwnSessionTarget(info.type as TargetType, info.url, info.targetId, info.browserContextId, undefined, post, this);
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

  /**
   * A message on one of Playwright's sessions. Playwright's browser session announces pages and service workers,
   * a page's or worker's session its frames and workers; each gets a Target that commands go out on Playwright's
   * session. Answers to commands are Playwright's to handle.
   */
  private onTapMessage(message: TapMessage): void {
    const { method, params, sessionId } = message;
    if (!method || message.id !== undefined) return;
    if (method === 'Target.attachedToTarget') return this.onTapAttached(sessionId, params);
    if (method === 'Target.detachedFromTarget') return void this.tapped.get(params?.sessionId)?.close();
    if (!TAPPED_METHODS.has(method)) return;
    const target = sessionId ? this.tapped.get(sessionId) : undefined;
    target?.dispatch(method, params);
  }

  private onTapAttached(parentSessionId: string | undefined, params: { sessionId: string; targetInfo: TargetInfo & { browserContextId?: string } }): void {
    const { sessionId, targetInfo } = params;
    const parent = parentSessionId ? this.tapped.get(parentSessionId) : undefined;
    // Top-level targets come from Playwright's browser session (no session id); children from a tapped target's.
    // A shared worker Playwright attached to and lets go of at once: daebug's own session reads it.
    if (!parentSessionId && targetInfo.type === 'shared_worker') return void this.ownSession().catch((error: unknown) => debugLog(`no session of daebug's own for a shared worker: ${String(error)}`));
    if (parentSessionId ? !parent || !TAPPED_CHILD_TYPES.has(targetInfo.type) : !TAPPED_TOP_TYPES.has(targetInfo.type) || !targetInfo.browserContextId) return;
    if (this.targets.has(targetInfo.targetId) || this.before.has(targetInfo.targetId)) return;
    const direct = (method: string, commandParams?: object) => this.tap!.send(sessionId, method, commandParams);
    const type: TargetType = parent ? (targetInfo.type === 'iframe' ? 'iframe' : 'worker') : (targetInfo.type as TargetType);
    const target = new TappedTarget(type, targetInfo.url, targetInfo.targetId, parent ? parent.browserContextId : targetInfo.browserContextId, parent, this, direct, sessionId);
    this.tapped.set(sessionId, target);
    if (parent) parent.children.set(sessionId, target);
    else this.targets.set(targetInfo.targetId, target);
    this.onAttached(target);
    void target.enable().catch(() => undefined);
  }

  /** A top-level target on daebug's own session, by target id (its messages can come before the attach's answer). */
  private ownTarget(targetId: string | undefined): OwnSessionTarget | undefined {
    const target = targetId ? this.targets.get(targetId) : undefined;
    return target instanceof OwnSessionTarget ? target : undefined;
  }

  private detached(sessionId: string): void {
    const target = this.bySession.get(sessionId);
    if (!target) return;
    this.bySession.delete(sessionId);
    this.targets.delete(target.targetId);
    target.close();
  }

  onEvent(target: Target, method: string, params: any): void {
    target.noteLife(method);
    if (method.startsWith('ServiceWorker.')) return this.onServiceWorkerEvent(target, method, params);
    if (!this.isRetired(target)) this.listener?.onEvent(target, method, params);
  }

  /** The ServiceWorker domain of a page that watches its context's workers: a worker that crashed is said so. */
  private onServiceWorkerEvent(page: Target, method: string, params: { versions?: ServiceWorkerVersion[] }): void {
    if (method !== 'ServiceWorker.workerVersionUpdated' || !Array.isArray(params?.versions)) return;
    for (const targetId of this.serviceWorkers.onVersions(page, params.versions)) {
      const worker = this.targets.get(targetId);
      if (worker && !this.isRetired(worker)) this.listener?.onWorkerCrashed?.(worker);
    }
  }

  onAttached(target: Target): void {
    // A context with service workers gets a page that reports how they end (src/capture/cdp/service-worker-watch.ts).
    const contextId = target.root.browserContextId;
    if (!this.isRetired(target) && (target.type === 'service_worker' || (target.type === 'page' && !target.parent && this.hasServiceWorker(contextId)))) {
      this.serviceWorkers.watch(contextId, [...this.targets.values()], (page) => this.batch(() => page.send('ServiceWorker.enable')));
    }
    if (!this.isRetired(target)) this.listener?.onAttached(target);
  }

  private hasServiceWorker(contextId: string | undefined): boolean {
    for (const target of this.targets.values()) if (target.type === 'service_worker' && !target.closed && target.browserContextId === contextId) return true;
    return false;
  }

  onDetached(target: Target): void {
    if (!target.parent) this.targets.delete(target.targetId);
    if (target instanceof TappedTarget) this.tapped.delete(target.sessionId);
    if (!this.isRetired(target)) this.listener?.onDetached(target);
  }
}
