import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';
import { askTool } from './helpers/mcp-client';
import { parseSeedErrors } from './helpers/seed-error-blocks';

// fixtures/react/src is a React 19 app bundled in development mode (linked source map) by e2e/global-setup.ts.
const appSrc = path.resolve(__dirname, '..', 'fixtures', 'react', 'src');
const bundle = /\/react\/dist\/app\.js$/;

/** `src/<file>:<line>:<col>` of `token` on the line holding `lineText` in a fixture source, and that line. */
function at(file: string, lineText: string, token: string): { where: string; line: number; column: number; text: string } {
  const lines = fs.readFileSync(path.join(appSrc, file), 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes(lineText));
  if (index === -1) throw new Error(`${lineText} is not in ${file}`);
  const text = lines[index]!;
  const column = text.indexOf(token, text.indexOf(lineText)) + 1;
  return { where: `src/${file}:${index + 1}:${column}`, line: index + 1, column, text };
}

/** The code frame's line for `x`: `> 8 | text`, the number padded to the frame's width. */
function codeLine(x: { line: number; text: string }): RegExp {
  return new RegExp(`^> +${x.line} \\| ${x.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');
}

const spec = `
import { test, expect } from 'daebug';

const click = (page: any, name: string) => page.getByRole('button', { name, exact: true }).click();

test.beforeEach(async ({ page }) => {
  await page.goto('/react/index.html');
});

test('render error caught by an error boundary', async ({ page, daebug }) => {
  await click(page, 'Show prices');
  await expect(page.locator('.fallback')).toBeVisible();
  await daebug.settle();
});

test('caught error logged by the app', async ({ page, daebug }) => {
  await click(page, 'Save');
  await expect(page.getByRole('button', { name: 'Save' })).toHaveAttribute('data-status', 'failed');
  await daebug.settle();
});

test('click handler error', async ({ page, daebug }) => {
  await click(page, 'Remove all');
  await expect.poll(() => daebug.errors().length).toBe(1);
});

test('failed fetch in an effect', async ({ page, daebug }) => {
  await click(page, 'Load profile');
  await expect.poll(() => daebug.errors().some((e) => e.source === 'unhandledrejection')).toBe(true);
});

test('missing image', async ({ page, daebug }) => {
  await click(page, 'Show avatar');
  await expect.poll(() => daebug.events().some((e) => e.message.includes('404'))).toBe(true);
});

test('missing key warning', async ({ page, daebug }) => {
  await click(page, 'Show cart');
  await expect(page.locator('.cart li')).toHaveCount(2);
  await expect.poll(() => daebug.events().some((e) => e.message.includes('"key" prop'))).toBe(true);
});

test('rejection with a cause', async ({ page, daebug }) => {
  await click(page, 'Checkout');
  await expect.poll(() => daebug.errors().length).toBe(1);
  await daebug.settle();
});

test('AggregateError rejection', async ({ page, daebug }) => {
  await click(page, 'Find in stock');
  await expect.poll(() => daebug.errors().length).toBe(1);
  await daebug.settle();
});

test.describe('async stacks', () => {
  test.use({ daebugAsyncStacks: true });
  test('rejection with a cause, async stacks on', async ({ page, daebug }) => {
    await click(page, 'Checkout');
    await expect.poll(() => daebug.errors().length).toBe(1);
    await daebug.settle();
  });
});

test('everything at once', async ({ page, daebug }) => {
  for (const name of ['Show prices', 'Save', 'Remove all', 'Load profile', 'Show avatar', 'Show cart']) await click(page, name);
  await expect(page.locator('.fallback')).toBeVisible();
  await expect(page.locator('.cart li')).toHaveCount(2);
  await expect.poll(() => daebug.events().filter((e) => e.message.includes('404')).length).toBe(2);
  await expect.poll(() => daebug.errors().length).toBe(2);
  await expect.poll(() => daebug.events().filter((e) => e.source === 'console.error').length).toBe(3);
  await daebug.settle();
});
`;

test.describe.configure({ mode: 'default' });

let run: InlineRunResult;
const byTitle = (title: string) => {
  const entry = Object.entries(run.reports).find(([, r]) => r.test.title === title);
  if (!entry) throw new Error(`no report for ${title}:\n${run.output}`);
  const json = entry[1];
  expect(json.test.status, run.output).toBe('passed');
  return { json, md: run.markdown[entry[0].replace(/\.json$/, '.md')] ?? '' };
};
const one = (json: any, source: string) => {
  const found = json.events.filter((e: any) => e.source === source);
  expect(found, JSON.stringify(json.events.map((e: any) => e.source))).toHaveLength(1);
  return found[0];
};
/** The frame at the event's location (where it was thrown), mapped to `expected` in the .tsx/.ts source. */
function expectThrownAt(event: any, expected: { line: number; column: number }, source: string, functionName?: string): void {
  expect(event.location.url).toMatch(bundle);
  const top = event.frames[0];
  expect({ url: top.url, line: top.line, column: top.column }).toEqual(event.location);
  expect(top).toMatchObject({ userCode: true, original: { source, line: expected.line, column: expected.column, ...(functionName ? { functionName } : {}) } });
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInlineTest({ 'react.spec.ts': spec });
});

const render = at('PriceTag.tsx', 'const label = product.price!.amount.toFixed(2);', 'amount');
const save = at('product.ts', 'return `${product.price!.amount', 'amount');
const click = at('App.tsx', 'selected!.name.trim();', 'name');

test('a render error caught by an error boundary: React logs it with the Error as %o; it is located in the component', () => {
  const { json, md } = byTitle('render error caught by an error boundary');
  const event = one(json, 'console.error');
  expect(event.message).toMatch(/^TypeError: Cannot read properties of undefined \(reading 'amount'\)\n\nThe above error occurred in the <PriceTag> component\./);
  expectThrownAt(event, render, 'src/PriceTag.tsx', 'PriceTag');
  expect(event.loggedAt.url).toMatch(bundle);
  expect(event.loggedAt).not.toEqual(event.location);
  // React's own frames come from node_modules paths in the map: what the folding of library frames relies on.
  const react = event.frames.filter((f: any) => f.original?.source.startsWith('node_modules/react-dom/'));
  expect(react.length).toBeGreaterThan(3);
  expect(react.every((f: any) => f.userCode === false)).toBe(true);
  expect(event.snippet).toMatch(codeLine(render));
  expect(event.hint).toContain('The value before `.amount` is undefined in src/PriceTag.tsx');
  expect(md).toContain(`${render.where} in PriceTag`);
  expect(md).toMatch(codeLine(render));
  // React's console.error call is React's own: the call site maps into react-dom.
  expect(event.loggedAt.original.source).toMatch(/^node_modules\/react-dom\//);
  // Its place inside react-dom tells nothing (issue 37): the report says who logged it instead.
  expect(md).not.toMatch(/logged at [^\n]*node_modules\/react-dom/);
  expect(md).toMatch(/^logged by React's error-boundary log$/m);
  // One stack: React's frames fold into one line each run, the component's frame is marked.
  expect(md).toMatch(/… \d+ frames in react-dom/);
  expect(md).toMatch(/^## Root cause$/m);
  expect(md).toContain(`- Where: \`${render.where} in PriceTag\``);
  expect(md).toContain('- React component `<PriceTag>`');
});

test("an error logged by the app's catch names where it was thrown, with the async caller, and the console call as loggedAt", () => {
  const { json, md } = byTitle('caught error logged by the app');
  const event = one(json, 'console.error');
  expect(event.message).toBe("save failed TypeError: Cannot read properties of undefined (reading 'amount')");
  expectThrownAt(event, save, 'src/product.ts', 'formatPrice');
  const names = event.frames.filter((f: any) => f.userCode).map((f: any) => `${f.original.source} ${f.original.functionName}`);
  expect(names).toEqual(['src/product.ts formatPrice', 'src/SaveButton.tsx saveCart', 'src/SaveButton.tsx save']);
  expect(event.stack).toContain('at async save');
  expect(event.loggedAt.url).toMatch(bundle);
  expect(event.loggedAt.line).toBeGreaterThan(event.location.line);
  expect(event.snippet).toMatch(codeLine(save));
  expect(md).toContain(`${save.where} in formatPrice`);
  expect(md).toContain(`${at('SaveButton.tsx', 'setStatus(await saveCart(products));', 'await').where} in save`);
});

test('a click handler error is located in the handler, React dispatch frames are node_modules', () => {
  const { json, md } = byTitle('click handler error');
  const event = one(json, 'window.onerror');
  expect(event.message).toBe("TypeError: Cannot read properties of undefined (reading 'name')");
  expectThrownAt(event, click, 'src/App.tsx', 'removeAll');
  expect(event.frames.slice(1).every((f: any) => f.original?.source.startsWith('node_modules/react-dom/'))).toBe(true);
  expect(event.snippet).toMatch(codeLine(click));
  expect(md).toContain(`\`window.onerror\` in \`page\` at ${event.ts} at \`${click.where} in removeAll\``);
});

test('a failed fetch in an effect: the 404 names the URL, the JSON rejection has no user frame and says so, no <!doctype html> code frame', () => {
  const { json, md } = byTitle('failed fetch in an effect');
  // With daebugNetwork's default ('report') the 404 is a network event, Chromium's own line merged into it.
  const network = one(json, 'network');
  expect(network.network).toMatchObject({ method: 'GET', status: 404, resourceType: 'fetch' });
  expect(network.network.url).toMatch(/\/api\/missing$/);
  // The script that made the request, mapped to the app's source.
  expect(network.network.initiator.original.source).toMatch(/^src\/Profile\.tsx$/);
  expect(md).toMatch(/initiator: script src\/Profile\.tsx:\d+:\d+/);
  expect(json.events.filter((e: any) => e.source === 'browser.network')).toEqual([]);
  expect(md).toMatch(/```Error network\nGET http:\/\/127\.0\.0\.1:\d+\/api\/missing 404/);
  const rejection = one(json, 'unhandledrejection');
  expect(rejection.message).toBe('SyntaxError: Unexpected token \'o\', "not found" is not valid JSON');
  expect(rejection.location).toBeUndefined();
  expect(rejection.frames ?? []).toEqual([]);
  expect(rejection.snippet).toBeUndefined();
  expect(rejection.hint).toContain('No frame of this rejection is in your code');
  // The failed response just before it explains the parse error: the hint names it.
  // …and the app's own line that requested it.
  expect(rejection.hint).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/missing \(requested in src\/Profile\.tsx:\d+:\d+\) returned 404/);
  expect(md).not.toContain('<!doctype html>');
  expect(md).not.toContain('index.html:1:2');
});

test('a 404 image is reported with its URL', () => {
  const { json, md } = byTitle('missing image');
  const network = one(json, 'browser.network');
  expect(network.message).toBe('Failed to load resource: the server responded with a status of 404 (Not Found)');
  expect(network.location.url).toMatch(/\/react\/missing-avatar\.png$/);
  // An image is not among the request kinds daebugNetwork reports: Chromium's line stays, and names its URL.
  expect(md).toMatch(/```Text browser\.network\nFailed to load resource: the server responded with a status of 404 \(Not Found\)\nurl: http:\/\/127\.0\.0\.1:\d+\/react\/missing-avatar\.png/);
});

test("React's missing key warning is captured with its component and React's frames", () => {
  const { json, md } = byTitle('missing key warning');
  const warning = one(json, 'console.error');
  expect(warning.message).toMatch(/^Each child in a list should have a unique "key" prop\.\n\nCheck the render method of `CartList`\./);
  expect(warning.location.url).toMatch(bundle);
  expect(warning.frames.length).toBeGreaterThan(2);
  expect(warning.frames[0].original.source).toMatch(/^node_modules\/react-dom\//);
  expect(md).toContain('Each child in a list should have a unique "key" prop.');
});

test('a rejection with a cause: the cause is data with its own stack, location and mapped frames', () => {
  const { json } = byTitle('rejection with a cause');
  const rejection = one(json, 'unhandledrejection');
  expect(rejection.message).toBe('Error: checkout failed');
  expectThrownAt(rejection, at('checkout.ts', "throw new Error('checkout failed'", 'new Error'), 'src/checkout.ts', 'placeOrder');
  expect(rejection.cause).toHaveLength(1);
  const [cause] = rejection.cause;
  const validation = at('checkout.ts', 'if (unpriced) throw new RangeError(', 'new RangeError');
  expect(cause).toMatchObject({ name: 'RangeError', message: 'Chair has no price', stack: expect.stringMatching(/^RangeError: Chair has no price\n {4}at /) });
  expect(cause.location.url).toMatch(bundle);
  expect(cause.frames[0]).toMatchObject({ userCode: true, original: { source: 'src/checkout.ts', line: validation.line, column: validation.column, functionName: 'validateCart' } });
  expect(rejection.stack).toContain('\nCaused by: RangeError: Chair has no price');
});

test('with daebugAsyncStacks, a rejection lists the click handler that started the async work', () => {
  const on = one(byTitle('rejection with a cause, async stacks on').json, 'unhandledrejection');
  const off = one(byTitle('rejection with a cause').json, 'unhandledrejection');
  const handler = at('App.tsx', '<button onClick={() => void placeOrder(products)}>Checkout</button>', 'placeOrder');
  const inApp = (event: any) => event.frames.filter((f: any) => f.original?.source === 'src/App.tsx');
  expect(inApp(off)).toEqual([]);
  expect(on.frames[0].original).toEqual(off.frames[0].original);
  expect(inApp(on)[0].original).toMatchObject({ line: handler.line, column: handler.column });
  expect(on.frames[1].asyncParent).toBeTruthy();
  expect(off.frames.some((f: any) => f.asyncParent)).toBe(false);
});

test("an AggregateError's members are data, each mapped to where it was thrown", () => {
  const { json } = byTitle('AggregateError rejection');
  const rejection = one(json, 'unhandledrejection');
  expect(rejection.message).toBe('AggregateError: All promises were rejected');
  const thrown = at('checkout.ts', 'throw new Error(`${product.name} is out of stock`);', 'new Error');
  expect(rejection.aggregate.map((m: any) => m.message)).toEqual(['Lamp is out of stock', 'Chair is out of stock']);
  for (const member of rejection.aggregate) {
    expect(member.name).toBe('Error');
    expect(member.frames[0]).toMatchObject({ userCode: true, original: { source: 'src/checkout.ts', line: thrown.line, column: thrown.column, functionName: 'checkStock' } });
  }
});

test('seven events of a React app: every one in the report, the root cause (the uncaught click error, not the key warning) at its original file:line', () => {
  const { json, md } = byTitle('everything at once');
  const sources = json.events.map((e: any) => e.source).filter((s: string) => s !== 'navigation' && s !== 'console.info');
  expect(sources.sort()).toEqual(['browser.network', 'console.error', 'console.error', 'console.error', 'network', 'unhandledrejection', 'window.onerror']);
  for (const text of ['The above error occurred in the <PriceTag> component', 'save failed', "reading 'name'", 'not valid JSON', 'Failed to load resource: the server responded with a status of 404', '/api/missing 404', 'unique "key" prop']) {
    expect(md, text).toContain(text);
  }
  for (const where of [render.where, save.where, click.where]) expect(md).toContain(where);
  expect(md).toMatch(codeLine(render));
  // The uncaught error thrown in the app's own code ranks first: ahead of the errors logged, the rejection with no
  // frame in the app and React's key warning, and no component is borrowed from a neighbouring event.
  expect(md).toMatch(/^## Root cause\n\nThe `window\.onerror` in `page` at .*\n\n- Where: `src\/App\.tsx:\d+:\d+ in removeAll`/m);
  const rootCause = md.slice(md.indexOf('## Root cause'), md.indexOf('## Unexpected errors'));
  expect(rootCause).toContain(`- Where: \`${click.where} in removeAll\``);
  expect(rootCause).toMatch(/^- Chosen: uncaught error in your code, ahead of .*1 React warning.*$/m);
  expect(rootCause).toMatch(/^- \d+ independent problems, fix each: .*Look at them in this order \(the first for the reason under Chosen\):$/m);
  expect(rootCause).toMatch(new RegExp(`^  1\\. unexpected error \\d below \\(this one\\): uncaught error in your code; at \`${click.where.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in removeAll\`$`, 'm'));
  // The chosen error's own lines borrow no component and no warning's words.
  expect(rootCause.slice(0, rootCause.indexOf(' independent problems'))).not.toMatch(/component `<|key" prop/);
  expect(rootCause).not.toMatch(/key" prop/);
  // React's own log of the render error is React's, not a warning: it logged an Error thrown in PriceTag.
  expect(rootCause).toMatch(/^  \d\. unexpected error \d below: error logged by React's error-boundary log, with a frame in your code; at `src\/PriceTag\.tsx:\d+:\d+ in PriceTag`$/m);
  expect(rootCause).toMatch(/^  \d\. unexpected error \d below: a React warning about your component `CartList` \(no frame in your code\); component `<CartList>` at `src\/CartList\.tsx:\d+` \(found by name\); found in your source: the `\.map\(` in `CartList`: `src\/CartList\.tsx:\d+`$/m);
  // Each problem once: the key warning (an unexpected console.error) is not listed again under Warnings.
  expect(md.split('unique "key" prop').length - 1).toBe(1);
});

test('seven events of a React app fit in an 8 KB Markdown report', () => {
  const { json, md } = byTitle('everything at once');
  expect(Buffer.byteLength(md)).toBeLessThanOrEqual(8192);
  // Still every event, and the root cause's original file:line.
  expect(md).toContain(`- Where: \`${click.where} in removeAll\``);
  for (const text of ["reading 'amount'", 'save failed', "reading 'name'", 'not valid JSON', '/api/missing 404', 'missing-avatar.png', 'unique "key" prop']) expect(md, text).toContain(text);
  expect(md).not.toMatch(/more transcript entries left out|more unexpected errors in the JSON report|did not fit/);
  expect(json.events.filter((e: any) => e.unexpected).length).toBeGreaterThanOrEqual(4);
});

test("daebug errors names the report's line for errors with no frame in the app: the key warning's .map(, the 404's caller", async () => {
  const cli = spawnSync(process.execPath, [path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js'), 'errors', '--limit', '100', '--test', '/missing key warning|failed fetch in an effect/'], { cwd: run.dir, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: 30_000 });
  expect(cli.status, cli.stderr).toBe(0);
  const { blocks } = parseSeedErrors(cli.stdout);
  const key = blocks.find((b) => b.message.startsWith('Each child in a list'))!;
  const keyMap = at('CartList.tsx', '.map(', '.map(');
  expect(key.location, cli.stdout).toEqual({ file: 'src/CartList.tsx', line: keyMap.line, column: 1 });
  expect(key.fields['found']).toMatch(/^found in your source: the \.map\( in CartList; no frame of the stack is in your code$/);
  // The true stack follows, React's frames folded.
  expect(key.stack.some((line) => line.kind === 'folded' && /react-dom/.test(line.where)), cli.stdout).toBe(true);
  const rejection = blocks.find((b) => /is not valid JSON/.test(b.message))!;
  const fetchCall = at('Profile.tsx', 'fetch(', 'fetch(');
  expect(rejection.location, cli.stdout).toMatchObject({ file: 'src/Profile.tsx', line: fetchCall.line });
  expect(rejection.fields['found']).toMatch(/^the app's call that made the request behind it \(GET http:\/\/127\.0\.0\.1:\d+\/api\/missing 404/);
  // The Markdown names the same lines.
  expect(byTitle('missing key warning').md).toContain(`\`src/CartList.tsx:${keyMap.line}\``);
  expect(byTitle('failed fetch in an effect').md).toMatch(new RegExp(`the app's call that made the request behind it .*: \`src/Profile\\.tsx:${fetchCall.line}:\\d+\``));
  // The MCP tool answers with the same blocks.
  const answer = await askTool(run.dir, 'reports', 'daebug_get_errors', { limit: 100, test: '/missing key warning|failed fetch in an effect/' });
  expect(answer.isError).toBe(false);
  expect(answer.text).toBe(cli.stdout.trimEnd());
});

test("an image the app names that 404s is located at the line naming its URL: in the Markdown, by daebug errors and the MCP tool alike", async () => {
  const img = at('Avatar.tsx', 'src="/react/missing-avatar.png"', '<img');
  const place = `src/Avatar.tsx:${img.line}`;
  // The image's load has no stack (React set the attribute, the browser loaded it later): found by its URL.
  for (const title of ['missing image', 'everything at once']) {
    const line = one(byTitle(title).json, 'browser.network');
    expect(line.foundInSource, title).toEqual([{ source: 'src/Avatar.tsx', line: img.line, by: 'url', snippet: expect.stringMatching(codeLine(img)) }]);
    // Not an unexpected error: Chromium's line never was one, and strict mode does not fail on it now either.
    expect(line.unexpected, title).toBeFalsy();
  }
  const { md } = byTitle('everything at once');
  // Counted among the problems, after the unexpected errors and the warnings, with the line found.
  const rootCause = md.slice(md.indexOf('## Root cause'), md.indexOf('## Unexpected errors'));
  expect(rootCause).toMatch(/^- 6 independent problems, fix each: /m);
  expect(rootCause).toMatch(new RegExp(`^  6\\. failed load in the transcript: \`/react/missing-avatar\\.png 404\`; found in your source by its URL: \`${place.replace(/\./g, '\\.')}\`$`, 'm'));
  // The transcript's entry names the line and shows its code right under it.
  const entry = md.slice(md.indexOf('```Text browser.network'));
  expect(entry.slice(0, entry.indexOf('\n```\n'))).toMatch(new RegExp(`^url: http://127\\.0\\.0\\.1:\\d+/react/missing-avatar\\.png\\nfound in your source by its URL: ${place.replace(/\./g, '\\.')}\\n\\n  1 \\| export function Avatar`, 'm'));
  expect(entry.slice(0, entry.indexOf('\n```\n'))).toMatch(codeLine(img));

  const cli = spawnSync(process.execPath, [path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js'), 'errors', '--limit', '100', '--test', '/missing image|everything at once/'], { cwd: run.dir, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: 30_000 });
  expect(cli.status, cli.stderr).toBe(0);
  const { blocks } = parseSeedErrors(cli.stdout);
  const loads = blocks.filter((b) => b.message === 'Failed to load resource: the server responded with a status of 404 (Not Found)');
  expect(loads.map((b) => b.fields['test']), cli.stdout).toEqual(['react.spec.ts › missing image', 'react.spec.ts › everything at once']);
  for (const block of loads) {
    expect(block.location, cli.stdout).toEqual({ file: 'src/Avatar.tsx', line: img.line, column: 1 });
    expect(block.fields['found']).toBe('found in your source by its URL; no frame of the stack is in your code');
    expect(block.fields['code']).toMatch(new RegExp(`^${place.replace(/\./g, '\\.')}\\n`));
    expect(block.fields['code']).toMatch(codeLine(img));
    expect(block.fields['kind']).toBe('browser.network (a resource the page could not load)');
    expect(block.fields['url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/react\/missing-avatar\.png$/);
  }
  const answer = await askTool(run.dir, 'reports', 'daebug_get_errors', { limit: 100, test: '/missing image|everything at once/' });
  expect(answer.isError).toBe(false);
  expect(answer.text).toBe(cli.stdout.trimEnd());
});
