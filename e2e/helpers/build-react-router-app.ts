import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { startServer } from './local-server';

/**
 * Builds fixtures/react-router (React Router 7 in framework mode: SSR, loaders, actions, error boundaries) the way a
 * real project deploys it, and serves it. Every build is made from a copy of the app in a fresh random folder
 * (`.e2e-tmp/rr-<random>/`, inside the repository so that the copy resolves react-router, React and Vite from the
 * repository's node_modules), as React Router's own integration suites do: paths on the server, and in source maps,
 * hold a folder that changes with every run.
 */

const repoRoot = path.resolve(__dirname, '..', '..');
const appSource = path.join(repoRoot, 'fixtures', 'react-router');
const cli = path.join(path.dirname(require.resolve('@react-router/dev/package.json')), 'bin.js');

export interface BuiltReactRouterApp {
  /** The random folder the app was copied to and built in; the build is in `build/client` and `build/server`. */
  dir: string;
  /** Files of `build/client`, relative to it, sorted (e.g. `assets/entry.client-<hash>.js`). */
  clientFiles: string[];
  /** How long `react-router build` took. */
  buildMs: number;
}

export interface ReactRouterApp {
  dir: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What the app's handleError (app/entry.server.tsx) reported on the server: errors of loaders, actions and SSR. */
  serverErrors: unknown[];
  close(): Promise<void>;
}

/**
 * Copies fixtures/react-router into a fresh `.e2e-tmp/rr-<random>/` and runs `react-router build` there in
 * production mode (client minified; server not, as by default), with source maps for client and server or none.
 */
export async function buildReactRouterApp(options: { sourcemap: boolean; stamp?: string }): Promise<BuiltReactRouterApp> {
  const dir = path.join(repoRoot, '.e2e-tmp', `rr-${randomUUID()}`);
  fs.cpSync(appSource, dir, { recursive: true, filter: (source) => !/[\\/](build|node_modules|\.react-router)$/.test(source) });
  // Another stamp is another source: the next build renames the chunks that hold it, as a real rebuild does.
  if (options.stamp !== undefined) fs.writeFileSync(path.join(dir, 'app', 'lib', 'build-stamp.ts'), `// Written by the e2e helper for this build.\nexport const BUILD_STAMP = ${JSON.stringify(options.stamp)};\n`);
  const args = [cli, 'build', ...(options.sourcemap ? ['--sourcemapClient', '--sourcemapServer'] : [])];
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, args, { cwd: dir, env: { ...process.env, NODE_ENV: 'production', FORCE_COLOR: '0' }, timeout: 120_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`react-router build failed in ${dir}: ${error.message}\n${stdout}\n${stderr}`)) : resolve(),
    );
  });
  const buildMs = Date.now() - started;
  const clientDir = path.join(dir, 'build', 'client');
  const clientFiles = (fs.readdirSync(clientDir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((name) => fs.statSync(path.join(clientDir, name)).isFile())
    .map((name) => name.split(path.sep).join('/'))
    .sort();
  return { dir, clientFiles, buildMs };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
};

/**
 * Serves a build made by buildReactRouterApp on 127.0.0.1 at a free port, as `react-router-serve` does: the files of
 * `build/client` (with their `.map` files when built with maps), and everything else rendered on the server by
 * `build/server/index.js`, imported from the random folder so that server-side stack frames point into it.
 */
export async function serveReactRouterApp(dir: string): Promise<ReactRouterApp> {
  const { build, createRequestListener } = await loadServer(path.join(dir, 'build', 'server', 'index.js'));
  const serverErrors: unknown[] = [];
  const logger = { error: (error: unknown) => serverErrors.push(error) };
  const render = createRequestListener({ build, mode: 'production', getLoadContext: () => ({ logger }) });
  const clientDir = path.join(dir, 'build', 'client');
  const server = await startServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const file = path.join(clientDir, pathname);
    if (request.method === 'GET' && file.startsWith(clientDir + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      response
        .writeHead(200, {
          'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
          // Hashed assets are immutable, as react-router-serve sends them.
          'cache-control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-store',
        })
        .end(fs.readFileSync(file));
      return;
    }
    void render(request, response);
  });
  return { dir, origin: server.origin, serverErrors, close: () => server.close() };
}

/**
 * Imports the server build and @react-router/node. A deployed server runs with NODE_ENV=production, and React picks
 * its production or development build by it when first loaded, once per process; the test process has it unset. So
 * it is set while React, its server renderer and React Router load (to the mode React already has if something in
 * this worker loaded it before: the two builds of React and react-dom/server must not mix), then put back.
 */
async function loadServer(file: string): Promise<{ build: ServerBuild; createRequestListener: typeof import('@react-router/node').createRequestListener }> {
  const previous = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = loadedReactMode() ?? 'production';
  try {
    const { createRequestListener } = await import('@react-router/node');
    const build = (await import(pathToFileURL(file).href)) as ServerBuild;
    return { build, createRequestListener };
  } finally {
    if (previous === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = previous;
  }
}

/** The build of React this process has loaded already, if any. */
function loadedReactMode(): 'production' | 'development' | undefined {
  for (const file of Object.keys(require.cache)) {
    const match = /[\\/]node_modules[\\/]react[\\/]cjs[\\/]react\.(production|development)\.js$/.exec(file);
    if (match) return match[1] as 'production' | 'development';
  }
  return undefined;
}
