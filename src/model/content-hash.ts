/**
 * Tells a bundler's content hash from a name a developer wrote, for fingerprints that survive a rebuild
 * (src/run/normalize.ts). Hashes change with every build of the same source: Vite, Rollup and Rolldown write 8
 * base64url characters (`pCQTeX9T`, `e-tR2VKL`, `B_oDGBp9`: `-` and `_` are hash characters), esbuild 8 base32
 * capitals and digits (`ZKN3QFNM`), webpack and Parcel hex digits (`91d2e0`, `3f9a1c22`). Pure.
 *
 * No rule can be exact: `UserCard` and `DiwrgTda` have the same shape. A token reads as a name when it is made of
 * words (lowercase, `PascalCase` or `camelCase`, one acronym at an end) that look like words: a vowel, no `q`
 * without `u`, no consonant pair English does not write, no three vowels or five consonants in a row, no ending
 * of three consonants unless it is one English writes (`-ngs`, `-rst`, `-ght`). Measured on 300,000 random 8-character
 * base64url tokens, about 1 in 170 reads as a name (and keeps its place in the fingerprint); of 591 file names of 8
 * to 12 characters in this repository's node_modules, 7 do not read as names (`base64url`, `hmrPayload`,
 * `ucs2length`): at 8 characters such a name would be taken for a hash.
 */

/** The hash length of Vite, Rollup, Rolldown and esbuild unless configured: a name of another length is not theirs. */
const BASE64_HASH_LENGTH = 8;

// Letter pairs and runs that English words (and so names in code) do not have, and random letters often do.
const NOT_A_WORD = /q[^u]|[jqvz][bcdfgjkmpqtvwxz]|x[bdfgjkmqrvwxz]|[cdfgkmptw][jqxz]|[aeiou]{3}|[^aeiouy]{5}|[^aeiouy]{2}[^aeiouysthdl]$/i;

/**
 * Whether `word` (a file name's part between `.`, `-` separators or the whole stem) is a content hash: hex with a
 * digit (6 or more, not all digits), or 8 base64url characters that do not read as a name.
 */
export function isContentHash(word: string): boolean {
  if (/^[0-9a-f]{6,}$/i.test(word)) return /\d/.test(word) && !/^\d+$/.test(word);
  if (word.length !== BASE64_HASH_LENGTH || !/^[A-Za-z0-9_-]+$/.test(word)) return false;
  return !readsAsName(word);
}

/**
 * Whether a token of letters, digits, `-` and `_` reads as a name: every `-`/`_` piece is a word (`settings`,
 * `vendor_2`, `user-api`, `html`) or words in `camelCase`/`PascalCase` with at most one acronym at an end
 * (`UserCard`, `APIError`, `ReactDOM`). A leading `_` is a name's (`_layout`), a leading `-` is not.
 */
export function readsAsName(token: string): boolean {
  const pieces = token.split(/[-_]/);
  if (pieces[0] === '' && token.startsWith('_')) pieces.shift();
  return pieces.length > 0 && pieces.every((piece, i) => readsAsWordPiece(piece, i === 0));
}

function readsAsWordPiece(piece: string, first: boolean): boolean {
  if (/^\d+$/.test(piece)) return !first;
  if (/^[a-z]+\d{0,2}$/.test(piece)) {
    const word = piece.replace(/\d+$/, '');
    // Short lowercase pieces are abbreviations (`html`, `css`, `api`) as often as words.
    return word.length >= 2 && (word.length <= 4 || looksLikeWord(word));
  }
  const shape = /^(?:[A-Z]{2,4}(?=[A-Z][a-z]))?((?:[A-Z]?[a-z]+)+?)(?:[A-Z]{3,4})?$/.exec(piece);
  if (!shape || (/^[A-Z]{2}/.test(piece) && /[A-Z]{2}$/.test(piece))) return false;
  const words = shape[1]!.match(/[A-Z]?[a-z]+/g) ?? [];
  const vowels = piece.match(/[aeiouy]/gi)?.length ?? 0;
  return words.every((word) => word.length >= 2 && looksLikeWord(word)) && words.some((word) => word.length >= 3) && vowels * 5 >= piece.length;
}

function looksLikeWord(word: string): boolean {
  return /[aeiouy]/i.test(word) && !NOT_A_WORD.test(word);
}
