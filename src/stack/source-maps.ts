import type { UnmappedCause } from '../model/schema';
import type { Fetcher, FetchResult } from './fetch-result';
import { LruCache } from './lru';
import { decodeDataUrl, findSourceMappingUrl, resolveMapUrl } from './map-url';
import { parseSourceMap, SourceMapParseError, type LoadedSourceMap } from './source-map';
import { TextLines } from './text-lines';

/** A script a frame points at, with its source map when one could be loaded. */
export interface ScriptInfo {
  url: string;
  /** The generated code: a code frame when there is no map, and where function names are looked up. */
  lines?: TextLines | undefined;
  map?: LoadedSourceMap | undefined;
  /** Why the script's frames stay unmapped. */
  reason?: string | undefined;
  /** true when the reason is a failure (404, malformed, too slow), not just a script without a map. */
  failed?: boolean | undefined;
  /** Why its frames cannot be mapped, for the run's index; absent for a mapped script or an inline HTML script. */
  cause?: UnmappedCause | undefined;
  /** The source map's URL as resolved, when the script names one. */
  mapUrl?: string | undefined;
  /** A script with no map whose code is minified (a line of 500 characters or more): a build's output. */
  minified?: boolean | undefined;
  /** Failed before any server answered (refused, unknown host): not kept, the next test tries again. */
  transient?: boolean | undefined;
  /** Characters held: the script and its map's text; what the cache budget counts. */
  bytes?: number | undefined;
}

/** Decoding cost grows with the mappings: past this a map is reported as too large instead of stalling the test. */
export const MAX_MAPPINGS_CHARS = 4 * 1024 * 1024;

type Cached = Promise<ScriptInfo>;

/**
 * One cache per worker process, for the whole run: each script and map is fetched once, however many tests fail in
 * it, and a test's frames map the same way whichever test of the worker ran first. What a server answered (the
 * script and its map, a 404, a malformed map, a timeout) is kept for the run; only a request that failed before any
 * answer is tried again by the next test. A dev server that rebuilds a script under the same URL during the run is
 * not asked again: Vite and webpack give a changed module a new URL (`?t=`, a content hash), and a test run that
 * edits the app's sources as it goes is not a case daebug maps for.
 */
const shared = new LruCache<Cached>(50, 20 * 1024 * 1024);

/** The cache's settled answers, for `needsFetch`: a promise's value cannot be read synchronously. */
const answers = new WeakMap<Cached, ScriptInfo>();

/**
 * Whether mapping a frame of `url` may still fetch something in this worker: its script is not in the cache (or is on
 * its way), or its map lacks the text of some of its sources, which are fetched one by one as frames need them. The
 * fixture reads a closing context's cookies for the fetcher only then: after a worker's first tests the app's
 * scripts are cached, and that read was a round trip to the browser at the end of every test (issue 25).
 */
export function needsFetch(url: string, cache: LruCache<Cached> = shared): boolean {
  const pending = cache.peek(`script:${withoutHash(url)}`);
  const info = pending && answers.get(pending);
  if (!info) return true;
  const loaded = info.map;
  return loaded !== undefined && !loaded.map.payload.sources.every((source) => loaded.contents.has(source));
}

/** Loads scripts, their source maps and original sources by URL, through a bounded per-process cache. */
export class SourceMaps {
  /** How many fetches this instance started (not answered from the cache). */
  fetches = 0;

  constructor(
    private readonly fetcher: Fetcher,
    private readonly cache: LruCache<Cached> = shared,
  ) {}

  /** `needsFetch` against this instance's own cache (the shared one unless it was given another). */
  needsFetch(url: string): boolean {
    return needsFetch(url, this.cache);
  }

  script(url: string): Promise<ScriptInfo> {
    return this.cached(`script:${withoutHash(url)}`, () => this.loadScript(withoutHash(url)));
  }

  /** An original source's text, for maps without `sourcesContent`. */
  async source(url: string): Promise<TextLines | undefined> {
    const info = await this.cached(`source:${url}`, async () => {
      const result = await this.fetch(url);
      return result.ok ? { url, lines: new TextLines(result.text) } : { url, reason: result.reason, failed: true, transient: result.inTransit };
    });
    return info.lines;
  }

  private cached(key: string, load: () => Promise<ScriptInfo>): Cached {
    const hit = this.cache.get(key);
    if (hit) return hit;
    // A fetcher is not supposed to throw; if one does, the frames stay unmapped with its message.
    const pending = load().catch((error: unknown): ScriptInfo => ({ url: key, reason: `request failed: ${error instanceof Error ? error.message : String(error)}`, failed: true, transient: true }));
    this.cache.set(key, pending);
    void pending.then((info) => {
      answers.set(pending, info);
      // A request that failed before any answer (the server restarting) may work for the next test; a 404 or a timeout will not.
      if (info.transient) this.cache.delete(key, pending);
      else this.cache.resize(key, pending, info.bytes ?? info.lines?.text.length ?? 0);
    });
    return pending;
  }

  private fetch(url: string) {
    this.fetches++;
    return this.fetcher(url);
  }

  private async loadScript(url: string): Promise<ScriptInfo> {
    const script = await this.fetch(url);
    if (!script.ok) return { url, reason: `script could not be read: ${script.reason}`, failed: true, cause: 'script-unreadable', transient: script.inTransit };
    const lines = new TextLines(script.text);
    if (/html/i.test(script.contentType) || /^\s*<(!doctype|html|head|body|script)\b/i.test(script.text.slice(0, 200))) {
      return { url, lines, reason: 'inline script in an HTML page' };
    }
    const reference = script.sourceMapHeader ?? findSourceMappingUrl(script.text);
    if (!reference) return { url, lines, reason: 'the script has no sourceMappingURL', cause: 'no-source-map', minified: hasLongLine(script.text, MINIFIED_LINE) };
    let mapText = decodeDataUrl(reference);
    let mapUrl = url;
    let label = 'inline source map';
    if (mapText === undefined) {
      const resolved = resolveMapUrl(reference, url);
      if (!resolved) return { url, lines, reason: `sourceMappingURL ${reference} is not a valid URL`, failed: true, cause: 'map-unreadable', mapUrl: reference };
      mapUrl = resolved;
      label = `source map ${resolved}`;
      const map = await this.fetch(resolved);
      if (!map.ok) return { url, lines, reason: `${label}: ${map.reason}`, failed: true, cause: mapFailureCause(map), mapUrl, transient: map.inTransit };
      mapText = map.text;
    }
    const shownMap = mapUrl === url ? undefined : mapUrl;
    const bytes = script.text.length + mapText.length;
    const mappings = /"mappings"\s*:\s*"([^"]*)"/.exec(mapText)?.[1]?.length ?? 0;
    if (mappings > MAX_MAPPINGS_CHARS) {
      return { url, lines, reason: `${label} is too large to decode (${(mappings / 1024 / 1024).toFixed(1)} MB of mappings)`, failed: true, cause: 'map-unreadable', mapUrl: shownMap };
    }
    try {
      return { url, lines, map: parseSourceMap(mapText, mapUrl), bytes };
    } catch (error) {
      const reason = error instanceof SourceMapParseError ? error.message : String(error);
      return { url, lines, reason: `${label} is malformed: ${reason}`, failed: true, cause: 'map-malformed', mapUrl: shownMap };
    }
  }
}

/** A minified bundle puts whole modules on one line; hand-written code and unminified bundles do not. */
const MINIFIED_LINE = 500;

/** The map is not there (404, 410, no such file) or could not be had for another reason (403, 500, timeout, size). */
function mapFailureCause(result: Extract<FetchResult, { ok: false }>): UnmappedCause {
  return result.status === 404 || result.status === 410 ? 'map-not-found' : 'map-unreadable';
}

/** Whether some line of `text` has at least `length` characters; one pass, without splitting a large bundle. */
export function hasLongLine(text: string, length: number): boolean {
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if ((end === -1 ? text.length : end) - start >= length) return true;
    if (end === -1) return false;
    start = end + 1;
  }
}

function withoutHash(url: string): string {
  const at = url.indexOf('#');
  return at === -1 ? url : url.slice(0, at);
}

/** Empties the per-process cache (tests only). */
export function clearSourceMapCache(): void {
  shared.clear();
}
