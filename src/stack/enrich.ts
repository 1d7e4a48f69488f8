import { pathToFileURL } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import type { Recorder, Span, SpanError, StoredEvent } from '../capture/recorder';
import { DaebugSourceMapError, debugLog } from '../errors';
import { isUnexpectedIn, matchesIgnore } from '../model/classify';
import type { ErrorPart, Frame, NetworkFailure } from '../model/schema';
import { codeFrame } from './code-frame';
import { firstUserFrame, isDocumentStart } from './first-user-frame';
import { locateEvaluated } from './eval-position';
import { contextFetcher } from './fetch';
import { originalFunctionName } from './function-name';
import { hintFor } from './hints';
import { libraryOf } from './library';
import { parseStack, type ParsedFrame } from './parse';
import { displaySource, originalPosition, sourceUrl } from './source-map';
import { SourceMaps, type ScriptInfo } from './source-maps';
import type { TextLines } from './text-lines';
import { isUserFile, isUserSource, nodeFilePath, relativePath } from './user-code';

export interface EnrichLimits {
  /** Frames parsed per stack. */
  maxFrames: number;
  /** Distinct scripts looked up per test. */
  maxScripts: number;
  /** Wall-clock bound of all fetching (scripts, maps, sources); each fetch also has its own 2 s timeout. */
  lookupMs: number;
  /** Bound of the mapping work after the fetching. */
  cpuMs: number;
}

export const DEFAULT_ENRICH_LIMITS: EnrichLimits = { maxFrames: 30, maxScripts: 20, lookupMs: 4500, cpuMs: 2000 };

/** What enrichment writes into: an event, a failed job's error, or an error's cause or AggregateError member. */
interface Holder {
  frames?: Frame[] | undefined;
  snippet?: string | undefined;
  hint?: string | undefined;
}

interface Target {
  holder: StoredEvent | SpanError | Holder;
  source: string;
  message: string;
  frames: ParsedFrame[];
  /** Which frames ran in Node (the test) rather than in the page: a daebug.eval error carries both. */
  inNode: boolean[];
  /** Unexpected errors and failed jobs get a code frame and a hint; other stacks only get their frames. */
  explain: boolean;
  span?: Span | undefined;
  /** For a failed request (`daebugNetwork: 'strict'`): what failed. */
  network?: NetworkFailure | undefined;
  /** Failed requests (network events) in the same realm shortly before this error, oldest first. */
  failedRequests?: NetworkFailure[] | undefined;
}

/** How long before an error a failed request may still explain it (a fetch, then parsing its body). */
const RESPONSE_EXPLAINS_MS = 10_000;

/** A frame with the text its code frame is cut from. */
interface Located {
  frame: Frame;
  text?: (() => Promise<TextLines | undefined>) | undefined;
  line: number;
  column: number;
}

interface Run {
  maps: SourceMaps;
  scripts: Map<string, ScriptInfo | undefined>;
  names: Map<string, string | undefined>;
  cwd: string;
  /** When fetching has to stop. */
  lookupEnd: number;
}

/**
 * Parses every captured stack of the test, maps page frames through source maps fetched with the test's own
 * browser context, maps test-side frames (and code run by `daebug.eval`) to the spec, and adds a code frame and a
 * fix hint to each unexpected error. Runs while the context is still open; never throws.
 */
export async function enrichRecorder(recorder: Recorder, request: () => Promise<APIRequestContext>): Promise<void> {
  const started = Date.now();
  const maps = new SourceMaps(contextFetcher(request));
  try {
    await enrich(recorder, maps);
  } catch (error) {
    recorder.diagnose(new DaebugSourceMapError("this test's stacks", `enriching them failed: ${error instanceof Error ? error.message : String(error)}`, error));
  }
  debugLog(`enriched stacks in ${Date.now() - started} ms (${maps.fetches} fetches)`);
}

export async function enrich(recorder: Recorder, maps: SourceMaps, limits: EnrichLimits = DEFAULT_ENRICH_LIMITS, cwd = process.cwd()): Promise<void> {
  const targets = collectTargets(recorder, limits.maxFrames);
  if (!targets.length) return;
  const lookupEnd = Date.now() + limits.lookupMs;
  const scripts = await lookUpScripts(targets, maps, limits.maxScripts, lookupEnd);
  for (const [url, script] of scripts) {
    if (script?.failed && script.reason) recorder.diagnose(new DaebugSourceMapError(url, script.reason));
  }
  const run: Run = { maps, scripts, names: new Map(), cwd, lookupEnd };
  const cpuEnd = Date.now() + limits.cpuMs;
  for (const target of targets) {
    if (Date.now() > cpuEnd) {
      target.holder.frames = target.frames.map((f) => ({ ...plainFrame(f), unmappedReason: "daebug's time for mapping this test's stacks ran out" }));
      continue;
    }
    await explainTarget(target, run);
  }
}

async function explainTarget(target: Target, run: Run): Promise<void> {
  const located = target.frames.map((frame, i) => locate(frame, target.inNode[i] ?? false, run));
  if (target.span?.code) await mapEvaluated(target, located, target.span.code, run);
  target.holder.frames = located.map((l) => l.frame);
  const loggedAt = 'loggedAt' in target.holder ? target.holder.loggedAt : undefined;
  if (loggedAt) {
    const original = locate({ url: loggedAt.url, line: loggedAt.line, column: loggedAt.column }, false, run).frame.original;
    if (original) loggedAt.original = { source: original.source, line: original.line, column: original.column };
  }
  const initiator = target.network?.initiator;
  if (initiator?.url) {
    const mapped = located.find((l) => l.frame.url === initiator.url && l.frame.line === initiator.line)?.frame.original;
    if (mapped) initiator.original = { source: mapped.source, line: mapped.line, column: mapped.column };
  }
  if (!target.explain) return;
  const firstFrame = firstUserFrame(located.map((l) => l.frame));
  const first = located.find((l) => l.frame === firstFrame);
  if (first?.text) {
    const text = await withDeadline(first.text(), Math.max(0, run.lookupEnd - Date.now()));
    const snippet = text ? codeFrame(text, first.line, first.column) : undefined;
    if (snippet) target.holder.snippet = snippet;
  }
  const hint = hintFor({ source: target.source, message: target.message, where: first ? where(first.frame) : undefined, failedRequests: target.failedRequests, network: target.network });
  if (hint) target.holder.hint = hint;
}

function collectTargets(recorder: Recorder, maxFrames: number): Target[] {
  const { events, spans, ignore } = recorder.stored();
  const targets: Target[] = [];
  const failedRequests = events.filter((e) => e.network !== undefined);
  for (const event of events) {
    // Every stack is mapped: errors, console.error/warn/trace/assert and any console call that logged an Error.
    const hasStack = event.type === 'error' || event.stack !== undefined || event.source === 'console.error';
    const explain = (isUnexpectedIn(event, recorder.options.network) || event.source === 'browser.security') && !matchesIgnore(event, ignore);
    const initiator = event.network?.initiator;
    // The script that made a failed request is mapped too, so its line reads in the app's source.
    const initiatorFrame: ParsedFrame[] = initiator?.url && initiator.line !== undefined ? [{ url: initiator.url, line: initiator.line, column: initiator.column ?? 0 }] : [];
    if (!hasStack && !explain && !initiatorFrame.length) continue;
    let frames: ParsedFrame[] = event.callFrames ? event.callFrames.slice(0, maxFrames) : event.stack ? parseStack(event.stack, event.message, maxFrames) : [];
    if (!frames.length && event.location?.url) frames = [{ url: event.location.url, line: event.location.line, column: event.location.column }];
    if (!frames.length) frames = initiatorFrame;
    const target: Target = { holder: event, source: event.source, message: event.message, frames, inNode: frames.map(isNodeFrame), explain, network: event.network };
    if (explain && failedRequests.length) target.failedRequests = failedBefore(event, failedRequests);
    targets.push(target);
    // Causes and inner errors get their frames mapped; the code frame and hint stay with the event itself.
    for (const part of [...(event.cause ?? []), ...(event.aggregate ?? [])]) {
      const partFrames = part.stack ? parseStack(part.stack, messageOf(part), maxFrames) : [];
      if (partFrames.length) targets.push({ holder: part, source: event.source, message: messageOf(part), frames: partFrames, inNode: partFrames.map(isNodeFrame), explain: false });
    }
  }
  for (const span of spans) {
    const error = span.error;
    if (!error) continue;
    const frames = error.stack ? parseStack(error.stack, error.message, maxFrames) : [];
    targets.push({ holder: error, source: `daebug.${span.kind}`, message: error.message, frames, inNode: sidesOfSpan(frames, span), explain: true, span });
  }
  return targets;
}

/** The failed requests of the event's realm in the moments before it, oldest first. */
function failedBefore(event: StoredEvent, requests: readonly StoredEvent[]): NetworkFailure[] {
  return requests
    .filter((r) => r.realm === event.realm && r.timeMs <= event.timeMs + 50 && r.timeMs >= event.timeMs - RESPONSE_EXPLAINS_MS)
    .sort((a, b) => a.timeMs - b.timeMs || a.seq - b.seq)
    .map((r) => r.network!);
}

/** The headline a cause's stack starts with, which parseStack skips. */
function messageOf(part: ErrorPart): string {
  return part.name ? `${part.name}: ${part.message}` : part.message;
}

function isNodeFrame(frame: ParsedFrame): boolean {
  return frame.url.startsWith('node:') || (nodeFilePath(frame.url) !== undefined && !/^file:/i.test(frame.url));
}

/**
 * A daebug.eval error's stack holds the page's frames, Playwright's injected `<anonymous>` evaluation frames, then
 * the test's frames up to the daebug.eval call. A daebug.job error's frames are all the test's.
 */
function sidesOfSpan(frames: ParsedFrame[], span: Span): boolean[] {
  if (span.kind !== 'eval') return frames.map(() => true);
  let pastPage = false;
  return frames.map((frame) => {
    if (isNodeFrame(frame)) return true;
    if (frame.url === '<anonymous>' && !frame.evaluated) {
      pastPage = true;
      return false;
    }
    return pastPage;
  });
}

async function lookUpScripts(targets: Target[], maps: SourceMaps, maxScripts: number, end: number): Promise<Map<string, ScriptInfo | undefined>> {
  const urls = new Set<string>();
  for (const target of targets) {
    target.frames.forEach((frame, i) => {
      if (!target.inNode[i] && /^(https?|file):/i.test(frame.url)) urls.add(scriptKey(frame.url));
    });
    const loggedAt = 'loggedAt' in target.holder ? target.holder.loggedAt : undefined;
    if (loggedAt && /^(https?|file):/i.test(loggedAt.url)) urls.add(scriptKey(loggedAt.url));
  }
  const scripts = new Map<string, ScriptInfo | undefined>();
  if (!urls.size) return scripts;
  const wanted = [...urls].slice(0, maxScripts);
  await withDeadline(Promise.all(wanted.map(async (url) => scripts.set(url, await maps.script(url)))), Math.max(0, end - Date.now()));
  // Scripts left out by the limit stay absent; those still loading are marked as late.
  for (const url of wanted) if (!scripts.has(url)) scripts.set(url, undefined);
  return scripts;
}

function locate(frame: ParsedFrame, inNode: boolean, run: Run): Located {
  const out = plainFrame(frame);
  const here = { frame: out, line: frame.line, column: frame.column };
  if (inNode) {
    const file = nodeFilePath(frame.url);
    if (!file || !isUserFile(file)) return here;
    out.userCode = true;
    out.original = { source: relativePath(file, run.cwd), line: frame.line, column: frame.column, ...(frame.functionName ? { functionName: frame.functionName } : {}) };
    return { ...here, text: () => run.maps.source(pathToFileURL(file).href) };
  }
  if (frame.url.startsWith('blob:')) {
    out.userCode = true;
    out.unmappedReason = 'blob: scripts cannot be fetched from outside the page';
    return here;
  }
  if (!/^(https?|file):/i.test(frame.url)) return here;
  const key = scriptKey(frame.url);
  const library = libraryOf(key);
  if (library) out.library = library;
  else out.userCode = isUserSource(key) && !isDocumentStart(out);
  const script = run.scripts.get(key);
  if (!script) {
    out.unmappedReason = run.scripts.has(key) ? 'the source map lookup did not finish in time' : "too many scripts in this test's stacks";
    return here;
  }
  const lines = script.lines;
  const generated: Located = { ...here, text: lines ? async () => lines : undefined };
  if (!script.map) {
    if (script.failed && script.reason) out.unmappedReason = script.reason;
    return generated;
  }
  const map = script.map;
  const position = originalPosition(map, frame.line, frame.column);
  if (!position) {
    out.unmappedReason = 'the source map has no mapping for this position';
    return generated;
  }
  const nameKey = `${key}:${frame.line}:${frame.column}:${frame.functionName ?? ''}`;
  if (!run.names.has(nameKey)) run.names.set(nameKey, lines ? originalFunctionName(map, lines, frame.functionName, frame.line, frame.column) : undefined);
  const name = run.names.get(nameKey);
  const url = sourceUrl(map, position.source);
  let shown = displaySource(position.source, map.sourceRoot);
  if (url?.startsWith('file:')) shown = relativePath(shown, run.cwd);
  // Sources and names come from the page's map: keep them to a readable length.
  out.original = { source: clip(shown, 300), line: position.line, column: position.column, ...(name ? { functionName: clip(name, 200) } : {}) };
  const originalLibrary = libraryOf(shown, map.ignored.has(position.source)) ?? libraryOf(position.source);
  if (originalLibrary) out.library = originalLibrary;
  else delete out.library;
  out.userCode = !originalLibrary && isUserSource(position.source) && isUserSource(shown);
  const content = map.contents.get(position.source);
  const text = content ? async () => content : url && /^(https?|file):/i.test(url) ? () => run.maps.source(url) : undefined;
  return { frame: out, text, line: position.line, column: position.column };
}

/** Maps `daebug.eval` frames (code Playwright evaluated as `<anonymous>`) to the lines of the test that hold that code. */
async function mapEvaluated(target: Target, located: Located[], code: string, run: Run): Promise<void> {
  for (let i = 0; i < located.length; i++) {
    const parsed = target.frames[i];
    const entry = located[i];
    if (!parsed?.evaluated || !entry || target.inNode[i]) continue;
    const callSite = located.find((l, j) => j > i && target.inNode[j] && l.frame.userCode);
    const file = callSite ? nodeFilePath(callSite.frame.url) : undefined;
    const spec = file ? await withDeadline(run.maps.source(pathToFileURL(file).href), Math.max(250, run.lookupEnd - Date.now())) : undefined;
    const position = spec && callSite ? locateEvaluated(code, parsed.line, parsed.column, spec, callSite.line) : undefined;
    if (!position || !file || !spec) {
      entry.frame.unmappedReason = 'the evaluated code could not be found in the test file';
      continue;
    }
    entry.frame.userCode = true;
    entry.frame.original = { source: relativePath(file, run.cwd), line: position.line, column: position.column };
    located[i] = { frame: entry.frame, text: async () => spec, line: position.line, column: position.column };
  }
}

function plainFrame(frame: ParsedFrame): Frame {
  const out: Frame = { url: frame.url, line: frame.line, column: frame.column };
  if (frame.functionName) out.functionName = frame.functionName;
  if (frame.asyncParent) out.asyncParent = frame.asyncParent;
  return out;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function scriptKey(url: string): string {
  const at = url.indexOf('#');
  return at === -1 ? url : url.slice(0, at);
}

function where(frame: Frame): string {
  return frame.original ? `${frame.original.source}:${frame.original.line}:${frame.original.column}` : `${frame.url}:${frame.line}:${frame.column}`;
}

async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
