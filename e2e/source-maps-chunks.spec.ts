import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';
import { buildUnmappedApp, PAGE_COUNT } from './helpers/build-unmapped-chunks';
import { startServer, staticFiles, type LocalServer } from './helpers/local-server';
import { isContentHash } from '../src/model/content-hash';

// index.md's "Source maps" section names every script of the run whose frames stayed unmapped (issue 37, 5.7): an
// app of many chunks built without maps, whose errors are thrown in six of them and pass through a seventh, and an
// app whose only unmapped frames are the initiator of a failed request. Both are built as SvelteKit's test apps are
// (not minified): before a hash-named script counted as a build's output, only a chunk with a minified-looking long
// line was named, and an app whose unmapped frames were all request initiators got no section at all.
const pagesSpec = `
import { test, expect } from 'daebug';

for (let n = 1; n <= ${PAGE_COUNT}; n++) {
  test('page ' + n + ' throws', async ({ page, daebug }) => {
    await page.goto(process.env.APP + '/');
    await page.evaluate((n) => (window as any).throwFrom(n), n);
    await expect.poll(() => daebug.errors().length).toBe(1);
  });
}

test('every page throws', async ({ page, daebug }) => {
  await page.goto(process.env.APP + '/');
  for (let n = 1; n <= ${PAGE_COUNT}; n++) await page.evaluate((n) => (window as any).throwFrom(n), n);
  await expect.poll(() => daebug.errors().length).toBe(${PAGE_COUNT});
});
`;

const requestsSpec = `
import { test, expect } from 'daebug';

test('settings are missing', async ({ page, daebug }) => {
  await page.goto(process.env.APP + '/');
  await page.evaluate(() => (window as any).loadSettings());
  await expect(page).toHaveTitle('no settings');
  await expect.poll(() => daebug.events().filter((e) => e.source === 'network').length).toBe(1);
});
`;

/** A chunk (`chunks/<hash>.js`) or the entry (`assets/index-<hash>.js`) whose hash daebug reads as one. */
function hashNamed(script: string): boolean {
  const hash = /^(?:chunks\/|assets\/index-)([\w-]{8})\.js$/.exec(script)?.[1];
  return hash !== undefined && isContentHash(hash);
}

/** The lines of index.md's "Source maps" section. */
function sourceMapsSection(run: InlineRunResult): string {
  const index = fs.readFileSync(path.join(run.reportsDir, 'index.md'), 'utf8');
  const start = index.indexOf('## Source maps');
  expect(start, index).toBeGreaterThan(-1);
  return index.slice(start, index.indexOf('\n## ', start + 1));
}

test.describe.configure({ mode: 'default' });

const dir = path.join(__dirname, '..', '.e2e-tmp', `unmapped-${randomUUID().slice(0, 8)}`);
const servers: LocalServer[] = [];
const scripts: Record<'pages' | 'requests', string[]> = { pages: [], requests: [] };
const runs: Partial<Record<'pages' | 'requests', InlineRunResult>> = {};

test.beforeAll(async () => {
  test.setTimeout(240_000);
  for (const app of ['pages', 'requests'] as const) {
    let root = path.join(dir, app);
    scripts[app] = await buildUnmappedApp(root, path.join(root, 'dist'), app);
    // Rollup's hashes change with the build's folder, and daebug reads about 1 in 900 random ones as a word
    // (src/model/content-hash.ts, measured in its unit test): such a chunk is a name to it, not a build's output.
    // This spec is about the chunks it takes for a build's: a build with a chunk named like a word is built again
    // in another folder.
    for (let again = 1; again <= 5 && !scripts[app].every(hashNamed); again++) {
      root = path.join(dir, `${app}-${again}`);
      scripts[app] = await buildUnmappedApp(root, path.join(root, 'dist'), app);
    }
    expect(scripts[app].filter((name) => !hashNamed(name))).toEqual([]);
    const server = await startServer(staticFiles(path.join(root, 'dist')));
    servers.push(server);
    runs[app] = await runInlineTest({ [`${app}.spec.ts`]: app === 'pages' ? pagesSpec : requestsSpec }, { env: { APP: server.origin } });
  }
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

test('index.md names every chunk an error of the run was thrown in or passed through, each with its tests', () => {
  const run = runs.pages!;
  expect(run.exitCode, run.output).toBe(0);
  // Six pages, the chunk they share, the entry: each chunk named by its hash alone.
  const chunks = scripts.pages.filter((name) => /^chunks\/[\w-]{8}\.js$/.test(name));
  expect(chunks, scripts.pages.join(', ')).toHaveLength(PAGE_COUNT + 1);
  const section = sourceMapsSection(run);
  expect(section).toMatch(/^- \*\*The build emits no source maps\*\*\. /m);
  for (const chunk of chunks) expect(section, `${chunk}\n${section}`).toContain(`/${chunk}\``);
  // Each page's chunk is in two tests (its own and "every page throws"), the shared one in all seven.
  const listed = section.split('\n').filter((line) => line.startsWith('  - `'));
  expect(listed, section).toHaveLength(PAGE_COUNT + 1);
  expect(listed[0], section).toMatch(/ \(7 tests\)$/);
  expect(listed.slice(1).every((line) => / \(2 tests\)$/.test(line)), section).toBe(true);
  const byCause = run.index.unmappedByCause as Array<{ cause: string; scripts: Array<{ url: string; tests: number }> }>;
  expect(byCause.map((note) => note.cause)).toEqual(['no-maps-built']);
  expect(byCause[0]!.scripts.map((s) => new URL(s.url).pathname.slice(1)).sort()).toEqual(chunks.map((c) => c).sort());
});

test("index.md names the chunks whose only unmapped frames are a failed request's initiator", () => {
  const run = runs.requests!;
  expect(run.exitCode, run.output).toBe(0);
  const [report] = Object.values(run.reports) as any[];
  const request = report.events.find((e: any) => e.source === 'network');
  // No error: the request's initiator stack is all the test has to map.
  expect(report.events.filter((e: any) => e.type === 'error' || e.source === 'console.error')).toEqual([]);
  const chunk = scripts.requests.find((name) => /^chunks\/[\w-]{8}\.js$/.test(name))!;
  const loader = request.frames.find((f: any) => f.url.endsWith(`/${chunk}`));
  expect(loader, JSON.stringify(request.frames, null, 2)).toMatchObject({ unmappedReason: 'the script has no sourceMappingURL' });
  const section = sourceMapsSection(run);
  expect(section).toMatch(/^- \*\*The build emits no source maps\*\*\. /m);
  expect(section).toContain(`  - \`${loader.url}\` (1 test)`);
  // The entry's frame under the loader's (the dynamic import's callback) is named too.
  const entry = scripts.requests.find((name) => /^assets\/index-[\w-]{8}\.js$/.test(name))!;
  expect(request.frames.some((f: any) => f.url.endsWith(`/${entry}`)), JSON.stringify(request.frames, null, 2)).toBe(true);
  expect(section).toMatch(new RegExp(`^  - \`http://127\\.0\\.0\\.1:\\d+/${entry.replace(/[.-]/g, '\\$&')}\` \\(1 test\\)$`, 'm'));
});
