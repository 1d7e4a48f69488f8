/**
 * Telling a stack position that means nothing from one that does, by its URL and line alone: capture drops such a
 * position as it reads an event, enrichment never calls it the user's code. Text only, so capture can use it.
 */
/**
 * A position that only says "somewhere in this HTML document": Chromium reports a rejection that has no stack
 * (e.g. `fetch(url).then((r) => r.json())` on a non-JSON body) at line 1, column 2 of the page, whose code frame
 * would be `<!doctype html>`.
 */
export function isDocumentStart(frame: { url: string; line: number; original?: unknown }): boolean {
  return frame.line === 1 && !frame.original && isDocumentUrl(frame.url);
}

/** An HTML page's URL: `.html`/`.htm`, a folder (`/`), or a last path segment without an extension. */
export function isDocumentUrl(url: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return false;
  }
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return last === '' || /\.html?$/i.test(last) || !last.includes('.');
}
