/**
 * Whether a text names a URL whole, and which failed request an error's first line names: an HTTP client's error
 * about a response ("Http failure response for http://h/api/prices.json: 404 Not Found") is about that request.
 * Shared by the link between the two (diagnosis/explains.ts) and the place the error borrows from the request
 * (stack/locate-by-evidence.ts), which see the events in their own shapes. Pure.
 */

/** The URL stands in the text whole: not as the start of a longer URL (`/api/prices` in `/api/prices.json`). */
export function namesUrl(text: string, url: string): boolean {
  if (!url) return false;
  for (let at = text.indexOf(url); at !== -1; at = text.indexOf(url, at + 1)) {
    const rest = text.slice(at + url.length);
    // A sentence's full stop after the URL ends it; a letter, slash or query character goes on with it.
    if (!/^[\w\-/?=&%~#+]/.test(rest) && !/^\.[^\s]/.test(rest)) return true;
  }
  return false;
}

/** A request's failure is recorded when its response or error arrives, which may come after the client's error. */
const REQUEST_CLOCK_SLACK_MS = 1000;

/** What the pairing reads of an error and of a failed request. */
export interface Timed {
  realm: string;
  timeMs: number;
}

/** Whether a message's first line holds an http(s) URL at all: without one it names no request. */
export function headlineHasUrl(message: string): boolean {
  return /https?:\/\//.test(message.split('\n', 1)[0] ?? '');
}

/**
 * The failed request of the error's realm whose whole URL the error's first line names, the latest one recorded
 * before it (or within a second after); undefined when its first line names none. `urlOf` gives a request's URL.
 */
export function requestNamedBy<R extends Timed>(error: Timed & { message: string }, requests: readonly R[], urlOf: (request: R) => string): R | undefined {
  if (!headlineHasUrl(error.message)) return undefined;
  const headline = error.message.split('\n', 1)[0] ?? '';
  let named: R | undefined;
  for (const request of requests) {
    if (request.realm === error.realm && request.timeMs <= error.timeMs + REQUEST_CLOCK_SLACK_MS && namesUrl(headline, urlOf(request))) named = request;
  }
  return named;
}
