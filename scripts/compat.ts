import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run test:compat`: the capture e2e specs against the oldest Playwright that peerDependencies allows, and the
 * fallback capture on the newest (this repository's own Playwright, whose fast path `npm run test:e2e` covers).
 *
 * The oldest is installed once into .compat/pw-<version>/ (again only when the version or daebug's dependencies
 * change), with this build of daebug packed and unpacked into its node_modules as a user would get it. The runner of
 * the outer specs stays this repository's Playwright; the inline projects they spawn run the old one
 * (DAEBUG_E2E_PLAYWRIGHT_DIR, read by e2e/helpers/run-playwright.ts). Expects a build (`pretest:compat`).
 */
const repoRoot = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

/**
 * The capture specs: every target on both paths, bursts, the transcript's realms, daebug's calls kept out of the
 * trace, and which path each Playwright takes.
 */
const CAPTURE_SPECS = ['e2e/capture-targets.spec.ts', 'e2e/capture-bursts.spec.ts', 'e2e/transcript.spec.ts', 'e2e/capture-trace.spec.ts', 'e2e/playwright-versions.spec.ts'];
/** On the newest, those that `npm run test:e2e` runs on the fast path only. */
const FALLBACK_SPECS = ['e2e/capture-bursts.spec.ts', 'e2e/transcript.spec.ts', 'e2e/capture-trace.spec.ts'];

function oldestSupported(): string {
  const range = manifest.peerDependencies['@playwright/test'] ?? '';
  const oldest = /^>=\s*(\d+\.\d+\.\d+)/.exec(range)?.[1];
  if (!oldest) throw new Error(`peerDependencies["@playwright/test"] is "${range}": expected it to start with ">=x.y.z"`);
  return oldest;
}

function installedVersion(dir: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', '@playwright', 'test', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** .compat/pw-<version>/ with that Playwright and daebug's own dependencies; npm runs only when something changed. */
function installPlaywright(version: string): string {
  const dir = path.join(repoRoot, '.compat', `pw-${version}`);
  fs.mkdirSync(dir, { recursive: true });
  const wanted = JSON.stringify({ private: true, name: `daebug-compat-${version}`, dependencies: { '@playwright/test': version, ...manifest.dependencies } }, null, 2) + '\n';
  const file = path.join(dir, 'package.json');
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (current === wanted && installedVersion(dir) === version) {
    console.log(`compat: @playwright/test ${version} already in ${path.relative(repoRoot, dir)}`);
    return dir;
  }
  fs.writeFileSync(file, wanted);
  console.log(`compat: installing @playwright/test ${version} into ${path.relative(repoRoot, dir)}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  if (installedVersion(dir) !== version) throw new Error(`npm installed @playwright/test ${installedVersion(dir)} in ${dir}, not ${version}`);
  return dir;
}

/** This build of daebug, packed (its package.json "files") and unpacked into `dir`'s node_modules: a copy, not a link. */
function installDaebug(dir: string): void {
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: repoRoot, encoding: 'utf8' }).trim().split('\n').pop()!;
  const tarball = path.join(dir, packed);
  const target = path.join(dir, 'node_modules', manifest.name);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  try {
    execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  } finally {
    fs.rmSync(tarball, { force: true });
  }
}

/** test/types (what `npm run test:types` compiles against the newest) compiled against `dir`'s Playwright and daebug. */
function checkTypes(dir: string): { label: string; ok: boolean; seconds: number } {
  const label = `types of test/types against @playwright/test ${installedVersion(dir)}`;
  console.log(`\ncompat: ${label}`);
  const started = Date.now();
  const target = path.join(dir, 'types');
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(path.join(repoRoot, 'test', 'types'), target, { recursive: true });
  const tsc = require.resolve('typescript/bin/tsc', { paths: [repoRoot] });
  const result = spawnSync(process.execPath, [tsc, '-p', target], { cwd: target, stdio: 'inherit' });
  return { label, ok: result.status === 0, seconds: Math.round((Date.now() - started) / 1000) };
}

interface Run {
  label: string;
  specs: string[];
  env: Record<string, string>;
}

function runSpecs({ label, specs, env }: Run): { label: string; ok: boolean; seconds: number } {
  console.log(`\ncompat: ${label}`);
  const started = Date.now();
  const cli = require.resolve('@playwright/test/cli', { paths: [repoRoot] });
  // The list reporter only: the outer runner's report is not what is tested, and another run may be writing it.
  const result = spawnSync(process.execPath, [cli, 'test', ...specs, '--reporter=list'], { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = Math.round((Date.now() - started) / 1000);
  return { label, ok: result.status === 0, seconds };
}

function main(): void {
  const started = Date.now();
  const oldest = oldestSupported();
  const dir = installPlaywright(oldest);
  installDaebug(dir);
  const newest = installedVersion(repoRoot) ?? 'unknown';
  const results = [
    checkTypes(dir),
    runSpecs({ label: `@playwright/test ${oldest} (oldest supported): daebug's own sessions`, specs: CAPTURE_SPECS, env: { DAEBUG_E2E_PLAYWRIGHT_DIR: dir } }),
    runSpecs({ label: `@playwright/test ${newest} (newest), DAEBUG_OWN_SESSIONS=1: the fallback where the fast path applies`, specs: FALLBACK_SPECS, env: { DAEBUG_OWN_SESSIONS: '1' } }),
  ];
  console.log('');
  for (const r of results) console.log(`compat: ${r.ok ? 'passed' : 'FAILED'} in ${r.seconds} s: ${r.label}`);
  console.log(`compat: ${Math.round((Date.now() - started) / 1000)} s in all`);
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

main();
