import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test, expect } from '@playwright/test';
import { npm } from './helpers/npm';

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, '..');
const INSTALL_TIME_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

/** The files of a git checkout of this repository (tracked and not ignored: no dist/), with its node_modules. */
async function checkout(into: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
  for (const file of stdout.split('\0').filter(Boolean)) {
    const from = path.join(repoRoot, file);
    if (!fs.existsSync(from)) continue;
    fs.mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
    fs.copyFileSync(from, path.join(into, file));
  }
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(into, 'node_modules'), 'dir');
}

test('npm pack builds dist/ from a checkout, and installing the tarball runs no install-time script', async () => {
  test.setTimeout(180_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'daebug-pack-'));
  try {
    const source = path.join(tmp, 'checkout');
    await checkout(source);
    expect(fs.existsSync(path.join(source, 'dist')), 'a checkout has no dist/').toBe(false);
    await npm(['pack', '--pack-destination', tmp], source);
    const tarball = fs.readdirSync(tmp).find((name) => name.endsWith('.tgz'));
    expect(tarball, 'npm pack wrote a tarball').toBeTruthy();

    const app = path.join(tmp, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    const output = await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(tmp, tarball!), path.join(repoRoot, 'node_modules', '@playwright', 'test')], app);
    expect(output).not.toMatch(/install[- ]scripts?/i);

    const installed = path.join(app, 'node_modules', 'daebug');
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => INSTALL_TIME_SCRIPTS.includes(name))).toEqual([]);
    for (const file of ['entry.js', 'bundle/index.js', 'bundle/reporter.js', 'index.js', 'index.mjs', 'index.d.ts', 'reporter/index.js', 'report.schema.json']) expect(fs.existsSync(path.join(installed, 'dist', file)), file).toBe(true);

    const cjs = await run(process.execPath, ['-e', `
const daebug = require('daebug');
const Reporter = require('daebug/reporter').default;
const dist = require('path').dirname(require.resolve('daebug'));
const { bundleLoad } = require(require('path').join(dist, 'io', 'bundle-loader.js'));
const loaded = bundleLoad(require('path').join(dist, 'bundle', 'index.js'));
const reporterLoaded = bundleLoad(require('path').join(dist, 'bundle', 'reporter.js'));
console.log(JSON.stringify({ resolved: require.resolve('daebug'), loaded, reporterLoaded, test: typeof daebug.test, fixture: typeof daebug.test.extend, devices: typeof daebug.devices, reporter: typeof Reporter }));
`], { cwd: app });
    // The main entry is dist/entry.js (issue 36), which loads the bundle of dist/index.js with its compiled code cached;
    // the reporter's entry loads dist/bundle/reporter.js the same way.
    expect(JSON.parse(cjs.stdout)).toEqual({ resolved: path.join(fs.realpathSync(installed), 'dist', 'entry.js'), loaded: expect.stringMatching(/^bundle/), reporterLoaded: expect.stringMatching(/^bundle/), test: 'function', fixture: 'function', devices: 'object', reporter: 'function' });
    const esm = await run(process.execPath, ['--input-type=module', '-e', `
import { test, chromium, defineConfig, daebugFixtures } from 'daebug';
import { DaebugReporter } from 'daebug/reporter';
console.log(JSON.stringify([typeof test, typeof chromium.launch, typeof defineConfig, typeof daebugFixtures.daebug, typeof DaebugReporter]));
`], { cwd: app });
    expect(JSON.parse(esm.stdout)).toEqual(['function', 'function', 'function', 'object', 'function']);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
