import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runInlineTest } from './helpers/run-playwright';

// `npx daebug` runs dist/cli/bin.js through node: run `npm run build` after changing src/.
const bin = path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js');

// Chromium's DevTools issues: a script the page's own Content-Security-Policy blocks, and a fetch CORS blocks. The
// fixtures server sends `?csp=` as the page's policy; localhost is another origin than the page's 127.0.0.1.
const spec = `
import { test, expect } from 'daebug';

const CSP = encodeURIComponent("script-src 'self' 'unsafe-inline'");

/**
 * Opens a page whose policy allows only its own scripts, adds one from localhost, and waits until daebug heard the
 * CSP issue. Chromium says it three times before the script's onerror: a security line, the issue, the blocked request.
 * The line comes first and becomes the issue's event when the issue arrives, so the wait is for the issue itself; and
 * a settle() inside a poll can outlast the poll's own timeout under load, so the poll only reads.
 */
async function loadBlockedScript(page: any, daebug: any) {
  await page.goto('/index.html?csp=' + CSP);
  const port = new URL(page.url()).port;
  await page.evaluate((port) => new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = 'http://localhost:' + port + '/worker.js';
    script.onerror = resolve;
    document.head.appendChild(script);
  }), port);
  await expect.poll(() => daebug.events().filter((e) => e.source === 'browser.issue').length, { timeout: 20_000 }).toBe(1);
  await daebug.settle();
}

test('a script blocked by the CSP', async ({ page, daebug }) => {
  await loadBlockedScript(page, daebug);
});

test('a fetch blocked by CORS', async ({ page, daebug }) => {
  await page.goto('/index.html');
  const port = new URL(page.url()).port;
  const result = await page.evaluate((port) => fetch('http://localhost:' + port + '/index.html').then(() => 'ok', (e) => String(e)), port);
  expect(result).toContain('TypeError');
  // The failed request takes the CORS issue; Chromium's two lines about it came before the fetch failed (the barrier has them).
  await expect.poll(() => daebug.events().filter((e) => e.source === 'network' && e.issue).length, { timeout: 20_000 }).toBe(1);
  await daebug.settle();
});

test('an iframe document the page replaces at once', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => new Promise<void>((resolve) => {
    // Like SVGOMG's preview: a sandboxed iframe showing a large data: SVG, replaced before it finished loading.
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', '');
    frame.src = 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg">' + '<rect width="1" height="1"/>'.repeat(200) + '</svg>');
    document.body.appendChild(frame);
    frame.src = 'about:blank';
    frame.addEventListener('load', () => resolve(), { once: true });
  }));
  await daebug.settle();
});

test.describe('strict', () => {
  test.use({ daebugStrict: true });
  test('strict mode fails on a script the CSP blocked', async ({ page, daebug }) => {
    await loadBlockedScript(page, daebug);
  });

  // The page's own inline script: Chromium locates the violation in the document, whose URL has a query.
  test('strict mode fails on an inline script the CSP blocked', async ({ page, daebug }) => {
    await page.goto('/background.html?csp=' + encodeURIComponent("script-src 'self'") + '&port=44503');
    await expect.poll(async () => { await daebug.settle(); return daebug.events().filter((e) => e.source.startsWith('browser.')).length; }).toBeGreaterThan(0);
  });
});
`;

test('a CSP-blocked script and a CORS-blocked fetch are one structured event each', async () => {
  // An inline run of four tests and the CLI: 22-39 s alone at a load of 21-27, against Playwright's default of 60 s.
  test.setTimeout(180_000);
  const result = await runInlineTest({ 'issues.spec.ts': spec });
  const byTitle = new Map(Object.values(result.reports).map((r: any) => [r.test.title, r]));

  const csp = byTitle.get('a script blocked by the CSP') as any;
  const browserEvents = csp.events.filter((e: any) => e.source.startsWith('browser.'));
  expect(browserEvents, JSON.stringify(csp.events, null, 2)).toHaveLength(1);
  const [issue] = browserEvents;
  expect(issue.source).toBe('browser.issue');
  expect(issue.issue).toMatchObject({ kind: 'csp', code: 'ContentSecurityPolicyIssue', directive: 'script-src-elem', reason: 'url' });
  expect(issue.issue.blockedUrl).toMatch(/^http:\/\/localhost:\d+\/worker\.js$/);
  expect(issue.unexpected).toBe(true);
  expect(issue.message).toContain('worker.js');
  expect(csp.test.status).toBe('passed');
  // The pattern that would declare it expected names this script, not the words every blocked script shares.
  expect(issue.ignorePattern).toBe('/worker.js');
  // A CSP block is unexpected but no error: the header does not read "0 errors (1 unexpected)".
  const cspMd = result.markdown[csp.markdownFile] as string;
  expect(cspMd).toContain('- Events: 0 errors, 1 unexpected (1 blocked by the CSP), 0 console, 0 dropped\n');

  const cors = byTitle.get('a fetch blocked by CORS') as any;
  const about = cors.events.filter((e: any) => e.source !== 'navigation' && e.source !== 'console.log');
  expect(about, JSON.stringify(cors.events, null, 2)).toHaveLength(1);
  expect(about[0].source).toBe('network');
  expect(about[0].network.url).toMatch(/^http:\/\/localhost:\d+\/index\.html$/);
  expect(about[0].issue).toMatchObject({ kind: 'cors', code: 'CorsIssue', reason: 'MissingAllowOriginHeader' });
  // A CORS block is a failed request: unexpected only with daebugNetwork: 'strict', like any other.
  expect(about[0].unexpected).toBeUndefined();

  // A load the page canceled is not a failed request, and no report prints the data: URL in full.
  const replaced = byTitle.get('an iframe document the page replaces at once') as any;
  expect(replaced.events.filter((e: any) => e.source === 'network'), JSON.stringify(replaced.events, null, 2)).toEqual([]);
  for (const text of [JSON.stringify(replaced), ...Object.values(result.markdown)]) expect(text).not.toMatch(/data:image\/svg\+xml,[^…\s"]{60}/);

  // Whatever fails a strict test is among `daebug errors`: the blocked script is; the CORS block (a failed request,
  // not unexpected here) is not.
  const cli = spawnSync(process.execPath, [bin, 'errors', '--json', '--dir', result.reportsDir], { encoding: 'utf8' });
  const listed = (JSON.parse(cli.stdout).errors as any[]).map((e) => [e.test.title, e.source]);
  expect(listed, cli.stdout + cli.stderr).toContainEqual(['a script blocked by the CSP', 'browser.issue']);
  expect(listed).toContainEqual(['strict mode fails on a script the CSP blocked', 'browser.issue']);
  expect(listed.filter(([title]) => title === 'a fetch blocked by CORS')).toEqual([]);

  const strict = byTitle.get('strict mode fails on a script the CSP blocked') as any;
  expect(strict.test.status).toBe('failed');
  expect(result.output).toMatch(/daebug: 1 unexpected error in the browser \(daebugStrict\):\n\s+1\. \[browser\.issue\] in page: .*worker\.js/);

  // An inline script's violation is located in the page's document, whose URL has a query: the JSON keeps the URL,
  // every text shows the position after the path, never glued onto the query (`…?port=44503:6:9`).
  const inline = byTitle.get('strict mode fails on an inline script the CSP blocked') as any;
  expect(inline.test.status).toBe('failed');
  const located = inline.events.filter((e: any) => e.source === 'browser.issue' && e.location?.line > 0);
  expect(located.length, JSON.stringify(inline.events, null, 2)).toBeGreaterThan(0);
  for (const event of located) expect(event.location.url).toMatch(/\/background\.html\?csp=.*&port=44503$/);
  const inlineMd = result.markdown[inline.markdownFile] as string;
  expect(inlineMd).toMatch(/`http:\/\/127\.0\.0\.1:\d+\/background\.html:6:\d+`/);
  const failure = result.output.slice(result.output.indexOf('strict mode fails on an inline script the CSP blocked'));
  expect(failure).toMatch(/↳ http:\/\/127\.0\.0\.1:\d+\/background\.html:6:\d+ \(your code\)\n/);
  for (const text of [inlineMd, failure]) expect(text).not.toMatch(/port=44503:\d/);
  // No line of the failure ends in a dangling mark.
  expect(failure).not.toMatch(/ ·$/m);
});
