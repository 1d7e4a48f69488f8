import { readingAsOf } from './naming-era';

/**
 * Tells a bundler's content hash from a name a developer wrote, for fingerprints that survive a rebuild
 * (src/run/normalize.ts). Hashes change with every build of the same source: Vite, Rollup and Rolldown write 8
 * base64url characters (`pCQTeX9T`, `e-tR2VKL`, `B_oDGBp9`: `-` and `_` are hash characters), esbuild 8 base32
 * capitals and digits (`ZKN3QFNM`), webpack and Parcel hex digits (`91d2e0`, `3f9a1c22`). Pure.
 *
 * No rule can be exact: `UserCard` and `DiwrgTda` have the same shape. A token reads as a name when it is made of
 * words (lowercase, `PascalCase` or `camelCase`, one acronym at an end) that look like words: a vowel, no `q`
 * without `u`, no consonant pair English does not write, no three vowels or five consonants in a row, no ending
 * of three consonants unless it is one English writes (`-ngs`, `-rst`, `-ght`); a word of a camelCase name begins
 * as English words begin (or as an abbreviation code writes: `Html`, `Xml`), a two-letter one is one English or
 * code writes (`To`, `Id`), an acronym at its end is one code writes (`DOM`, `JSON`, not `YOIK`).
 *
 * Measured on 200,000 random 8-character base64url tokens: about 1 in 900 reads as a name (0.10-0.12 %) (and keeps its place in
 * the fingerprint, so a rebuild splits that file's errors), against 1 in 170 before the camelCase rules (a Vite
 * chunk named `LukiYOIK` or `KVImtyCe`). Of 205 file stems of 8 characters in this repository's node_modules, 13
 * are taken for hashes (`jpeg2000`, `webauthn`, Unicode script tables such as `kxv-Deva`), 9 before; of 435 exported
 * 8-character identifiers, 50 (mostly constants in capitals), 52 before.
 */

/** The hash length of Vite, Rollup, Rolldown and esbuild unless configured: a name of another length is not theirs. */
const BASE64_HASH_LENGTH = 8;

// Letter pairs and runs that English words (and so names in code) do not have, and random letters often do.
const NOT_A_WORD = /q[^u]|[jqvz][bcdfgjkmpqtvwxz]|x[bdfgjkmqrvwxz]|[cdfgkmptw][jqxz]|[aeiou]{3}|[^aeiouy]{5}|[^aeiouy]{2}[^aeiouysthdl]$/i;

/** Acronyms that names in code carry at an end (`APIError`, `ReactDOM`, `toJSON`), as 2 to 4 capitals. */
const ACRONYM = /^(?:ABI|AI|AOT|API|APP|ARIA|AST|AWS|AX|CDN|CI|CJS|CLI|CPU|CRUD|CSS|CSV|DB|DCE|DNS|DOM|DTO|EOF|ESM|FAQ|GL|GPU|GQL|HMR|HSL|HTML|HTTP|ID|IDS|IO|IP|IPC|ISO|JIT|JS|JSON|JSX|JWT|LAB|LRU|LTR|MDX|MCP|MIME|ORM|OK|OS|PDF|PNG|PWA|QR|REST|RGBA?|RPC|RTL|SDK|SEO|SQL|SSE|SSG|SSR|SSO|SVG|TCP|TS|TSX|UI|UID|URI|URL|URLS|UTC|UTF|UUID|VM|VR|WASM|WS|XHR|XML|XR)$/;

/** Two-letter words of a `camelCase` name: English ones and code's (`Id`, `Io`, `Ui`). */
const TWO_LETTER_WORD = /^(?:ad|ai|am|an|as|at|be|by|db|do|go|he|hi|id|if|in|io|is|it|js|me|my|no|of|ok|on|or|os|so|to|ts|ui|up|us|vm|we|ws|xy)$/;

/** Abbreviations code writes as words (`html`, `XmlParser`, `svgIcon`), which no English word begins like. */
const ABBREVIATION = /^(?:cdn|cjs|cli|cms|css|csv|ctx|dnd|dom|gql|gpu|grpc|html?|http|img|jpe?g|js|json|jsx|lib|md|mdx|mjs|msg|nav|npm|pdf|png|pwa|qr|rpc|sdk|sql|src|sse|ssr|ssg|std|str|svg|sw|tmp|ts|tsx|txt|url|vdom|xhr|xml)/;

/** A short lowercase piece that is no abbreviation: letters random text has and abbreviations do not (`qnzy`, `zf`). */
const NOT_AN_ABBREVIATION = /q[^u]|[qvxz][bcdfgjkmpqvwxz]|j[bcdfgjkmpqvxz]|[bcdfgkmptw][jqxz]/;

/** How English words begin when they begin with two consonants (`str`, `fl`, `ch`, `sph`). */
const ONSET = /^(?:b[lr]|c[hlrz]|d[rw]|f[lr]|g[hlnr]|k[hlnr]|m[c]|p[fhlrst]|qu|r[h]|s[chklmnpqtvwz]|t[hrsw]|v[l]|w[hr]|z[h])/;

/**
 * Whether `word` (a file name's part between `.`, `-` separators or the whole stem) is a content hash: hex with a
 * digit (6 or more, not all digits), or 8 base64url characters that do not read as a name.
 */
export function isContentHash(word: string): boolean {
  if (/^[0-9a-f]{6,}$/i.test(word)) return /\d/.test(word) && !/^\d+$/.test(word);
  if (word.length !== BASE64_HASH_LENGTH || !/^[A-Za-z0-9_-]+$/.test(word)) return false;
  return !readsAsTokenName(word, !readingAsOf('before-camel-rules'));
}

/**
 * Whether a token of letters, digits, `-` and `_` reads as a name: every `-`/`_` piece is a word (`settings`,
 * `vendor_2`, `user-api`, `html`) or words in `camelCase`/`PascalCase` with at most one acronym at an end
 * (`UserCard`, `APIError`, `ReactDOM`). A leading `_` is a name's (`_layout`), a leading `-` is not. The looser
 * reading, without the camelCase rules that `isContentHash` adds: words in error messages (`RTCPeerConnection`,
 * src/run/normalize.ts) and folder names are read by it, and their fingerprints do not move.
 */
export function readsAsName(token: string): boolean {
  return readsAsTokenName(token, false);
}

/** `strict`: with the camelCase rules (onsets, two-letter words, acronyms and abbreviations code writes). */
function readsAsTokenName(token: string, strict: boolean): boolean {
  const pieces = token.split(/[-_]/);
  if (pieces[0] === '' && token.startsWith('_')) pieces.shift();
  return pieces.length > 0 && pieces.every((piece, i) => readsAsWordPiece(piece, i === 0, strict));
}

function readsAsWordPiece(piece: string, first: boolean, strict: boolean): boolean {
  if (/^\d+$/.test(piece)) return !first;
  if (/^[a-z]+\d{0,2}$/.test(piece)) {
    const word = piece.replace(/\d+$/, '');
    // Short lowercase pieces are abbreviations (`html`, `css`, `api`) as often as words, but not `qnzy` or `zf`.
    if (word.length <= 4) return word.length >= 2 && (!strict || ABBREVIATION.test(word) || !NOT_AN_ABBREVIATION.test(word));
    return looksLikeWord(word);
  }
  const shape = /^([A-Z]{2,4}(?=[A-Z][a-z]))?((?:[A-Z]?[a-z]+)+?)([A-Z]{3,4})?$/.exec(piece);
  if (!shape || (/^[A-Z]{2}/.test(piece) && /[A-Z]{2}$/.test(piece))) return false;
  const words = shape[2]!.match(/[A-Z]?[a-z]+/g) ?? [];
  const vowels = piece.match(/[aeiouy]/gi)?.length ?? 0;
  if (words.every((word) => word.length < 3) || vowels * 5 < piece.length) return false;
  if (!strict) return words.every((word) => word.length >= 2 && looksLikeWord(word));
  // An acronym at either end is one code writes (`APIError`, `ReactDOM`): random capitals (`KVImtyCe`, `LukiYOIK`) are not.
  if ((shape[1] && !ACRONYM.test(shape[1])) || (shape[3] && !ACRONYM.test(shape[3]))) return false;
  return words.every(readsAsCamelWord);
}

/**
 * One word of a `camelCase` or `PascalCase` name: a word of two letters is one English or code writes (`To`, `On`,
 * `Id`), a longer one looks like a word and begins as English words begin (`Str`, `Fl`, not `Fm`, `Hx`) unless it is
 * an abbreviation code writes (`Html`, `Xml`, `Svg`). Random pairs (`ZyJyUahr`, `UnFmheyz`) fail one of these.
 */
function readsAsCamelWord(word: string): boolean {
  const lower = word.toLowerCase();
  if (lower.length < 2) return false;
  if (lower.length === 2) return TWO_LETTER_WORD.test(lower);
  if (ABBREVIATION.test(lower)) return true;
  return looksLikeWord(lower) && (!/^[^aeiou][^aeiouy]/.test(lower) || ONSET.test(lower));
}

function looksLikeWord(word: string): boolean {
  return /[aeiouy]/i.test(word) && !NOT_A_WORD.test(word);
}
