import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { chromium, type LaunchOptions } from '@playwright/test';
import { DaebugBrowserNotFoundError } from '../errors';

/** Flags a system Chromium needs in a sandboxed, offline CI container. */
export const SYSTEM_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];

export interface ChromiumChoice {
  /** Where it came from: the DAEBUG_CHROMIUM variable, Playwright's own download, or the system. */
  source: 'env' | 'playwright' | 'system';
  /** undefined means Playwright's own browser: let Playwright find it. */
  executablePath: string | undefined;
}

function exists(file: string | undefined): file is string {
  try {
    return !!file && fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function playwrightChromium(): string | undefined {
  try {
    const file = chromium.executablePath();
    return exists(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

function canInstallWithApt(): boolean {
  return process.platform === 'linux' && typeof process.getuid === 'function' && process.getuid() === 0 && exists('/etc/debian_version') && exists('/usr/bin/apt-get');
}

function aptInstallChromium(): void {
  process.stderr.write('daebug: no Chromium found; installing Debian\'s chromium package with apt-get (running as root)…\n');
  const run = (args: string[]) => execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(['update', '-qq']);
  run(['install', '-y', '-qq', 'chromium']);
  process.stderr.write('daebug: installed /usr/bin/chromium\n');
}

/**
 * Finds a Chromium to run: `DAEBUG_CHROMIUM`, else Playwright's installed browser, else a system Chromium.
 * As root on Debian with none of those, installs the `chromium` package (once, from the runner process).
 * @throws DaebugBrowserNotFoundError naming both ways to get one.
 */
export function findChromium(): ChromiumChoice {
  const fromEnv = process.env['DAEBUG_CHROMIUM'];
  if (fromEnv) {
    if (exists(fromEnv)) return { source: 'env', executablePath: fromEnv };
    throw new DaebugBrowserNotFoundError([`DAEBUG_CHROMIUM=${fromEnv} (no such file)`]);
  }
  if (playwrightChromium()) return { source: 'playwright', executablePath: undefined };
  const system = SYSTEM_PATHS.find(exists);
  if (system) return { source: 'system', executablePath: system };
  // Workers re-read the config: only the runner process installs.
  if (canInstallWithApt() && process.env['TEST_WORKER_INDEX'] === undefined) {
    try {
      aptInstallChromium();
    } catch (error) {
      process.stderr.write(`daebug: apt-get install chromium failed: ${(error as Error).message}\n`);
    }
    const installed = SYSTEM_PATHS.find(exists);
    if (installed) return { source: 'system', executablePath: installed };
  }
  throw new DaebugBrowserNotFoundError(['DAEBUG_CHROMIUM', "Playwright's browsers (npx playwright install chromium)", ...SYSTEM_PATHS]);
}

/** Launch options for `use: { launchOptions }` that work with Playwright's browser or a system Chromium. */
export function chromiumLaunchOptions(): LaunchOptions {
  const choice = findChromium();
  if (choice.executablePath === undefined) return {};
  return { executablePath: choice.executablePath, args: SYSTEM_CHROMIUM_ARGS };
}
