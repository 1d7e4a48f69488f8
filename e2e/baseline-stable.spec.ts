import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { readReports, runInlineTest } from './helpers/run-playwright';
import { startServer, type LocalServer } from './helpers/local-server';

// A page whose server sends a fresh CSP nonce with every response, at a random port named in the page's own query:
// the nonce'd script throws an error that names host and port, an inline script without the nonce is blocked.
function cspPage(nonce: string): string {
  return `<!doctype html><html><body><p>checkout</p>
<script nonce="${nonce}">
  setTimeout(() => { throw new Error('checkout failed on ' + location.host + ' (' + location.search + ')'); });
</script>
<script>document.title = 'not allowed';</script>
</body></html>`;
}

async function startCspServer(): Promise<LocalServer> {
  return startServer((request, response) => {
    if (!request.url?.startsWith('/csp/')) return void response.writeHead(404).end();
    const nonce = randomBytes(12).toString('base64');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': `script-src 'nonce-${nonce}'` }).end(cspPage(nonce));
  });
}

const spec = `
import { test, expect } from 'daebug';

for (const title of ['checkout', 'checkout again']) {
  test(title, async ({ page, daebug }) => {
    const app = new URL(process.env.APP_URL);
    await page.goto(app.origin + '/csp/?port=' + app.port);
    await expect.poll(async () => {
      await daebug.settle();
      const events = daebug.events();
      return [events.some((e) => e.source === 'browser.issue'), events.some((e) => e.type === 'error')];
    }).toEqual([true, true]);
  });
}
`;

const daebugCli = path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js');

/** One run against a server of its own (a new port, new nonces), and the baseline `npx daebug baseline` wrote from it. */
async function runAndWriteBaseline(): Promise<{ baseline: string; index: any; port: number; dir: string }> {
  const server = await startCspServer();
  try {
    const result = await runInlineTest({ 'csp.spec.ts': spec }, { env: { APP_URL: server.origin } });
    expect(result.exitCode, result.output).toBe(0);
    execFileSync(process.execPath, [daebugCli, 'baseline'], { cwd: result.dir, stdio: 'pipe' });
    return { baseline: fs.readFileSync(path.join(result.dir, 'daebug-baseline.json'), 'utf8'), index: result.index, port: server.port, dir: result.dir };
  } finally {
    await server.close();
  }
}

test('two runs with other ports and nonces write byte-identical baselines; a CSP violation is one group across tests', async () => {
  test.setTimeout(180_000);
  const first = await runAndWriteBaseline();
  const second = await runAndWriteBaseline();
  expect(second.port).not.toBe(first.port);

  const groups = first.index.groups as any[];
  const csp = groups.filter((g) => g.source === 'browser.issue');
  expect(csp, JSON.stringify(groups, null, 2)).toHaveLength(1);
  expect(csp[0]).toMatchObject({ tests: 2, count: 2 });
  // The nonces were really in what the browser said: each test's report has its own.
  const nonces = Object.values(readReports(path.join(first.dir, 'reports')).reports).map((r: any) => /'nonce-([^']+)'/.exec(r.events.find((e: any) => e.source === 'browser.issue').message)?.[1]);
  expect(new Set(nonces).size, JSON.stringify(nonces)).toBe(2);
  const thrown = groups.filter((g) => /checkout failed on/.test(g.message));
  expect(thrown, JSON.stringify(groups, null, 2)).toHaveLength(1);
  expect(thrown[0]).toMatchObject({ tests: 2, count: 2 });

  expect(second.baseline).toBe(first.baseline);
  const written = JSON.parse(first.baseline);
  expect(written.groups).toHaveLength(2);
  expect(first.baseline).not.toContain(String(first.port));
  expect(first.baseline).not.toMatch(/nonce-(?!<value>)/);
  // The thrown error's frame is the page itself, whose URL had the port in its query: neither stays.
  expect(written.groups.find((g: any) => /checkout failed/.test(g.message)).where).toBe('http://127.0.0.1/csp/');
});
