/**
 * A place in the page's code as every report and the CLI print it: `file:line:column`. Two kinds of location the
 * browser gives do not print well that way. The page's own document with a query (`…/csp/?port=44503`): a glued
 * `:1:1` reads as part of the query's value. And a browser pseudo-URL (`about:client`, `about:blank`,
 * `chrome-error://…`): Chromium names it as a script's URL, but there is no file to open there. The JSON reports
 * keep every URL as the browser gave it.
 */
import { shortUrl } from './short-url';

const PSEUDO_URL = /^(?:about|chrome|chrome-error|devtools):/i;

/** Whether a location's URL names a place a reader can open: not empty, not a browser pseudo-URL. */
export function isPlaceUrl(url: string | undefined): url is string {
  return !!url && !PSEUDO_URL.test(url);
}

/**
 * A URL as the file of a position: without its query and fragment (`…/csp/?port=44503` is `…/csp/`), as source maps'
 * sources are shown (`src/cart.ts?t=1` is `src/cart.ts`); `data:` and `blob:` URLs cut as `shortUrl` cuts them.
 */
export function placeUrl(url: string): string {
  if (/^(?:data|blob):/i.test(url)) return shortUrl(url);
  return url.replace(/[?#][\s\S]*$/, '') || url;
}

/**
 * `file:line:column`, or `file:line` without a column; the file is written by `placeUrl`. Positions are 1-based: a
 * line 0 is the browser saying it has none (a CSP violation of an inline handler), and only the file is written.
 */
export function positionText(url: string, line: number, column?: number): string {
  if (line < 1) return placeUrl(url);
  return `${placeUrl(url)}:${line}${column === undefined || column < 1 ? '' : `:${column}`}`;
}

/** An event's own location as a position, or undefined when it names no place (no URL, or a pseudo-URL). */
export function locationText(location: { url: string; line: number; column: number } | undefined, withColumn = true): string | undefined {
  if (!location || !isPlaceUrl(location.url)) return undefined;
  return positionText(location.url, location.line, withColumn ? location.column : undefined);
}
