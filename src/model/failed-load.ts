/**
 * The browser's own line about a resource it could not load ("Failed to load resource: the server responded with a
 * status of 404 (Not Found)"), as it stays in a report for what daebug does not record as a failed request (an
 * image, a font, a video: src/capture/network-failure.ts reports documents, scripts, stylesheets, fetch and XHR).
 * The line names no URL in its text; its location is the resource. Pure.
 */

/** What such a line says: the resource's URL, and the status or the network error when the text gives them. */
export interface FailedLoad {
  url: string;
  status?: number;
  errorText?: string;
}

const FAILED_TO_LOAD = /^Failed to load resource\b/;
/** Chromium's sources of the line: its Log domain (`browser.network`); Playwright's console event elsewhere (`browser.log`). */
const LOAD_SOURCES: ReadonlySet<string> = new Set(['browser.network', 'browser.log']);

/** The failed load an event is the browser's line about; undefined for any other event. */
export function failedLoadOf(event: { source: string; message: string; location?: { url: string } | undefined }): FailedLoad | undefined {
  if (!LOAD_SOURCES.has(event.source) || !FAILED_TO_LOAD.test(event.message)) return undefined;
  const url = event.location?.url;
  if (!url || !/^https?:/i.test(url)) return undefined;
  const load: FailedLoad = { url };
  const status = /\bstatus of (\d{3})\b/.exec(event.message);
  if (status) load.status = Number(status[1]);
  const error = /\b(net::[A-Z_]+)/.exec(event.message);
  if (error) load.errorText = error[1]!;
  return load;
}

/** `/react/missing-avatar.png`: the URL's path and query, as a report names the resource; the URL itself if it cannot be read. */
export function loadPath(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

/**
 * A failed load that daebug found in the app's own source by its URL (`foundInSource`): a resource the app's code
 * names, so a bug of the app's, counted among a report's problems and listed by `daebug errors`. One that no line of
 * the app names (a tracking pixel, a font a stylesheet asks for) stays a line of the transcript.
 */
export function isPlacedLoad(event: { source: string; message: string; location?: { url: string } | undefined; foundInSource?: readonly unknown[] | undefined; expected?: boolean | undefined }): boolean {
  return !event.expected && (event.foundInSource?.length ?? 0) > 0 && failedLoadOf(event) !== undefined;
}

/** `/react/missing-avatar.png 404`, `/fonts/x.woff2 net::ERR_CONNECTION_REFUSED`: the resource and what went wrong, in a report's words. */
export function failedLoadText(load: FailedLoad): string {
  const outcome = load.status !== undefined ? ` ${load.status}` : load.errorText ? ` ${load.errorText}` : '';
  return `${loadPath(load.url)}${outcome}`;
}
