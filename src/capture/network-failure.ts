import { STATUS_CODES } from 'node:http';
import type { Frame, Location, NetworkFailure } from '../model/schema';
import type { EventDraft } from './recorder';
import { CANCELED_REQUEST_SOURCE } from '../model/classify';
import { shortUrl } from '../model/short-url';

/** The resource types whose failures are reported (as Playwright names them); images, fonts and the like are not. */
const REPORTED_TYPES: ReadonlySet<string> = new Set(['document', 'script', 'stylesheet', 'fetch', 'xhr']);

/** CDP's resource type (`Fetch`, `XHR`, `Stylesheet`) as Playwright names it (`fetch`, `xhr`, `stylesheet`). */
export function resourceTypeName(cdpType: string | undefined): string {
  return (cdpType ?? 'other').toLowerCase();
}

const FAVICON_ANYWHERE = /favicon/i;

/** The browser's own favicon fetch and any `/favicon.ico`: a site without one is not a failure worth a line. */
export function isFavicon(url: string): boolean {
  // Every request a test's pages make is asked this: most are told apart without parsing their URL.
  if (!FAVICON_ANYWHERE.test(url)) return false;
  try {
    return /\/favicon\.ico$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** Whether a failure of this request is reported: a document, script, stylesheet, fetch or XHR, never a favicon. */
export function isReportedRequest(url: string, resourceType: string): boolean {
  return REPORTED_TYPES.has(resourceType) && !isFavicon(url);
}

/** What CDP's `Network.loadingFailed` says of why a request ended without a response. */
export interface LoadingFailed {
  errorText?: string;
  canceled?: boolean;
  blockedReason?: string;
  corsErrorStatus?: { corsError: string };
}

/**
 * Whether a request that ended without a response was canceled by the page, not failed. Chromium sets `canceled`
 * for `net::ERR_ABORTED` alone: an `AbortController`, an aborted XHR, a router replacing a preload, a frame removed
 * while it loaded. A request something blocked (CSP, mixed content, an extension's `ERR_BLOCKED_BY_CLIENT`, DevTools)
 * names a `blockedReason`, and a CORS block a `corsErrorStatus`: those stay failures, as do refused connections,
 * DNS errors and `ERR_UNSAFE_PORT` (not canceled). The `net::ERR_ABORTED` Chromium sends after a script's or
 * stylesheet's 404 is canceled too, but that request was reported at its response already.
 */
export function isCanceledByPage(params: LoadingFailed): boolean {
  return params.canceled === true && !params.blockedReason && !params.corsErrorStatus;
}

/**
 * Whether Playwright's `requestfailed` text (other browsers' path) names a cancel: Chromium's `net::ERR_ABORTED`
 * (also what Playwright writes for a request of a document its frame replaced or lost), Firefox's
 * `NS_BINDING_ABORTED`, WebKit's "cancelled" (the texts Playwright itself reads as canceled).
 */
export function isCanceledText(errorText: string | undefined): boolean {
  return errorText === 'net::ERR_ABORTED' || errorText === 'NS_BINDING_ABORTED' || (errorText?.includes('cancelled') ?? false);
}

/** A `data:` or `blob:` URL: no server could fail it, and its cancel says nothing. */
export function isLocalUrl(url: string): boolean {
  return /^(?:data|blob):/i.test(url);
}

/** Chromium sends an empty status text over HTTP/2 and sometimes over HTTP/1.1: the standard reason phrase stands in. */
export function statusTextOf(status: number, given: string | undefined): string | undefined {
  return given || STATUS_CODES[status] || undefined;
}

/** One line that names the request and what went wrong: `GET http://…/api/cart 404 (Not Found)`. */
export function failureMessage(failure: NetworkFailure): string {
  const outcome =
    failure.status !== undefined ? `${failure.status}${failure.statusText ? ` (${failure.statusText})` : ''}` : `failed: ${failure.errorText ?? 'no response'}`;
  return `${failure.method} ${shortUrl(failure.url)} ${outcome}`;
}

function initiatorLocation(initiator: NetworkFailure['initiator']): Location | undefined {
  if (!initiator?.url || initiator.line === undefined) return undefined;
  return { url: initiator.url, line: initiator.line, column: initiator.column ?? 1 };
}

/**
 * The event of a failed request. Its message holds method, URL and outcome, so `daebugIgnore` patterns match the
 * URL; its location is the script line that started the request, when CDP knows it. The initiator's stack, when
 * CDP sent one, is the event's call frames: enrichment maps them and names the app's call in it.
 */
export function networkDraft(failure: NetworkFailure, timeMs: number, initiatorFrames?: Frame[]): Omit<EventDraft, 'realm' | 'stream'> {
  const draft: Omit<EventDraft, 'realm' | 'stream'> = { type: 'console', level: 'error', source: 'network', timeMs, message: failureMessage(failure), network: failure, location: initiatorLocation(failure.initiator) };
  if (initiatorFrames?.length) draft.callFrames = initiatorFrames;
  return draft;
}

/**
 * The event of a request the page canceled: a `network.canceled` line at level `info`, with the request's method,
 * URL, resource type and initiator, and `canceled: true`. `why` is the browser's error text, or what daebug saw
 * (the frame's document was replaced). No initiator stack: a cancel is not worth mapping frames for.
 */
export function canceledDraft(request: Pick<NetworkFailure, 'method' | 'url' | 'resourceType' | 'initiator'>, timeMs: number, why: { errorText: string } | { reason: string }): Omit<EventDraft, 'realm' | 'stream'> {
  const network: NetworkFailure = { method: request.method, url: request.url, resourceType: request.resourceType, canceled: true };
  if ('errorText' in why) network.errorText = why.errorText;
  if (request.initiator) network.initiator = request.initiator;
  const message = `${request.method} ${shortUrl(request.url)} canceled (${'errorText' in why ? why.errorText : why.reason})`;
  return { type: 'console', level: 'info', source: CANCELED_REQUEST_SOURCE, timeMs, message, network, location: initiatorLocation(request.initiator) };
}
