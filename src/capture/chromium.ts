import type { BrowserContext, CDPSession, Frame, Page } from '@playwright/test';
import { DaebugCaptureError } from '../errors';
import type { Recorder, StoredEvent } from './recorder';
import { formatCallFrames, formatPrimitiveArgs, isPrimitive, previewText, primitiveText, type CallFrame, type RemoteObject } from './remote-object';
import { serializeInRealm } from './serialize';
import type { RealmNames } from './realms';

// Serializes several console calls' arguments and thrown values in one call: `layout` is [kind, count, kind, count, …].
const READ_FN = `function (limits, layout, ...values) {
  const serialize = (${serializeInRealm.toString()});
  const out = [];
  for (let i = 0, at = 0; i < layout.length; i += 2) {
    const count = layout[i + 1];
    let input = values[at];
    if (layout[i] === 'console') { input = []; for (let j = 0; j < count; j++) input[j] = values[at + j]; }
    at += count;
    try { out[i / 2] = serialize(layout[i], input, limits); } catch (error) { out[i / 2] = null; }
  }
  return out;
}`;
const RELEASE_EVERY = 500;
const PAIRING_MS = 2000;
const DETACH_MS = 1000;

interface Channel {
  realm: string;
  /** Set on a page's channel once replayed contexts are past: a new main-world context then means a navigation. */
  mainFrameId?: string;
  /** The newest navigation, or the worker's start: its time may still move to just before the realm's first event. */
  opening?: StoredEvent | undefined;
  /** A navigation event that still waits for its other half: the URL (from Playwright) or the new context (from CDP). */
  unpaired?: { event: StoredEvent; waitsFor: 'url' | 'context'; at: number } | undefined;
  isWorker: boolean;
  /** The page a worker or frame belongs to: its navigation came before anything the child does. */
  parent?: Channel;
  send(method: string, params?: object): Promise<any>;
  ignoredContexts: Set<number>;
  objectsSinceRelease: number;
  inflight: number;
  /** Value reads waiting for the one in flight: they go out together when it is back. */
  reads: ValueRead[];
  reading: boolean;
}

type ReadTarget = { executionContextId: number } | { objectId: string };

interface ValueRead {
  kind: 'console' | 'thrown';
  target: ReadTarget;
  /** CDP call arguments: the console call's arguments, or the thrown value alone. */
  values: object[];
  event: StoredEvent;
  apply(value: any): void;
  done(): void;
}

interface ExceptionDetails {
  text: string;
  url?: string;
  lineNumber: number;
  columnNumber: number;
  executionContextId?: number;
  exception?: RemoteObject;
  stackTrace?: { callFrames: CallFrame[] };
}

export interface CaptureTarget {
  recorder: Recorder;
  realms: RealmNames;
}

/**
 * Captures a Chromium page and its dedicated workers over a CDP session of daebug's own:
 * CDP tells uncaught exceptions from unhandled rejections, which Playwright's `pageerror` does not.
 */
export async function attachChromiumPage(context: BrowserContext, page: Page, realm: string, target: CaptureTarget): Promise<(contextClosing: boolean) => Promise<void>> {
  const { recorder } = target;
  const session: CDPSession = await context.newCDPSession(page);
  const pageChannel = makeChannel(realm, false, (method, params) => session.send(method as never, params as never));
  const children = new Map<string, { channel: Channel; nextId: number; waiting: Map<number, { resolve(v: unknown): void; reject(e: unknown): void }> }>();

  const onEvent = (channel: Channel, method: string, params: any) => {
    try {
      handleRuntimeEvent(channel, method, params, recorder);
    } catch (error) {
      recorder.diagnose(new DaebugCaptureError(`handling ${method} in ${channel.realm}`, error));
    }
  };

  session.on('Runtime.exceptionThrown', (p) => onEvent(pageChannel, 'Runtime.exceptionThrown', p));
  session.on('Runtime.consoleAPICalled', (p) => onEvent(pageChannel, 'Runtime.consoleAPICalled', p));
  session.on('Runtime.executionContextCreated', (p) => onEvent(pageChannel, 'Runtime.executionContextCreated', p));
  session.on('Log.entryAdded', (p) => onEvent(pageChannel, 'Log.entryAdded', p));

  session.on('Target.attachedToTarget', (event) => {
    const { sessionId, targetInfo } = event;
    if (targetInfo.type !== 'worker' && targetInfo.type !== 'iframe') return;
    const childRealm = targetInfo.type === 'worker' ? target.realms.worker(targetInfo.url) : `${realm}:frame`;
    const child = { channel: undefined as unknown as Channel, nextId: 0, waiting: new Map() };
    child.channel = makeChannel(childRealm, targetInfo.type === 'worker', (method, params) => {
      const id = ++child.nextId;
      return new Promise((resolve, reject) => {
        child.waiting.set(id, { resolve, reject });
        session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch((error) => {
          child.waiting.delete(id);
          reject(error);
        });
      });
    });
    child.channel.parent = pageChannel;
    children.set(sessionId, child);
    recorder.addRealm(childRealm);
    if (targetInfo.type === 'worker') child.channel.opening = lifecycle(recorder, childRealm, 'worker.start', targetInfo.url);
    child.channel.send('Runtime.enable').catch(() => undefined);
  });
  session.on('Target.receivedMessageFromTarget', (event) => {
    const child = children.get(event.sessionId);
    if (!child) return;
    const message = JSON.parse(event.message) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } };
    if (message.id !== undefined) {
      const waiter = child.waiting.get(message.id);
      child.waiting.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    } else if (message.method) onEvent(child.channel, message.method, message.params);
  });
  session.on('Target.detachedFromTarget', (event) => {
    const child = children.get(event.sessionId);
    if (!child) return;
    children.delete(event.sessionId);
    for (const waiter of child.waiting.values()) waiter.reject(new Error('target closed'));
    if (child.channel.isWorker) lifecycle(recorder, child.channel.realm, 'worker.close', '');
  });

  const onNavigated = (frame: Frame) => {
    if (frame !== page.mainFrame()) return;
    const pending = pageChannel.unpaired;
    if (pending?.waitsFor === 'url' && Date.now() - pending.at < PAIRING_MS) {
      pending.event.message = frame.url();
      // Under load our session's context event can trail Playwright's; the earlier of the two halves wins.
      pending.event.timeMs = Math.min(pending.event.timeMs, Date.now());
      pageChannel.unpaired = undefined;
      return;
    }
    const event = lifecycle(recorder, realm, 'navigation', frame.url());
    pageChannel.unpaired = event ? { event, waitsFor: 'context', at: Date.now() } : undefined;
  };
  page.on('framenavigated', onNavigated);
  const [info] = await Promise.all([
    session.send('Target.getTargetInfo'),
    session.send('Runtime.enable'),
    session.send('Log.enable'),
    session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false }),
  ]);
  pageChannel.mainFrameId = info.targetInfo.targetId;
  return async (contextClosing) => {
    page.off('framenavigated', onNavigated);
    // Closing the context ends this session as well; detaching first would only add a round trip per page.
    if (contextClosing || page.isClosed()) return;
    // After a renderer crash Playwright's detach never settles: the test must not wait for it.
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, DETACH_MS)));
    await Promise.race([session.detach().catch(() => undefined), giveUp]);
    clearTimeout(timer);
  };
}

function makeChannel(realm: string, isWorker: boolean, send: Channel['send']): Channel {
  return { realm, isWorker, send, ignoredContexts: new Set(), objectsSinceRelease: 0, inflight: 0, reads: [], reading: false };
}

const FATAL_SOURCES: ReadonlySet<string> = new Set(['page.crash', 'browser.disconnected']);

export function lifecycle(recorder: Recorder, realm: string, source: string, message: string, timeMs = Date.now()): StoredEvent | undefined {
  const fatal = FATAL_SOURCES.has(source);
  return recorder.add({ type: fatal ? 'error' : 'console', level: fatal ? 'error' : 'debug', source, realm, timeMs, message });
}

function handleRuntimeEvent(channel: Channel, method: string, params: any, recorder: Recorder): void {
  switch (method) {
    case 'Runtime.executionContextCreated': {
      const context = params.context as { id: number; name?: string; origin?: string; auxData?: { type?: string; isDefault?: boolean; frameId?: string } };
      // Playwright's utility world logs its own markers (e.g. for setContent); they are not page output.
      if (context.name?.startsWith('__playwright') || context.auxData?.type === 'isolated') channel.ignoredContexts.add(context.id);
      else if (channel.mainFrameId && context.auxData?.isDefault && context.auxData.frameId === channel.mainFrameId) {
        // CDP's new main-world context and Playwright's framenavigated (with the URL) arrive in either order.
        const pending = channel.unpaired;
        if (pending?.waitsFor === 'context' && Date.now() - pending.at < PAIRING_MS) {
          channel.opening = pending.event;
          channel.unpaired = undefined;
        } else {
          channel.opening = lifecycle(recorder, channel.realm, 'navigation', context.origin ?? '');
          if (channel.opening) channel.unpaired = { event: channel.opening, waitsFor: 'url', at: Date.now() };
        }
      }
      return;
    }
    case 'Runtime.exceptionThrown':
      placeOpening(channel, params.timestamp);
      return onException(channel, params.exceptionDetails as ExceptionDetails, params.timestamp as number, recorder);
    case 'Runtime.consoleAPICalled':
      placeOpening(channel, params.timestamp);
      return onConsole(channel, params, recorder);
    case 'Log.entryAdded':
      placeOpening(channel, params.entry?.timestamp);
      return onLogEntry(channel, params.entry, recorder);
  }
}

/**
 * A navigation or a worker's start is stamped when it reaches Node, which can be later than the realm's own
 * time for the events that follow it; CDP delivers them in order, so it moves to just before the first one.
 */
function placeOpening(channel: Channel, realmTime: number | undefined): void {
  if (channel.parent) placeOpening(channel.parent, realmTime);
  const opening = channel.opening;
  if (!opening || realmTime === undefined) return;
  if (realmTime < opening.timeMs) opening.timeMs = realmTime - 0.001;
  channel.opening = undefined;
}

function topLocation(frames: CallFrame[] | undefined, fallback?: { url?: string | undefined; lineNumber: number; columnNumber: number }) {
  const top = frames?.[0];
  if (top?.url) return { url: top.url, line: top.lineNumber + 1, column: top.columnNumber + 1 };
  if (fallback?.url) return { url: fallback.url, line: fallback.lineNumber + 1, column: fallback.columnNumber + 1 };
  return undefined;
}

/** The message part of an Error's stack: everything before the first "    at " frame line. */
export function messageFromStack(stack: string): string {
  const lines = stack.split('\n');
  const firstFrame = lines.findIndex((line) => /^\s+at\s/.test(line));
  return (firstFrame === -1 ? lines.slice(0, 1) : lines.slice(0, firstFrame)).join('\n') || stack;
}

function onException(channel: Channel, details: ExceptionDetails, timestamp: number, recorder: Recorder): void {
  if (details.executionContextId !== undefined && channel.ignoredContexts.has(details.executionContextId)) return;
  const rejection = details.text.includes('(in promise)');
  const source = rejection ? 'unhandledrejection' : channel.isWorker ? 'self.onerror' : 'window.onerror';
  const thrown = details.exception;
  const frames = formatCallFrames(details.stackTrace?.callFrames);
  let message: string;
  let stack: string | undefined;
  let refine = false;
  if (thrown?.subtype === 'error' && thrown.description) {
    stack = thrown.description;
    message = messageFromStack(thrown.description);
    // A cause chain and an AggregateError's inner errors are only readable in the page.
    refine = thrown.objectId !== undefined;
  } else if (thrown && isPrimitive(thrown)) {
    message = primitiveText(thrown);
    stack = frames ? `${message}\n${frames}` : undefined;
  } else if (thrown) {
    message = previewText(thrown);
    stack = frames ? `${message}\n${frames}` : undefined;
    // A Proxy's traps are page code: reading through it would run them.
    refine = thrown.objectId !== undefined && thrown.subtype !== 'proxy';
  } else {
    message = details.text.replace(/^Uncaught( \(in promise\))?:?\s*/, '') || details.text;
  }
  const event = recorder.add({
    type: 'error',
    level: 'error',
    source,
    realm: channel.realm,
    timeMs: timestamp || Date.now(),
    message,
    stack,
    location: topLocation(details.stackTrace?.callFrames, details),
  });
  // CDP keeps the thrown value for our session in the 'console' object group, released with the console arguments.
  if (thrown?.objectId) channel.objectsSinceRelease++;
  if (event && refine && thrown?.objectId) {
    const objectId = thrown.objectId;
    const isError = thrown.subtype === 'error';
    const target = details.executionContextId !== undefined ? { executionContextId: details.executionContextId } : { objectId };
    refineWith(channel, recorder, event, 'thrown', target, [{ objectId }], (value: { message?: string; stack?: string }) => {
      if (isError) {
        // Only what the description lacks: the "Caused by:" lines and inner errors that follow the stack (or,
        // where the page's stack accessor was not read, the headline).
        const full = value?.stack ?? '';
        const tail = event.stack && full.startsWith(event.stack) ? full.slice(event.stack.length) : value?.message && full.startsWith(value.message) ? full.slice(value.message.length) : '';
        if (event.stack !== undefined && /^\n(?:Caused by: |  \[\d+\] )/.test(tail)) event.stack += tail;
      } else if (value?.message) {
        if (event.stack?.startsWith(event.message)) event.stack = value.message + event.stack.slice(event.message.length);
        event.message = value.message;
      }
    });
  } else releaseConsoleObjects(channel);
}

const CONSOLE_LEVELS: Record<string, string> = { warning: 'warn', assert: 'error' };

function onConsole(channel: Channel, params: any, recorder: Recorder): void {
  if (channel.ignoredContexts.has(params.executionContextId)) return;
  const type = params.type as string;
  if (type === 'endGroup') return;
  const args = (params.args ?? []) as RemoteObject[];
  const frames = params.stackTrace?.callFrames as CallFrame[] | undefined;
  const method = type === 'warning' ? 'warn' : type;
  const structured = args.some((a) => !isPrimitive(a));
  let message = structured ? args.map((a) => (isPrimitive(a) ? primitiveText(a) : previewText(a))).join(' ') : formatPrimitiveArgs(args);
  if (type === 'assert') message = `Assertion failed${message ? `: ${message}` : ''}`;
  const withStack = method === 'error' || method === 'warn' || method === 'trace' || type === 'assert';
  const stackText = withStack ? formatCallFrames(frames) : '';
  const event = recorder.add({
    type: 'console',
    level: CONSOLE_LEVELS[type] ?? method,
    source: `console.${method}`,
    realm: channel.realm,
    timeMs: params.timestamp || Date.now(),
    message,
    stack: stackText ? `${message.split('\n', 1)[0]}\n${stackText}` : undefined,
    location: topLocation(frames),
    structured,
  });
  if (structured) channel.objectsSinceRelease++;
  if (event && structured) {
    // A Proxy's traps are page code: it is shown from V8's preview, which does not run them.
    const safeArgs = args.map((a): RemoteObject => (a.subtype === 'proxy' ? { type: 'string', value: `Proxy ${previewText(a)}` } : a));
    refineWith(
      channel,
      recorder,
      event,
      'console',
      { executionContextId: params.executionContextId },
      safeArgs.map(callArgument),
      (value: { text?: string }) => {
        if (typeof value?.text === 'string') event.message = type === 'assert' ? `Assertion failed: ${value.text}` : value.text;
      },
    );
  } else releaseConsoleObjects(channel);
}

function releaseConsoleObjects(channel: Channel): void {
  if (channel.objectsSinceRelease < RELEASE_EVERY || channel.inflight > 0) return;
  // Console arguments stay alive in the page for our session until released; a flood must not pin them.
  channel.objectsSinceRelease = 0;
  channel.send('Runtime.releaseObjectGroup', { objectGroup: 'console' }).catch(() => undefined);
}

function onLogEntry(channel: Channel, entry: any, recorder: Recorder): void {
  // 'worker' entries echo what the worker's own session reports; 'verbose' ones are Chromium's perf chatter.
  if (entry.level === 'verbose' || entry.source === 'worker') return;
  const frames = entry.stackTrace?.callFrames as CallFrame[] | undefined;
  recorder.add({
    type: 'console',
    level: entry.level === 'warning' ? 'warn' : entry.level,
    source: `browser.${entry.source ?? 'other'}`,
    realm: channel.realm,
    timeMs: entry.timestamp || Date.now(),
    message: String(entry.text ?? ''),
    location: topLocation(frames, entry.url ? { url: entry.url, lineNumber: entry.lineNumber ?? 0, columnNumber: 0 } : undefined),
  });
}

function limitsFor(recorder: Recorder) {
  const { maxDepth, maxBreadth, maxMessageLength } = recorder.options.limits;
  return { maxDepth, maxBreadth, maxLength: maxMessageLength };
}

function callArgument(object: RemoteObject): object {
  if (object.objectId) return { objectId: object.objectId };
  if (object.unserializableValue) return { unserializableValue: object.unserializableValue };
  if (object.type === 'undefined') return {};
  return { value: object.value };
}

/**
 * Reads values back from the page. One read is in flight per channel; the reads that arrive meanwhile (a page's burst
 * of console calls) then go out together, one Runtime.callFunctionOn per execution context: each CDP call costs the
 * test worker more than the values it carries, and Chromium runs a session's calls one after another anyway.
 */
function refineWith<T>(channel: Channel, recorder: Recorder, event: StoredEvent, kind: ValueRead['kind'], target: ReadTarget, values: object[], apply: (value: T) => void): void {
  channel.inflight++;
  recorder.track(new Promise<void>((done) => channel.reads.push({ kind, target, values, event, apply, done })));
  if (channel.reading) return;
  channel.reading = true;
  setImmediate(() => sendReads(channel, recorder));
}

function sendReads(channel: Channel, recorder: Recorder): void {
  const waiting = channel.reads.splice(0);
  if (!waiting.length) {
    channel.reading = false;
    return;
  }
  const byTarget = new Map<number | string, ValueRead[]>();
  for (const read of waiting) {
    const key = 'objectId' in read.target ? read.target.objectId : read.target.executionContextId;
    const reads = byTarget.get(key);
    if (reads) reads.push(read);
    else byTarget.set(key, [read]);
  }
  void Promise.all([...byTarget.values()].map((reads) => readValues(channel, recorder, reads))).then(() => sendReads(channel, recorder));
}

function readValues(channel: Channel, recorder: Recorder, reads: ValueRead[]): Promise<void> {
  const layout = reads.flatMap((read) => [read.kind, read.values.length]);
  const args = [{ value: limitsFor(recorder) }, { value: layout }, ...reads.flatMap((read) => read.values)];
  return channel
    .send('Runtime.callFunctionOn', { ...reads[0]!.target, functionDeclaration: READ_FN, arguments: args, returnByValue: true, silent: true })
    .then((response: { result?: { value?: unknown } }) => {
      const values = response?.result?.value;
      if (!Array.isArray(values)) return;
      reads.forEach((read, i) => {
        if (values[i] === undefined || values[i] === null) return;
        read.apply(values[i]);
        recorder.clip(read.event);
      });
    })
    // The page navigated or closed before the values could be read: the preview text stays.
    .catch(() => undefined)
    .finally(() => {
      channel.inflight -= reads.length;
      for (const read of reads) read.done();
      // Events that are all within the rate limit are all refined: release once the last read is back.
      releaseConsoleObjects(channel);
    });
}
