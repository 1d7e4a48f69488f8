import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';

// fixtures/app/src is bundled (minified, with maps) into fixtures/app/dist by e2e/global-setup.ts.
const appSrc = path.resolve(__dirname, '..', 'fixtures', 'app', 'src');

/** `src/<file>:<line>:<col>` of `token` on the line holding `lineText` in a fixture source. */
function at(file: string, lineText: string, token: string): { where: string; line: number; text: string } {
  const lines = fs.readFileSync(path.join(appSrc, file), 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes(lineText));
  if (index === -1) throw new Error(`${lineText} is not in ${file}`);
  const text = lines[index]!;
  return { where: `src/${file}:${index + 1}:${text.indexOf(token, text.indexOf(lineText)) + 1}`, line: index + 1, text };
}

const spec = `
import { test, expect } from 'daebug';

async function firstError(daebug: any) {
  await expect.poll(() => daebug.errors().length, { timeout: 5000 }).toBeGreaterThan(0);
}

test('uncaught error', async ({ page, daebug }) => {
  await page.goto('/app/app.html');
  await page.evaluate(() => (window as any).daebugApp.checkoutLater());
  await firstError(daebug);
});

test('rejection', async ({ page, daebug }) => {
  await page.goto('/app/app.html');
  await page.evaluate(() => (window as any).daebugApp.loadProfileLater());
  await firstError(daebug);
});

test('worker error', async ({ page, daebug }) => {
  await page.goto('/app/app.html');
  await page.evaluate(() => (window as any).daebugApp.startWorker());
  await firstError(daebug);
});

test('eval job error', async ({ page, daebug }) => {
  await page.goto('/app/app.html');
  await expect(daebug.eval(page, () => {
    const app = (window as any).daebugApp;
    return app.checkoutNow();
  })).rejects.toThrow('price');
});

test('logged caught error', async ({ page, daebug }) => {
  await page.goto('/app/app.html');
  await page.evaluate(() => (window as any).daebugApp.saveCart());
  await daebug.settle();
});

test('inline map', async ({ page, daebug }) => {
  await page.goto('/app/app.html?bundle=inline');
  await page.evaluate(() => (window as any).daebugInline.greetLater());
  await firstError(daebug);
});

for (const bundle of ['broken-404', 'broken-malformed', 'broken-slow', 'broken-nomap']) {
  test(bundle, async ({ page, daebug }) => {
    await page.goto('/app/app.html?bundle=' + bundle);
    await page.evaluate(() => (window as any).daebugApp.checkoutLater());
    await firstError(daebug);
  });
}

test.describe('strict', () => {
  test.use({ daebugStrict: true });
  test('strict uncaught error', async ({ page, daebug }) => {
    await page.goto('/app/app.html');
    await page.evaluate(() => (window as any).daebugApp.checkoutLater());
    await firstError(daebug);
  });
});
`;

test.describe.configure({ mode: 'default' });

let run: InlineRunResult;
const byTitle = (title: string) => {
  const entry = Object.entries(run.reports).find(([, r]) => r.test.title === title);
  if (!entry) throw new Error(`no report for ${title}:\n${run.output}`);
  return { json: entry[1], md: run.markdown[entry[0].replace(/\.json$/, '.md')] ?? '' };
};

test.beforeAll(async () => {
  test.setTimeout(180_000);
  run = await runInlineTest({ 'maps.spec.ts': spec });
});

const thrown = at('pricing.ts', 'const unit = item.product!.price;', 'price;');

test('an uncaught error names the original .ts file, line and function, with a code frame and a hint', () => {
  const { json, md } = byTitle('uncaught error');
  const error = json.events.find((e: any) => e.source === 'window.onerror');
  expect(error.frames[0]).toMatchObject({ url: expect.stringContaining('/app/dist/app.js'), userCode: true, original: { source: 'src/pricing.ts', line: thrown.line, functionName: 'priceOf' } });
  expect(error.frames.map((f: any) => f.original?.functionName)).toEqual(expect.arrayContaining(['priceOf', 'cartTotal', 'checkout', 'checkoutNow']));
  expect(error.stack).toContain('/app/dist/app.js:1:');
  expect(md).toContain(`  > ${thrown.where} in priceOf`);
  expect(md).toContain(`${at('cart.ts', 'total += priceOf(item);', 'priceOf').where} in cartTotal`);
  expect(md).toContain(`> ${thrown.line} | ${thrown.text}`);
  const caret = md.split('\n')[md.split('\n').indexOf(`> ${thrown.line} | ${thrown.text}`) + 1]!;
  expect(caret.indexOf('^') - caret.indexOf('|') - 2).toBe(thrown.text.indexOf('price;'));
  expect(error.snippet).toContain(`> ${thrown.line} | ${thrown.text}`);
  expect(error.hint).toMatch(/^Please check:\n- The value before `\.price` is undefined in src\/pricing\.ts:/);
  // The exact pattern to allow it is in the JSON only; the Markdown says once, at its end, when to use one.
  expect(error.ignorePattern).toBe("TypeError: Cannot read properties of undefined (reading 'price')");
  expect(md).not.toContain('add to daebugIgnore');
  expect(md).toMatch(/\n## If an error is expected\n\nIf one of these errors is the app's intended behaviour in this test \(not a bug\).*`ignorePattern`/);
  expect(md).toContain(`\`window.onerror\` in \`page\` at ${error.ts} at \`${thrown.where} in priceOf\``);
});

test('a caught Error logged with console.error is located where it was thrown, with the console call as "logged at"', () => {
  const { json, md } = byTitle('logged caught error');
  const logged = json.events.find((e: any) => e.source === 'console.error');
  expect(logged.message).toMatch(/^save failed TypeError: Cannot read properties of undefined \(reading 'price'\)/);
  expect(logged.frames[0]).toMatchObject({ userCode: true, original: { source: 'src/pricing.ts', line: thrown.line, functionName: 'priceOf' } });
  expect(logged.frames.map((f: any) => f.original?.functionName)).toEqual(expect.arrayContaining(['priceOf', 'checkoutNow', 'saveCart']));
  expect(logged.location.url).toContain('/app/dist/app.js');
  expect(logged.loggedAt.url).toContain('/app/dist/app.js');
  expect(logged.loggedAt.column).not.toBe(logged.location.column);
  expect(logged.snippet).toContain(`> ${thrown.line} | ${thrown.text}`);
  expect(logged.hint).toMatch(/^Please check:\n- The value before `\.price` is undefined in src\/pricing\.ts:/);
  expect(md).toContain(`${thrown.where} in priceOf`);
  // The console call site is source-mapped too: the line that logged is main.ts's console.error.
  const logLine = fs.readFileSync(path.join(appSrc, 'main.ts'), 'utf8').split('\n').findIndex((l) => l.includes("console.error('save failed'")) + 1;
  expect(logged.loggedAt.original).toMatchObject({ source: 'src/main.ts', line: logLine });
  expect(md).toMatch(new RegExp(`logged at src/main\\.ts:${logLine}:\\d+`));
  expect(md).toMatch(new RegExp(`^- Where: \`${thrown.where.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in priceOf\`; logged at \`src/main\\.ts:${logLine}\`$`, 'm'));
});

test('a rejection names parseProfile in src/api.ts and suggests await or catch', () => {
  const { json, md } = byTitle('rejection');
  const rejection = json.events.find((e: any) => e.source === 'unhandledrejection');
  const expected = at('api.ts', "throw new Error('profile payload has no id');", 'new Error');
  expect(md).toContain(`  > ${expected.where} in parseProfile`);
  expect(rejection.snippet).toContain(`> ${expected.line} | ${expected.text}`);
  expect(rejection.hint).toContain('`await` the call that started it');
});

test('a worker error is mapped through the worker bundle map', () => {
  const { json, md } = byTitle('worker error');
  const error = json.events.find((e: any) => e.source === 'self.onerror');
  const expected = at('jobs.ts', 'throw new RangeError(', 'new RangeError');
  expect(error.realm).toBe('worker:worker.js');
  expect(error.frames[0].original).toEqual({ source: 'src/jobs.ts', line: expected.line, column: Number(expected.where.split(':').pop()), functionName: 'validateJob' });
  expect(md).toContain(`  > ${expected.where} in validateJob`);
  expect(md).toContain(`${at('jobs.ts', 'validateJob(job);', 'validateJob').where} in runJob`);
  expect(error.snippet).toContain(`> ${expected.line} | ${expected.text}`);
});

test('a daebug.eval job error is mapped in the page bundle and back to the spec line that called it', () => {
  const { json, md } = byTitle('eval job error');
  const job = json.jobs.find((j: any) => j.kind === 'eval');
  expect(job.ok).toBe(false);
  expect(job.error.frames[0]).toMatchObject({ userCode: true, original: { source: 'src/pricing.ts', line: thrown.line, functionName: 'priceOf' } });
  const specLines = spec.split('\n');
  const evalLine = specLines.findIndex((l) => l.includes('return app.checkoutNow();')) + 1;
  const callLine = specLines.findIndex((l) => l.includes('await expect(daebug.eval(page')) + 1;
  const inSpec = job.error.frames.filter((f: any) => f.original?.source === 'maps.spec.ts').map((f: any) => f.original.line);
  expect(inSpec).toEqual([evalLine, callLine]);
  expect(md).toContain(`maps.spec.ts:${evalLine}:${specLines[evalLine - 1]!.indexOf('checkoutNow') + 1}`);
  expect(job.error.snippet).toContain(`> ${thrown.line} | ${thrown.text}`);
  expect(job.error.hint).toContain('Please check:');
  expect(md).toContain(`  > ${thrown.where} in priceOf`);
});

test('an inline data: map is read from the script itself', () => {
  const { json, md } = byTitle('inline map');
  const error = json.events.find((e: any) => e.source === 'window.onerror');
  const expected = at('inline.ts', "return name!.toUpperCase() + '!';", 'toUpperCase');
  expect(error.frames[0].original).toEqual({ source: 'src/inline.ts', line: expected.line, column: Number(expected.where.split(':').pop()), functionName: 'shout' });
  expect(md).toContain(`${at('inline.ts', 'return shout(visitor);', 'shout').where} in greet`);
  expect(error.snippet).toContain(`> ${expected.line} | ${expected.text}`);
});

for (const [bundle, reason] of [
  ['broken-404', /source map http:\/\/127\.0\.0\.1:\d+\/app\/dist\/missing\.js\.map: HTTP 404/],
  ['broken-malformed', /source map http:\/\/127\.0\.0\.1:\d+\/app\/dist\/broken-malformed\.js\.map is malformed: not valid JSON/],
  ['broken-slow', /source map http:\/\/127\.0\.0\.1:\d+\/slow\?ms=30000: timed out after 2000 ms/],
] as const) {
  test(`${bundle}: the frame stays unmapped with the reason, the test is not held up`, () => {
    const { json, md } = byTitle(bundle);
    expect(json.test.status).toBe('passed');
    const error = json.events.find((e: any) => e.source === 'window.onerror');
    expect(error.frames[0]).toMatchObject({ url: expect.stringContaining(`/app/dist/${bundle}.js`), userCode: true, unmappedReason: expect.stringMatching(reason) });
    expect(error.frames[0].original).toBeUndefined();
    expect(md).toMatch(new RegExp(`  > http://127\\.0\\.0\\.1:\\d+/app/dist/${bundle}\\.js:1:\\d+ in \\w+ \\(not mapped: ${reason.source}`));
    expect(error.snippet).toMatch(/^> 1 \| \(\(\)=>\{/m);
    expect(error.hint).toContain('Please check:');
    expect(json.diagnostics).toEqual([expect.objectContaining({ code: 'DAEBUG_SOURCE_MAP_FAILED', message: expect.stringMatching(reason) })]);
    // The server answers the slow map after 30 s; daebug gives up after 2. A test held up by the map would take
    // over 30 s, one that was not takes a few (more on a loaded machine): the bound tells the two apart.
    expect(json.test.duration).toBeLessThan(20_000);
  });
}

test('a minified script without a sourceMappingURL: its frames say so briefly, and no diagnostic repeats it', () => {
  const { json, md } = byTitle('broken-nomap');
  const error = json.events.find((e: any) => e.source === 'window.onerror');
  // A minified build without its map may hold the app's code or a library's: it is "not mapped", not your code
  // (issue 34), and still the frame to look at (the `>` below).
  expect(error.frames[0]).toMatchObject({ url: expect.stringContaining('/app/dist/broken-nomap.js'), userCode: false, unmappedReason: 'the script has no sourceMappingURL' });
  expect(md).toMatch(/  > http:\/\/127\.0\.0\.1:\d+\/app\/dist\/broken-nomap\.js:1:\d+ in \w+ \(not mapped: the script has no sourceMappingURL\)/);
  expect(json.diagnostics).toEqual([]);
  expect(json.unmappedScripts).toEqual([{ url: expect.stringMatching(/\/app\/dist\/broken-nomap\.js$/), cause: 'no-source-map', reason: 'the script has no sourceMappingURL' }]);
});

test('index.md says once for the run why scripts stayed unmapped, by cause, and the reports do not repeat the advice', () => {
  const causes = Object.fromEntries(run.index.unmappedByCause.map((note: any) => [note.cause, note.scripts]));
  // app.js of the same server is mapped: the script without a map is one the build left out, not a build without maps.
  expect(Object.keys(causes)).toEqual(['map-not-found', 'no-source-map', 'map-malformed', 'map-unreadable']);
  expect(causes['map-not-found']).toEqual([{ url: expect.stringMatching(/\/app\/dist\/broken-404\.js$/), map: expect.stringMatching(/\/app\/dist\/missing\.js\.map$/), reason: expect.stringMatching(/: HTTP 404$/), tests: 1 }]);
  expect(causes['no-source-map']).toEqual([expect.objectContaining({ url: expect.stringMatching(/\/broken-nomap\.js$/), tests: 1 })]);
  expect(causes['map-unreadable']).toEqual([expect.objectContaining({ url: expect.stringMatching(/\/broken-slow\.js$/), reason: expect.stringMatching(/timed out after 2000 ms$/) })]);
  const index = fs.readFileSync(path.join(run.reportsDir, 'index.md'), 'utf8');
  const section = index.slice(index.indexOf('## Source maps'), index.indexOf('## Tests'));
  expect(index.match(/^## Source maps$/gm)).toHaveLength(1);
  expect(section).toMatch(/^- \*\*Source maps not served\*\*\. .*serve the `\.map` files next to the scripts/m);
  expect(section).toMatch(/^  - `http:\/\/127\.0\.0\.1:\d+\/app\/dist\/broken-404\.js`: source map http:\/\/127\.0\.0\.1:\d+\/app\/dist\/missing\.js\.map: HTTP 404 \(1 test\)$/m);
  expect(section).toMatch(/^- \*\*Scripts without a `sourceMappingURL`\*\*\. Other scripts of the app are mapped/m);
  expect(section).toMatch(/^  - `http:\/\/127\.0\.0\.1:\d+\/app\/dist\/broken-nomap\.js` \(1 test\)$/m);
  // The advice is the index's: no report repeats it, and the diagnostic's hint only points there.
  for (const [name, md] of Object.entries(run.markdown)) {
    expect(md, name).not.toMatch(/next to the script|build\.sourcemap|## Source maps/);
  }
  expect(byTitle('broken-404').json.diagnostics[0].hint).toBe('The frames stay unmapped; index.md says once for the run why and what to change.');
});

test('a strict failure message names the original position, the code frame and the hint', () => {
  const { json } = byTitle('strict uncaught error');
  expect(json.test.status).toBe('failed');
  expect(run.output).toContain(`↳ ${thrown.where} in priceOf`);
  expect(run.output).not.toContain('at ↳');
  expect(run.output).toMatch(new RegExp(`> ${thrown.line} \\| ${thrown.text.replace(/[.*+?^${}()|[\]\\!]/g, '\\$&')}`));
  expect(run.output).toContain('Please check:');
  expect(run.output).toContain('The value before `.price` is undefined');
});
