import type { Browser, BrowserContext, Frame, Page, Worker } from '@playwright/test';
import { DaebugCaptureError } from '../errors';
import { closeRequestOf } from './browser-closing';
import { BrowserConnection } from './cdp/browser-connection';
import { internalCall } from './cdp/internal-call';
import { NetworkCapture } from './cdp/network';
import { BrowserIssues, type LogLine } from './browser-issues';
import type { StoredEvent } from './recorder';
import type { BrowserIssue } from '../model/schema';
import { shortUrl } from '../model/short-url';
import { add, onRuntimeEvent, type RuntimeSink } from './cdp/runtime';
import type { Target, TargetListener } from './cdp/target';
import { ValueReads, type ValueRead } from './cdp/value-reads';
import { endOfTestVerdicts } from './value-policy';
import { watchAwaitedEvents, type AwaitedClaim } from './awaited-events';
import { RealmNames } from './realms';
import type { Recorder } from './recorder';

/** Async parents kept per stack trace with daebugAsyncStacks: enough to reach the handler or effect that started the work. */
const ASYNC_STACK_DEPTH = 8;

/** Firefox's and WebKit's capture, through Playwright's events: loaded by the first page of such a browser. */
const generic = () => require('./generic') as typeof import('./generic');

const FATAL_SOURCES: ReadonlySet<string> = new Set(['page.crash', 'browser.disconnected']);

/** What a crash says, by what crashed (its source stays `page.crash`). */
const CRASHED: Record<Target['type'], string> = {
  page: 'The page crashed.',
  iframe: 'The page crashed.',
  worker: 'The worker crashed.',
  service_worker: 'The service worker crashed: its process ended while it ran.',
  shared_worker: 'The shared worker crashed.',
};

/**
 * How long a barrier waits for a page's timers before it ends on the plain round trip: a page in a long task, or
 * with a fake clock in its main world, is not waited for.
 */
const TIMER_TURN_MS = 250;

/**
 * Everything daebug captures for one test: every page, popup, frame and worker (dedicated at any depth, service,
 * shared) of every browser context the test uses, its own and those it creates. In Chromium through daebug's
 * browser-level CDP connection; in other browsers through Playwright's events.
 */
export class TestCapture implements TargetListener, RuntimeSink {
  readonly realms: RealmNames;
  readonly reads: ValueReads;
  private readonly network: NetworkCapture;
  readonly issues: BrowserIssues;
  private readonly connections = new Set<BrowserConnection>();
  private readonly contexts = new Set<BrowserContext>();
  private readonly genericPages = new Set<Page>();
  private readonly cleanups: Array<() => void> = [];
  private readonly announced = new WeakSet<Target>();
  private readonly crashedTargets = new WeakSet<Target>();
  private readonly pageTargets = new WeakMap<Page, Promise<Target | undefined>>();
  private ended = false;
  private primaryContextId: string | undefined;
  /** The test made a page run its handlers (a click, an evaluate) since the last barrier: src/capture/input-calls.ts. */
  private handlersRan = false;

  /** `reusesContext`: Playwright keeps the test's context for the next test (reuseContext, or component tests). */
  constructor(readonly recorder: Recorder, readonly reusesContext = false) {
    this.realms = new RealmNames();
    const { maxDepth, maxBreadth, maxMessageLength } = recorder.options.limits;
    this.reads = new ValueReads(() => ({ maxDepth, maxBreadth, maxLength: maxMessageLength }), (event) => {
      event.clipped = false;
      recorder.changed();
    });
    this.network = new NetworkCapture(this);
    this.issues = new BrowserIssues(this, () => this.wantsNetwork());
  }

  /** Captures a browser context and everything in it; resolves once its current targets are listened to. */
  async addContext(context: BrowserContext): Promise<void> {
    if (this.ended) return;
    const first = !this.contexts.has(context);
    this.contexts.add(context);
    if (first) this.watchWaits(context);
    try {
      const browser = context.browser();
      const name = browser?.browserType().name();
      // Discovery announces the context's targets as they come: the `page` fixture and settle() wait for them.
      if (browser && name === 'chromium') {
        await this.connect(browser);
        return;
      }
      if (first) this.addGenericContext(context);
    } catch (error) {
      this.recorder.diagnose(new DaebugCaptureError('attaching to a browser context', error));
    }
  }

  /** The test's waits for an error, on the context and each of its pages: what they resolve with is expected. */
  private watchWaits(context: BrowserContext): void {
    const claim = (made: AwaitedClaim) => this.recorder.awaited(made);
    const onPage = (page: Page) => this.cleanups.push(watchAwaitedEvents(page, 'page', claim));
    this.cleanups.push(watchAwaitedEvents(context, 'context', claim));
    for (const page of context.pages()) onPage(page);
    context.on('page', onPage);
    this.cleanups.push(() => context.off('page', onPage));
  }

  private async connect(browser: Browser): Promise<BrowserConnection> {
    const connection = await BrowserConnection.for(browser);
    if (!this.connections.has(connection)) {
      this.connections.add(connection);
      connection.route(this);
      // Also turns them off in pages that an earlier test with daebugAsyncStacks left open.
      await connection.setAsyncStackDepth(this.recorder.options.asyncStacks ? ASYNC_STACK_DEPTH : 0);
      // Targets that outlived an earlier test (a page made in beforeAll) are this test's too from now on.
      // A browser the test closed itself (a persistent context it launched and closed) did not crash.
      const closeRequested = closeRequestOf(browser);
      const onDisconnect = () => closeRequested() || this.lifecycle(undefined, 'browser', 'browser.disconnected', 'The browser disconnected (it crashed, was closed or was killed).');
      browser.on('disconnected', onDisconnect);
      this.cleanups.push(() => {
        browser.off('disconnected', onDisconnect);
        connection.route(undefined);
      });
    }
    return connection;
  }

  private addGenericContext(context: BrowserContext): void {
    const onPage = (page: Page) => this.addGenericPage(page);
    context.on('page', onPage);
    this.cleanups.push(() => context.off('page', onPage));
    for (const page of context.pages()) this.addGenericPage(page);
  }

  private addGenericPage(page: Page): void {
    if (this.genericPages.has(page)) return;
    this.genericPages.add(page);
    const realm = this.realms.name(page, { type: 'page', url: page.url() });
    this.recorder.addRealm(realm);
    const onCrash = () => this.lifecycle(undefined, realm, 'page.crash', 'The page crashed.');
    const onNavigated = (frame: Frame) => {
      if (frame === page.mainFrame()) this.lifecycle(undefined, realm, 'navigation', shortUrl(frame.url()));
    };
    page.on('crash', onCrash);
    page.on('framenavigated', onNavigated);
    const detach = generic().attachGenericPage(page, realm, { recorder: this.recorder, network: this.wantsNetwork(), workerRealm: (worker) => this.realms.name(worker, { type: 'worker', url: worker.url() }) });
    this.cleanups.push(() => {
      page.off('crash', onCrash);
      page.off('framenavigated', onNavigated);
      void detach();
    });
  }

  /** Resolves once every target of the test's browsers is attached. */
  async ready(): Promise<void> {
    await Promise.all([...this.connections].map((connection) => connection.sync().catch(() => undefined)));
  }

  /**
   * The `page` fixture's page: it was made just now, so it is the newest page daebug attached to. Its context is the
   * test's own (realms without prefix) and it is the realm `page`.
   */
  async addFixturePage(page: Page): Promise<void> {
    await this.addContext(page.context());
    // A tapped page is known the moment Playwright attaches to it, before newPage() resolves: nothing to wait for.
    if (![...this.connections].every((connection) => connection.tapsPlaywright)) await this.ready();
    if (this.ended) return;
    const pages = [...this.connections].flatMap((c) => c.liveTargets()).filter((t) => t.type === 'page' && !t.parent);
    const newest = pages[pages.length - 1];
    if (!newest) return;
    if (newest.browserContextId) {
      this.realms.claimPrimary(newest.browserContextId);
      this.primaryContextId = newest.browserContextId;
    }
    this.realmOf(newest);
    this.pageTargets.set(page, Promise.resolve(newest));
  }

  /** The test made a page run its handlers: the next barrier waits for the timers they set with no delay. */
  noteHandlersRan(): void {
    this.handlersRan = true;
  }

  /**
   * A barrier: afterwards the recorder holds every event the test's realms emitted before the call, with its
   * values read. One round trip per live target, then the value reads. After a call that ran the page's handlers,
   * a page's round trip also waits for the timers they set with no delay (Target.timerTurn), so an error a click's
   * `setTimeout(fn, 0)` throws is in, every time. Resolves false when `timeoutMs` passed first.
   */
  async settle(timeoutMs: number, options: { newTargets?: boolean; contextsClosing?: boolean } = {}): Promise<boolean> {
    if (options.contextsClosing) this.reads.contextsClosing = true;
    const waitTimers = this.handlersRan;
    this.handlersRan = false;
    let timer: NodeJS.Timeout | undefined;
    const barrier = this.inOneCall(async () => {
      // At the test's end a target made in its last moment has nothing left to say that the context's close keeps.
      if (options.newTargets !== false) await Promise.all([...this.connections].map((connection) => connection.sync().catch(() => undefined)));
      const targets = [...this.connections].flatMap((connection) => connection.liveTargets());
      // Reading a target's values runs on its own thread after what it emitted before: that is its round trip. With
      // nothing to read now, the round trip is the interrupt, which does not wait for the page's own work.
      const roundTrip = (target: Target) => (this.reads.hasDue(target) ? this.reads.flushTarget(target, false) : target.roundTrip());
      await Promise.all(
        targets.map(async (target) => {
          // The timers' events come before the turn's answer; their values are read below with the rest.
          if (waitTimers && !target.isWorker && (await target.timerTurn(TIMER_TURN_MS))) return;
          await roundTrip(target);
        }),
      );
      // Every event emitted before the barrier is in: what the policy leaves now keeps V8's preview.
      await this.reads.flush();
    });
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const done = await Promise.race([barrier.then(() => true), timeout]);
    clearTimeout(timer);
    return done;
  }

  /**
   * The test's end: from now on, with `daebugValues: 'auto'`, values are read only where they can matter
   * (src/capture/value-policy.ts); the others keep V8's preview. `failed`: the test failed already. `known`: whether
   * an event is in the baseline, undefined while that cannot be told yet (before its stack is mapped).
   */
  readValuesAtEnd(end: { failed: boolean; known: (event: StoredEvent) => boolean | undefined }): void {
    const { values, strict, network } = this.recorder.options;
    if (values === 'full') return;
    this.reads.policy = () => {
      const { events, ignore } = this.recorder.stored();
      const verdict = endOfTestVerdicts({ strict, network, ignore, failed: end.failed, known: end.known }, events);
      return (read) => verdict(read.event, read.asked === true);
    };
  }

  /** Reads the values logged so far (at a job's end): cheap when nothing waits. */
  flushReads(): Promise<void> {
    return this.inOneCall(() => this.reads.flush());
  }

  /** Runs `fn` as one internal Playwright call, so the commands it sends share it (BrowserConnection.batch). */
  private inOneCall<T>(fn: () => Promise<T>): Promise<T> {
    const [connection] = this.connections;
    return connection ? connection.batch(fn) : fn();
  }

  /** The realm name of a page, frame or worker, as its events carry it. */
  async realmFor(target: Page | Frame | Worker): Promise<string> {
    if (isWorker(target)) {
      const live = [...this.connections].flatMap((c) => c.liveTargets()).find((t) => t.isWorker && t.url === target.url());
      return live ? this.realmOf(live) : this.realms.name(target, { type: 'worker', url: target.url() });
    }
    const page = isPage(target) ? target : (target as Frame).page();
    let realm: string;
    if (this.genericPages.has(page)) realm = this.realms.name(page, { type: 'page', url: page.url() });
    else {
      const found = await (this.pageTargets.get(page) ?? (page.isClosed() ? undefined : this.targetOf(page)));
      realm = found ? this.realmOf(found) : this.realms.name(page, { type: 'page', url: page.url() });
    }
    return isPage(target) || target === page.mainFrame() ? realm : `${realm}:frame`;
  }

  private targetOf(page: Page): Promise<Target | undefined> {
    let found = this.pageTargets.get(page);
    if (!found) {
      found = (async () => {
        const context = page.context();
        const session = await internalCall(context, () => context.newCDPSession(page));
        try {
          const { targetInfo } = (await internalCall(session, () => session.send('Target.getTargetInfo'))) as { targetInfo: { targetId: string } };
          await this.ready();
          return [...this.connections].flatMap((c) => c.liveTargets()).find((t) => t.targetId === targetInfo.targetId);
        } finally {
          void internalCall(session, () => session.detach()).catch(() => undefined);
        }
      })().catch(() => undefined);
      this.pageTargets.set(page, found);
    }
    return found;
  }

  /** RuntimeSink: the realm of a CDP target, named on first use. */
  realmOf(target: Target): string {
    const known = this.realms.known(target);
    if (known) return known;
    const name = this.realms.name(target, {
      type: target.type,
      url: target.url,
      browserContextId: target.browserContextId,
      parentRealm: target.type === 'iframe' && target.parent ? this.realmOf(target.parent.type === 'iframe' ? target.parent.root : target.parent) : undefined,
    });
    this.recorder.addRealm(name);
    return name;
  }

  readLater(target: Target, read: ValueRead): void {
    this.reads.add(target, read);
  }

  // TargetListener
  onEvent(target: Target, method: string, params: any): void {
    if (this.ended) return;
    // Inline, not a closure: this runs for every CDP event of every target.
    try {
      this.handle(target, method, params);
    } catch (error) {
      this.diagnoseEvent(target, method, error);
    }
  }

  /** A handler that threw (a hostile page's odd values) is diagnosed; the other handlers and events go on. */
  private diagnoseEvent(target: Target, method: string, error: unknown): void {
    this.recorder.diagnose(new DaebugCaptureError(`handling ${method} in ${this.realmOf(target)}`, error));
  }

  private handle(target: Target, method: string, params: any): void {
    // A service worker's own `Inspector.targetCrashed` is Chromium ending it, which a stop does too (Target.noteLife):
    // its crash is told by the ServiceWorker domain instead (onWorkerCrashed).
    if (method === 'Target.targetCrashed' || (method === 'Inspector.targetCrashed' && target.type !== 'service_worker')) this.crashed(target);
    else if (method.startsWith('Network.')) {
      if (this.wantsNetwork()) this.network.onEvent(target, method, params);
    } else if (method === 'Audits.issueAdded') this.issues.onIssue(target, params.issue);
    else {
      // A new document cancels the requests of the one it replaced: those lines come before the navigation's. A
      // failure there is diagnosed on its own, so that the navigation itself is still recorded.
      if (method === 'Page.frameNavigated' && this.wantsNetwork()) {
        try {
          this.network.onEvent(target, method, params);
        } catch (error) {
          this.diagnoseEvent(target, method, error);
        }
      }
      onRuntimeEvent(this, target, method, params);
    }
  }

  /**
   * A page crashed. Playwright's own page session says so (`Inspector.targetCrashed`, read by the tap before
   * Playwright's client hears it, so before a test awaiting the `crash` event goes on), and daebug's browser session
   * says so too (`Target.targetCrashed`): one event. A service worker's crash comes from onWorkerCrashed.
   */
  private crashed(target: Target): void {
    if (this.crashedTargets.has(target)) return;
    this.crashedTargets.add(target);
    this.lifecycle(target, this.realmOf(target), 'page.crash', CRASHED[target.type]);
  }

  /** TargetListener: a service worker's process died while it ran (src/capture/cdp/service-worker-watch.ts). */
  onWorkerCrashed(target: Target): void {
    if (this.ended) return;
    try {
      this.crashed(target);
    } catch (error) {
      this.diagnoseEvent(target, 'ServiceWorker.workerVersionUpdated', error);
    }
  }

  wantsNetwork(): boolean {
    return (this.recorder.options.network ?? 'report') !== 'off';
  }

  /** RuntimeSink: a browser line about a problem a DevTools issue reported already is the same event. */
  coversIssueLog(target: Target, entry: LogLine): boolean {
    return this.issues.covers(target, entry);
  }

  /** RuntimeSink: a request a CSP issue reported as blocked. */
  blockedByIssue(target: Target, url: string): boolean {
    return this.issues.blocked(target, url);
  }

  /** RuntimeSink: the issue about a blocked request, for its failed request's event. */
  issueOfRequest(target: Target, requestId: string): BrowserIssue | undefined {
    return this.issues.ofRequest(target, requestId);
  }

  /** RuntimeSink: a browser line an issue that follows may take over. */
  noteLogEntry(target: Target, entry: LogLine, event: StoredEvent): void {
    this.issues.noteLine(target, entry, event);
  }

  /** RuntimeSink: a "Failed to load resource" line of a request already reported is the same event. */
  coversNetworkLog(target: Target, networkRequestId: string | undefined): boolean {
    return this.wantsNetwork() && this.network.covers(target, networkRequestId);
  }

  onAttached(target: Target): void {
    if (this.ended) return;
    const realm = this.realmOf(target);
    if (!target.isWorker) return;
    this.announced.add(target);
    const opener = target.parent ?? target;
    this.recorder.add({ type: 'console', level: 'debug', source: 'worker.start', realm, stream: opener.key, opens: target.key, timeMs: Date.now(), message: target.url });
  }

  onDetached(target: Target): void {
    if (this.ended || !this.announced.has(target)) return;
    this.recorder.add({ type: 'console', level: 'debug', source: 'worker.close', realm: this.realmOf(target), stream: target.key, timeMs: Date.now(), message: '' });
  }

  lifecycle(target: Target | undefined, realm: string, source: string, message: string): void {
    if (this.ended) return;
    const fatal = FATAL_SOURCES.has(source);
    if (target) add(this, target, { type: fatal ? 'error' : 'console', level: fatal ? 'error' : 'debug', source, timeMs: Date.now(), message });
    else this.recorder.add({ type: fatal ? 'error' : 'console', level: fatal ? 'error' : 'debug', source, realm, timeMs: Date.now(), message });
  }

  /**
   * Stops routing events to this test. Targets stay attached for the next test of the worker, except those of the
   * test's own context, which Playwright closes next (unless it reuses contexts between tests).
   */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.reads.discardAll();
    if (this.primaryContextId && !this.reusesContext) for (const connection of this.connections) connection.retire(this.primaryContextId);
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }
}

function isPage(target: Page | Frame | Worker): target is Page {
  return typeof (target as Page).mainFrame === 'function';
}

function isWorker(target: Page | Frame | Worker): target is Worker {
  return !isPage(target) && typeof (target as Frame).page !== 'function';
}
