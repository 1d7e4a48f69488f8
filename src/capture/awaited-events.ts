/**
 * Errors the test waits for itself. A test that does `page.waitForEvent('pageerror')` (or `context.waitForEvent
 * ('weberror')`, or waits for a `console` message of type error) expects that error: it is what the test checks, and
 * strict mode must not fail a correct test on it. Playwright's waiter resolves with the very error it saw, so the
 * test's `waitForEvent` of each page and context daebug captures is wrapped to note what it resolved with (a claim);
 * the recorder then marks the captured event that the claim names, the first of its kind and words since the wait
 * began, expected: "awaited by the test". A listener the test adds with `page.on('pageerror')` is not a claim: suites
 * add such listeners to log every error, which says nothing of which errors they expect.
 */

/** What one of the test's waits resolved with. */
export interface AwaitedClaim {
  /** `error`: a page error (`pageerror`, `weberror`); `console`: a console message. */
  kind: 'error' | 'console';
  /** The Error's message, or the console message's text. */
  text: string;
  /** For `console`: the message's type as Playwright names it (`error`, `warning`). */
  consoleType?: string;
  /** When the wait began and ended (Node's clock, ms). */
  startMs: number;
  endMs: number;
  /** The call, in the words of the report: `page.waitForEvent('pageerror')`. */
  how: string;
}

/** What an event must have for a claim to name it. */
export interface ClaimableEvent {
  type: string;
  source: string;
  message: string;
  stack?: string | undefined;
}

/** Console types whose messages can count as unexpected errors; a wait for any other says nothing daebug must honour. */
const CLAIMED_CONSOLE_TYPES: ReadonlyMap<string, string> = new Map([
  ['error', 'console.error'],
  ['warning', 'console.warn'],
  ['assert', 'console.assert'],
]);

/** The claim a resolved wait makes, or undefined when it is not a wait for an error. */
export function claimOf(event: string, value: unknown, startMs: number, endMs: number, owner: 'page' | 'context'): AwaitedClaim | undefined {
  const how = `${owner}.waitForEvent('${event}')`;
  if (event === 'pageerror' || event === 'weberror') {
    const error = event === 'weberror' ? callOf(value, 'error') : value;
    const text = typeof (error as { message?: unknown } | undefined)?.message === 'string' ? (error as { message: string }).message : undefined;
    return text ? { kind: 'error', text, startMs, endMs, how } : undefined;
  }
  if (event === 'console') {
    const type = callOf(value, 'type');
    const text = callOf(value, 'text');
    if (typeof type !== 'string' || typeof text !== 'string' || !text || !CLAIMED_CONSOLE_TYPES.has(type)) return undefined;
    return { kind: 'console', text, consoleType: type, startMs, endMs, how };
  }
  return undefined;
}

function callOf(value: unknown, method: string): unknown {
  const fn = (value as Record<string, unknown> | undefined)?.[method];
  try {
    return typeof fn === 'function' ? (fn as () => unknown).call(value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The event a claim names among `events` (in time order, with their times), skipping those already claimed: the first
 * of its kind and words from when the wait began (the waiter resolves with the first one it sees), else the last one
 * before it ended. A clock's few milliseconds either way are allowed for.
 */
export function claimedIndex<E extends ClaimableEvent>(claim: AwaitedClaim, events: readonly { item: E; atMs: number }[], taken: ReadonlySet<number>): number | undefined {
  const names = (e: E) => (claim.kind === 'error' ? namesError(e, claim.text) : e.source === CLAIMED_CONSOLE_TYPES.get(claim.consoleType ?? '') && namesConsole(e, claim.text));
  const candidates = events.map((e, i) => ({ ...e, i })).filter((e) => !taken.has(e.i) && names(e.item));
  const SLACK_MS = 50;
  const first = candidates.find((e) => e.atMs >= claim.startMs - SLACK_MS && e.atMs <= claim.endMs + SLACK_MS);
  return (first ?? candidates.filter((e) => e.atMs <= claim.endMs + SLACK_MS).pop())?.i;
}

/** A thrown error whose message, or its stack's first line, carries the Error's message Playwright gave. */
function namesError(event: ClaimableEvent, text: string): boolean {
  if (event.type !== 'error' || event.source === 'network') return false;
  return event.message.includes(text) || (event.stack?.split('\n', 1)[0] ?? '').includes(text);
}

/** A console call with the same text (daebug may render objects more fully than Playwright's `text()`: its start is enough). */
function namesConsole(event: ClaimableEvent, text: string): boolean {
  return event.message === text || event.message.startsWith(text.split('\n', 1)[0]!);
}

type Waitable = { waitForEvent?: (event: string, optionsOrPredicate?: unknown) => Promise<unknown> };

/**
 * Wraps `target.waitForEvent` (a Page's or a BrowserContext's own, on the object, not its class) so that each wait for
 * an error reports its claim; returns what undoes it. A target already wrapped is left alone.
 */
export function watchAwaitedEvents(target: object, owner: 'page' | 'context', claim: (claim: AwaitedClaim) => void): () => void {
  const waitable = target as Waitable;
  const original = waitable.waitForEvent;
  if (typeof original !== 'function' || Object.prototype.hasOwnProperty.call(target, 'waitForEvent')) return () => undefined;
  const wrapped = async function waitForEvent(this: unknown, event: string, optionsOrPredicate?: unknown): Promise<unknown> {
    const startMs = Date.now();
    const value = await original.call(target, event, optionsOrPredicate);
    const made = claimOf(event, value, startMs, Date.now(), owner);
    if (made) claim(made);
    return value;
  };
  Object.defineProperty(target, 'waitForEvent', { value: wrapped, configurable: true, writable: true, enumerable: false });
  return () => {
    if (waitable.waitForEvent === wrapped) delete waitable.waitForEvent;
  };
}
