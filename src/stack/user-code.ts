import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This file is src/stack/user-code.ts or dist/stack/user-code.js: daebug's own frames live under those two folders.
const OWN_ROOT = path.resolve(__dirname, '..', '..');
const OWN_DIRS = ['src', 'dist'].map((dir) => path.join(OWN_ROOT, dir) + path.sep);

/** A filesystem path printed by Node (`/abs/a.spec.ts`, `C:\a.spec.ts`, `file:///abs/a.spec.mjs`), else undefined. */
export function nodeFilePath(url: string): string | undefined {
  if (url.startsWith('/') || /^[a-z]:[\\/]/i.test(url)) return url;
  if (/^file:\/\//i.test(url)) {
    try {
      return fileURLToPath(url);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Test code as Playwright's `location` sees it: not Node's internals, not node_modules, not daebug itself. */
export function isUserFile(file: string): boolean {
  if (file.startsWith('node:') || file.startsWith('internal/')) return false;
  if (/[\\/]node_modules[\\/]/.test(file)) return false;
  return !OWN_DIRS.some((dir) => file.startsWith(dir));
}

/** Page code a developer wrote: anything with a URL or an original source, except dependencies and bundler runtime. */
export function isUserSource(source: string): boolean {
  return !/(^|[\\/])node_modules[\\/]|^webpack\/(bootstrap|runtime)|^\(webpack\)|^vite\/|^\/?@vite\/|^\0/.test(source);
}

/** A path as the user types it: relative to the working directory when inside it. */
export function relativePath(file: string, cwd = process.cwd()): string {
  const relative = path.relative(cwd, file);
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) return file.split(path.sep).join('/');
  return relative.split(path.sep).join('/');
}
