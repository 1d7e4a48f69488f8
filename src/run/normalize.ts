/**
 * The parts of an error that stay the same when the same bug happens again with other data or in another build:
 * a message with its data replaced by placeholders (the way Sentry parameterises messages), and a file name
 * without its origin, query or bundle hash. Pure; src/run/fingerprint.ts hashes what these return.
 */

import { headline } from '../model/headline';
import { isContentHash, readsAsName } from '../model/content-hash';
import { normalizeFileName, normalizeSegment } from '../model/file-name';

export { hasContentHash, normalizeFileName } from '../model/file-name';

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
// A CSP source expression: the page's nonce is fresh on every response, a hash names the blocked code's bytes.
const CSP_SOURCE = /\b(nonce|sha256|sha384|sha512)-[A-Za-z0-9+/_-]+=*/g;
// A word of base64 or base64url characters: a token when it mixes capitals, small letters and digits and reads as no name.
const TOKEN = /(?<![\w+/=-])[A-Za-z0-9+/_-]{8,}={0,2}(?![\w+/=-])/g;

/**
 * The message with its data replaced: URLs keep their host and path shape (port, ids, query and fragment go), and
 * numbers, hex, UUIDs, hashes, dates, quoted values, CSP nonces and hashes, and random tokens (`Ll2mt1AjuaUVD7yK`)
 * become `<n>`, `<hex>`, `<uuid>`, `<hash>`, `<date>`, `<str>`, `nonce-<value>` and `<token>`. Only the headline
 * counts (a logged Error may carry its stack in the message; a first line ending at a colon takes the next one),
 * cut to 400 characters.
 */
export function normalizeMessage(message: string): string {
  let text = headline(message.replace(TRUNCATED, ''));
  // Chromium prefixes uncaught errors ("Uncaught TypeError: …"), Firefox and WebKit do not.
  text = text.replace(/^Uncaught (?:\(in promise\) )?/, '');
  if (text.length > MAX_MESSAGE) text = text.slice(0, MAX_MESSAGE);
  const properties: string[] = [];
  text = text.replace(PROPERTY_QUOTE, (_m, verb: string, name: string) => {
    properties.push(name);
    return `(${verb} \u0002)`;
  });
  text = text.replace(URL_PATTERN, (url) => `\u0001${normalizeUrl(url)}\u0001`);
  // Before quoted values: a nonce sits inside a quoted directive (`'script-src 'nonce-…''`) that QUOTED cuts apart.
  text = replaceOutsideUrls(text, (part) => part.replace(CSP_SOURCE, '$1-<value>'));
  text = text.replace(QUOTED, '<str>');
  text = replaceOutsideUrls(text, (part) =>
    part
      .replace(UUID, '<uuid>')
      .replace(ISO_DATE, '<date>')
      .replace(CLOCK, '<time>')
      .replace(HEX_LITERAL, '<hex>')
      // Before HASH: a hex run inside a base64 token (between its `+` and `/`) must not cut the token apart.
      .replace(TOKEN, (word) => (isRandomToken(word) ? '<token>' : word))
      .replace(HASH, '<hash>')
      .replace(NUMBER, '<n>'),
  );
  return text
    .replace(/\u0001/g, '')
    .replace(/\u0002/g, () => `'${properties.shift() ?? ''}'`)
    .replace(/\s+/g, ' ');
}

/**
 * A session id, nonce or key (`Ll2mt1AjuaUVD7yK`, `pCQTeX9T`): capitals, small letters and digits (16 characters
 * may lack digits: a random one often does), and not code's words. Measured on 50,000 random nonces of 12 bytes
 * (16 characters), about 1 in 400 reads as code and stays; of 4,711 mixed-case names of TypeScript's DOM and ES
 * declarations, 186 (`AvcEncoderConfig`, `RTCDtlsTransport`) would be replaced if they stood unquoted in a message.
 */
function isRandomToken(word: string): boolean {
  if (!/[a-z]/.test(word) || !/[A-Z]/.test(word) || (!/\d/.test(word) && word.length < 16)) return false;
  return !readsAsCode(word);
}

/** Names with versions and acronyms: `useState2`, `ES2015-compatible`, `utf8Decoder`, `H264`, `XMLHttpRequest`. */
function readsAsCode(word: string): boolean {
  return word
    .replace(/=+$/, '')
    .split(/[-_+/]/)
    .every((piece) => {
      if (piece === '' || /^[A-Z]{0,5}\d*[A-Z]{0,5}$/.test(piece)) return true;
      // A version follows a name (`vue3`, `OAuth2Client`); a piece that starts with digits is random.
      if (/^\d/.test(piece)) return false;
      return piece.split(/\d+/).every((part) => part === '' || /^[A-Z]{1,5}$/.test(part) || readsAsName(part));
    });
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
  const local = parsed.protocol === 'file:';
  const path = local ? pathInsideApp(parsed.pathname) : parsed.pathname;
  const segments = path.split('/').map((segment, i, all) => (i === all.length - 1 ? normalizeFileName(segment) : normalizeSegment(segment)));
  const host = local ? '' : parsed.hostname;
  return `${parsed.protocol}//${host}${segments.join('/')}`;
}

/**
 * A file's path as it stays when the same app is built or checked out elsewhere: from its last `node_modules`
 * (the package is the identity), else after the last folder that a run or a machine named at random
 * (`rr-vite-5-template-4m0q2ctb5b8`, `tmp-1234-aB3xYz`, a UUID), so that a suite that builds each fixture in a fresh
 * temporary folder gives the same place every run. Other paths stay whole. `/` separated, with its leading `/`.
 */
export function pathInsideApp(path: string): string {
  const segments = path.replace(/\\/g, '/').split('/');
  const modules = segments.lastIndexOf('node_modules');
  // Neither the file name itself nor the root counts as a folder.
  let cut = modules > 0 ? modules - 1 : -1;
  if (cut < 0) for (let i = segments.length - 2; i > 0; i--) if (isPerRunFolder(segments[i]!)) { cut = i; break; }
  return cut < 0 ? path : `/${segments.slice(cut + 1).join('/')}`;
}

/**
 * A folder named for one run: a UUID, or a name whose last `-`, `_` or `.` piece is random: 4 or more digits (a pid
 * or a time), a content hash, or 6 to 16 letters and digits that read as no name (Node's `mkdtemp` adds 6 such
 * characters, `Math.random().toString(32)` about 11, without a digit about once in 60). A name cut wrongly only
 * loses its machine's prefix.
 */
export function isPerRunFolder(segment: string): boolean {
  if (/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.test(segment)) return true;
  const pieces = segment.split(/[-_.]/);
  const last = pieces[pieces.length - 1] ?? '';
  if (pieces.length === 1 && !/\d/.test(last)) return false;
  if (/^\d{4,}$/.test(last)) return true;
  if (/^[0-9a-f]{6,}$/i.test(last) && isContentHash(last)) return true;
  if (!/^[A-Za-z0-9]{6,16}$/.test(last) || !/[A-Za-z]/.test(last)) return false;
  // `react19`, `v20`, `node20x`: a name with a version, not a random one.
  if (/^v?\d+(?:[a-z]+\d*)?$/i.test(last) || /^[a-z]+\d{1,3}$/i.test(last)) return false;
  return !readsAsName(last);
}


/** A source path as it stays across builds: a URL normalised, a bundler's prefix (`webpack://app/./`) and hash out. */
export function normalizeSource(source: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !/^webpack:|^vite:|^ng:/i.test(source)) return normalizeUrl(source);
  let clean = source
    .split(/[?#]/, 1)[0]!
    .replace(/^(?:webpack|vite|ng):\/\/[^/]*\//i, '')
    .replace(/\\/g, '/')
    .replace(/^(?:\.\.?\/)+/, '');
  // An absolute path (a server build's map, a Node stack): where it sits inside the app, not on this machine.
  if (clean.startsWith('/')) {
    const inside = pathInsideApp(clean);
    if (inside !== clean) clean = inside.slice(1);
  }
  const at = clean.lastIndexOf('/');
  return clean.slice(0, at + 1) + normalizeFileName(clean.slice(at + 1));
}
