import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RepoPaths {
  /** The repository root (GITHUB_WORKSPACE, else the config's rootDir). */
  root: string;
  /** Where relative sources were resolved from when the stack was mapped (the Playwright process's cwd). */
  cwd: string;
  /** Whether an absolute path is an existing file. */
  isFile: (absolute: string) => boolean;
}

function inside(root: string, file: string): string | undefined {
  const relative = path.relative(root, file);
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/**
 * A mapped frame's source (`src/cart.ts`, `/abs/src/cart.ts`, `file:///…`, `webpack://app/./src/cart.ts`,
 * `http://host/src/cart.ts`) as a file of the repository, relative to its root; undefined when no such file exists.
 * Sources of bundlers and servers lose the folders above their own root, so shorter tails are tried as well, from
 * the repository root and from the working directory (an app's folder in a monorepo).
 */
export function sourceInRepo(source: string, paths: RepoPaths): string | undefined {
  const existing = (file: string) => {
    const relative = inside(paths.root, file);
    return relative !== undefined && paths.isFile(file) ? relative : undefined;
  };
  if (/^file:/i.test(source)) {
    try {
      return existing(fileURLToPath(source));
    } catch {
      return undefined;
    }
  }
  if (path.isAbsolute(source)) return existing(source);
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*\/?/i.exec(source);
  if (!scheme) {
    const fromCwd = existing(path.resolve(paths.cwd, source));
    if (fromCwd) return fromCwd;
  }
  const segments = source
    .slice(scheme ? scheme[0].length : 0)
    .replace(/[?#].*$/, '')
    .split('/')
    .filter((s) => s && s !== '.' && s !== '..');
  // A lone file name would match too easily (index.ts): a tail keeps at least one folder when the source had one.
  for (let i = 0; i < segments.length - 1 || (i === 0 && segments.length === 1); i++) {
    const found = existing(path.join(paths.root, ...segments.slice(i))) ?? existing(path.join(paths.cwd, ...segments.slice(i)));
    if (found) return found;
  }
  return undefined;
}
