import fs from 'node:fs';
import path from 'node:path';
import { buildSync, type BuildOptions } from 'esbuild';
import { writeIfChanged } from './write-if-changed';

/**
 * Bundles a fixture app (`fixtures/<name>/src/…`) into `fixtures/<name>/dist/app.js` with a linked source map, the
 * way a real app's build would, with `options` added (minify, JSX, defines). Files are only rewritten when their
 * content changed, by rename, so concurrent runs never read half a file.
 */
export function bundleFixture(name: string, entry: string, options: BuildOptions = {}): void {
  const appDir = path.resolve(__dirname, '..', '..', 'fixtures', name);
  const outDir = path.join(appDir, 'dist');
  const result = buildSync({
    entryPoints: { app: entry },
    bundle: true,
    format: 'iife',
    target: 'es2022',
    sourcemap: 'linked',
    write: false,
    outdir: outDir,
    absWorkingDir: appDir,
    logLevel: 'silent',
    tsconfigRaw: '{}',
    ...options,
  });
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of result.outputFiles ?? []) writeIfChanged(file.path, file.text);
}
