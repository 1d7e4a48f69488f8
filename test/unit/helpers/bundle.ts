import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { tempDir } from './temp-dir';

export interface Bundle {
  dir: string;
  /** dist/app.js, ending in `//# sourceMappingURL=app.js.map` (or an inline map). */
  js: string;
  map: string;
}

/** Bundles TypeScript files with esbuild, minified, like a real app build; sources land in `<dir>/src`. */
export function bundle(files: Record<string, string>, entry: string, sourcemap: 'linked' | 'inline' = 'linked'): Bundle {
  const dir = tempDir('bundle');
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, 'src', name)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', name), text);
  }
  const result = buildSync({
    entryPoints: { app: path.join('src', entry) },
    absWorkingDir: dir,
    bundle: true,
    minify: true,
    format: 'iife',
    sourcemap,
    outdir: path.join(dir, 'dist'),
    write: false,
    tsconfigRaw: '{}',
    logLevel: 'silent',
  });
  const out = result.outputFiles ?? [];
  const js = out.find((f) => f.path.endsWith('.js'))?.text ?? '';
  const map = out.find((f) => f.path.endsWith('.map'))?.text ?? '';
  return { dir, js, map };
}

/** 1-based line and column of the first occurrence of `needle` in `text`. */
export function positionOf(text: string, needle: string, from = 0): { line: number; column: number } {
  const at = text.indexOf(needle, from);
  if (at === -1) throw new Error(`${needle} not in text`);
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}
