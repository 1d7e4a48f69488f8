import type { IgnorePattern, NetworkMode } from '../options';

/** Sources that are errors thrown by page or worker code, not logged by it. */
export const UNCAUGHT_SOURCES: ReadonlySet<string> = new Set(['window.onerror', 'self.onerror', 'unhandledrejection', 'pageerror']);

export interface Classifiable {
  type: 'error' | 'console';
  source: string;
  message: string;
  stack?: string | undefined;
  level?: string | undefined;
  issue?: { kind: string; reportOnly?: boolean | undefined } | undefined;
}

/**
 * Uncaught exceptions, unhandled rejections, console.error from page or worker code, and a Content-Security-Policy
 * violation that blocked something: the page's own policy stopped its own code or resource, which no assertion sees.
 */
export function isUnexpectedKind(event: Classifiable): boolean {
  return UNCAUGHT_SOURCES.has(event.source) || event.source === 'console.error' || isBlockingCsp(event);
}

/** A `browser.issue` of kind `csp` that was enforced (not report-only). */
export function isBlockingCsp(event: Classifiable): boolean {
  return event.source === 'browser.issue' && event.issue?.kind === 'csp' && !event.issue.reportOnly;
}

/**
 * The source of a request the page canceled itself: Chromium's `canceled` with no block behind it, or a request of a
 * document its frame replaced. Whether a router or an `AbortController` cancels depends on timing, so a cancel is
 * shown in the transcript but is never a failed request: not unexpected (not even with `daebugNetwork: 'strict'`),
 * not grouped, not in a baseline.
 */
export const CANCELED_REQUEST_SOURCE = 'network.canceled';

/** A request the page canceled itself (source `network.canceled`). */
export function isCanceledRequest(event: { source: string }): boolean {
  return event.source === CANCELED_REQUEST_SOURCE;
}

/** A failed request (source `network`): unexpected only with `daebugNetwork: 'strict'`. */
export function isNetworkFailure(event: Classifiable): boolean {
  return event.source === 'network';
}

/** Whether an event counts as an unexpected error when no ignore pattern matches it. */
export function isUnexpectedIn(event: Classifiable, network: NetworkMode = 'report'): boolean {
  return isUnexpectedKind(event) || (network === 'strict' && isNetworkFailure(event));
}

export function matchesIgnore(event: Classifiable, patterns: readonly IgnorePattern[]): boolean {
  for (const pattern of patterns) if (matchesPattern(event, pattern)) return true;
  return false;
}

/** A string matches as a substring, a RegExp by `test`, of the message or the stack. */
export function matchesPattern(event: Classifiable, pattern: IgnorePattern): boolean {
  if (typeof pattern === 'string') return pattern !== '' && (event.message.includes(pattern) || (event.stack?.includes(pattern) ?? false));
  pattern.lastIndex = 0;
  if (pattern.test(event.message)) return true;
  pattern.lastIndex = 0;
  return event.stack !== undefined && pattern.test(event.stack);
}

export function formatClock(timeMs: number): string {
  const d = new Date(timeMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
