/**
 * Where in the app's own sources an event's evidence is written, when no frame of its stack is the app's: a failed
 * request made through a library (axios, Angular's HttpClient, a fetch wrapper behind a promise chain) has only the
 * library's frames, but the app wrote its URL, or the static parts of a templated one, at the call that made it.
 * Pure: the caller hands over the sources it already loaded (the maps' `sourcesContent`, as locate-component.ts).
 */
import { normalizeFileName } from '../model/file-name';
import { isNamedAfter, kebab, type SourceText } from './locate-component';

/** A line of the app's source that holds the evidence: 1-based. */
export interface FoundLine {
  source: string;
  line: number;
}

/** Lines listed at most: more matches than this say little about which one made the request. */
export const FOUND_LISTED = 3;
/** A literal's fixed text shorter than this (`'/'`, `'/api'`) matches too much to name a call. */
const MIN_STATIC = 5;

/** String and template literals on one line: `'/api/x'`, `"/api/x"`, `` `/api/users/${id}` ``. */
const LITERAL = /(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A literal as a pattern for the end of a request URL: its static parts in order, a `${…}` for any run of characters
 * (an id, a base URL), its query left out (the request's is too). Undefined when its fixed path text is too short
 * or names no path (`'/'`, `'GET'`, `'application/json'`).
 */
export function urlPattern(literal: string): RegExp | undefined {
  const path = literal.replace(/[?#].*$/s, '');
  const parts = path.split(/\$\{[^}]*\}/);
  const fixed = parts.join('');
  if (fixed.length < MIN_STATIC || !fixed.includes('/') || /\s/.test(fixed) || !/[A-Za-z0-9]\/|\/[A-Za-z0-9]/.test(fixed)) return undefined;
  // `'/api/users/' + id`: a literal that ends in a slash stands for a path that goes on.
  const tail = path.endsWith('/') ? '[^/?#]+' : '';
  return new RegExp(`${parts.map(escape).join('[^?#]*?')}${tail}$`);
}

/** The request's URL without query or fragment: what the app's literal names. */
function requestPath(url: string): string {
  return url.replace(/[?#].*$/s, '');
}

/**
 * The app's lines whose string or template literal names this request's URL: the full path
 * (`this.http.get('/api/prices.json')`), or the static parts of a templated one (`` `/api/users/${id}` `` for
 * `/api/users/42`). The literal with the most fixed text first (the most specific), then in source order; at most
 * `max`. Empty when none does.
 */
export function linesNamingUrl(url: string, sources: readonly SourceText[], max = FOUND_LISTED): FoundLine[] {
  const target = requestPath(url);
  const found: Array<FoundLine & { weight: number; order: number }> = [];
  for (const { source, text } of sources) {
    const lines = text.split('\n');
    lines.forEach((lineText, index) => {
      if (lineText.length > 2000) return;
      let best = 0;
      for (const match of lineText.matchAll(LITERAL)) {
        const literal = match[2]!;
        const pattern = urlPattern(match[1] === '`' ? literal : literal.replace(/\$\{/g, '$\\{'));
        if (pattern?.test(target)) best = Math.max(best, literal.replace(/\$\{[^}]*\}/g, '').length);
      }
      if (best) found.push({ source, line: index + 1, weight: best, order: found.length });
    });
  }
  return found.length ? heaviest(found, max) : linesNamingFile(target, sources, max);
}

/** A file name worth searching for alone: a name and an extension (`missing-avatar.png`, `logo.svg`), not `a.js`. */
const FILE_NAME = /^[^/\\\s?#'"`]{3,}\.[A-Za-z0-9]{1,8}$/;

/**
 * When no literal names the request's path, the lines whose literal names its file relative to the code
 * (`'./missing-avatar.png'`, `'../img/logo.svg'`) or by its name alone (`src="missing-avatar.png"`, an asset
 * `import` whose URL a bundler gave a hash, `logo-B3kq9XzA.svg`): weaker evidence, so only a fallback, the longest
 * first. Empty when the request's file has no name worth searching for.
 */
function linesNamingFile(path: string, sources: readonly SourceText[], max: number): FoundLine[] {
  let file = path.slice(path.lastIndexOf('/') + 1);
  try {
    file = decodeURIComponent(file);
  } catch {
    // Searched as the URL has it.
  }
  if (!FILE_NAME.test(file)) return [];
  // `logo-B3kq9XzA.svg` is named `logo.svg` in the source that imports it; a name that is only a hash is not searched.
  const unhashed = normalizeFileName(file);
  const names = new Set([file, ...(unhashed.startsWith('<') ? [] : [unhashed])]);
  const stem = (unhashed.startsWith('<') ? file : unhashed).split('.', 1)[0]!;
  const namesFile = (literal: string): boolean => {
    const relative = /^(?:\.{1,2}\/)+/.exec(literal)?.[0] ?? '';
    const rest = literal.slice(relative.length);
    return relative && rest.includes('/') ? path.endsWith(`/${rest}`) : names.has(rest);
  };
  const found: Array<FoundLine & { weight: number; order: number }> = [];
  for (const { source, text } of sources) {
    text.split('\n').forEach((lineText, index) => {
      if (lineText.length > 2000 || !lineText.includes(stem)) return;
      let best = 0;
      for (const match of lineText.matchAll(LITERAL)) {
        const literal = match[2]!.replace(/[?#].*$/s, '');
        if (!literal.includes('${') && namesFile(literal)) best = Math.max(best, literal.replace(/^(?:\.{1,2}\/)+/, '').length);
      }
      if (best) found.push({ source, line: index + 1, weight: best, order: found.length });
    });
  }
  return heaviest(found, max);
}

/** The `max` lines whose literal names the most of the URL, in source order among equals. */
function heaviest(found: Array<FoundLine & { weight: number; order: number }>, max: number): FoundLine[] {
  return found
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .slice(0, max)
    .map(({ source, line }) => ({ source, line }));
}

function escapeName(name: string): string {
  return name.replace(/[$]/g, '\\$');
}


/**
 * Where the app uses the component `name`, for a warning about how it is used (Vue's "Missing required prop",
 * "Invalid prop"): its JSX or template tag (`<UserCard`, `<user-card`) and its render-function call
 * (`h(UserCard,`, `createElement(UserCard`), not its import or declaration. In source order, at most `max`.
 */
export function linesUsingComponent(name: string, sources: readonly SourceText[], max = FOUND_LISTED): FoundLine[] {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return [];
  const n = escapeName(name);
  const dashed = kebab(name);
  const use = new RegExp(`<(?:${n}${dashed !== name ? `|${dashed}` : ''})(?=[\\s/>])|\\b(?:h|createElement|createVNode|jsxs?|_jsxs?)\\(\\s*${n}\\b`);
  const found: FoundLine[] = [];
  for (const { source, text } of sources) {
    text.split('\n').forEach((line, index) => {
      if (found.length < max && line.length <= 2000 && use.test(line)) found.push({ source, line: index + 1 });
    });
  }
  return found;
}

/**
 * The `.map(` calls in the component's own file from its declaration on, for React's missing-`key` warning about it
 * ("Check the render method of `PriceList`"): the list it renders without keys is made there. At most `max`.
 */
export function mapCallsInComponent(declaration: FoundLine, sources: readonly SourceText[], max = FOUND_LISTED): FoundLine[] {
  const file = sources.find((s) => s.source === declaration.source);
  if (!file) return [];
  const found: FoundLine[] = [];
  file.text.split('\n').forEach((line, index) => {
    if (found.length < max && index + 1 >= declaration.line && /\.map\(/.test(line)) found.push({ source: file.source, line: index + 1 });
  });
  return found;
}

/**
 * The new value in Angular's NG0100 ("Previous value: 'loading'. Current value: 'live'. Expression location: …"), as
 * the app's source writes it: `'live'` (a string, any quotes), `42`, `true`, `null`. Undefined for what the message
 * prints but no source can hold (`[object Object]`, `undefined` is kept: it can be assigned).
 */
export function ng0100CurrentValue(message: string): string | undefined {
  const match = /Current value: ('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null|undefined)(?=[.\s]|$)/.exec(message);
  return match?.[1];
}

const TOP_LEVEL_DECLARATION = /^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?:class|function|const|let|var)\b|^@[A-Z]/;

/**
 * The lines of the component's own code: from its decorator (`@Component({ template: … })` stands above the class
 * it declares) through its declaration to the next top-level declaration, or the file's end.
 */
function componentBody(declaration: FoundLine, sources: readonly SourceText[]): Array<{ source: string; line: number; text: string }> {
  const file = sources.find((s) => s.source === declaration.source);
  if (!file) return [];
  const lines = file.text.split('\n');
  let start = declaration.line - 1;
  for (let index = start - 1; index >= 0; index--) {
    if (/^\s*@Component\s*\(/.test(lines[index]!)) {
      start = index;
      break;
    }
    if (TOP_LEVEL_DECLARATION.test(lines[index]!)) break;
  }
  const body: Array<{ source: string; line: number; text: string }> = [];
  for (let index = start; index < lines.length; index++) {
    if (index >= declaration.line && TOP_LEVEL_DECLARATION.test(lines[index]!)) break;
    body.push({ source: file.source, line: index + 1, text: lines[index]! });
  }
  return body;
}

/**
 * Where the component named by Angular's NG0100 sets the value the check found changed: the assignment
 * (`this.status = 'live'`, `status = 'live'`) or a signal's or subject's `.set('live')` / `.next('live')` in the
 * component's own code, from its declaration on. A comparison (`=== 'live'`) is not a place that sets it. In source
 * order, at most `max`; empty when the value cannot be written in source or no line sets it.
 */
export function assignmentsOfValue(declaration: FoundLine, value: string, sources: readonly SourceText[], max = FOUND_LISTED): FoundLine[] {
  const quoted = /^['"]/.test(value) ? value.slice(1, -1) : undefined;
  const literal = quoted !== undefined ? `(['"\`])${escape(quoted)}\\1` : `${escape(value)}(?![\\w$.])`;
  const sets = new RegExp(`(?:(?<![=!<>+\\-*/%&|^?])=(?![=>])|\\.(?:set|next)\\()\\s*${literal}`);
  return componentBody(declaration, sources)
    .filter((l) => l.text.length <= 2000 && sets.test(l.text))
    .slice(0, max)
    .map(({ source, line }) => ({ source, line }));
}

/**
 * The `[innerHTML]` bindings of the component Angular's sanitizer warning comes from ("WARNING: sanitizing HTML
 * stripped some content"): in its inline template, from its declaration on, else in a template file named after it
 * (`stock-ticker.component.html`). At most `max`.
 */
export function innerHtmlBindings(declaration: FoundLine, name: string, sources: readonly SourceText[], max = FOUND_LISTED): FoundLine[] {
  const binding = /\[innerHTML\]|\bbind-innerHTML\b/;
  const inline = componentBody(declaration, sources).filter((l) => binding.test(l.text));
  const found: FoundLine[] = inline.map(({ source, line }) => ({ source, line }));
  if (!found.length) {
    for (const file of sources) {
      if (!/\.html?$/i.test(file.source) || !isNamedAfter(file.source, name)) continue;
      file.text.split('\n').forEach((text, index) => {
        if (binding.test(text)) found.push({ source: file.source, line: index + 1 });
      });
    }
  }
  return found.slice(0, max);
}
