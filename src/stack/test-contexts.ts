/**
 * The test's browser contexts as the source-map fetcher sees them: the cookies they held (read before a context
 * closes, so a server that serves scripts only to a signed-in browser still answers daebug after the suite's own
 * `context` fixture closed it), the headers and HTTP credentials of the test's options, and the request client of
 * one that is still open. Reading cookies is one protocol
 * call per context, made only when the test has a stack to map.
 */
import type { APIRequestContext, BrowserContext, Cookie } from '@playwright/test';
import { internalCall } from '../capture/cdp/internal-call';
import { debugLog } from '../errors';
import type { PageAccess } from './fetch';
import type { RequestSettings } from './http-get';

export class TestContexts implements PageAccess {
  /** Each context with its close listener, removed at the test's end: a reused context outlives the test. */
  private readonly contexts = new Map<BrowserContext, () => void>();
  private readonly closed = new WeakSet<BrowserContext>();
  /** Cookies read from contexts before they closed. */
  private readonly kept: Cookie[] = [];
  private readonly read = new WeakSet<BrowserContext>();
  /** The cookies of the contexts still open, read once, when the first URL needs them. */
  private openCookies: Promise<Cookie[]> | undefined;

  /** The test's `extraHTTPHeaders` and `httpCredentials` options: what its browser sends with every request. */
  constructor(private readonly settings: Pick<RequestSettings, 'extraHeaders' | 'credentials'> = {}) {}

  requestSettings(): Pick<RequestSettings, 'extraHeaders' | 'credentials'> {
    return this.settings;
  }

  add(context: BrowserContext): void {
    if (this.contexts.has(context)) return;
    const onClose = () => this.closed.add(context);
    this.contexts.set(context, onClose);
    context.once('close', onClose);
  }

  /** At the test's end: the contexts that outlive it (reused, a connected browser's default) keep no listener of it. */
  end(): void {
    for (const [context, onClose] of this.contexts) context.off('close', onClose);
  }

  /** Keeps a closing context's cookies, when `needed` says the test has stacks to map. Never throws. */
  async beforeClose(context: BrowserContext, needed: () => boolean): Promise<void> {
    this.add(context);
    if (this.read.has(context) || !isNeeded(needed)) return;
    this.read.add(context);
    this.kept.push(...(await cookiesOf(context)));
  }

  async cookieHeader(url: string): Promise<string | undefined> {
    this.openCookies ??= Promise.all(
      [...this.contexts.keys()]
        .filter((c) => !this.closed.has(c) && !this.read.has(c))
        .map((c) => {
          this.read.add(c);
          return cookiesOf(c);
        }),
    ).then((lists) => lists.flat());
    const cookies = [...this.kept, ...(await this.openCookies)];
    return cookieHeaderFor(url, cookies, Date.now() / 1000);
  }

  openRequest(): APIRequestContext | undefined {
    for (const context of this.contexts.keys()) if (!this.closed.has(context)) return context.request;
    return undefined;
  }
}

/** Runs inside the user's `context.close()`: a failure here must not fail the close. */
function isNeeded(needed: () => boolean): boolean {
  try {
    return needed();
  } catch (error) {
    debugLog(error);
    return false;
  }
}

async function cookiesOf(context: BrowserContext): Promise<Cookie[]> {
  try {
    return await internalCall(context, () => context.cookies());
  } catch (error) {
    // A context that closed meanwhile has no cookies to lend; the fetch goes without.
    debugLog(error);
    return [];
  }
}

/**
 * The `Cookie` header a browser sends to `url`: cookies whose domain matches the host (the host or a parent domain
 * for a `Domain` cookie, stored with a leading dot; the host itself for a host-only cookie), whose path is
 * the URL's path or a folder of it, secure ones only over https or to a loopback host, none expired. Longer paths first.
 */
export function cookieHeaderFor(url: string, cookies: readonly Cookie[], nowSeconds: number): string | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const host = `.${target.hostname}`;
  const loopback = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(target.hostname);
  const seen = new Set<string>();
  const matching = cookies
    .filter((c) => (c.domain.startsWith('.') ? host.endsWith(c.domain) : c.domain === target.hostname))
    .filter((c) => pathMatches(target.pathname, c.path || '/'))
    .filter((c) => !c.secure || target.protocol === 'https:' || loopback)
    .filter((c) => c.expires === -1 || c.expires > nowSeconds)
    .sort((a, b) => b.path.length - a.path.length)
    .filter((c) => {
      // The same cookie read from two contexts (or twice) is sent once.
      const key = `${c.name}\u0000${c.domain}\u0000${c.path}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
}

/** RFC 6265's path-match: `/app` matches `/app` and `/app/x`, not `/apple`. */
function pathMatches(path: string, cookiePath: string): boolean {
  return path === cookiePath || path.startsWith(cookiePath.endsWith('/') ? cookiePath : `${cookiePath}/`);
}
