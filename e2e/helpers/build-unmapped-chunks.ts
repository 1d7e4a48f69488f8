import fs from 'node:fs';
import path from 'node:path';

/**
 * Small apps built the way SvelteKit's own test apps are: Vite in production mode, `build.minify: false`, chunks
 * named by their hash alone (`chunks/[hash].js`), the entry by name and hash (`assets/index-[hash].js`), and no
 * source map a browser or daebug can read.
 *
 * - `pages`: six lazy pages, each a chunk of its own, share a seventh chunk; `throwFrom(n)` loads page n, whose
 *   function throws in its own chunk, called through the shared one. Built without maps.
 * - `requests`: a lazy loader chunk fetches a JSON file that is not there and handles the 404 itself: the run's only
 *   unmapped frames are that request's initiator. Built without maps too.
 */
export type UnmappedApp = 'pages' | 'requests';

export const PAGE_COUNT = 6;

const INDEX_HTML = '<!doctype html><html><body><p>shop</p><script type="module" src="./src/main.js"></script></body></html>\n';

const SHARED_JS = `
export function eachItem(items, render) {
  return items.map((item, index) => render(item, index));
}
`;

function pageJs(n: number): string {
  return `
import { eachItem } from './shared.js';
function renderPage${n}(item) {
  return 'page ${n}: ' + item.price.toFixed(2);
}
export function run() {
  setTimeout(() => document.body.append(eachItem([{}], renderPage${n}).join('')));
}
`;
}

const LOADER_JS = `
export function loadSettings() {
  return fetch('./api/settings.json').then((response) => {
    document.title = response.ok ? 'settings' : 'no settings';
  });
}
`;

function mainJs(app: UnmappedApp): string {
  if (app === 'requests') return "window.loadSettings = () => import('./loader.js').then((loader) => loader.loadSettings());\n";
  const pages = Array.from({ length: PAGE_COUNT }, (_, i) => `  ${i + 1}: () => import('./page-${i + 1}.js'),`).join('\n');
  return `const pages = {\n${pages}\n};\nwindow.throwFrom = (n) => pages[n]().then((page) => page.run());\n`;
}

/** Writes app `app`'s sources under `root`, builds them into `outDir` and returns the scripts written, relative to it. */
export async function buildUnmappedApp(root: string, outDir: string, app: UnmappedApp): Promise<string[]> {
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(root, 'src', 'main.js'), mainJs(app));
  if (app === 'pages') {
    fs.writeFileSync(path.join(root, 'src', 'shared.js'), SHARED_JS);
    for (let n = 1; n <= PAGE_COUNT; n++) fs.writeFileSync(path.join(root, 'src', `page-${n}.js`), pageJs(n));
  } else fs.writeFileSync(path.join(root, 'src', 'loader.js'), LOADER_JS);
  const { build } = await import('vite');
  const result = await build({
    root,
    base: './',
    logLevel: 'silent',
    configFile: false,
    build: { outDir, emptyOutDir: true, sourcemap: false, minify: false, rollupOptions: { output: { chunkFileNames: 'chunks/[hash].js' } } },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
  return outputs.map((o) => o.fileName).filter((name) => name.endsWith('.js'));
}
