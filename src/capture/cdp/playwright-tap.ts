import type { Browser } from '@playwright/test';
import { debugLog } from '../../errors';
import { serverObjectOf } from './server-object';

/** One CDP message as Playwright's connection to Chromium received it (already parsed). */
export interface TapMessage {
  id?: number;
  sessionId?: string;
  method?: string;
  params?: any;
}

/**
 * Playwright's own CDP sessions, read from inside: every message Chromium sends on them, and a way to send a command
 * on one of them. Playwright already attaches to every page, popup, out-of-process frame, dedicated worker (at any
 * depth) and service worker of its contexts, holds each at start and enables Runtime, Page, Log and Network on it
 * before it runs. Reading those sessions costs Chromium nothing more; a second session of daebug's own per target
 * cost it an attach, four more domains and a second copy of every event (bench/capture-split.ts).
 *
 * Only where the test runner drives the browser in its own process (a browser it launched or reached with
 * `connectOverCDP`), only from Playwright 1.65 on, and only when the internals it reads are there and carry
 * Chromium's messages; `tapPlaywright` resolves to undefined otherwise (a Playwright server, an older Playwright, a
 * newer one whose internals moved), says why under `DEBUG=daebug`, and daebug attaches sessions of its own instead.
 */
export interface PlaywrightTap {
  /** Calls `listener` with every message Chromium sends to Playwright, before Playwright handles it. */
  listen(listener: (message: TapMessage) => void): () => void;
  /** Sends a command on one of Playwright's sessions, as Playwright's own server code does (no API call, no trace). */
  send(sessionId: string, method: string, params?: object): Promise<any>;
}

interface ServerSession {
  send(method: string, params?: object): Promise<any>;
}

interface Transport {
  onmessage?: (message: TapMessage) => void;
}

/** Playwright's `CRConnection`: the fields read here, each checked before use (`connectionOf`). */
interface ServerConnection {
  _transport: Transport;
  _sessions: Map<string, ServerSession>;
}

/**
 * The first Playwright whose server was read for this: it attaches to nested workers itself and resumes them.
 * Older ones get daebug's own sessions, which do both.
 */
const TAPPED_SINCE: readonly [number, number] = [1, 65];

/**
 * The newest Playwright the fast path was tested on (this repository's devDependency, which `npm run test:e2e`
 * runs). peerDependencies leave the range open above it: a newer Playwright still tries the fast path, its
 * internals are checked (`connectionOf`, `verify`) and, when they moved, capture falls back to daebug's own sessions.
 */
export const NEWEST_TESTED: readonly [number, number] = [1, 65];

/** How long the check that the tap hears Chromium (`verify`) may take before daebug gives up on it. */
const VERIFY_MS = 5000;

const taps = new WeakMap<object, Promise<PlaywrightTap | undefined>>();

/** The installed Playwright's version, read once per process (undefined when it cannot be read). */
let installedVersion: { value: string | undefined } | undefined;
/** Versions whose gate was already said under DEBUG=daebug: one line per process, not one per browser. */
const gateLogged = new Set<string>();

function playwrightVersion(): string | undefined {
  if (!installedVersion) {
    try {
      installedVersion = { value: (require('@playwright/test/package.json') as { version: string }).version };
    } catch {
      installedVersion = { value: undefined };
    }
  }
  return installedVersion.value;
}

/** What a version says before any internal is read. */
export interface VersionGate {
  /** Why this version does not take the fast path at all; absent when it may try. */
  refusal?: string;
  /** Said under DEBUG=daebug when the version is newer than the newest tested: it may try, its internals are checked. */
  note?: string;
}

/** The version gate of the fast path. Pure: a version (or undefined when unknown) in, a refusal or a note out. */
export function versionGate(version: string | undefined): VersionGate {
  const [major = 0, minor = 0] = (version ?? '').split('.').map(Number);
  const atLeast = ([m, n]: readonly [number, number]) => major > m || (major === m && minor >= n);
  if (!version || !atLeast(TAPPED_SINCE)) return { refusal: `@playwright/test ${version ?? '(version unknown)'} is older than ${TAPPED_SINCE.join('.')}` };
  if (atLeast([NEWEST_TESTED[0], NEWEST_TESTED[1] + 1])) {
    return { note: `@playwright/test ${version} is newer than ${NEWEST_TESTED.join('.')}, the newest daebug was tested on: its internals are checked before capture relies on them` };
  }
  return {};
}

/** Why this Playwright's version does not take the fast path (undefined when it may); logged once per process. */
function refusedVersion(version: string | undefined): string | undefined {
  const gate = versionGate(version);
  const key = version ?? '';
  if (!gateLogged.has(key)) {
    gateLogged.add(key);
    if (gate.refusal) fallingBack(gate.refusal);
    else if (gate.note) debugLog(gate.note);
  }
  return gate.refusal;
}

function fallingBack(reason: string): void {
  debugLog(`Playwright's own CDP sessions are not read (${reason}): capture uses daebug's own sessions`);
}

/**
 * The tap of `browser`'s connection, installed and checked on first use; undefined when it cannot be had (see
 * PlaywrightTap). Never throws: anything unexpected in Playwright's internals means daebug's own sessions.
 */
export function tapPlaywright(browser: Browser, version: string | undefined = playwrightVersion()): Promise<PlaywrightTap | undefined> {
  if (process.env['DAEBUG_OWN_SESSIONS'] || refusedVersion(version)) return Promise.resolve(undefined);
  const connection = connectionOf(browser);
  if (typeof connection === 'string') {
    fallingBack(connection);
    return Promise.resolve(undefined);
  }
  let tap = taps.get(connection);
  if (!tap) {
    tap = installChecked(connection, version);
    taps.set(connection, tap);
  }
  return tap;
}

/** Playwright's CDP connection behind `browser`, or why it cannot be read. */
function connectionOf(browser: Browser): ServerConnection | string {
  try {
    const server = serverObjectOf(browser);
    if (!server) return 'no server-side Browser in this process: a Playwright server, or internals that moved';
    const connection = server['_connection'] as Partial<ServerConnection> | undefined;
    if (!connection || typeof connection !== 'object') return 'the server-side Browser has no _connection';
    if (!(connection._sessions instanceof Map)) return 'its connection has no _sessions Map';
    if (typeof connection._sessions.get('')?.send !== 'function') return 'its connection has no root session in _sessions';
    if (typeof connection._transport?.onmessage !== 'function') return 'its connection has no _transport.onmessage';
    return connection as ServerConnection;
  } catch (error) {
    return `reading Playwright's internals threw: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The tap, once a command sent through it was heard coming back through it; undefined (and removed) otherwise. */
async function installChecked(connection: ServerConnection, version: string | undefined): Promise<PlaywrightTap | undefined> {
  let installed: ReturnType<typeof install> | undefined;
  let reason: string | undefined;
  try {
    installed = install(connection);
    reason = await verify(installed.tap, installed.inPlace);
  } catch (error) {
    reason = `installing the tap threw: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (installed && reason === undefined) {
    debugLog(`reading Playwright's own CDP sessions (@playwright/test ${version})`);
    return installed.tap;
  }
  installed?.remove();
  fallingBack(reason ?? 'unknown');
  return undefined;
}

/**
 * Sends a command on Playwright's browser session, found by its id in `_sessions`, and waits for the answer to pass
 * through the tap: proof that the tap sits where Chromium's messages arrive. Undefined when it holds, else why not.
 */
async function verify(tap: PlaywrightTap, inPlace: () => boolean): Promise<string | undefined> {
  let heard = 0;
  const stop = tap.listen((message) => {
    if (message.id !== undefined) heard++;
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer through the tap in ${VERIFY_MS} ms`), VERIFY_MS)));
    const answered = Promise.resolve()
      .then(() => tap.send('', 'Browser.getVersion'))
      .then(
        () => (heard > 0 && inPlace() ? undefined : "an answer on Playwright's session did not pass through _transport.onmessage"),
        (error: unknown) => `a command on Playwright's browser session failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    return await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
    stop();
  }
}

function install(connection: ServerConnection): { tap: PlaywrightTap; inPlace: () => boolean; remove: () => void } {
  const listeners = new Set<(message: TapMessage) => void>();
  const transport = connection._transport;
  const original = transport.onmessage!;
  let active = true;
  const onmessage = function (this: unknown, message: TapMessage) {
    if (active) {
      for (const listener of listeners) {
        try {
          listener(message);
        } catch {
          // daebug's bookkeeping must never keep Playwright from its own message.
        }
      }
    }
    return original.call(this, message);
  };
  transport.onmessage = onmessage;
  const tap: PlaywrightTap = {
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    send(sessionId, method, params) {
      const session = connection._sessions.get(sessionId);
      if (!session) return Promise.reject(new Error(`Playwright session ${sessionId} is closed`));
      return session.send(method, params);
    },
  };
  return {
    tap,
    inPlace: () => transport.onmessage === onmessage,
    remove: () => {
      active = false;
      listeners.clear();
      // Something else may have wrapped it since: then the wrapper stays, passing messages on and reading none.
      if (transport.onmessage === onmessage) transport.onmessage = original;
    },
  };
}
