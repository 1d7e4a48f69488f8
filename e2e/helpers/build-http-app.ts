import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { writeIfChanged } from './write-if-changed';

const appDir = path.resolve(__dirname, '..', '..', 'fixtures', 'http-app');
const outDir = path.join(appDir, 'dist');

/**
 * Bundles fixtures/http-app/src with its stand-in library fixtures/http-app/node_modules/fake-http into
 * fixtures/http-app/dist/app.js, minified, with a linked source map whose sources keep the `node_modules/` path.
 * Files are only rewritten when their content changed, by rename, so concurrent runs never read half a file.
 */
export function buildHttpApp(): void {
  const result = buildSync({
    entryPoints: { app: 'src/main.ts' },
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    sourcemap: 'linked',
    write: false,
    outdir: outDir,
    absWorkingDir: appDir,
    logLevel: 'silent',
    tsconfigRaw: '{}',
  });
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of result.outputFiles) writeIfChanged(file.path, file.text);
}
