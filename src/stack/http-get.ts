/**
 * daebug's own HTTP client for scripts, source maps and original sources: Node's `http`/`https`, in the worker, so
 * fetching does not depend on the test's browser context (a suite's own `context` fixture may have closed it before
 * daebug's teardown, as SvelteKit's does) and never shows in the test's trace. Bounded by a timeout and a size limit;
 * never throws.
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { firstLine } from '../text/first-line';
import type { FetchLimits, FetchResult } from './fetch-result';

const MAX_REDIRECTS = 5;

// Kept-alive sockets, shared by the worker's tests: a script and its map come from the same server. Idle sockets are
// unref'd by Node's agent, so they never keep the worker alive.
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 6 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 6 }) };

/** The `Cookie` header to send to a URL, if any. */
export type CookieHeader = (url: string) => Promise<string | undefined> | string | undefined;

/**
 * What the test's browser would send with its requests, from the test's options: `extraHTTPHeaders` with every one,
 * `httpCredentials` (HTTP Basic) the way Playwright sends them: in answer to a 401, or with every request when
 * `send: 'always'`, and only to `origin` when it is set.
 */
export interface RequestSettings {
  cookieHeader?: CookieHeader | undefined;
  extraHeaders?: Readonly<Record<string, string>> | undefined;
  /** One set, or several for different origins (Playwright ≥ 1.60 takes a list). */
  credentials?: Credentials | readonly Credentials[] | undefined;
}

export interface Credentials {
  username: string;
  password: string;
  origin?: string | undefined;
  send?: 'always' | 'unauthorized' | undefined;
}

/**
 * GETs `url`, following up to 5 redirects, and reads at most `maxBytes`. Dev servers on a loopback address often use
 * a self-signed certificate, which the browser was told to accept (`ignoreHTTPSErrors`); only for those hosts is the
 * certificate not checked. Failures before any answer (refused, unknown host, reset) are marked `inTransit`.
 */
export async function httpGet(url: string, limits: FetchLimits, settings: RequestSettings = {}): Promise<FetchResult> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const headers = { ...extraHeaders(settings.extraHeaders) };
      const cookie = await settings.cookieHeader?.(current);
      if (cookie) headers['cookie'] = headers['cookie'] ? `${headers['cookie']}; ${cookie}` : cookie;
      const credentials = credentialsFor(settings.credentials, current);
      const authorization = credentials && `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
      if (authorization && credentials.send === 'always') headers['authorization'] = authorization;
      let answer = await getOnce(current, headers, signal, limits.maxBytes);
      // Playwright's default: the credentials answer the server's 401, and go no further than asked.
      if ('status' in answer && answer.status === 401 && authorization && !headers['authorization']) {
        answer = await getOnce(current, { ...headers, authorization }, signal, limits.maxBytes);
      }
      if ('redirect' in answer) {
        if (hop >= MAX_REDIRECTS) return { ok: false, reason: `more than ${MAX_REDIRECTS} redirects` };
        current = new URL(answer.redirect, current).href;
        if (!/^https?:/i.test(current)) return { ok: false, reason: `redirected to ${current.split(':', 1)[0]}: URL` };
        continue;
      }
      return answer;
    }
  } catch (error) {
    if (signal.aborted) return { ok: false, reason: `timed out after ${limits.timeoutMs} ms` };
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `request failed: ${firstLine(message, { max: 200 })}`, inTransit: code === undefined || TRANSIT_CODES.has(code) };
  }
}

/** Errors before the server answered: another way to the server (the browser's side) may still reach it. */
const TRANSIT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

type Answer = FetchResult | { redirect: string };

/** The test's extra headers, lower-cased; daebug decodes only the encodings it asks for, so that header stays its own. */
function extraHeaders(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra ?? {})) {
    const key = name.toLowerCase();
    if (key !== 'accept-encoding' && typeof value === 'string') headers[key] = value;
  }
  return headers;
}

/** The credentials that may go to this URL: the set for its origin, else one with no origin; undefined for none. */
export function credentialsFor(credentials: RequestSettings['credentials'], url: string): Credentials | undefined {
  const list: readonly Credentials[] = !credentials ? [] : Array.isArray(credentials) ? credentials : [credentials as Credentials];
  let origin: string;
  try {
    origin = new URL(url).origin.toLowerCase();
  } catch {
    return undefined;
  }
  const sameOrigin = (c: Credentials) => {
    try {
      return new URL(c.origin!).origin.toLowerCase() === origin;
    } catch {
      return false;
    }
  };
  return list.find((c) => c.origin && sameOrigin(c)) ?? list.find((c) => !c.origin);
}

function getOnce(url: string, extra: Readonly<Record<string, string>>, signal: AbortSignal, maxBytes: number): Promise<Answer> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'daebug (source maps)', ...extra, 'accept-encoding': 'gzip, deflate, br' };
  const options: https.RequestOptions = { method: 'GET', headers, signal, agent: secure ? agents['https:'] : agents['http:'] };
  if (secure && isLoopback(target.hostname)) options.rejectUnauthorized = false;
  return new Promise<Answer>((resolve, reject) => {
    const request = (secure ? https : http).request(target, options, (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.resume();
        return resolve({ redirect: location });
      }
      if (status < 200 || status >= 300) {
        response.resume();
        return resolve({ ok: false, reason: `HTTP ${status}`, status });
      }
      const declared = Number(response.headers['content-length']);
      if (declared > maxBytes) {
        response.destroy();
        return resolve({ ok: false, reason: tooLarge(declared, maxBytes) });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          response.destroy();
          resolve({ ok: false, reason: tooLarge(size, maxBytes) });
        } else chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('end', () => {
        const body = decode(Buffer.concat(chunks), response.headers['content-encoding'], maxBytes);
        if (typeof body === 'string') return resolve({ ok: false, reason: body });
        const header = (name: string) => {
          const value = response.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        resolve({ ok: true, text: body.toString('utf8'), contentType: header('content-type') ?? '', sourceMapHeader: header('sourcemap') ?? header('x-sourcemap') });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/** The body without its content encoding; a string says why it could not be read. */
function decode(body: Buffer, encoding: string | undefined, maxBytes: number): Buffer | string {
  const options = { maxOutputLength: maxBytes };
  try {
    switch (encoding?.trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return zlib.gunzipSync(body, options);
      case 'deflate':
        return zlib.inflateSync(body, options);
      case 'br':
        return zlib.brotliDecompressSync(body, options);
      default:
        return body;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge(maxBytes + 1, maxBytes) : `the ${encoding} body could not be decoded`;
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\./.test(hostname) || hostname === '[::1]' || hostname === '::1';
}

export function tooLarge(bytes: number, max: number): string {
  return `too large (${(bytes / 1024 / 1024).toFixed(1)} MB, limit ${(max / 1024 / 1024).toFixed(0)} MB)`;
}
