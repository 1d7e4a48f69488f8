import { DaebugError, DaebugSettleTimeoutError } from './errors';
import type { Frame, JSHandle, Page, Worker } from '@playwright/test';
import type { DaebugEvent } from './model/schema';
import type { IgnorePattern } from './options';
import { ignoreCheck, parseOption } from './options';
import type { TestCapture } from './capture/test-capture';
import type { Recorder, Span } from './capture/recorder';
import { cutText } from './capture/recorder';
import { messageFromStack } from './capture/cdp/runtime';

/** Where `daebug.eval` runs code: a page, one of its frames, or a worker. */
export type EvalTarget = Page | Frame | Worker;

/** Options of `daebug.errors()`. */
export interface ErrorsOptions {
  /**
   * How many of the most recent errors to return: the newest of what daebug kept. A burst over `eventsPerSecond` (per
   * realm, default 100) keeps its newest `eventsPerSecond` whole, so a limit up to that is the burst's newest errors.
   * @default 20
   */
  limit?: number;
}

type PageFunction<Arg, R> = string | ((arg: Arg) => R | Promise<R>);

/** The `daebug` fixture: runs code and action blocks as jobs and reads what was captured. */
export class Daebug {
  constructor(
    private readonly recorder: Recorder,
    private readonly capture: TestCapture | undefined,
  ) {}

  /**
   * Runs code in a page, frame or worker as a job, like `evaluate`, and records its realm, code, timing and
   * value or error. The error is rethrown after it is recorded.
   * @example const title = await daebug.eval(page, () => document.title);
   */
  async eval<R, Arg = undefined>(target: EvalTarget, fn: PageFunction<Arg, R>, arg?: Arg): Promise<R> {
    const code = typeof fn === 'string' ? fn : fn.toString();
    const span = this.recorder.startSpan('eval', await this.realmOf(target), { code: cutText(code, 20_000) });
    let handle: JSHandle | undefined;
    try {
      if (isClosed(target)) {
        throw new DaebugError('DAEBUG_EVAL_TARGET_CLOSED', `daebug.eval: the ${span.realm} target is closed`, {
          context: { realm: span.realm },
          hint: 'Evaluate before the page closes, or on the page that replaced it (e.g. a popup or context.pages()).',
        });
      }
      handle = (await (target.evaluateHandle as (f: unknown, a?: unknown) => Promise<JSHandle>)(fn, arg)) as JSHandle;
      const [value, rendered] = await Promise.all([
        handle.jsonValue().catch(() => undefined),
        handle.evaluate(renderValue).catch(() => undefined),
      ]);
      this.recorder.finishSpan(span, { ok: true, value: rendered !== undefined ? rendered : value === undefined ? 'undefined' : value });
      return value as R;
    } catch (error) {
      this.recorder.finishSpan(span, { ok: false, error: describeEvalError(error) });
      throw error;
    } finally {
      handle?.dispose().catch(() => undefined);
      await this.capture?.flushReads();
    }
  }

  /**
   * Records a block of actions (clicks, navigation, waits) as a job with the background events it caused.
   * @example await daebug.job('submit the form', async () => { await page.click('text=Save'); });
   */
  async job<T>(title: string, body: () => T | Promise<T>): Promise<T> {
    const span = this.recorder.startSpan('job', 'test', { title, code: cutText(body.toString(), 20_000) });
    try {
      const value = await body();
      this.recorder.finishSpan(span, { ok: true, value: renderValue(value) });
      return value;
    } catch (error) {
      this.recorder.finishSpan(span, { ok: false, error: describeEvalError(error) });
      throw error;
    } finally {
      await this.capture?.flushReads();
    }
  }

  /** Marks errors matching `pattern` (substring or RegExp, tested against message and stack) as expected in this test. */
  expectError(pattern: IgnorePattern): void {
    const [checked] = parseOption('expectError', ignoreCheck, [pattern], 'a string (substring) or a RegExp');
    this.recorder.expect(checked as IgnorePattern);
  }

  /** The most recent captured errors (uncaught exceptions, rejections, crashes), oldest first. */
  errors(options: ErrorsOptions = {}): DaebugEvent[] {
    // What the test reads, its report shows in full: values not read yet are read at the test's end.
    this.capture?.reads.ask((e) => e.type === 'error');
    const limit = options.limit ?? 20;
    const errors = this.recorder.events().filter((e) => e.type === 'error');
    return limit <= 0 ? [] : errors.slice(-limit);
  }

  /** Every event captured so far, in time order. */
  events(): DaebugEvent[] {
    this.capture?.reads.ask(() => true);
    return this.recorder.events();
  }

  /**
   * A barrier: afterwards `events()` and `errors()` hold every event the test's pages and workers emitted before
   * the call, with console values read. Costs one round trip per live page or worker. When a page or worker does not
   * answer within `timeoutMs` (busy with a long task), it goes on, and the report's diagnostics say so
   * (`DAEBUG_SETTLE_TIMEOUT`).
   * @example await page.click('text=Save'); await daebug.settle(); expect(daebug.errors()).toEqual([]);
   */
  async settle(timeoutMs = 5000): Promise<void> {
    if (!this.capture || (await this.capture.settle(timeoutMs))) return;
    // Not thrown: the events emitted before the call are in; the report says which values may stay previews.
    this.recorder.diagnose(new DaebugSettleTimeoutError(timeoutMs, this.capture.reads.unreadCount()));
  }

  private async realmOf(target: EvalTarget): Promise<string> {
    if (this.capture) return this.capture.realmFor(target);
    if (isWorker(target)) return 'worker';
    return isPage(target) || target === (target as Frame).page().mainFrame() ? 'page' : 'page:frame';
  }
}

function isPage(target: EvalTarget): target is Page {
  return typeof (target as Page).mainFrame === 'function';
}

function isWorker(target: EvalTarget): target is Worker {
  return !isPage(target) && typeof (target as Frame).page !== 'function';
}

function isClosed(target: EvalTarget): boolean {
  if (isPage(target)) return target.isClosed();
  if (isWorker(target)) return false;
  return (target as Frame).isDetached();
}

function describeEvalError(error: unknown): { message: string; stack?: string } {
  if (!(error instanceof Error)) return { message: String(error) };
  // Playwright prefixes the page's own stack with the API name: "page.evaluateHandle: Error: boom\n    at ...".
  const text = (error.message || String(error)).replace(/^[\w.]+(?:Handle)?: /, '');
  // error.stack is the page's stack followed by the test's frames up to this call: source mapping needs both.
  const full = error.stack?.replace(/^[\w.]+(?:Handle)?: /, '');
  const stack = /\n\s+at /.test(text) ? (full?.startsWith(text) ? full : text) : error.stack;
  return { message: messageFromStack(text).split('\n')[0] ?? text, ...(stack ? { stack } : {}) };
}

/**
 * Shipped into the page: turns an eval result into a JSON value. Functions become their source text and
 * undefined becomes "undefined" (as in the seed REPL); cycles become "[Circular]"; big results are cut.
 */
function renderValue(value: unknown): unknown {
  const limit = 20000;
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return String(value).slice(0, limit);
  if (typeof value === 'bigint') return `${String(value)}n`;
  if (typeof value === 'symbol') return String(value);
  const ancestors: unknown[] = [];
  try {
    const text = JSON.stringify(value, function (this: unknown, _key, v: unknown) {
      if (typeof v === 'function') return String(v);
      if (typeof v === 'bigint') return `${String(v)}n`;
      if (typeof v === 'symbol') return String(v);
      if (v === undefined) return 'undefined';
      if (typeof v === 'object' && v !== null) {
        while (ancestors.length && ancestors[ancestors.length - 1] !== this) ancestors.pop();
        if (ancestors.includes(v)) return '[Circular]';
        ancestors.push(v);
      }
      return v;
    });
    if (text === undefined) return String(value);
    return text.length > limit ? `${text.slice(0, limit)} …[truncated, ${text.length} chars]` : JSON.parse(text);
  } catch (error) {
    return `[Unserializable: ${error instanceof Error ? error.message : String(error)}]`;
  }
}
