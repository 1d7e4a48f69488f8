/**
 * A file name as it stays across builds: without the bundle hash a bundler put in it. Pure, and below both the stack
 * room (a bundle without a map is told by its name) and the run room (fingerprints, src/run/normalize.ts).
 */
import { isContentHash } from './content-hash';
import { readingAsOf } from './naming-era';

/** A path segment that is an id or a hash (`3310`, a UUID, `pCQTeX9T`) as `<id>`; any other as it is. */
export function normalizeSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Kept as it is.
  }
  if (/^\d+$/.test(decoded) || /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(decoded) || isContentHash(decoded)) return '<id>';
  return segment;
}

/**
 * A file name without its bundle hash, wherever the bundler put it: `index-BKGzNfDO.js`, `app.91d2e0.js`,
 * `chunk.3f9a1c.js` and `start.DZf1vT4Q.js` lose it; a name that is only a hash (`pCQTeX9T.js`, `e-tR2VKL.js`,
 * SvelteKit's and Nuxt's chunks) is `<hash>.js`; `settings.js` and `UserCard.js` are themselves.
 */
export function normalizeFileName(name: string): string {
  if (!name) return name;
  if (normalizeSegment(name) === '<id>') return '<id>';
  const [stem = '', ...rest] = name.split('.');
  if (!stem) return name;
  // After the stem: `[name].[hash].js` (SvelteKit, Astro, webpack, Parcel) drops a part that is a hash, and a part
  // that ends in one (`entry.client-Dy10eZpM.js`, `users._id-B3kq9XzA.js`: React Router's route modules) loses it.
  // The last part is the extension.
  const kept = rest
    .filter((part, i) => i === rest.length - 1 || !isContentHash(part))
    .map((part, i, all) => (i === all.length - 1 ? part : stemWithoutHash(part)));
  // `jquery-3.7.1.min.js`, `lodash-4.17.21.js`: a library's name and the major of its version, which the next part
  // goes on (a hash holds no `.`); `jquery-3` is 8 characters a hash could be, and does not read as English.
  const versioned = !readingAsOf('before-versioned-names') && VERSION_STEM.test(stem) && /^\d+/.test(rest[0] ?? '');
  return [versioned ? stem : stemWithoutHash(stem), ...kept].join('.');
}

/** A name in lowercase pieces, then `-` and a version's major (`jquery-3`, `react-dom-18`). */
const VERSION_STEM = /^[a-z][a-z0-9]*(?:[-_][a-z][a-z0-9]*)*-v?\d+$/;

/** Whether a file name carries a bundle hash: the file is a build's output, renamed by the next build. */
export function hasContentHash(name: string): boolean {
  return normalizeFileName(name) !== name;
}

/** `index-BKGzNfDO` → `index`, `index-e-tR2VKL` → `index`, `framework-0a1b2c3d` → `framework`, `pCQTeX9T` → `<hash>`. */
function stemWithoutHash(stem: string): string {
  if (isContentHash(stem)) return '<hash>';
  let name = stem;
  for (;;) {
    // Rollup's and esbuild's `[name]-[hash]`: the hash is the last 8 characters, which may hold a `-` of its own.
    const tail = name.slice(-9);
    if (name.length > 9 && tail.startsWith('-') && isContentHash(tail.slice(1))) {
      name = name.slice(0, -9);
      continue;
    }
    // webpack's and Next's `[name]-[contenthash]`: hex of any length after the last `-`.
    const dash = name.lastIndexOf('-');
    if (dash > 0 && /^[0-9a-f]+$/i.test(name.slice(dash + 1)) && isContentHash(name.slice(dash + 1))) {
      name = name.slice(0, dash);
      continue;
    }
    break;
  }
  return isContentHash(name) ? '<hash>' : name;
}

