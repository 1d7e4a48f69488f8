import { SourceMap, type SourceMapPayload } from 'node:module';
import { TextLines } from './text-lines';

/** A parsed source map, ready for position lookups. */
export interface LoadedSourceMap {
  /** Where the map came from: its URL, or the script's URL for an inline `data:` map. */
  url: string;
  map: SourceMap;
  /** Original text by source as the map names it, from `sourcesContent`. */
  contents: Map<string, TextLines>;
  /** The map's `sourceRoot`, applied when a source is shown or fetched. */
  sourceRoot: string;
  /** Sources the map marks as library code (ECMA-426 `ignoreList`, or the older `x_google_ignoreList`). */
  ignored: ReadonlySet<string>;
}

export interface OriginalPosition {
  /** The source as the map names it (before `sourceRoot`). */
  source: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** Thrown by parseSourceMap with a short reason that the report shows next to the unmapped frame. */
export class SourceMapParseError extends Error {
  override name = 'SourceMapParseError';
}

/**
 * Parses a v3 source map (plain or with `sections`). Uses Node's built-in `module.SourceMap`: it is synchronous,
 * keeps no global state, and decodes index maps; `sourceRoot` and `sourcesContent` are read here because it ignores them.
 */
export function parseSourceMap(text: string, url: string): LoadedSourceMap {
  let payload: SourceMapPayload & { sections?: Array<{ map?: SourceMapPayload }> };
  try {
    // Some servers prefix JSON with an XSSI guard, which the spec allows.
    payload = JSON.parse(text.replace(/^\)\]\}'[^\n]*\n/, ''));
  } catch (error) {
    // V8 quotes the start of the text in its message; the reason names the problem, not the page's content.
    throw new SourceMapParseError(`not valid JSON (${(error as Error).message.replace(/,? *"[^"]*"(?:\.\.\.)?/g, '')})`);
  }
  if (!payload || typeof payload !== 'object') throw new SourceMapParseError('not a JSON object');
  const parts = Array.isArray(payload.sections) ? payload.sections.map((s) => s.map) : [payload];
  const contents = new Map<string, TextLines>();
  const ignored = new Set<string>();
  for (const part of parts) {
    if (!part || !Array.isArray(part.sources) || typeof part.mappings !== 'string') throw new SourceMapParseError('no "sources" array or "mappings" string');
    part.sources.forEach((source, i) => {
      const content = part.sourcesContent?.[i];
      if (typeof source === 'string' && typeof content === 'string') contents.set(source, new TextLines(content));
    });
    for (const index of ignoreListOf(part)) {
      const source = part.sources[index];
      if (typeof source === 'string') ignored.add(source);
    }
  }
  let map: SourceMap;
  try {
    map = new SourceMap(payload);
  } catch (error) {
    throw new SourceMapParseError(`could not be decoded (${(error as Error).message})`);
  }
  return { url, map, contents, sourceRoot: typeof payload.sourceRoot === 'string' ? payload.sourceRoot : '', ignored };
}

/** The indices a map part lists as library code; a map with both lists is read by the standard one. */
function ignoreListOf(part: object): number[] {
  const record = part as { ignoreList?: unknown; x_google_ignoreList?: unknown };
  const list = Array.isArray(record.ignoreList) ? record.ignoreList : Array.isArray(record.x_google_ignoreList) ? record.x_google_ignoreList : [];
  return list.filter((index): index is number => Number.isInteger(index) && index >= 0);
}

/** Maps a 1-based generated position; undefined when the map has nothing on that line. */
export function originalPosition(loaded: LoadedSourceMap, line: number, column: number): (OriginalPosition & { name?: string | undefined }) | undefined {
  const entry = loaded.map.findEntry(line - 1, Math.max(0, column - 1)) as Partial<{ generatedLine: number; originalSource: string; originalLine: number; originalColumn: number; name: string }>;
  // findEntry answers with the nearest earlier mapping even from another line; that would point at the wrong code.
  if (entry.generatedLine !== line - 1 || typeof entry.originalSource !== 'string' || entry.originalLine === undefined || entry.originalColumn === undefined) return undefined;
  return { source: entry.originalSource, line: entry.originalLine + 1, column: entry.originalColumn + 1, name: entry.name };
}

/** The exact mapping at a 1-based generated position, if one starts there. */
export function mappingAt(loaded: LoadedSourceMap, line: number, column: number): { name?: string | undefined } | undefined {
  const entry = loaded.map.findEntry(line - 1, column - 1) as Partial<{ generatedLine: number; generatedColumn: number; name: string }>;
  if (entry.generatedLine !== line - 1 || entry.generatedColumn !== column - 1) return undefined;
  return { name: entry.name };
}

/** The URL a source resolves to, for fetching it when the map has no `sourcesContent`. */
export function sourceUrl(loaded: LoadedSourceMap, source: string): string | undefined {
  const root = loaded.sourceRoot && !/\/$/.test(loaded.sourceRoot) ? `${loaded.sourceRoot}/` : loaded.sourceRoot;
  try {
    return new URL(root + source, loaded.url.startsWith('data:') ? undefined : loaded.url).href;
  } catch {
    return undefined;
  }
}

/**
 * How a source is shown in reports: the path a developer edits. Bundler prefixes (`webpack://app/`, `vite:///`)
 * and leading `./` and `../` go, so esbuild's `../src/cart.ts` becomes `src/cart.ts`. A bare file name takes its
 * folder from the map's URL (`mapUrl`, the script's own for an inline map): Vite's dev server maps
 * `/src/components/Cart.tsx` to `Cart.tsx`, and two `index.tsx` of different folders must not read the same.
 */
export function displaySource(source: string, sourceRoot = '', mapUrl?: string): string {
  let text = /^[a-z][\w+.-]*:/i.test(source) ? source : `${sourceRoot && !/^(\.\/)?$/.test(sourceRoot) ? sourceRoot.replace(/\/?$/, '/') : ''}${source}`;
  if (mapUrl && /^https?:\/\//i.test(mapUrl) && /^(\.\/)?[^/:]+$/.test(text)) {
    try {
      text = new URL(text, mapUrl).href;
    } catch {
      // Shown as the map names it.
    }
  }
  if (/^https?:\/\//i.test(text)) {
    try {
      text = new URL(text).pathname;
    } catch {
      // Shown as written.
    }
  } else if (/^file:\/\//i.test(text)) {
    text = decodeURIComponent(text.replace(/^file:\/\//i, ''));
    return text;
  } else {
    text = text.replace(/^[a-z][\w+.-]*:\/\/[^/]*\//i, '');
  }
  const parts: string[] = [];
  for (const part of text.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/') || source;
}
