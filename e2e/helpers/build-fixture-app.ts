import fs from 'node:fs';
import path from 'node:path';
import { buildSync, type BuildOptions } from 'esbuild';
import { writeIfChanged } from './write-if-changed';

const appDir = path.resolve(__dirname, '..', '..', 'fixtures', 'app');
const outDir = path.join(appDir, 'dist');

/** Where a map comment of a broken variant points (none: no comment at all), and what (if anything) is served there. */
const BROKEN: Record<string, { mapUrl?: string; mapText?: string }> = {
  'broken-404': { mapUrl: 'missing.js.map' },
  'broken-malformed': { mapUrl: 'broken-malformed.js.map', mapText: '{"version":3,"sources":["../src/cart.ts"],"mappings":"AAAA,' },
  // The fixtures server answers /slow after `ms`, far past daebug's 2 s fetch timeout.
  'broken-slow': { mapUrl: '/slow?ms=30000' },
  // A minified build without maps: no sourceMappingURL.
  'broken-nomap': {},
};

/**
 * Bundles fixtures/app/src with esbuild, minified, into fixtures/app/dist: `app.js` and `worker.js` with external
 * maps, `inline.js` with an inline `data:` map, and copies of app.js whose map is missing, malformed or slow, or
 * that names none.
 * Files are only rewritten when their content changed, by rename, so concurrent runs never read half a file.
 */
export function buildFixtureApp(): void {
  const common: BuildOptions = { bundle: true, minify: true, format: 'iife', target: 'es2020', write: false, outdir: outDir, absWorkingDir: appDir, logLevel: 'silent', tsconfigRaw: '{}' };
  const outputs = [
    ...(buildSync({ ...common, entryPoints: { app: 'src/main.ts', worker: 'src/worker.ts' }, sourcemap: 'linked' }).outputFiles ?? []),
    ...(buildSync({ ...common, entryPoints: { inline: 'src/inline.ts' }, sourcemap: 'inline' }).outputFiles ?? []),
  ];
  const files = new Map(outputs.map((file) => [path.basename(file.path), file.text]));
  const app = files.get('app.js');
  if (app === undefined) throw new Error('esbuild wrote no app.js');
  // esbuild ends a bundle with its map comment; the broken variants point theirs elsewhere.
  for (const [name, broken] of Object.entries(BROKEN)) {
    files.set(`${name}.js`, app.replace(/\/\/# sourceMappingURL=\S+\s*$/, broken.mapUrl === undefined ? '' : `//# sourceMappingURL=${broken.mapUrl}\n`));
    if (broken.mapText !== undefined) files.set(`${name}.js.map`, broken.mapText);
  }
  fs.mkdirSync(outDir, { recursive: true });
  for (const [name, text] of files) writeIfChanged(path.join(outDir, name), text);
}
