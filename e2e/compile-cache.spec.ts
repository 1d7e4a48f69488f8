import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runInlineTest } from './helpers/run-playwright';

const repoRoot = path.resolve(__dirname, '..');

/**
 * Issue 36: a worker loads daebug from one bundle (dist/bundle/index.js) with V8's compiled code cached on disk
 * (src/io/bundle-loader.ts): the first process compiles and writes the cache when it exits, later workers use it; a cache
 * V8 rejects is compiled past and replaced; DAEBUG_COMPILE_CACHE=0 writes none. Each test of the spec says how the
 * worker loaded daebug, and captures as ever.
 */
const SPEC = `
import path from 'node:path';
import { test, expect } from 'daebug';
test('loads', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => console.error('captured from the bundle'));
  await expect.poll(() => daebug.events().filter((e) => e.message === 'captured from the bundle').length).toBe(1);
  const dist = path.join(path.dirname(require.resolve('daebug/package.json')), 'dist');
  const loader = require(path.join(dist, 'io', 'bundle-loader.js'));
  console.log('LOADED ' + loader.bundleLoad(path.join(dist, 'bundle', 'index.js')));
});
`;

test('the worker loads the bundle, writes its compiled code once, and uses it from then on', async () => {
  const first = await runInlineTest({ 'cache.spec.ts': SPEC }, { env: { DAEBUG_COMPILE_CACHE_DIR: 'compile-cache' } });
  expect(first.exitCode, first.output).toBe(0);
  expect(first.output).toContain('LOADED bundle\n');
  const cacheDir = path.join(first.dir, 'compile-cache');
  // The workers' bundle, and the reporter's, which the runner loaded and wrote when it exited.
  const files = fs.readdirSync(cacheDir).sort();
  expect(files).toEqual([expect.stringMatching(/^index-[0-9a-f]{16}\.bin$/), expect.stringMatching(/^reporter-[0-9a-f]{16}\.bin$/)]);
  const cacheFile = path.join(cacheDir, files[0]!);
  // The reporter's entry uses its cache from then on (the same file, in the same folder, for the runner).
  const reporterLoad = spawnSync(process.execPath, ['-e', `require('daebug/reporter'); const dist = require('path').join(require.resolve('daebug/package.json'), '..', 'dist'); console.log(require(require('path').join(dist, 'io', 'bundle-loader.js')).bundleLoad(require('path').join(dist, 'bundle', 'reporter.js')))`], { cwd: first.dir, encoding: 'utf8', env: { ...process.env, DAEBUG_COMPILE_CACHE_DIR: 'compile-cache' } });
  expect(reporterLoad.stdout, reporterLoad.stderr).toBe('bundle+cache\n');
  const written = fs.readFileSync(cacheFile);
  expect(written.length).toBeGreaterThan(10_000);
  // The report is the same whichever way daebug was loaded.
  const report = Object.values(first.reports)[0];
  expect(report.events.map((e: { message: string }) => e.message)).toContain('captured from the bundle');

  const second = await runInlineTest({}, { dir: first.dir, env: { DAEBUG_COMPILE_CACHE_DIR: 'compile-cache' } });
  expect(second.exitCode, second.output).toBe(0);
  expect(second.output).toContain('LOADED bundle+cache\n');
  // The cache a worker used is kept as it was: the runner, which exits last, does not write over it.
  expect(fs.readFileSync(cacheFile).equals(written)).toBe(true);

  // A cache V8 cannot use (another V8, a torn file) is compiled past and replaced by the process that compiled.
  fs.writeFileSync(cacheFile, 'not V8 code');
  const torn = await runInlineTest({}, { dir: first.dir, env: { DAEBUG_COMPILE_CACHE_DIR: 'compile-cache' } });
  expect(torn.exitCode, torn.output).toBe(0);
  expect(torn.output).toContain('LOADED bundle\n');
  expect(fs.readFileSync(cacheFile).length).toBeGreaterThan(10_000);
  expect(fs.readdirSync(cacheDir).sort()).toEqual(files);
});

test('DAEBUG_COMPILE_CACHE=0: the bundle is compiled and nothing is written', async () => {
  const run = await runInlineTest({ 'cache.spec.ts': SPEC }, { env: { DAEBUG_COMPILE_CACHE_DIR: 'compile-cache', DAEBUG_COMPILE_CACHE: '0' } });
  expect(run.exitCode, run.output).toBe(0);
  expect(run.output).toContain('LOADED bundle\n');
  expect(fs.existsSync(path.join(run.dir, 'compile-cache'))).toBe(false);
});

test('a new bundle keeps the three newest caches of older ones and removes the rest, and stale temporary files', async () => {
  const dir = await runInlineTest({ 'cache.spec.ts': SPEC }, { env: { DAEBUG_COMPILE_CACHE: '0' } });
  expect(dir.exitCode, dir.output).toBe(0);
  const cacheDir = path.join(dir.dir, 'compile-cache');
  fs.mkdirSync(cacheDir);
  // Five caches of earlier bundles, a day apart, and a temporary file a killed process left two hours ago.
  const older = [1, 2, 3, 4, 5].map((days) => {
    const name = `index-${String(days).repeat(16)}.bin`;
    const file = path.join(cacheDir, name);
    fs.writeFileSync(file, 'old');
    const when = new Date(Date.now() - days * 24 * 3600 * 1000);
    fs.utimesSync(file, when, when);
    return name;
  });
  const temporary = path.join(cacheDir, `index-${'a'.repeat(16)}.bin.999999.tmp`);
  fs.writeFileSync(temporary, 'torn');
  fs.utimesSync(temporary, new Date(Date.now() - 2 * 3600 * 1000), new Date(Date.now() - 2 * 3600 * 1000));
  const notOurs = path.join(cacheDir, 'other-tool.bin');
  fs.writeFileSync(notOurs, 'x');

  const run = await runInlineTest({}, { dir: dir.dir, env: { DAEBUG_COMPILE_CACHE_DIR: 'compile-cache' } });
  expect(run.exitCode, run.output).toBe(0);
  expect(run.output).toContain('LOADED bundle\n');
  const left = fs.readdirSync(cacheDir).sort();
  // The reporter's bundle writes a cache of its own beside it; the older ones are the workers' bundle's.
  const written = left.filter((name) => !older.includes(name) && name !== 'other-tool.bin');
  expect(written).toEqual([expect.stringMatching(/^index-[0-9a-f]{16}\.bin$/), expect.stringMatching(/^reporter-[0-9a-f]{16}\.bin$/)]);
  expect(left).toEqual([...older.slice(0, 3), 'other-tool.bin', ...written].sort());
});

test("two copies of the package sharing one cache folder each name their own file in stacks", async () => {
  // V8 keeps the file name it compiled in its cached code: a second copy of the same bundle (another checkout, a
  // project sharing DAEBUG_COMPILE_CACHE_DIR or the temporary folder) that used the first one's cache had stack
  // frames naming the first copy's file, which daebug then took for the user's code.
  fs.mkdirSync(path.join(repoRoot, '.e2e-tmp'), { recursive: true });
  const root = fs.mkdtempSync(path.join(repoRoot, '.e2e-tmp', 'copies-'));
  const cacheDir = path.join(root, 'cache');
  const stackOf = (copy: string) => {
    const dist = path.join(root, copy, 'dist');
    fs.cpSync(path.join(repoRoot, 'dist'), dist, { recursive: true });
    fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(root, copy, 'package.json'));
    // A bundled function that throws: its frame names the bundle's file.
    const script = `const d = require(${JSON.stringify(path.join(dist, 'entry.js'))}); try { d.reportSlug(undefined); } catch (error) { console.log(error.stack); }`;
    const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', env: { ...process.env, DAEBUG_COMPILE_CACHE_DIR: cacheDir } });
    expect(run.status, run.stderr).toBe(0);
    return run.stdout;
  };
  try {
    expect(stackOf('a')).toContain(path.join(root, 'a', 'dist', 'bundle', 'index.js'));
    expect(fs.readdirSync(cacheDir)).toHaveLength(1);
    const second = stackOf('b');
    expect(second).toContain(path.join(root, 'b', 'dist', 'bundle', 'index.js'));
    expect(second).not.toContain(path.join(root, 'a', 'dist'));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
