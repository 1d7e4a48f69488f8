import { Target, type TargetListener, type TargetType } from './target';

/**
 * The events of Playwright's sessions that capture reads (runtime.ts, network.ts, browser-issues, test-capture's
 * crash). Playwright's sessions carry every event of every domain it enables (each request's `dataReceived` and
 * `ExtraInfo`s, lifecycle events, contexts destroyed): the rest are dropped at the tap, before any lookup.
 * A method read anywhere in capture must be listed here (test/unit/tapped-methods.test.ts checks the sources).
 */
export const TAPPED_METHODS: ReadonlySet<string> = new Set([
  'Runtime.executionContextCreated',
  'Runtime.exceptionThrown',
  'Runtime.consoleAPICalled',
  'Log.entryAdded',
  'Page.frameNavigated',
  'Network.requestWillBeSent',
  'Network.responseReceived',
  'Network.loadingFailed',
  'Network.loadingFinished',
  'Audits.issueAdded',
  'Inspector.targetCrashed',
  'Inspector.targetReloadedAfterCrash',
  'Target.targetCrashed',
  'ServiceWorker.workerVersionUpdated',
]);

/**
 * A target read on Playwright's own session (PlaywrightTap): its events are the ones Playwright received, already
 * parsed, and daebug's commands go out on that session from Playwright's server side.
 */
export class TappedTarget extends Target {
  readonly tapped = true;
  /** The async stack depth to send once Playwright enabled Runtime (V8 ignores it before). */
  private asyncDepthOnRuntime = 0;
  private auditsOnRuntime = false;

  constructor(
    type: TargetType,
    url: string,
    targetId: string,
    browserContextId: string | undefined,
    parent: TappedTarget | undefined,
    listener: TargetListener,
    /** Sends a command on Playwright's session. */
    private readonly direct: (method: string, params?: object) => Promise<any>,
    /** Playwright's session id of this target. */
    readonly sessionId: string,
  ) {
    super(type, url, targetId, browserContextId, parent, listener);
  }

  send(method: string, params?: object): Promise<any> {
    if (this.closed) return Promise.reject(new Error(`${this.type} target closed`));
    return this.direct(method, params);
  }

  /**
   * Playwright's session has every domain daebug reads on already, and resumes the target itself. Async stacks wait
   * for its Runtime.enable: its first execution context says it was done.
   */
  enable(): Promise<unknown> {
    this.network = this.listener.wantsNetwork?.() ?? false;
    this.asyncDepthOnRuntime = this.listener.asyncStackDepth ?? 0;
    // Playwright does not read DevTools issues: Audits is the one domain daebug turns on in its session, once the
    // session exists on Playwright's side (its first execution context); Audits.enable replays earlier issues.
    this.auditsOnRuntime = this.type === 'page';
    return Promise.resolve();
  }

  /** Playwright's own session always has Network on: daebug only starts or stops reading it. */
  setNetwork(on: boolean): void {
    if (!this.closed) this.network = on;
  }

  /** An event of this target, as Playwright's session received it. */
  dispatch(method: string, params: any): void {
    if (this.closed || (!this.network && method.startsWith('Network.'))) return;
    if (this.auditsOnRuntime && method === 'Runtime.executionContextCreated') {
      this.auditsOnRuntime = false;
      void this.enableAudits();
    }
    if (this.asyncDepthOnRuntime > 0 && method === 'Runtime.executionContextCreated') {
      void this.setAsyncStackDepth(this.asyncDepthOnRuntime).catch(() => undefined);
      this.asyncDepthOnRuntime = 0;
    }
    this.listener.onEvent(this, method, params);
  }
}
