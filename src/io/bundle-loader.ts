/**
 * Loads one of the package's bundles (scripts/bundle-entry.ts) with V8's compiled code for it cached on disk. A
 * Playwright worker loads `daebug` in a fresh process: `--repeat-each`, projects and restarted workers each start
 * one, and every one resolved, read and compiled some 90 modules again, about 35 ms of CPU (bench/README.md, issue
 * 36); from the bundle with its cache, about 8. The cache is written when the process that compiled the bundle exits,
 * so it holds the code of every function that process ran, not only the bundle's top level.
 *
 * Where the cache goes: `DAEBUG_COMPILE_CACHE_DIR`, else the project's `node_modules/.cache/daebug` (where CI caches of
 * node_modules keep it), else a folder of this user's own in the system's temporary folder. `DAEBUG_COMPILE_CACHE=0`
 * turns it off. Anything that fails (no bundle, a cache V8 rejects, a folder that cannot be written) falls back to
 * compiling, or to the modules as tsc wrote them: loading never fails for the cache's sake.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

/** How this process loaded a bundle: for tests and for `DAEBUG_DEBUG`. */
export type BundleLoad = 'modules' | 'bundle' | 'bundle+cache';

const loads = new Map<string, BundleLoad>();

/** How this process loaded `file`'s bundle, or undefined before it did. */
export function bundleLoad(file: string): BundleLoad | undefined {
  return loads.get(file);
}

/** The exports of the bundle `file`, or of `fallback()` when it cannot be loaded. */
export function loadBundle<T>(file: string, fallback: () => T): T {
  let source: string | undefined;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    // Running from the sources (tsx), or a package without bundles.
  }
  if (source !== undefined) {
    try {
      return runBundle<T>(file, source);
    } catch (error) {
      if (process.env['DAEBUG_DEBUG']) console.error('[daebug] bundle', file, error);
    }
  }
  loads.set(file, 'modules');
  return fallback();
}

function runBundle<T>(file: string, source: string): T {
  const cacheFile = cacheFileFor(file, source);
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      // No cache yet: this process writes it when it exits.
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, Module.createRequire(file), module, file, path.dirname(file));
  const used = cachedData !== undefined && !script.cachedDataRejected;
  loads.set(file, used ? 'bundle+cache' : 'bundle');
  if (cacheFile && !used) process.once('exit', () => writeCache(cacheFile, script, cachedData !== undefined));
  return module.exports;
}

/** The cache's file for this bundle's text and path, Node and platform; undefined when off or with no safe place. */
function cacheFileFor(file: string, source: string): string | undefined {
  if (process.env['DAEBUG_COMPILE_CACHE'] === '0') return undefined;
  const dir = cacheDir();
  if (!dir) return undefined;
  // The bundle's own path too: V8 keeps the file name it compiled in its cached code, and stack frames of a copy
  // elsewhere (another checkout, another project sharing the folder) named the first copy's file.
  const key = crypto.createHash('sha1').update(source).update(file).update(process.version).update(process.arch).digest('hex').slice(0, 16);
  return path.join(dir, `${path.basename(file, '.js')}-${key}.bin`);
}

function cacheDir(): string | undefined {
  const chosen = process.env['DAEBUG_COMPILE_CACHE_DIR'];
  if (chosen) return path.resolve(chosen);
  const modules = path.join(process.cwd(), 'node_modules');
  if (fs.existsSync(modules)) return path.join(modules, '.cache', 'daebug');
  // A shared temporary folder: only a folder this user made and only this user can write to. Cached code is run as
  // it is, so another user's file there must never be read.
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const dir = path.join(os.tmpdir(), `daebug-compile-cache${uid === undefined ? '' : `-${uid}`}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.statSync(dir);
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * Writes the compiled code once. The first process to finish writes it (a worker, with the code of the tests it ran);
 * a process that found none and ends later (the runner) leaves that one in place. A cache V8 rejected is replaced.
 */
function writeCache(file: string, script: vm.Script, replace: boolean): void {
  try {
    if (!replace && fs.existsSync(file)) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Another process may write the same file at the same moment: each writes its own and renames it into place.
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, script.createCachedData());
    fs.renameSync(temporary, file);
    pruneOlder(file);
  } catch (error) {
    // A read-only or full folder: the next process compiles again, nothing else changes.
    if (process.env['DAEBUG_DEBUG']) console.error('[daebug] compile cache', file, error);
  }
}

/** Caches of the bundle kept beside the newest: another Node on the same project (a CI matrix), a downgrade. */
const KEPT_CACHES = 3;

/**
 * Each new bundle (an upgrade, a rebuild) writes a file of its own: the oldest go, so that the folder does not grow
 * with every version. By modification time, newest first.
 */
function pruneOlder(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file).replace(/-[0-9a-f]{16}\.bin$/, '')}-`;
  const caches = fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && /-[0-9a-f]{16}\.bin$/.test(name) && path.join(dir, name) !== file)
    .map((name) => ({ name, ms: fs.statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.ms - a.ms);
  for (const { name } of caches.slice(KEPT_CACHES)) fs.rmSync(path.join(dir, name), { force: true });
  // A process killed between its write and its rename left its temporary file.
  for (const name of fs.readdirSync(dir)) {
    const stale = name.startsWith(prefix) && name.endsWith('.tmp') && Date.now() - fs.statSync(path.join(dir, name)).mtimeMs > STALE_TEMPORARY_MS;
    if (stale) fs.rmSync(path.join(dir, name), { force: true });
  }
}

const STALE_TEMPORARY_MS = 60 * 60 * 1000;
