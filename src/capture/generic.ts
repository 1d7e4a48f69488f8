import type { Page, Request, Response, Worker } from '@playwright/test';
import { messageFromStack } from '../text/stack-message';
import { canceledDraft, isCanceledText, isFavicon, isLocalUrl, isReportedRequest, networkDraft, statusTextOf } from './network-failure';
import type { Recorder } from './recorder';
import type { NetworkFailure } from '../model/schema';

export interface GenericTarget {
  recorder: Recorder;
  /** Report failed requests (`daebugNetwork` is not `off`). */
  network: boolean;
  workerRealm(worker: Worker): string;
}

const FAILED_TO_LOAD = /^Failed to load resource\b/;
// URLs of failures already reported, so Chromium's "Failed to load resource" line for the same request is dropped.
const MAX_REPORTED_URLS = 200;

/**
 * Capture for browsers without CDP (Firefox, WebKit): Playwright's `console` and `pageerror` events.
 * `pageerror` cannot tell an uncaught exception from an unhandled rejection, so its events carry the
 * source `pageerror`; console values are read from `msg.text()`.
 */
export function attachGenericPage(page: Page, realm: string, target: GenericTarget): () => Promise<void> {
  const { recorder } = target;
  const reportedUrls = new Set<string>();
  const onConsole = (msg: import('@playwright/test').ConsoleMessage) => {
    const worker = msg.worker();
    const type = msg.type();
    const method = type === 'warning' ? 'warn' : type;
    const location = msg.location();
    if (FAILED_TO_LOAD.test(msg.text()) && (isFavicon(location.url) || (target.network && reportedUrls.has(location.url)))) return;
    recorder.add({
      type: 'console',
      level: method,
      source: msg.args().length === 0 && type === 'error' ? 'browser.log' : `console.${method}`,
      realm: worker ? target.workerRealm(worker) : realm,
      timeMs: typeof msg.timestamp === 'function' ? msg.timestamp() : Date.now(),
      message: msg.text(),
      location: location.url ? { url: location.url, line: location.line + 1, column: location.column + 1 } : undefined,
    });
  };
  const onPageError = (error: Error) => {
    const stack = error.stack || undefined;
    recorder.add({
      type: 'error',
      level: 'error',
      source: 'pageerror',
      realm,
      timeMs: Date.now(),
      message: stack ? messageFromStack(stack) : error.message || String(error),
      stack,
    });
  };
  // A stylesheet or script that got a 404 is then dropped by the browser (a `requestfailed` too): one failure.
  const reportedRequests = new WeakSet<Request>();
  const reportFailure = (request: Request, failure: NetworkFailure) => {
    reportedRequests.add(request);
    reportedUrls.add(failure.url);
    if (reportedUrls.size > MAX_REPORTED_URLS) reportedUrls.delete(reportedUrls.values().next().value!);
    recorder.add({ ...networkDraft(failure, Date.now()), realm });
  };
  const onResponse = (response: Response) => {
    const request = response.request();
    if (response.status() < 400 || !isReportedRequest(request.url(), request.resourceType())) return;
    const failure: NetworkFailure = { method: request.method(), url: request.url(), resourceType: request.resourceType(), status: response.status() };
    const statusText = statusTextOf(response.status(), response.statusText());
    if (statusText) failure.statusText = statusText;
    reportFailure(request, failure);
  };
  const onRequestFailed = (request: Request) => {
    if (!isReportedRequest(request.url(), request.resourceType()) || reportedRequests.has(request)) return;
    const failure: NetworkFailure = { method: request.method(), url: request.url(), resourceType: request.resourceType(), errorText: request.failure()?.errorText || 'failed' };
    // A cancel by the page (an AbortController, a navigation, a removed frame) is a line, not a failure.
    if (!isCanceledText(failure.errorText)) reportFailure(request, failure);
    else if (!isLocalUrl(failure.url)) recorder.add({ ...canceledDraft(failure, Date.now(), { errorText: failure.errorText! }), realm });
  };
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  if (target.network) {
    page.on('response', onResponse);
    page.on('requestfailed', onRequestFailed);
  }
  return async () => {
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
    page.off('response', onResponse);
    page.off('requestfailed', onRequestFailed);
  };
}
