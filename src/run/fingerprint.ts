import { createHash } from 'node:crypto';
import { isUnexpectedKind, UNCAUGHT_SOURCES } from '../model/classify';
import type { DaebugEvent, Frame } from '../model/schema';
import { browserDefaultPlace } from '../model/default-place';
import { firstUnmappedBuildFrame, firstUserFrame } from '../stack/first-user-frame';
import { isUserSource } from '../stack/user-code';
import { hasContentHash, normalizeMessage, normalizeSource, normalizeUrl } from './normalize';

/** Where a group of errors comes from: the app's code, another origin's scripts only, or the browser itself. */
export type ErrorOrigin = 'app' | 'third-party' | 'browser';

/** The event fields a fingerprint is made of. */
export type Fingerprintable = Pick<DaebugEvent, 'type' | 'source' | 'message' | 'frames' | 'location' | 'network' | 'level'>;

const LIFECYCLE = new Set(['navigation', 'worker.start', 'worker.close']);
const WARNING_SOURCES = new Set(['console.warn', 'console.assert']);

/**
 * Whether an event is a problem a run can group: thrown errors, rejections, crashes, console.error, console.warn
 * and failed assertions, failed requests and the browser's own error lines. Plain console output is not.
 */
export function isFingerprinted(event: Pick<DaebugEvent, 'type' | 'source' | 'level'>): boolean {
  if (LIFECYCLE.has(event.source)) return false;
  if (event.type === 'error' || isUnexpectedKind(event as Fingerprintable) || WARNING_SOURCES.has(event.source) || event.source === 'network') return true;
  return event.source.startsWith('browser.') && (event.level === 'error' || event.level === 'warn' || event.level === 'warning');
}

/**
 * The kind part of a fingerprint: an uncaught error is `uncaught` whichever way the browser reported it
 * (`window.onerror` in Chromium, `pageerror` in Firefox and WebKit, `self.onerror` in a worker).
 */
export function errorKind(source: string): string {
  return UNCAUGHT_SOURCES.has(source) && source !== 'unhandledrejection' ? 'uncaught' : source;
}

/**
 * The first user frame's hash-free file and function, or the first library frame's package: what a fingerprint keeps
 * of where. A frame of a build's output that no map explained keeps its folder and hash-free name, and of its
 * function only what a minifier did not rename (see `keptFunctionName`).
 */
export function stablePlace(frames: readonly Frame[] | undefined): { file: string; functionName: string } | { library: string } | undefined {
  const user = firstUserFrame(frames) ?? firstUnmappedBuildFrame(frames);
  if (user) {
    const file = user.original?.source ? normalizeSource(user.original.source) : normalizeUrl(user.url);
    return { file, functionName: user.original?.functionName ?? keptFunctionName(user.functionName, user.url) };
  }
  const library = frames?.find((frame) => frame.library !== undefined)?.library;
  return library ? { library } : undefined;
}

/**
 * The function name of a frame as it stays across builds. In a file named by its content hash (a production build's
 * chunk), a name of one or two characters (`t`, `Xe`, `$e`) is a minifier's, and the next build may give the same
 * function another: such names, and such parts of `Object.t` or `Xe.render [as t]`, are left out. Elsewhere the
 * name is kept whole: `f` in a hand-written `app.js` is the developer's.
 */
export function keptFunctionName(functionName: string | undefined, url: string): string {
  if (!functionName || !hasContentHash(fileNameOf(url))) return functionName ?? '';
  const alias = /\s*\[as ([^\]]*)\]$/.exec(functionName);
  const parts = functionName
    .slice(0, alias ? alias.index : undefined)
    .replace(/^new\s+/, '')
    .split('.')
    .filter((part) => !isMinifiedName(part));
  if (alias?.[1] && !isMinifiedName(alias[1])) parts.push(`[as ${alias[1]}]`);
  return parts.join('.').replace(/\.\[as /, ' [as ');
}

function isMinifiedName(name: string): boolean {
  return /^[\p{L}_$][\p{L}\p{N}_$]?$/u.test(name);
}

function fileNameOf(url: string): string {
  const path = url.split(/[?#]/, 1)[0]!;
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * What the fingerprint says about where the error is: the first user frame's original file (hash-free) and
 * function; without one, the first library frame's package; without frames, nothing.
 */
export function fingerprintWhere(frames: readonly Frame[] | undefined): string {
  const place = stablePlace(frames);
  if (!place) return '';
  return 'library' in place ? `lib:${place.library}` : `${place.file} ${place.functionName}`.trim();
}

/** The same place for people: `src/cart.ts in addItem`, `in library react-dom`. */
export function stableWhere(frames: readonly Frame[] | undefined): string | undefined {
  const place = stablePlace(frames);
  if (!place) return undefined;
  return 'library' in place ? `in library ${place.library}` : `${place.file}${place.functionName ? ` in ${place.functionName}` : ''}`;
}

/**
 * A short stable hash (12 hex digits) of the error's kind, its normalised message and its first user frame's
 * file and function (no line or column). A failed request adds its method, URL shape and status instead of a
 * frame. The same error from two tests, builds or shards gets the same fingerprint; two errors thrown on one
 * line with different messages do not.
 */
export function fingerprintOf(event: Fingerprintable): string {
  const parts = [errorKind(event.source), normalizeMessage(event.message)];
  if (event.network) {
    parts.push(event.network.method, normalizeUrl(event.network.url), String(event.network.status ?? event.network.errorText ?? ''));
  } else {
    parts.push(fingerprintWhere(event.frames?.length ? event.frames : defaultPlaceFrame(event)));
  }
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 12);
}

/**
 * The frame enrichment made of an error's browser-given place before daebug knew the browser's default place
 * (line 1 of the realm's main script) is no line to fix: enrichment now leaves it out of `frames`, and the
 * fingerprint puts it back, so that a baseline written before still knows the error.
 */
function defaultPlaceFrame(event: Fingerprintable): Frame[] | undefined {
  const at = browserDefaultPlace(event);
  return at ? [{ url: at.url, line: at.line, column: at.column, userCode: isUserSource(at.url) }] : undefined;
}

/**
 * `browser` for the browser's own lines, `third-party` when every URL the error names (its frames, its
 * location, a failed request's URL) is of another origin than the test's pages, else `app`.
 */
export function originOf(event: Fingerprintable, pageOrigins: ReadonlySet<string>): ErrorOrigin {
  if (event.source.startsWith('browser.') || event.source === 'page.crash') return 'browser';
  if (!pageOrigins.size) return 'app';
  const urls = [event.network?.url, ...(event.frames ?? []).map((frame) => frame.url), event.location?.url].filter((url): url is string => !!url);
  const origins = urls.map(webOrigin).filter((origin): origin is string => origin !== undefined);
  if (!origins.length) return 'app';
  return origins.every((origin) => !pageOrigins.has(origin)) ? 'third-party' : 'app';
}

/** The origins of the pages a test navigated (its `navigation` events): what `originOf` measures third parties against. */
export function pageOriginsOf(events: readonly Pick<DaebugEvent, 'source' | 'message'>[]): Set<string> {
  const origins = new Set<string>();
  for (const event of events) {
    if (event.source !== 'navigation') continue;
    const origin = webOrigin(event.message);
    if (origin) origins.add(origin);
  }
  return origins;
}

/** `https://host:port` of an http(s) URL; undefined for anything else (inline scripts, `data:`, extensions). */
export function webOrigin(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
