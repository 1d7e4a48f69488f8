/**
 * How daebug has read file names into fingerprints, newest first. Each era drops one more of the rules the next one
 * added, so a fingerprint from a baseline or history written by an earlier daebug can be computed again
 * (src/run/mark-events.ts): an error a baseline knows stays known when the reading changes.
 *
 * - `now`: the rules of this version.
 * - `before-camel-rules`: a camelCase 8-character token read as a name without the onset, two-letter word, acronym
 *   and abbreviation checks of `isContentHash` (a chunk `LukiYOIK.js` kept its name then, is `<hash>.js` now).
 * - `before-versioned-names`: besides, a library's versioned name (`jquery-3.7.1.min.js`) read as a hash
 *   (`<hash>.7.1.min.js`).
 */
export const NAMING_ERAS = ['now', 'before-camel-rules', 'before-versioned-names'] as const;

export type NamingEra = (typeof NAMING_ERAS)[number];

/** The eras before this version's, newest first. */
export const EARLIER_NAMING_ERAS = NAMING_ERAS.slice(1) as Exclude<NamingEra, 'now'>[];

let current: NamingEra = 'now';

/** Whether file names are read as daebug read them in `era` or before it (the rule `era` names is not applied). */
export function readingAsOf(era: Exclude<NamingEra, 'now'>): boolean {
  return NAMING_ERAS.indexOf(current) >= NAMING_ERAS.indexOf(era);
}

/** Runs `fn` with file names read as daebug read them in `era`. Synchronous: the era ends when `fn` returns. */
export function withNamingEra<T>(era: NamingEra, fn: () => T): T {
  const outer = current;
  current = era;
  try {
    return fn();
  } finally {
    current = outer;
  }
}
