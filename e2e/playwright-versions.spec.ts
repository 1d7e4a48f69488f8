import { test, expect } from '@playwright/test';
import { inlinePlaywrightVersion, runInlineTest } from './helpers/run-playwright';

// Which way capture reads Chromium on the Playwright the inline runs use (the repo's, or the one `npm run test:compat`
// points them at): the fast path (Playwright's own sessions, from 1.65 on) or daebug's own sessions, and that a
// Playwright whose internals are not the ones the fast path reads falls back without losing an event. The internals
// are made to differ by handing daebug another "server-side Browser" than the real one; Playwright itself is untouched.
const spec = `
import { test, expect } from 'daebug';

test.beforeAll(({ browser }) => {
  const internals = process.env['DAEBUG_E2E_INTERNALS'];
  if (!internals) return;
  const fake =
    internals === 'moved'
      // A connection without the fields daebug reads (as if Playwright renamed them).
      ? { _connection: { _sessions: new Map(), _transport: {} } }
      // The fields are there, but Chromium's messages do not come through _transport.onmessage.
      : { _connection: { _sessions: new Map([['', { send: async () => ({}) }]]), _transport: { onmessage() {} } } };
  const connection = (browser as any)._connection;
  const toImpl = connection.toImpl;
  connection.toImpl = (object: unknown) => (object === browser ? fake : toImpl?.call(connection, object));
});

test('page, worker and popup are captured', async ({ page, daebug }) => {
  await page.goto('/worker.html');
  await page.evaluate(() => (window as any).send('log'));
  await page.evaluate(() => (window as any).send('throw'));
  await page.evaluate(() => {
    console.log('page hello');
    setTimeout(() => { throw new Error('page uncaught'); });
    void Promise.reject(new Error('page rejection'));
    (window as any).ready = new Promise((resolve) => window.addEventListener('message', (e) => e.data === 'popup ready' && resolve(true)));
    window.open('/targets/popup-close.html');
  });
  expect(await page.evaluate(() => (window as any).ready)).toBe(true);
  await expect.poll(() => daebug.events().some((e) => e.message === 'Error: worker uncaught')).toBe(true);
  await daebug.settle();
  const seen = daebug.events().map((e) => e.realm + ' ' + e.source + ' ' + e.message);
  const once = (prefix: string) => seen.filter((line) => line.startsWith(prefix)).length;
  for (const prefix of [
    'page console.log page hello',
    'page window.onerror Error: page uncaught',
    'page unhandledrejection Error: page rejection',
    'worker:worker.js console.info worker started',
    'worker:worker.js console.log worker says hi',
    'worker:worker.js self.onerror Error: worker uncaught',
    'page-2 console.log popup hello',
    'page-2 console.error popup console error',
    'page-2 window.onerror Error: popup uncaught before close',
  ]) {
    expect.soft(once(prefix), prefix + '\\n' + seen.join('\\n')).toBe(1);
  }
});
`;

const version = inlinePlaywrightVersion();
const [major = 0, minor = 0] = version.split('.').map(Number);
const tapped = major > 1 || minor >= 65;
const FAST_PATH = `[daebug] reading Playwright's own CDP sessions (@playwright/test ${version})`;
const FALLBACK = "[daebug] Playwright's own CDP sessions are not read (";

const cases = [
  { internals: '', reason: tapped ? undefined : `@playwright/test ${version} is older than 1.65` },
  { internals: 'moved', reason: tapped ? 'its connection has no root session in _sessions' : `@playwright/test ${version} is older than 1.65` },
  { internals: 'silent', reason: tapped ? "an answer on Playwright's session did not pass through _transport.onmessage" : `@playwright/test ${version} is older than 1.65` },
];

for (const { internals, reason } of cases) {
  test(`Playwright ${version}, ${internals || 'its own'} internals: ${reason ? "daebug's own sessions" : 'the fast path'}, nothing lost`, async () => {
    const run = await runInlineTest({ 'a.spec.ts': spec }, { env: { DEBUG: 'daebug', DAEBUG_E2E_INTERNALS: internals } });
    expect(run.exitCode, run.output).toBe(0);
    const lines = run.output.split('\n').filter((line) => line.includes("Playwright's own CDP sessions")).map((line) => line.slice(line.indexOf('[daebug]')).trimEnd());
    expect(lines, run.output).toEqual([reason ? `${FALLBACK}${reason}): capture uses daebug's own sessions` : FAST_PATH]);
  });
}
