import { STATUS_CODES } from 'node:http';
import type { Frame, Location, NetworkFailure } from '../model/schema';
import type { EventDraft } from './recorder';
import { shortUrl } from '../model/short-url';

/** The resource types whose failures are reported (as Playwright names them); images, fonts and the like are not. */
const REPORTED_TYPES: ReadonlySet<string> = new Set(['document', 'script', 'stylesheet', 'fetch', 'xhr']);

/** CDP's resource type (`Fetch`, `XHR`, `Stylesheet`) as Playwright names it (`fetch`, `xhr`, `stylesheet`). */
export function resourceTypeName(cdpType: string | undefined): string {
  return (cdpType ?? 'other').toLowerCase();
}

/** The browser's own favicon fetch and any `/favicon.ico`: a site without one is not a failure worth a line. */
export function isFavicon(url: string): boolean {
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

/**
 * A load that was canceled, not failed: a frame's document the page replaced (or the test's end cut off), or a
 * `data:` or `blob:` resource, which no server could fail. An app's own aborted fetch is still reported.
 */
export function isCanceledLoad(request: { url: string; resourceType: string }, params: { canceled?: boolean }): boolean {
  if (!params.canceled) return false;
  return request.resourceType === 'document' || /^(?:data|blob):/i.test(request.url);
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
