import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { internalCall } from '../capture/cdp/internal-call';
import { firstLine } from '../text/first-line';
import { httpGet, tooLarge, type RequestSettings } from './http-get';
import type { Fetcher, FetchLimits, FetchResult } from './fetch-result';

export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 2000, maxBytes: 10 * 1024 * 1024 };

/** What a test lends the fetcher: its pages' cookies, and the request client of a context of its that is still open. */
export interface PageAccess {
  /** The `Cookie` header the test's browser would send to `url`, if any. */
  cookieHeader(url: string): Promise<string | undefined>;
  /** `context.request` of one of the test's contexts while it is open, else undefined. */
  openRequest(): APIRequestContext | undefined;
  /** The test's `extraHTTPHeaders` and `httpCredentials`, sent as its browser would send them. */
  requestSettings?(): Pick<RequestSettings, 'extraHeaders' | 'credentials'>;
}

/**
 * Fetches http(s) URLs with daebug's own HTTP client in the worker (`http-get.ts`), with the test's cookies, and reads
 * `file://` URLs from disk. It does not need the test's browser context: a suite's own `context` fixture may close it
 * before daebug maps the test's stacks. Only when the worker cannot reach the server at all (a browser behind a
 * Playwright server, on a network of its own) is an open context's `context.request` tried, which runs on the
 * browser's side. Other schemes (blob:, chrome-extension:) cannot be read from outside the page.
 */
export function pageFetcher(page?: PageAccess, limits: FetchLimits = DEFAULT_FETCH_LIMITS): Fetcher {
  return (url) => {
    if (/^file:/i.test(url)) return withTimeout(readFileUrl(url, limits.maxBytes), limits.timeoutMs);
    if (!/^https?:/i.test(url)) return Promise.resolve({ ok: false, reason: `${url.split(':', 1)[0]}: URLs cannot be fetched` });
    return withTimeout(fetchHttp(url, limits, page), limits.timeoutMs);
  };
}

async function fetchHttp(url: string, limits: FetchLimits, page: PageAccess | undefined): Promise<FetchResult> {
  const direct = await httpGet(url, limits, page ? { ...page.requestSettings?.(), cookieHeader: (u) => page.cookieHeader(u) } : {});
  if (direct.ok || !direct.inTransit) return direct;
  const request = page?.openRequest();
  if (!request) return direct;
  const viaBrowser = await contextGet(request, url, limits);
  return viaBrowser.ok ? viaBrowser : direct;
}

/** A GET through a Playwright request context (the browser's side of a Playwright server), as an internal call. */
async function contextGet(request: APIRequestContext, url: string, limits: FetchLimits): Promise<FetchResult> {
  try {
    // An internal call: daebug's fetches never show among the user's actions in a trace.
    const response = await internalCall(request, () => request.get(url, { timeout: limits.timeoutMs, failOnStatusCode: false, maxRedirects: 5 }));
    try {
      if (!response.ok()) return { ok: false, reason: `HTTP ${response.status()}`, status: response.status() };
      const headers = response.headers();
      const declared = Number(headers['content-length']);
      if (declared > limits.maxBytes) return { ok: false, reason: tooLarge(declared, limits.maxBytes) };
      const body = await response.body();
      if (body.length > limits.maxBytes) return { ok: false, reason: tooLarge(body.length, limits.maxBytes) };
      return { ok: true, text: body.toString('utf8'), contentType: headers['content-type'] ?? '', sourceMapHeader: headers['sourcemap'] ?? headers['x-sourcemap'] };
    } finally {
      await response.dispose().catch(() => undefined);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/timeout/i.test(message)) return { ok: false, reason: `timed out after ${limits.timeoutMs} ms` };
    return { ok: false, reason: `request failed: ${firstLine(message, { max: 200 })}`, inTransit: true };
  }
}

async function readFileUrl(url: string, maxBytes: number): Promise<FetchResult> {
  try {
    const file = fileURLToPath(url.replace(/[?#].*$/, ''));
    const stat = await fs.stat(file);
    if (stat.size > maxBytes) return { ok: false, reason: tooLarge(stat.size, maxBytes) };
    return { ok: true, text: await fs.readFile(file, 'utf8'), contentType: /\.html?$/i.test(file) ? 'text/html' : '' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { ok: false, reason: 'file not found', status: 404 } : { ok: false, reason: `file could not be read: ${firstLine((error as Error).message, { max: 200 })}` };
  }
}

/** Bounds a fetch: a slow server never holds the test for longer than the timeout. */
export function withTimeout(work: Promise<FetchResult>, timeoutMs: number): Promise<FetchResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<FetchResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `timed out after ${timeoutMs} ms` }), timeoutMs);
  });
  const guarded = work.catch((error: unknown) => ({ ok: false as const, reason: `request failed: ${firstLine(String(error), { max: 200 })}` }));
  return Promise.race([guarded, timeout]).finally(() => clearTimeout(timer));
}
