import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/**
 * A server of a spec's own on 127.0.0.1 at a free port (port 0): a new port for every start, as test servers of
 * real suites have, so that what daebug writes can be checked not to depend on it.
 */
export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  close(): Promise<void>;
}

export type Handler = (request: http.IncomingMessage, response: http.ServerResponse, origin: string) => void;

export async function startServer(handler: Handler): Promise<LocalServer> {
  let origin = '';
  const server = http.createServer((request, response) => handler(request, response, origin));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.map': 'application/json', '.css': 'text/css' };

/** Serves the files under `root` (a folder's `index.html` for the folder); 404 for anything else. */
export function staticFiles(root: string): Handler {
  return (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const file = path.join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(fs.readFileSync(file));
  };
}
