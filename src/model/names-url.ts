/**
 * Whether a text names a URL whole: an HTTP client's error about a response ("Http failure response for
 * http://h/api/prices.json: 404 Not Found") names the request it is about. Shared by the link between the two
 * (diagnosis/explains.ts) and the place the error borrows from the request (stack/enrich.ts). Pure.
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
