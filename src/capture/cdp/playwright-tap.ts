import type { Browser } from '@playwright/test';
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
 * `connectOverCDP`), and only with the Playwright internals this was written against; `tapPlaywright` returns
 * undefined otherwise (a Playwright server, another version), and daebug attaches sessions of its own instead.
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

interface ServerConnection {
  _transport: { onmessage?: (message: TapMessage) => void };
  _sessions: Map<string, ServerSession>;
}

const taps = new WeakMap<object, PlaywrightTap>();

/**
 * The first Playwright whose server was read for this: it attaches to nested workers itself and resumes them.
 * Older ones get daebug's own sessions, which do both.
 */
const TAPPED_SINCE: readonly [number, number] = [1, 65];

let versionOk: boolean | undefined;

function playwrightIsKnown(): boolean {
  if (versionOk === undefined) {
    try {
      const { version } = require('@playwright/test/package.json') as { version: string };
      const [major = 0, minor = 0] = version.split('.').map(Number);
      versionOk = major > TAPPED_SINCE[0] || (major === TAPPED_SINCE[0] && minor >= TAPPED_SINCE[1]);
    } catch {
      versionOk = false;
    }
  }
  return versionOk;
}

/** The tap of `browser`'s connection, installed on first use; undefined when it cannot be had (see PlaywrightTap). */
export function tapPlaywright(browser: Browser): PlaywrightTap | undefined {
  if (process.env['DAEBUG_OWN_SESSIONS'] || !playwrightIsKnown()) return undefined;
  const candidate = serverObjectOf(browser)?.['_connection'] as Partial<ServerConnection> | undefined;
  if (!candidate || !(candidate._sessions instanceof Map) || typeof candidate._transport?.onmessage !== 'function') return undefined;
  const connection = candidate as ServerConnection;
  let tap = taps.get(connection);
  if (!tap) {
    tap = install(connection);
    taps.set(connection, tap);
  }
  return tap;
}

function install(connection: ServerConnection): PlaywrightTap {
  const listeners = new Set<(message: TapMessage) => void>();
  const transport = connection._transport;
  const original = transport.onmessage!;
  transport.onmessage = function (this: unknown, message: TapMessage) {
    for (const listener of listeners) {
      try {
        listener(message);
      } catch {
        // daebug's bookkeeping must never keep Playwright from its own message.
      }
    }
    return original.call(this, message);
  };
  return {
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
}
