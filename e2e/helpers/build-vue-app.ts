import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { writeIfChanged } from './write-if-changed';

const appDir = path.resolve(__dirname, '..', '..', 'fixtures', 'vue');
const outDir = path.join(appDir, 'dist');

/**
 * Bundles fixtures/vue/src (Vue 3.5's runtime from the repository's node_modules) into fixtures/vue/dist/app.js with a
 * linked source map. Development mode, so Vue logs its `[Vue warn]`s with component traces; Vue's own sources stay
 * under `node_modules/` paths in the map. Files are only rewritten when their content changed, by rename.
 */
export function buildVueApp(): void {
  const result = buildSync({
    entryPoints: { app: 'src/main.ts' },
    bundle: true,
    format: 'iife',
    target: 'es2022',
    define: {
      'process.env.NODE_ENV': '"development"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
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
