import fs from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { startServer, type LocalServer } from './local-server';

const appDir = path.resolve(__dirname, '..', '..', 'fixtures', 'sveltekit-sw');

/** The items the app's `/api/items.json` answers with while the browser is online. */
export const ITEMS = ['apple', 'pear'];

/**
 * A stand-in for SvelteKit's dev server (Vite) serving fixtures/sveltekit-sw: `/service-worker.js` is the one-line
 * module SvelteKit's dev middleware writes (packages/kit/src/exports/vite/dev/index.js: `import '<the source>';`),
 * and `/src/*.js` are served as Vite serves modules, transformed on request with an inline source map.
 */
export function startSvelteKitDev(): Promise<LocalServer> {
  return startServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const send = (status: number, type: string, body: string) => response.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache' }).end(body);
    if (pathname === '/' || pathname === '/index.html') return send(200, 'text/html; charset=utf-8', fs.readFileSync(path.join(appDir, 'index.html'), 'utf8'));
    if (pathname === '/service-worker.js') return send(200, 'application/javascript', `import '/src/service-worker.js';`);
    if (pathname === '/api/items.json') return send(200, 'application/json', JSON.stringify(ITEMS));
    const file = path.join(appDir, pathname);
    if (pathname.startsWith('/src/') && pathname.endsWith('.js') && file.startsWith(appDir + path.sep) && fs.existsSync(file)) {
      const { code } = transformSync(fs.readFileSync(file, 'utf8'), { loader: 'js', format: 'esm', sourcemap: 'inline', sourcefile: path.basename(file) });
      return send(200, 'application/javascript', code);
    }
    send(404, 'text/plain', 'not found');
  });
}
