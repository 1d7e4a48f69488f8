import { internalCall } from '../capture/cdp/internal-call';
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { firstLine } from '../format/first-line';

export type FetchResult =
  | { ok: true; text: string; contentType: string; sourceMapHeader?: string | undefined }
  | { ok: false; reason: string };

/** Reads a script, map or source by URL; never throws, says why when it could not. */
export type Fetcher = (url: string) => Promise<FetchResult>;

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 2000, maxBytes: 10 * 1024 * 1024 };

/**
 * Fetches http(s) URLs with the test's own browser context (`context.request`: its cookies, headers and proxy)
 * and reads `file://` URLs from disk. Other schemes (blob:, chrome-extension:) cannot be read from outside the page.
 */
export function contextFetcher(request: APIRequestContext | (() => Promise<APIRequestContext>), limits: FetchLimits = DEFAULT_FETCH_LIMITS): Fetcher {
  let requestContext: Promise<APIRequestContext> | undefined;
  // Made only when a URL has to be fetched: most tests have no stack to map.
  const lazy = () => (requestContext ??= typeof request === 'function' ? request() : Promise.resolve(request));
  return (url) => {
    if (/^file:/i.test(url)) return withTimeout(readFileUrl(url, limits.maxBytes), limits.timeoutMs);
    if (!/^https?:/i.test(url)) return Promise.resolve({ ok: false, reason: `${url.split(':', 1)[0]}: URLs cannot be fetched` });
    return withTimeout(
      lazy().then((r) => fetchHttp(r, url, limits)),
      limits.timeoutMs,
    );
  };
}

async function fetchHttp(request: APIRequestContext, url: string, limits: FetchLimits): Promise<FetchResult> {
  try {
    // An internal call: daebug's fetches never show among the user's actions in a trace.
    const response = await internalCall(request, () => request.get(url, { timeout: limits.timeoutMs, failOnStatusCode: false, maxRedirects: 5 }));
    try {
      if (!response.ok()) return { ok: false, reason: `HTTP ${response.status()}` };
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
    return { ok: false, reason: `request failed: ${firstLine(message, { max: 200 })}` };
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
    return { ok: false, reason: code === 'ENOENT' ? 'file not found' : `file could not be read: ${firstLine((error as Error).message, { max: 200 })}` };
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

function tooLarge(bytes: number, max: number): string {
  return `too large (${(bytes / 1024 / 1024).toFixed(1)} MB, limit ${(max / 1024 / 1024).toFixed(0)} MB)`;
}
