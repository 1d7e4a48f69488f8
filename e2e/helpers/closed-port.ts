import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on (just opened and closed): a fetch to it is a refused connection. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
