import type { Frame, NetworkFailure } from '../../model/schema';
import { canceledDraft, isCanceledByPage, isLocalUrl, isReportedRequest, networkDraft, resourceTypeName, statusTextOf, type LoadingFailed } from '../network-failure';
import { framesOf, type CdpStackTrace } from './call-frames';
import { add, type RuntimeSink } from './runtime';
import type { Target } from './target';

/** What daebug keeps of a request until it finishes: only what a failure's event names. */
export interface PendingRequest {
  method: string;
  url: string;
  resourceType: string;
  initiator?: NetworkFailure['initiator'];
  /**
   * The initiator's call stack as CDP sent it (a script's request). Made into frames only when the request fails
   * (`initiatorFrames`): most requests succeed, and a stack is up to 30 frames.
   */
  initiatorStack?: CdpStackTrace;
  /** Wall-clock ms minus CDP's monotonic ms for this request: turns `timestamp` into a time of day. */
  wallOffsetMs?: number;
  /** The frame and the document (CDP's loader) that made it: a new document in that frame cancels it. */
  frameId?: string;
  loaderId?: string;
}

interface CdpInitiator {
  type: string;
  url?: string;
  lineNumber?: number;
  columnNumber?: number;
  /**
   * A script's stack when it made the request: Chromium sends the whole synchronous stack (V8 captures it in full
   * while a session has Runtime on, as Playwright's always has), and `parent` async stacks only while
   * `Runtime.setAsyncCallStackDepth` is on (`daebugAsyncStacks`).
   */
  stack?: CdpStackTrace;
}

/**
 * Frames kept of an initiator's stack. A library's wrapper (axios, Angular's HttpClient, an `api.ts` in
 * node_modules) is on top; the app's own call may be tens of frames down, as it is for HttpClient.
 */
export const MAX_INITIATOR_FRAMES = 30;

// Requests that never finish (long polls, a page that navigated away) must not grow these maps for the whole test.
const MAX_PENDING = 500;
const MAX_REPORTED = 200;

/** CDP's initiator as data: its type and, for a script, the innermost frame with a URL (1-based line and column). */
export function initiatorOf(initiator: CdpInitiator | undefined): NetworkFailure['initiator'] {
  if (!initiator) return undefined;
  for (let stack = initiator.stack; stack; stack = stack.parent) {
    const frame = stack.callFrames.find((f) => f.url);
    if (frame) return { type: initiator.type, url: frame.url, line: frame.lineNumber + 1, column: frame.columnNumber + 1 };
  }
  if (initiator.url) {
    const out: NonNullable<NetworkFailure['initiator']> = { type: initiator.type, url: initiator.url };
    if (initiator.lineNumber !== undefined) out.line = initiator.lineNumber + 1;
    if (initiator.columnNumber !== undefined) out.column = initiator.columnNumber + 1;
    return out;
  }
  return { type: initiator.type };
}

/**
 * An initiator's stack (a pending request's `initiatorStack`) as frames (1-based), async parents followed, at most
 * `MAX_INITIATOR_FRAMES`; empty for the parser's requests, which have none.
 */
export function initiatorFrames(stack: CdpStackTrace | undefined): Frame[] {
  return framesOf(stack, MAX_INITIATOR_FRAMES);
}

/** `Network.requestWillBeSent` → what to keep of it, or undefined for requests whose failures are not reported. */
export function pendingFrom(params: { request: { method: string; url: string; urlFragment?: string }; type?: string; initiator?: CdpInitiator; timestamp?: number; wallTime?: number; frameId?: string; loaderId?: string }): PendingRequest | undefined {
  const resourceType = resourceTypeName(params.type);
  const url = params.request.url;
  if (!isReportedRequest(url, resourceType)) return undefined;
  const pending: PendingRequest = { method: params.request.method, url, resourceType };
  const initiator = initiatorOf(params.initiator);
  if (initiator) pending.initiator = initiator;
  if (params.initiator?.stack) pending.initiatorStack = params.initiator.stack;
  if (params.wallTime !== undefined && params.timestamp !== undefined) pending.wallOffsetMs = params.wallTime * 1000 - params.timestamp * 1000;
  if (params.frameId) pending.frameId = params.frameId;
  if (params.loaderId) pending.loaderId = params.loaderId;
  return pending;
}

/** `Network.responseReceived` with a status of 400 or more → the failure. */
export function failureFromResponse(request: PendingRequest, response: { status: number; statusText?: string }): NetworkFailure | undefined {
  if (response.status < 400) return undefined;
  const failure = base(request);
  failure.status = response.status;
  const statusText = statusTextOf(response.status, response.statusText);
  if (statusText) failure.statusText = statusText;
  return failure;
}

/** `Network.loadingFailed` → the failure, its error text naming a CORS error or what blocked it. */
export function failureFromLoadingFailed(request: PendingRequest, params: LoadingFailed): NetworkFailure {
  const failure = base(request);
  const reasons = [params.corsErrorStatus ? `CORS ${params.corsErrorStatus.corsError}` : '', params.blockedReason ? `blocked: ${params.blockedReason}` : '', params.canceled ? 'canceled' : ''].filter(Boolean);
  failure.errorText = `${params.errorText || 'failed'}${reasons.length ? ` (${reasons.join(', ')})` : ''}`;
  return failure;
}

function base(request: PendingRequest): NetworkFailure {
  const failure: NetworkFailure = { method: request.method, url: request.url, resourceType: request.resourceType };
  if (request.initiator) failure.initiator = request.initiator;
  return failure;
}

/** One target's requests in flight and the failures already reported, both bounded. */
class TargetRequests {
  readonly pending = new Map<string, PendingRequest>();
  readonly reported = new Set<string>();

  remember(requestId: string, request: PendingRequest): void {
    this.pending.delete(requestId);
    this.pending.set(requestId, request);
    if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
  }

  markReported(requestId: string): void {
    this.reported.add(requestId);
    if (this.reported.size > MAX_REPORTED) this.reported.delete(this.reported.values().next().value!);
  }
}

/**
 * The requests of a frame's earlier document, when `Page.frameNavigated` says a new one replaced it. Chromium sends
 * no `loadingFailed` for them (Playwright fails them itself at that moment): they were canceled by the navigation.
 * A document request is left alone: it is the frame's own navigation, and Chromium reports how that one ended.
 */
export function replacedBy(pending: ReadonlyMap<string, PendingRequest>, frame: { id: string; loaderId: string }): string[] {
  const ids: string[] = [];
  for (const [id, request] of pending) {
    if (request.frameId === frame.id && request.loaderId !== undefined && request.loaderId !== frame.loaderId && request.resourceType !== 'document') ids.push(id);
  }
  return ids;
}

/**
 * Failed requests of every captured target, from the Network domain on daebug's own session (enabled only when
 * `daebugNetwork` is not `off`). A response of 400 or more is one event; the `loadingFailed` Chromium sends after it
 * (a stylesheet or script it then drops) and its "Failed to load resource" log line are the same failure. A request
 * the page canceled is a `network.canceled` line instead, not a failure.
 */
export class NetworkCapture {
  private readonly byTarget = new WeakMap<Target, TargetRequests>();

  constructor(private readonly sink: RuntimeSink) {}

  private requestsOf(target: Target): TargetRequests {
    let requests = this.byTarget.get(target);
    if (!requests) {
      requests = new TargetRequests();
      this.byTarget.set(target, requests);
    }
    return requests;
  }

  onEvent(target: Target, method: string, params: any): void {
    const requests = this.requestsOf(target);
    switch (method) {
      case 'Network.requestWillBeSent': {
        const pending = pendingFrom(params);
        if (pending) requests.remember(params.requestId, pending);
        else requests.pending.delete(params.requestId);
        return;
      }
      case 'Network.responseReceived': {
        const request = requests.pending.get(params.requestId);
        const failure = request && failureFromResponse(request, params.response);
        if (request && failure) this.report(target, requests, params.requestId, request, failure, timeOf(request, params.timestamp));
        return;
      }
      case 'Network.loadingFailed': {
        const request = requests.pending.get(params.requestId);
        requests.pending.delete(params.requestId);
        if (!request || requests.reported.has(params.requestId)) return;
        const timeMs = timeOf(request, params.timestamp);
        // Chromium blocks a script "for csp" when the context runs no scripts (`javaScriptEnabled: false`): every
        // `modulepreload` of a server-rendered page then fails, from `about:client`, with no policy at all. A real
        // policy's block comes with its CSP issue first (the Audits domain sends it before the failure).
        if (params.blockedReason === 'csp' && request.resourceType === 'script' && this.sink.blockedByIssue && !this.sink.blockedByIssue(target, request.url)) return;
        if (!isCanceledByPage(params)) this.report(target, requests, params.requestId, request, failureFromLoadingFailed(request, params), timeMs);
        else if (!isLocalUrl(request.url)) add(this.sink, target, canceledDraft(request, timeMs, { errorText: params.errorText || 'net::ERR_ABORTED' }));
        return;
      }
      case 'Page.frameNavigated': {
        const frame = params.frame as { id: string; loaderId: string };
        for (const id of replacedBy(requests.pending, frame)) {
          const request = requests.pending.get(id)!;
          requests.pending.delete(id);
          if (!isLocalUrl(request.url)) add(this.sink, target, canceledDraft(request, Date.now(), { reason: 'its document was replaced' }));
        }
        return;
      }
      case 'Network.loadingFinished':
        requests.pending.delete(params.requestId);
        return;
    }
  }

  /** Whether a "Failed to load resource" log line is about a failure already reported as a network event. */
  covers(target: Target, networkRequestId: string | undefined): boolean {
    return networkRequestId !== undefined && (this.byTarget.get(target)?.reported.has(networkRequestId) ?? false);
  }

  private report(target: Target, requests: TargetRequests, requestId: string, request: PendingRequest, failure: NetworkFailure, timeMs: number): void {
    requests.markReported(requestId);
    // A request the page's CSP blocked is the CSP issue's event already: one problem, one event.
    if (this.sink.blockedByIssue?.(target, failure.url)) return;
    const draft = networkDraft(failure, timeMs, initiatorFrames(request.initiatorStack));
    // A request CORS or mixed content blocked is one event: the failed request, with the issue that says why.
    const issue = this.sink.issueOfRequest?.(target, requestId);
    if (issue) draft.issue = issue;
    add(this.sink, target, draft);
  }
}

function timeOf(request: PendingRequest, timestamp: number | undefined): number {
  return request.wallOffsetMs !== undefined && timestamp !== undefined ? timestamp * 1000 + request.wallOffsetMs : Date.now();
}
