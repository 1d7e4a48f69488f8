/**
 * The parts of an error that stay the same when the same bug happens again with other data or in another build:
 * a message with its data replaced by placeholders (the way Sentry parameterises messages), and a file name
 * without its origin, query or bundle hash. Pure; src/run/fingerprint.ts hashes what these return.
 */

const MAX_MESSAGE = 400;
const TRUNCATED = / …\[truncated, \d+ chars\]$/;

// Order matters: the wider shapes (URLs, dates, UUIDs) go before the numbers they contain.
const URL_PATTERN = /\b(?:https?|wss?|file):\/\/[^\s'"`()<>\]]+|\b(?:data|blob):[^\s'"`()<>\]]+/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const ISO_DATE = /\b\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?\b/g;
const CLOCK = /\b\d\d?:\d\d(?::\d\d(?:\.\d+)?)?\b/g;
const HEX_LITERAL = /\b0x[0-9a-f]+\b/gi;
// A long run of hex digits with at least one digit and one letter, or 16+ hex digits: a hash or an object id.
const HASH = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b|\b[0-9a-f]{16,}\b/gi;
// A number standing on its own (`3310`, `-2.5`, `3000ms`), not one inside a name (`h1`, `utf8`, `v2`).
const NUMBER = /(?<![\w.])-?\d+(?:[.,]\d+)*(?!\d)/g;
// 'value', "value", and the typographic quotes some libraries use; `backticks` name code (React's components) and stay.
const QUOTED = /'(?:[^'\\\n]|\\.){0,200}'|"(?:[^"\\\n]|\\.){0,200}"|‘[^’\n]{0,200}’|“[^”\n]{0,200}”/g;
// V8's property messages quote the property: a name of code, not data, so it tells two bugs on one line apart.
const PROPERTY_QUOTE = /\((reading|setting) '([^'\n]{1,100})'\)/g;

/**
 * The message with its data replaced: URLs keep their host and path shape (ids, query and fragment go), and
 * numbers, hex, UUIDs, hashes, dates and quoted values become `<n>`, `<hex>`, `<uuid>`, `<hash>`, `<date>` and
 * `<str>`. Only the first line counts (a logged Error may carry its stack in the message), cut to 400 characters.
 */
export function normalizeMessage(message: string): string {
  let text = (message.replace(TRUNCATED, '').split(/\r?\n/).find((line) => line.trim() !== '') ?? '').trim();
  // Chromium prefixes uncaught errors ("Uncaught TypeError: …"), Firefox and WebKit do not.
  text = text.replace(/^Uncaught (?:\(in promise\) )?/, '');
  if (text.length > MAX_MESSAGE) text = text.slice(0, MAX_MESSAGE);
  const properties: string[] = [];
  text = text.replace(PROPERTY_QUOTE, (_m, verb: string, name: string) => {
    properties.push(name);
    return `(${verb} \u0002)`;
  });
  text = text.replace(URL_PATTERN, (url) => `\u0001${normalizeUrl(url)}\u0001`);
  text = text.replace(QUOTED, '<str>');
  text = replaceOutsideUrls(text, (part) =>
    part.replace(UUID, '<uuid>').replace(ISO_DATE, '<date>').replace(CLOCK, '<time>').replace(HEX_LITERAL, '<hex>').replace(HASH, '<hash>').replace(NUMBER, '<n>'),
  );
  return text
    .replace(/\u0001/g, '')
    .replace(/\u0002/g, () => `'${properties.shift() ?? ''}'`)
    .replace(/\s+/g, ' ');
}

function replaceOutsideUrls(text: string, replace: (part: string) => string): string {
  return text
    .split('\u0001')
    .map((part, i) => (i % 2 === 1 ? part : replace(part)))
    .join('\u0001');
}

/**
 * A URL as it stays across runs: scheme and host without the port (test servers take a free one), path segments
 * that are ids or hashes as `<id>`, a bundle hash out of the file name, no query or fragment. `data:` and `blob:`
 * URLs keep only their kind.
 */
export function normalizeUrl(url: string): string {
  if (/^data:/i.test(url)) return `data:${/^data:([^;,]*)/i.exec(url)?.[1] ?? ''}`;
  if (/^blob:/i.test(url)) return 'blob:';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.split(/[?#]/, 1)[0]!;
  }
  const segments = parsed.pathname.split('/').map((segment, i, all) => (i === all.length - 1 ? normalizeFileName(segment) : normalizeSegment(segment)));
  const host = parsed.protocol === 'file:' ? '' : parsed.hostname;
  return `${parsed.protocol}//${host}${segments.join('/')}`;
}

function normalizeSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Kept as it is.
  }
  if (/^\d+$/.test(decoded) || /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(decoded) || isHashLike(decoded)) return '<id>';
  return segment;
}

/** `app.91d2e0.js`, `app-4c7b13.js`, `index-DiwrgTda.js` and `chunk.3f2a.min.js` lose their hash; `app.js` is `app.js`. */
export function normalizeFileName(name: string): string {
  if (!name) return name;
  const segment = normalizeSegment(name);
  if (segment === '<id>') return segment;
  const parts = name.split(/([.-])/);
  // parts alternate name, separator, name…: the first name part is never a hash.
  for (let i = 2; i < parts.length; i += 2) {
    if (isHashLike(parts[i]!)) {
      parts[i] = '';
      parts[i - 1] = '';
    }
  }
  return parts.join('').replace(/^[.-]+|[.-]+(?=\.)/g, '');
}

/** A bundler's content hash: hex with a digit (6+), or an 8-character base64url word with digits or capitals that is not a plain word. */
function isHashLike(word: string): boolean {
  if (/^(?=.*\d)[0-9a-f]{6,}$/i.test(word) && !/^\d+$/.test(word)) return true;
  // Vite and Rollup: 8 base64url characters; a plain word (`settings`, `Settings`) is not one.
  if (/^[A-Za-z0-9_]{8}$/.test(word)) return !/^[A-Z]?[a-z]+$/.test(word) && /[\dA-Z]/.test(word);
  return false;
}

/** A source path as it stays across builds: a URL normalised, a bundler's prefix (`webpack://app/./`) and hash out. */
export function normalizeSource(source: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !/^webpack:|^vite:|^ng:/i.test(source)) return normalizeUrl(source);
  const clean = source
    .split(/[?#]/, 1)[0]!
    .replace(/^(?:webpack|vite|ng):\/\/[^/]*\//i, '')
    .replace(/\\/g, '/')
    .replace(/^(?:\.\.?\/)+/, '');
  const at = clean.lastIndexOf('/');
  return clean.slice(0, at + 1) + normalizeFileName(clean.slice(at + 1));
}
