import fs from 'node:fs';
import path from 'node:path';

/**
 * A small app built the way SvelteKit and Nuxt ship theirs: Vite in production mode, minified, chunks named by
 * their hash alone (`chunks/[hash].js`), the entry by name and hash (`assets/index-[hash].js`). Two lazy pages share
 * one chunk, whose function throws; the entry logs an Error of its own. Build "two" changes a string in the shared
 * module and adds an export to it: the shared chunk's bytes change, so its hash does, and with it the hash of every
 * chunk that imports it by name, and of the entry that names them all.
 */
export type BuildName = 'one' | 'two';

const INDEX_HTML = '<!doctype html><html><body><p>shop</p><script type="module" src="./src/main.js"></script></body></html>\n';

const MAIN_JS = `
function reportBroken(where) { console.error(new Error('entry broke in ' + where)); }
window.openA = () => import('./page-a.js').then((page) => page.run());
window.openB = () => import('./page-b.js').then((page) => page.run());
window.reportEntry = () => reportBroken('checkout');
`;

function sharedJs(build: BuildName): string {
  return `
export const LABEL = 'build ${build}';
${build === 'two' ? "export function describeItems(items) { return LABEL + ': ' + items.length + ' items'; }" : ''}
export function formatTotal(items) {
  const total = items.reduce((sum, item) => sum + item.price, 0);
  if (!Number.isFinite(total)) throw new TypeError('total is not a number for ' + items.length + ' items');
  return LABEL + total.toFixed(2);
}
export function later(items) { setTimeout(() => formatTotal(items)); }
`;
}

const PAGE_A_JS = `
import { later } from './shared.js';
export function run() { later([{ price: 1 }, { price: undefined }]); }
`;

function pageBJs(build: BuildName): string {
  return build === 'two'
    ? `import { later, describeItems } from './shared.js';\nexport function run() { document.title = describeItems([{}]); later([{}, {}, {}]); }\n`
    : `import { later, LABEL } from './shared.js';\nexport function run() { document.title = LABEL; later([{}, {}, {}]); }\n`;
}

/** Writes build `build`'s sources under `root` and builds them into `outDir` with Vite's JS API. */
export async function buildViteChunks(root: string, outDir: string, build: BuildName, sourcemap: boolean): Promise<string[]> {
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(root, 'src', 'main.js'), MAIN_JS);
  fs.writeFileSync(path.join(root, 'src', 'shared.js'), sharedJs(build));
  fs.writeFileSync(path.join(root, 'src', 'page-a.js'), PAGE_A_JS);
  fs.writeFileSync(path.join(root, 'src', 'page-b.js'), pageBJs(build));
  const { build: viteBuild } = await import('vite');
  const result = await viteBuild({
    root,
    base: './',
    logLevel: 'silent',
    configFile: false,
    build: { outDir, emptyOutDir: true, sourcemap, minify: true, rollupOptions: { output: { chunkFileNames: 'chunks/[hash].js' } } },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
  return outputs.map((o) => o.fileName).filter((name) => name.endsWith('.js'));
}
