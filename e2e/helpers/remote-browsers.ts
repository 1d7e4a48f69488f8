import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findChromium, SYSTEM_CHROMIUM_ARGS } from '../../src/browser';

const repoRoot = path.resolve(__dirname, '..', '..');
const cli = require.resolve('@playwright/test/cli', { paths: [repoRoot] });
const START_TIMEOUT_MS = 30_000;

/** A browser endpoint on loopback that this process started, and how to stop it. */
export interface RemoteBrowser {
  /** `ws://127.0.0.1:<port>/…` */
  endpoint: string;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  /** Stops the process group and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * `npx playwright run-server` on 127.0.0.1 and a free port. `--unsafe` lets the client's `launchOptions`
 * (executablePath, args: a system Chromium) reach the browser the server launches; a server with Playwright's own
 * browsers (the Docker image) needs no flag.
 */
export function startPlaywrightServer(): Promise<RemoteBrowser> {
  return start(process.execPath, [cli, 'run-server', '--port', '0', '--host', '127.0.0.1', '--unsafe'], /Listening on (ws:\/\/127\.0\.0\.1:\d+\/\S*)/, 'SIGINT');
}

/**
 * A Chromium started by hand for `chromium.connectOverCDP()`: headless, DevTools on 127.0.0.1 and a free port, a
 * profile of its own, the flags daebug's own launches use.
 */
export async function startChromiumForCdp(): Promise<RemoteBrowser> {
  const executable = findChromium().executablePath;
  if (!executable) throw new Error('connectOverCDP needs a Chromium executable: set DAEBUG_CHROMIUM or install /usr/bin/chromium');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'daebug-cdp-'));
  const args = ['--headless', ...SYSTEM_CHROMIUM_ARGS, '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'];
  const browser = await start(executable, args, /DevTools listening on (ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/\S+)/, 'SIGTERM');
  return {
    ...browser,
    stop: async () => {
      await browser.stop();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

function start(command: string, args: string[], listening: RegExp, signal: NodeJS.Signals): Promise<RemoteBrowser> {
  // A process group of its own: stop() reaches the browser processes it spawned, and only those.
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = () => stopGroup(child, signal, exited);
  return new Promise<RemoteBrowser>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${path.basename(command)} did not print its endpoint within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      void stop().finally(() => reject(error));
    };
    const onData = (data: Buffer) => {
      output += data;
      const match = listening.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({ endpoint: match[1]!, output: () => output, stop });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', fail);
    child.once('exit', (code, sig) => fail(new Error(`${path.basename(command)} exited (${code ?? sig}) before it printed its endpoint:\n${output}`)));
  });
}

async function stopGroup(child: ChildProcess, signal: NodeJS.Signals, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const kill = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // The group is gone already.
    }
  };
  kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const graceful = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 5000)))]);
  clearTimeout(timer);
  if (!graceful) {
    kill('SIGKILL');
    await exited;
  }
  // Children that outlived their parent (a renderer) still belong to the group.
  kill('SIGKILL');
}
