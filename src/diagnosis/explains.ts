/**
 * Which event explains another, when the report itself shows it: React's boundary log follows the error it is about,
 * Vue's "Unhandled error during execution of <hook>" warning comes right before the error it rethrows or logs, a
 * body that is not JSON (or a fetch that failed) follows the failed request it came from, and a service worker's
 * failed fetch is behind its `respondWith()` that got no Response and the page's request it then failed. Only these pairings:
 * a guess from mere nearness would tie together errors that have nothing to do with each other. Pure.
 */
import { UNCAUGHT_SOURCES } from '../model/classify';
import type { DaebugEvent } from '../model/schema';
import { headlineHasUrl, requestNamedBy } from '../model/names-url';
import { isServiceWorkerRealm, realmContext } from '../model/realm-name';

/** React 18's separate log about an error it caught, right after that error: "The above error occurred in the <X> component". */
const REACT_BOUNDARY_LOG = /^(?:Warning: )?The above error occurred in (?:the <[A-Za-z_$][\w$.]*> component|one of your React components)/;
/** Vue 3's warning about an error of a component's hook or handler, logged right before Vue rethrows or logs the error. */
const VUE_UNHANDLED = /^\[Vue warn\]: Unhandled error during execution of /;
/** How far a framework's own words about an error (React's boundary log, Vue's warning) lie from it: the same commit. */
const FRAMEWORK_NOTE_MS = 1000;
/** A parse error of a response body, or a fetch that failed: what a failed request shortly before explains. */
const FROM_A_RESPONSE = /is not valid JSON|Unexpected end of JSON input|JSON\.parse: unexpected|Unexpected token '?<'?|Failed to fetch|NetworkError when attempting to fetch resource|Load failed/;
/** How long before an error a failed request may still explain it (a fetch, then parsing its body), as enrich says. */
const RESPONSE_EXPLAINS_MS = 10_000;
/** An Error's own headline, `TypeError: …` or `Uncaught Error: …`, as opposed to a warning's words. */
const ERROR_HEADLINE = /^(?:Uncaught (?:\(in promise\) )?)?[A-Z][\w$]*(?:Error|Exception)\b/;

/** A thrown or logged Error, not a warning: what a framework's boundary log can be about. */
export function isThrownError(event: DaebugEvent): boolean {
  return UNCAUGHT_SOURCES.has(event.source) || event.loggedAt !== undefined || ERROR_HEADLINE.test(event.message);
}

/** The event after this one in its realm, with no other event of that realm in between. */
function nextInRealm(event: DaebugEvent, events: readonly DaebugEvent[]): DaebugEvent | undefined {
  const at = events.indexOf(event);
  if (at === -1) return undefined;
  return events.slice(at + 1).find((e) => e.realm === event.realm);
}

function previousInRealm(event: DaebugEvent, events: readonly DaebugEvent[]): DaebugEvent | undefined {
  const at = events.indexOf(event);
  if (at === -1) return undefined;
  return events.slice(0, at).reverse().find((e) => e.realm === event.realm);
}

/**
 * React's boundary log about this error: the `console.error` right after it in the same realm whose text starts with
 * "The above error occurred in the <X> component". React 19 puts that sentence in the error's own log instead.
 */
export function reactBoundaryLogAfter(event: DaebugEvent, events: readonly DaebugEvent[]): DaebugEvent | undefined {
  if (!isThrownError(event) || REACT_BOUNDARY_LOG.test(event.message)) return undefined;
  const next = nextInRealm(event, events);
  if (!next || next.source !== 'console.error' || !REACT_BOUNDARY_LOG.test(next.message)) return undefined;
  return Date.parse(next.time) - Date.parse(event.time) <= FRAMEWORK_NOTE_MS ? next : undefined;
}

/**
 * React's words for an error it recovered from by rendering in the browser: the reason (the server's error) follows
 * the colon, on the next line in React 19 ("Switched to client rendering because the server rendering errored:\n\n…").
 */
const CLIENT_RENDERING_FALLBACK = /Switched to client rendering because the server rendering errored:\s*([^\n]*(?:\n\s*)*[^\n]*)/;
/**
 * React's fallback for a Suspense boundary the server could not finish, with no reason in the browser: production's
 * minified error #419, development's words for it.
 */
const SUSPENSE_FALLBACK = /Minified React error #419\b|The server could not finish this Suspense boundary/;
/** A framework's stand-in for an error the server kept to itself (React Router's and Remix's default boundary). */
const SERVER_ERROR_STAND_IN = /^(?:Uncaught (?:\(in promise\) )?)?(?:Error: )?Unexpected Server Error\b/;
/** How far apart an error and its consequence may lie: a hydration, a retry, a request and its rendering. */
const CONSEQUENCE_MS = 10_000;

/** The Error's own text: the first line of its stack, else of the message, without "Uncaught " or the Error's name. */
function errorWords(event: DaebugEvent): string {
  const head = (event.stack?.split('\n', 1)[0] || event.message.split('\n', 1)[0] || '').trim();
  return head.replace(/^Uncaught (?:\(in promise\) )?/, '').replace(/^[A-Z][\w$]*(?:Error|Exception)?: /, '');
}

/** Thrown, rejected, or logged with `console.error`: what can report an Error. */
function isErrorReport(event: DaebugEvent): boolean {
  return UNCAUGHT_SOURCES.has(event.source) || event.source === 'console.error';
}

/**
 * A framework's consequence of an error: React's client-rendering fallback names the server's error, and the error
 * the browser then threw on its own at the same render is that error; a server error React Router could only show
 * as "Unexpected Server Error", or whose stack never ran in the browser, came with the route's request that failed.
 */
function consequenceOf(event: DaebugEvent, events: readonly DaebugEvent[]): DaebugEvent | undefined {
  const time = Date.parse(event.time);
  const near = (e: DaebugEvent) => e !== event && e.realm === event.realm && Math.abs(Date.parse(e.time) - time) <= CONSEQUENCE_MS;
  const fallback = CLIENT_RENDERING_FALLBACK.exec(event.message);
  if (fallback || SUSPENSE_FALLBACK.test(event.message)) {
    const reason = (fallback?.[1] ?? '').trim().split('\n', 1)[0]!.replace(/^[A-Z][\w$]*(?:Error|Exception)?: /, '').trim();
    const thrown = reason ? events.find((e) => near(e) && isErrorReport(e) && !CLIENT_RENDERING_FALLBACK.test(e.message) && errorWords(e) === reason) : undefined;
    // Without the server's words in the browser, the document the server answered with an error is what shows it.
    return thrown ?? events.filter((e) => near(e) && Date.parse(e.time) <= time && isRouteRequestFailure(e) && e.network?.resourceType === 'document').pop();
  }
  if (!isErrorReport(event)) return undefined;
  // A stack of the server's files only (React Router sends a loader's error with its stack in development).
  const frames = event.frames ?? [];
  const serverStack = frames.length > 0 && frames.every((f) => !/^https?:/i.test(f.url));
  if (!serverStack && !SERVER_ERROR_STAND_IN.test(errorWords(event)) && !SERVER_ERROR_STAND_IN.test(event.message)) return undefined;
  return events.filter((e) => near(e) && Date.parse(e.time) <= time && isRouteRequestFailure(e)).pop();
}

/**
 * A request for a route's data or document that the server answered with an error: React Router's `.data` fetch of a
 * loader or action, Remix's `?_data=`, or the document itself.
 */
function isRouteRequestFailure(event: DaebugEvent): boolean {
  const network = event.network;
  if (event.source !== 'network' || !network || network.canceled || (network.status ?? 0) < 400) return false;
  if (network.resourceType === 'document') return true;
  return /\.data(?:[?#]|$)|[?&]_data=/.test(network.url);
}

/**
 * Chromium's words for a service worker's `respondWith()` given something that is no Response: SvelteKit's
 * `respondWith(promise.catch(() => cached || promise))` resolves to nothing when the fetch failed and the cache has
 * no copy. Chromium rejects with them, with no stack, right after the worker's failed fetch.
 */
const RESPOND_WITH_NO_RESPONSE = /Failed to convert value to 'Response'/;
/** How far apart a service worker's failed fetch and its consequences lie: the same fetch event. */
const SAME_FETCH_EVENT_MS = 1000;

function failedRequests(events: readonly DaebugEvent[], keep: (e: DaebugEvent) => boolean): DaebugEvent[] {
  return events.filter((e) => e.source === 'network' && e.network !== undefined && keep(e));
}

/**
 * A service worker's failed fetch behind an event. In the worker: its `respondWith()` that got no Response, right
 * after the fetch it made failed. In a page of the same browser context: the page's request that the worker answered
 * with a network error (Chromium's `net::ERR_FAILED`) because its own fetch of the same URL failed at the same moment.
 * So one offline fetch is one problem, not one per realm that saw it fail.
 */
function serviceWorkerFetchBehind(event: DaebugEvent, events: readonly DaebugEvent[]): DaebugEvent | undefined {
  const time = Date.parse(event.time);
  if (event.source === 'network') {
    const request = event.network!;
    if (isServiceWorkerRealm(event.realm)) return undefined;
    const context = realmContext(event.realm);
    return failedRequests(events, (e) => e !== event && isServiceWorkerRealm(e.realm) && realmContext(e.realm) === context && e.network!.method === request.method && e.network!.url === request.url && Math.abs(Date.parse(e.time) - time) <= SAME_FETCH_EVENT_MS).pop();
  }
  if (!isServiceWorkerRealm(event.realm) || !UNCAUGHT_SOURCES.has(event.source) || !RESPOND_WITH_NO_RESPONSE.test(event.message)) return undefined;
  return failedRequests(events, (e) => e.realm === event.realm && Date.parse(e.time) <= time && time - Date.parse(e.time) <= SAME_FETCH_EVENT_MS).pop();
}

/** The event among `events` that explains this one, when the report shows it; undefined otherwise. */
export function explainedBy(event: DaebugEvent, events: readonly DaebugEvent[]): DaebugEvent | undefined {
  // A failed request is explained only by a service worker's failed fetch of it; any other is a cause, not an effect.
  if (event.source === 'network') return serviceWorkerFetchBehind(event, events);
  const fetchBehind = serviceWorkerFetchBehind(event, events);
  if (fetchBehind) return fetchBehind;
  const consequence = consequenceOf(event, events);
  if (consequence) return consequence;
  if (event.source === 'console.warn' && VUE_UNHANDLED.test(event.message)) {
    // Vue's own error handling: the warning names the hook and the component, the error right after it is the cause.
    const error = nextInRealm(event, events);
    if (error && isThrownError(error) && Date.parse(error.time) - Date.parse(event.time) <= FRAMEWORK_NOTE_MS) return error;
  }
  if (event.source === 'console.error' && REACT_BOUNDARY_LOG.test(event.message)) {
    const error = previousInRealm(event, events);
    if (error && reactBoundaryLogAfter(error, events) === event) return error;
  }
  const headline = event.message.split('\n', 1)[0] ?? '';
  // An HTTP client's error that names the request (Angular's "Http failure response for <url>: 404 Not Found").
  const named = failedRequestNamedIn(event, events);
  if (named) return named;
  if (FROM_A_RESPONSE.test(headline)) {
    const time = Date.parse(event.time);
    return events
      .filter((e) => e.source === 'network' && e.realm === event.realm && Date.parse(e.time) <= time && time - Date.parse(e.time) <= RESPONSE_EXPLAINS_MS)
      .pop();
  }
  return undefined;
}

/**
 * The failed request of the same realm whose full URL the error's first line names, the latest before it: an HTTP
 * client's error about a response (Angular's `HttpErrorResponse`, a fetch wrapper's "GET <url> failed: 500") is
 * that request's failure, whatever code reported it.
 */
function failedRequestNamedIn(event: DaebugEvent, events: readonly DaebugEvent[]): DaebugEvent | undefined {
  // Most errors name no URL: they pay nothing for the requests (this runs once per event at report time).
  if (!headlineHasUrl(event.message)) return undefined;
  const timed = (e: DaebugEvent) => ({ event: e, realm: e.realm, timeMs: Date.parse(e.time) });
  const requests = events.filter((e) => e.source === 'network' && e.network && e.realm === event.realm).map(timed);
  return requestNamedBy({ ...timed(event), message: event.message }, requests, (r) => r.event.network!.url)?.event;
}
