import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { reportSchema } from '../src/model/schema';
import { buildHttpApp } from './helpers/build-http-app';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';

// Requests located in the app (issue 18 point 6). fixtures/http-app calls a library's fetch wrapper, bundled from
// node_modules/fake-http with a source map: the failed request's initiator names the app's calling line and
// function, not the wrapper's fetch on top of the stack. Run on both capture paths: Playwright's own session (the
// tap) and daebug's own sessions.
const spec = `
import { test, expect } from 'daebug';

test('wrapper calls fetch', async ({ page, daebug }) => {
  await page.goto('/http-app/index.html');
  await page.evaluate(() => (window as any).httpApp.showUser());
  await expect.poll(() => daebug.errors().length).toBe(1);
  await daebug.settle();
});

test('interceptor chain', async ({ page, daebug }) => {
  await page.goto('/http-app/index.html');
  await page.evaluate(() => (window as any).httpApp.showTeam());
  await expect.poll(() => daebug.errors().length).toBe(1);
  await daebug.settle();
});

test.describe('async stacks', () => {
  test.use({ daebugAsyncStacks: true });
  test('interceptor chain with async stacks', async ({ page, daebug }) => {
    await page.goto('/http-app/index.html');
    await page.evaluate(() => (window as any).httpApp.showTeam());
    await expect.poll(() => daebug.errors().length).toBe(1);
    await daebug.settle();
  });
});

test.describe('strict', () => {
  test.use({ daebugNetwork: 'strict' });
  test('strict request', async ({ page, daebug }) => {
    await page.goto('/http-app/index.html');
    await page.evaluate(() => (window as any).httpApp.showUser());
    await expect.poll(() => daebug.errors().length).toBe(1);
    await daebug.settle();
  });
  test('strict interceptor chain', async ({ page, daebug }) => {
    await page.goto('/http-app/index.html');
    await page.evaluate(() => (window as any).httpApp.showTeam());
    await expect.poll(() => daebug.errors().length).toBeGreaterThanOrEqual(1);
    await daebug.settle();
  });
});
`;

const usersTs = fs.readFileSync(path.resolve(__dirname, '..', 'fixtures', 'http-app', 'src', 'users.ts'), 'utf8').split('\n');
const lineOf = (text: string) => usersTs.findIndex((l) => l.includes(text)) + 1;
const getJsonLine = lineOf('await getJson(');
const requestLine = lineOf('return request(');

const runs: Record<'tap' | 'own', InlineRunResult | undefined> = { tap: undefined, own: undefined };

function report(paths: 'tap' | 'own', title: string): { json: any; md: string } {
  const run = runs[paths]!;
  const entry = Object.entries(run.reports).find(([, r]) => r.test.title === title);
  if (!entry) throw new Error(`no report for ${title}:\n${run.output.slice(-3000)}`);
  return { json: entry[1], md: run.markdown[entry[0].replace(/\.json$/, '.md')] ?? '' };
}

const failedRequest = (json: any, pathname: string) => json.events.find((e: any) => e.source === 'network' && new URL(e.network.url).pathname === pathname);

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  buildHttpApp();
  runs.tap = await runInlineTest({ 'http.spec.ts': spec });
  runs.own = await runInlineTest({ 'http.spec.ts': spec }, { env: { DAEBUG_OWN_SESSIONS: '1' } });
});

for (const paths of ['tap', 'own'] as const) {
  test(`${paths}: a 404 from a library's fetch wrapper names the app's calling line and function, not the wrapper`, () => {
    const { json, md } = report(paths, 'wrapper calls fetch');
    expect(json.test.status, runs[paths]!.output).toBe('passed');
    reportSchema.parse(json);
    const request = failedRequest(json, '/api/users/7');
    // CDP's top frame is the wrapper's fetch call, in the bundle: kept as CDP said it.
    expect(request.network.initiator).toMatchObject({ type: 'script', url: expect.stringMatching(/\/http-app\/dist\/app\.js$/), line: 1 });
    // The app's call, after source mapping: src/users.ts, loadUser.
    expect(request.network.initiator.original).toEqual({ source: 'src/users.ts', line: getJsonLine, column: expect.any(Number), functionName: 'loadUser' });
    // The whole stack is the event's frames, the library's on top and folded in the Markdown.
    expect(request.frames[0]).toMatchObject({ library: 'fake-http', original: { source: 'node_modules/fake-http/index.js' } });
    expect(request.frames.find((f: any) => f.userCode)?.original).toMatchObject({ source: 'src/users.ts', line: getJsonLine, functionName: 'loadUser' });
    expect(md).toMatch(new RegExp(`\\nresource: fetch\\ninitiator: script src/users\\.ts:${getJsonLine}:\\d+ in loadUser \\(through fake-http\\)\\n`));
    // The body that is not JSON: its hint names the failed response and the app call that made it.
    const rejection = json.events.find((e: any) => e.source === 'unhandledrejection');
    expect(rejection.hint).toMatch(new RegExp(`GET \\S+/api/users/7 \\(requested in src/users\\.ts:${getJsonLine}:\\d+ in loadUser\\) returned 404 Not Found; its body is not JSON`));
  });

  test(`${paths}: behind a promise chain (axios' interceptors), the app's call is found only in the async parent`, () => {
    const plain = failedRequest(report(paths, 'interceptor chain').json, '/api/teams/3');
    // Without async stacks Chromium sends only the synchronous stack: the library's frames, no app frame.
    expect(plain.frames.every((f: any) => !f.userCode)).toBe(true);
    expect(plain.network.initiator.original).toBeUndefined();
    // Its URL locates the app's call instead: the template literal in loadTeam, said to be found by the URL, not a frame.
    expect(plain.foundInSource).toEqual([{ source: 'src/users.ts', line: requestLine, by: 'url', snippet: expect.stringMatching(new RegExp(`^> +${requestLine} \\| `, 'm')) }]);
    const plainMd = report(paths, 'interceptor chain').md;
    expect(plainMd).toMatch(new RegExp(`\\nfound in your source by its URL: src/users\\.ts:${requestLine}\\n`));
    expect(plainMd).not.toMatch(new RegExp(`initiator: \\S+ src/users\\.ts:${requestLine}`));
    const withAsync = failedRequest(report(paths, 'interceptor chain with async stacks').json, '/api/teams/3');
    expect(withAsync.frames.some((f: any) => f.asyncParent === 'Promise.then')).toBe(true);
    expect(withAsync.network.initiator.original).toEqual({ source: 'src/users.ts', line: requestLine, column: expect.any(Number), functionName: 'loadTeam' });
    // A frame of the app was found: nothing is searched for by text.
    expect(withAsync.foundInSource).toBeUndefined();
  });

  test(`${paths}: daebugNetwork 'strict': the request's hint, code frame and root cause point at the app's call`, () => {
    const { json, md } = report(paths, 'strict request');
    expect(json.test.status, runs[paths]!.output).toBe('passed');
    const request = failedRequest(json, '/api/users/7');
    expect(request.unexpected).toBe(true);
    expect(request.hint).toMatch(new RegExp(`\\(requested in src/users\\.ts:${getJsonLine}:\\d+\\) was answered 404`));
    expect(request.snippet).toContain(`> ${String(getJsonLine).padStart(2)} | ${usersTs[getJsonLine - 1]}`);
    expect(md).toContain(`src/users.ts:${getJsonLine}:`);
    expect(md).not.toMatch(/Where: `node_modules\/fake-http/);
  });

  test(`${paths}: daebugNetwork 'strict', no app frame on the stack: the report names the app's call by the request's URL`, () => {
    const { json, md } = report(paths, 'strict interceptor chain');
    expect(json.test.status, runs[paths]!.output).toBe('passed');
    expect(failedRequest(json, '/api/teams/3').unexpected).toBe(true);
    // What an agent reads: the entry and the Root cause name the line, found by its URL, not as a frame.
    const found = `found in your source by its URL: \`src/users.ts:${requestLine}\``;
    expect(md).toMatch(new RegExp(`^\\d\\. \`network\` in \`page\` at [\\d:]+ \\(no frame of the stack is in your code; ${found.replace(/[.()]/g, '\\$&')}\\)`, 'm'));
    const rootCause = md.slice(md.indexOf('## Root cause'), md.indexOf('## Unexpected errors'));
    // The request explains the JSON parse error of its body, so it is the root cause.
    expect(rootCause).toMatch(/^The `network` in `page` at /m);
    expect(rootCause).toContain(`- Where: no frame of its stack is in your code; ${found}; it surfaced in \`node_modules/fake-http/index.js:`);
  });
}
