import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { writeIfChanged } from './write-if-changed';

const appDir = path.resolve(__dirname, '..', '..', 'fixtures', 'react');
const outDir = path.join(appDir, 'dist');

/**
 * Bundles fixtures/react/src (React 19 from the repository's node_modules) into fixtures/react/dist/app.js with a
 * linked source map. Development mode, so React logs its dev warnings with component stacks; React's own sources
 * stay under `node_modules/` paths in the map. Files are only rewritten when their content changed, by rename.
 */
export function buildReactApp(): void {
  const result = buildSync({
    entryPoints: { app: 'src/main.tsx' },
    bundle: true,
    format: 'iife',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
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
