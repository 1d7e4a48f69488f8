import type { ErrorPart } from '../../model/schema';
import type { SerializedErrorPart } from '../in-page/types';
import type { EventDraft, Recorder, StoredEvent } from '../recorder';
import type { BrowserIssue } from '../../model/schema';
import { debugLog } from '../../errors';
import { shortUrl } from '../../model/short-url';
import { formatPrimitiveArgs, isPrimitive, previewText, primitiveText, type RemoteObject } from '../remote-object';
import { framesOf, stackText, type CdpStackTrace } from './call-frames';
import { isDocumentStart } from '../../text/document-start';
import { parseStack } from '../../text/parse-stack';
import { messageFromStack } from '../../text/stack-message';
import type { Target } from './target';
import type { ValueRead } from './value-reads';
import { isFavicon } from '../network-failure';

/** Where a target's events go: the test's recorder, under the target's realm, with values read later. */
export interface RuntimeSink {
  recorder: Recorder;
  realmOf(target: Target): string;
  readLater(target: Target, read: ValueRead): void;
  /** Whether a "Failed to load resource" line is about a request already reported as a `network` event. */
  coversNetworkLog?(target: Target, networkRequestId: string | undefined): boolean;
  /** Whether a browser line says what a DevTools issue said already (src/capture/browser-issues.ts). */
  coversIssueLog?(target: Target, entry: { source?: string; category?: string; text?: string }): boolean;
  /** Whether a DevTools issue (a CSP violation) reported that the browser blocked this URL. */
  blockedByIssue?(target: Target, url: string): boolean;
  /** The DevTools issue about a request (a CORS block), for the failed request's own event. */
  issueOfRequest?(target: Target, requestId: string): BrowserIssue | undefined;
  /** A browser line was stored: a DevTools issue about the same problem may take it over. */
  noteLogEntry?(target: Target, entry: { source?: string; category?: string; text?: string }, event: StoredEvent): void;
}

interface ExceptionDetails {
  text: string;
  url?: string;
  lineNumber: number;
  columnNumber: number;
  executionContextId?: number;
  exception?: RemoteObject;
  stackTrace?: CdpStackTrace;
}

const CONSOLE_LEVELS: Record<string, string> = { warning: 'warn', assert: 'error' };
const WITH_STACK: ReadonlySet<string> = new Set(['error', 'warning', 'trace', 'assert']);

/** Handles one CDP event of a captured target. */
export function onRuntimeEvent(sink: RuntimeSink, target: Target, method: string, params: any): void {
  switch (method) {
    case 'Runtime.executionContextCreated': {
      const context = params.context as { id: number; name?: string; auxData?: { type?: string; frameId?: string } };
      // Playwright's utility world logs its own markers (e.g. for setContent); they are not page output.
      if (context.name?.startsWith('__playwright') || context.auxData?.type === 'isolated') target.ignoredContexts.add(context.id);
      // A page's main frame has the page's target id.
      if (context.name?.startsWith('__playwright_utility_world') && context.auxData?.frameId === target.targetId) target.utilityContextId = context.id;
      return;
    }
    case 'Page.frameNavigated': {
      const frame = params.frame as { parentId?: string; url: string; urlFragment?: string };
      if (frame.parentId) return;
      add(sink, target, { type: 'console', level: 'debug', source: 'navigation', timeMs: Date.now(), message: shortUrl(frame.url + (frame.urlFragment ?? '')) });
      return;
    }
    case 'Runtime.exceptionThrown':
      return onException(sink, target, params.exceptionDetails as ExceptionDetails, params.timestamp as number);
    case 'Runtime.consoleAPICalled':
      return onConsole(sink, target, params);
    case 'Log.entryAdded':
      return onLogEntry(sink, target, params.entry);
  }
}

export function add(sink: RuntimeSink, target: Target, draft: Omit<EventDraft, 'realm' | 'stream'>): StoredEvent {
  // The draft is the caller's own literal, and the recorder stores a copy: completing it in place spares a spread.
  const complete = draft as EventDraft;
  complete.realm = sink.realmOf(target);
  complete.stream = target.key;
  return sink.recorder.add(complete);
}


/**
 * Whether reading an Error in the page could add anything to its description (the stack V8 sent): a `cause` or an
 * AggregateError's `errors`. V8's preview of an Error lists its own properties, non-enumerable ones included
 * (`stack`, `message`, a `cause`), so a built-in Error's complete preview without either says there is nothing to
 * read. A subclass is always read: the serializer also finds a `cause` its prototype holds, which no preview shows.
 * Skipping the read matters at the test's end: with nothing left to read, the barrier does not wait for the page's
 * main thread (Target.roundTrip).
 */
function mayHoldParts(error: RemoteObject): boolean {
  const preview = error.preview;
  if (!preview?.properties || preview.overflow || !BUILT_IN_ERRORS.has(error.className ?? '')) return true;
  return preview.properties.some((p) => p.name === 'cause' || p.name === 'errors');
}

const BUILT_IN_ERRORS: ReadonlySet<string> = new Set(['Error', 'TypeError', 'RangeError', 'ReferenceError', 'SyntaxError', 'EvalError', 'URIError', 'DOMException']);

/** Where an Error's own stack says it was thrown: its first frame. */
function topOfStack(stack: string): { url: string; line: number; column: number } | undefined {
  const top = parseStack(stack, messageFromStack(stack), 1)[0];
  return top?.url && top.line ? { url: top.url, line: top.line, column: top.column } : undefined;
}

/** The cause chain and AggregateError members read from the page, each located at the top of its own stack. */
function applyErrorParts(event: StoredEvent, value: { causes?: SerializedErrorPart[]; members?: SerializedErrorPart[] } | undefined): void {
  const toPart = (p: SerializedErrorPart): ErrorPart => {
    const part: ErrorPart = { message: String(p.message) };
    if (typeof p.name === 'string') part.name = p.name;
    if (typeof p.stack === 'string') {
      part.stack = p.stack;
      const at = topOfStack(p.stack);
      if (at) part.location = at;
    }
    return part;
  };
  // The serializer's answer travels through the page: anything not shaped like a part is left out.
  const parts = (list: unknown) => (Array.isArray(list) ? list.filter((p): p is SerializedErrorPart => typeof p?.message === 'string').map(toPart) : []);
  const cause = parts(value?.causes);
  const aggregate = parts(value?.members);
  if (cause.length) event.cause = cause;
  if (aggregate.length) event.aggregate = aggregate;
}

function locationOf(frames: ReturnType<typeof framesOf>, fallback?: { url?: string | undefined; lineNumber: number; columnNumber: number }) {
  const top = frames[0];
  if (top?.url) return { url: top.url, line: top.line, column: top.column };
  if (fallback?.url) return { url: fallback.url, line: fallback.lineNumber + 1, column: fallback.columnNumber + 1 };
  return undefined;
}

/** Where an exception happened; a rejection without a stack, which Chromium places at the page's first line, has none. */
function exceptionLocation(frames: ReturnType<typeof framesOf>, details: ExceptionDetails) {
  const at = locationOf(frames, details);
  return at && !frames.length && isDocumentStart(at) ? undefined : at;
}

/**
 * A nested worker's uncaught error reaches its parent worker as an error event on the Worker object: Chromium reports
 * it again on the parent's session, with the value null (or none) and, depending on the stack settings, either no
 * stack or the nested worker's own frames. The nested worker's session reported it already, in the realm where it
 * was thrown. A script of the parent's own that throws null has frames of the parent's scripts.
 */
function fromNestedWorker(target: Target, details: ExceptionDetails): boolean {
  const thrown = details.exception;
  if ((thrown && thrown.subtype !== 'null') || !/^Uncaught(?! \(in promise\))/.test(details.text)) return false;
  const frames = details.stackTrace?.callFrames ?? [];
  if (!frames.length) return true;
  const childUrls = new Set([...target.children.values()].map((child) => child.url));
  return frames.every((frame) => childUrls.has(frame.url)) || (details.url !== undefined && childUrls.has(details.url) && frames.every((frame) => frame.url !== target.url));
}

function onException(sink: RuntimeSink, target: Target, details: ExceptionDetails, timestamp: number): void {
  if (details.executionContextId !== undefined && target.ignoredContexts.has(details.executionContextId)) return;
  const thrown = details.exception;
  if (target.isWorker && fromNestedWorker(target, details)) {
    debugLog(`skipped a nested worker's error as its parent worker received it: ${details.text} at ${details.url ?? '?'}`);
    return;
  }
  const rejection = details.text.includes('(in promise)');
  const source = rejection ? 'unhandledrejection' : target.isWorker ? 'self.onerror' : 'window.onerror';
  const frames = framesOf(details.stackTrace);
  let message: string;
  let stack: string | undefined;
  let readThrown = false;
  if (thrown?.subtype === 'error' && thrown.description) {
    stack = thrown.description;
    message = messageFromStack(thrown.description);
    // A cause chain and an AggregateError's inner errors are only readable in the page.
    readThrown = thrown.objectId !== undefined && mayHoldParts(thrown);
  } else if (thrown && isPrimitive(thrown)) {
    message = primitiveText(thrown);
    stack = frames.length ? stackText(message, frames) : undefined;
  } else if (thrown) {
    message = previewText(thrown);
    stack = frames.length ? stackText(message, frames) : undefined;
    // A Proxy's traps are page code: reading through it would run them.
    readThrown = thrown.objectId !== undefined && thrown.subtype !== 'proxy';
  } else {
    message = details.text.replace(/^Uncaught( \(in promise\))?:?\s*/, '') || details.text;
  }
  const event = add(sink, target, {
    type: 'error',
    level: 'error',
    source,
    timeMs: timestamp || Date.now(),
    message,
    stack,
    callFrames: frames.length ? frames : undefined,
    location: exceptionLocation(frames, details),
  });
  if (!readThrown || !thrown?.objectId) return;
  const objectId = thrown.objectId;
  const isError = thrown.subtype === 'error';
  sink.readLater(target, {
    kind: 'thrown',
    on: details.executionContextId !== undefined ? { executionContextId: details.executionContextId } : { objectId },
    values: [{ objectId }],
    event,
    apply: (value: { message?: string; stack?: string; causes?: SerializedErrorPart[]; members?: SerializedErrorPart[] }) => {
      applyErrorParts(event, value);
      if (isError) {
        // Only what the description lacks: the "Caused by:" lines and inner errors that follow the stack.
        const full = value?.stack ?? '';
        const tail = event.stack && full.startsWith(event.stack) ? full.slice(event.stack.length) : value?.message && full.startsWith(value.message) ? full.slice(value.message.length) : '';
        if (event.stack !== undefined && /^\n(?:Caused by: |  \[\d+\] )/.test(tail)) event.stack += tail;
      } else if (value?.message) {
        if (event.stack?.startsWith(event.message)) event.stack = value.message + event.stack.slice(event.message.length);
        event.message = value.message;
      }
    },
  });
}

function onConsole(sink: RuntimeSink, target: Target, params: any): void {
  if (target.ignoredContexts.has(params.executionContextId)) return;
  const type = params.type as string;
  if (type === 'endGroup') return;
  const args = (params.args ?? []) as RemoteObject[];
  const frames = framesOf(params.stackTrace as CdpStackTrace | undefined);
  const method = type === 'warning' ? 'warn' : type;
  const structured = args.some((a) => !isPrimitive(a));
  // An Error among the arguments (frameworks log the errors they catch) carries the stack of where it was thrown.
  const logged = args.find((a) => a.subtype === 'error' && typeof a.description === 'string');
  // Until the values are read (or for good, when they need not be: src/capture/value-policy.ts), objects show V8's preview.
  let message = formatPrimitiveArgs(args, structured ? args.map((a) => (isPrimitive(a) ? primitiveText(a) : a === logged ? messageFromStack(a.description!) : previewText(a))) : undefined);
  if (type === 'assert') message = `Assertion failed${message ? `: ${message}` : ''}`;
  const withStack = WITH_STACK.has(type) && frames.length > 0;
  const callSite = locationOf(frames);
  const thrownAt = logged ? topOfStack(logged.description!) : undefined;
  const event = add(sink, target, {
    type: 'console',
    level: CONSOLE_LEVELS[type] ?? method,
    source: `console.${method}`,
    timeMs: params.timestamp || Date.now(),
    message,
    stack: logged && thrownAt ? logged.description : withStack ? stackText(message.split('\n', 1)[0]!, frames) : undefined,
    callFrames: logged && thrownAt ? undefined : withStack ? frames : undefined,
    location: thrownAt ?? callSite,
    loggedAt: logged && thrownAt ? callSite : undefined,
    structured,
  });
  if (!structured) return;
  if (logged?.objectId && mayHoldParts(logged)) {
    const objectId = logged.objectId;
    sink.readLater(target, { kind: 'thrown', on: { executionContextId: params.executionContextId }, values: [{ objectId }], event, apply: (value) => applyErrorParts(event, value) });
  }
  // A Proxy's traps are page code: it is shown from V8's preview, which does not run them.
  const values = args.map((a) => callArgument(a.subtype === 'proxy' ? { type: 'string', value: `Proxy ${previewText(a)}` } : a));
  sink.readLater(target, {
    kind: 'console',
    on: { executionContextId: params.executionContextId },
    values,
    event,
    apply: (value: { text?: string }) => {
      if (typeof value?.text === 'string') event.message = type === 'assert' ? `Assertion failed: ${value.text}` : value.text;
    },
  });
}

function onLogEntry(sink: RuntimeSink, target: Target, entry: any): void {
  // 'worker' entries echo what the worker's own session reports; 'verbose' ones are Chromium's perf chatter.
  if (entry.level === 'verbose' || entry.source === 'worker') return;
  if (entry.source === 'network' && ((entry.url && isFavicon(entry.url)) || sink.coversNetworkLog?.(target, entry.networkRequestId))) return;
  if (sink.coversIssueLog?.(target, entry)) return;
  const frames = framesOf(entry.stackTrace as CdpStackTrace | undefined);
  const event = add(sink, target, {
    type: 'console',
    level: entry.level === 'warning' ? 'warn' : entry.level,
    source: `browser.${entry.source ?? 'other'}`,
    timeMs: entry.timestamp || Date.now(),
    message: String(entry.text ?? ''),
    location: locationOf(frames, entry.url ? { url: entry.url, lineNumber: entry.lineNumber ?? 0, columnNumber: 0 } : undefined),
  });
  sink.noteLogEntry?.(target, entry, event);
}

function callArgument(object: RemoteObject): object {
  if (object.objectId) return { objectId: object.objectId };
  if (object.unserializableValue) return { unserializableValue: object.unserializableValue };
  if (object.type === 'undefined') return {};
  return { value: object.value };
}
