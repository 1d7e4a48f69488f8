import type { Page, Worker } from '@playwright/test';
import { messageFromStack } from './cdp/runtime';
import type { Recorder } from './recorder';

export interface GenericTarget {
  recorder: Recorder;
  workerRealm(worker: Worker): string;
}

/**
 * Capture for browsers without CDP (Firefox, WebKit): Playwright's `console` and `pageerror` events.
 * `pageerror` cannot tell an uncaught exception from an unhandled rejection, so its events carry the
 * source `pageerror`; console values are read from `msg.text()`.
 */
export function attachGenericPage(page: Page, realm: string, target: GenericTarget): () => Promise<void> {
  const { recorder } = target;
  const onConsole = (msg: import('@playwright/test').ConsoleMessage) => {
    const worker = msg.worker();
    const type = msg.type();
    const method = type === 'warning' ? 'warn' : type;
    const location = msg.location();
    recorder.add({
      type: 'console',
      level: method,
      source: msg.args().length === 0 && type === 'error' ? 'browser.log' : `console.${method}`,
      realm: worker ? target.workerRealm(worker) : realm,
      timeMs: typeof msg.timestamp === 'function' ? msg.timestamp() : Date.now(),
      message: msg.text(),
      location: location.url ? { url: location.url, line: location.line + 1, column: location.column + 1 } : undefined,
    });
  };
  const onPageError = (error: Error) => {
    const stack = error.stack || undefined;
    recorder.add({
      type: 'error',
      level: 'error',
      source: 'pageerror',
      realm,
      timeMs: Date.now(),
      message: stack ? messageFromStack(stack) : error.message || String(error),
      stack,
    });
  };
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  return async () => {
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
  };
}
