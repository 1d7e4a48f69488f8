import { hasContentHash } from '../model/file-name';
import { pathToFileURL } from 'node:url';
import type { Recorder, Span, SpanError, StoredEvent } from '../capture/recorder';
import { DaebugSourceMapError, debugLog } from '../errors';
import { isUnexpectedIn, matchesIgnore } from '../model/classify';
import type { ErrorPart, EventComponent, Frame, NetworkFailure } from '../model/schema';
import { codeFrame } from './code-frame';
import { firstUserFrame } from './first-user-frame';
import { isDocumentStart, isDocumentUrl } from '../text/document-start';
import { browserDefaultPlace } from '../model/default-place';
import { isServiceWorkerRealm, realmContext } from '../model/realm-name';
import { enclosingComponent } from './enclosing-component';
import { locateEvaluated } from './eval-position';
import { pageFetcher, type PageAccess } from './fetch';
import { originalFunctionName } from './function-name';
import { hintFor, ignorePatternFor } from './hints';
import { isOutsideAppRoot, libraryOf } from './library';
import { failedLoads, locateByEvidence } from './locate-by-evidence';
import { failedLoadOf } from '../model/failed-load';
import { componentNamedIn, isNamedAfter, locateComponent, type ComponentDeclaration, type NamedComponent, type SourceText } from './locate-component';
import { parseStack, type ParsedFrame } from '../text/parse-stack';
import { displaySource, originalPosition, sourceUrl, type LoadedSourceMap } from './source-map';
import { needsFetch, SourceMaps, type ScriptInfo } from './source-maps';
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
  /** An unexpected error (not a failed job): it also gets its ignore pattern, for the JSON report. */
  unexpected?: boolean | undefined;
  span?: Span | undefined;
  /** For a failed request (`daebugNetwork: 'strict'`): what failed. */
  network?: NetworkFailure | undefined;
  /** Failed requests (network events) in the same realm shortly before this error, oldest first. */
  failedRequests?: NetworkFailure[] | undefined;
  /** Failed fetches of the service workers of the same browser context in those moments (a page's error only). */
  serviceWorkerFailures?: NetworkFailure[] | undefined;
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
  /** Scripts with frames of the app's (not a library's) left unmapped because their map cannot be had. */
  unmapped: Set<string>;
}

/**
 * Parses every captured stack of the test, maps page frames through source maps that daebug fetches itself (with
 * the test's cookies, `page`; the test's contexts may be closed by now), maps test-side frames (and code run by
 * `daebug.eval`) to the spec, and adds a code frame and a fix hint to each unexpected error. Never throws.
 */
export async function enrichRecorder(recorder: Recorder, page?: PageAccess): Promise<void> {
  const started = Date.now();
  const maps = new SourceMaps(pageFetcher(page));
  try {
    await enrich(recorder, maps);
  } catch (error) {
    recorder.diagnose(new DaebugSourceMapError("this test's stacks", `enriching them failed: ${error instanceof Error ? error.message : String(error)}`, error));
  }
  debugLog(`enriched stacks in ${Date.now() - started} ms (${maps.fetches} fetches)`);
}

export async function enrich(recorder: Recorder, maps: SourceMaps, limits: EnrichLimits = DEFAULT_ENRICH_LIMITS, cwd = process.cwd()): Promise<void> {
  const targets = collectTargets(recorder, limits.maxFrames);
  const loads = locatesLoads(recorder);
  if (!targets.length && !loads) return;
  const lookupEnd = Date.now() + limits.lookupMs;
  const scripts = await lookUpScripts(targets, maps, limits.maxScripts, lookupEnd, loads ? scriptsOfEvents(recorder.stored().events) : []);
  for (const [url, script] of scripts) {
    if (script?.failed && script.reason) recorder.diagnose(new DaebugSourceMapError(url, script.reason));
  }
  const run: Run = { maps, scripts, names: new Map(), cwd, lookupEnd, unmapped: new Set() };
  const cpuEnd = Date.now() + limits.cpuMs;
  // Failed requests first: an error's hint names the app call that made the request that explains it.
  for (const target of [...targets.filter((t) => t.network), ...targets.filter((t) => !t.network)]) {
    if (Date.now() > cpuEnd) {
      target.holder.frames = target.frames.map((f) => ({ ...plainFrame(f), unmappedReason: "daebug's time for mapping this test's stacks ran out" }));
      continue;
    }
    await explainTarget(target, run);
  }
  await locateComponents(recorder.stored().events, run, cpuEnd);
  await locateEnclosingComponents(recorder.stored().events, run, cpuEnd);
  await locateByEvidence(recorder.stored().events, () => componentSources(run, []), cpuEnd, { loads });
  for (const url of run.unmapped) {
    const script = scripts.get(url);
    if (script?.cause && script.reason) recorder.noteUnmapped({ url, cause: script.cause, reason: script.reason, ...(script.mapUrl ? { map: script.mapUrl } : {}) });
  }
}

/**
 * Whether the test has a page stack that fetching could map (an http(s) frame whose script this worker has not
 * fetched yet): a context about to close lends its cookies only then.
 */
export function hasStacksToMap(recorder: Recorder, maxFrames = DEFAULT_ENRICH_LIMITS.maxFrames): boolean {
  if (collectTargets(recorder, maxFrames).some((t) => t.frames.some((f, i) => !t.inNode[i] && /^https?:/i.test(f.url) && needsFetch(f.url)))) return true;
  return locatesLoads(recorder) && scriptsOfEvents(recorder.stored().events).some((url) => /^https?:/i.test(url) && needsFetch(url));
}

/**
 * Whether the test has a resource the browser could not load to look for in the app's sources (src/model/failed-load.ts):
 * not with `daebugNetwork: 'off'`, where the browser's lines stand for every failed request and daebug leaves them be.
 */
function locatesLoads(recorder: Recorder): boolean {
  return recorder.options.network !== 'off' && failedLoads(recorder.stored().events).length > 0;
}

/**
 * The scripts the test's events were logged from (their locations), for the source maps whose sources a failed load
 * is searched in when no stack of the test loaded them: a test that only showed a broken image has no stack at all.
 */
function scriptsOfEvents(events: readonly StoredEvent[]): string[] {
  const urls = new Set<string>();
  for (const event of events) {
    if (event.dropped || failedLoadOf(event)) continue;
    for (const at of [event.location, event.loggedAt]) if (at && /^(https?|file):/i.test(at.url) && !isDocumentUrl(at.url)) urls.add(scriptKey(at.url));
  }
  return [...urls];
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
  const firstFrame = firstUserFrame(located.map((l) => l.frame));
  const initiator = target.network?.initiator;
  // The app's call that made the request, not the library's fetch wrapper on top of the initiator's stack.
  const caller = initiator && firstFrame?.original;
  if (caller) initiator.original = { source: caller.source, line: caller.line, column: caller.column, ...(caller.functionName ? { functionName: caller.functionName } : {}) };
  if (!target.explain && !caller) return;
  const first = located.find((l) => l.frame === firstFrame);
  const text = first?.text ? await withDeadline(first.text(), Math.max(0, run.lookupEnd - Date.now())) : undefined;
  const snippet = text && first ? codeFrame(text, first.line, first.column) : undefined;
  // The app's call that made a failed request is a located line too: it gets its code, as an error's frame does.
  if (caller && initiator && snippet) initiator.snippet = snippet;
  if (!target.explain) return;
  if (snippet) target.holder.snippet = snippet;
  const input = { source: target.source, message: target.message, where: first ? where(first.frame) : undefined, failedRequests: target.failedRequests, serviceWorkerFailures: target.serviceWorkerFailures, network: target.network };
  const hint = hintFor(input);
  if (hint) target.holder.hint = hint;
  if (target.unexpected && 'ignorePattern' in target.holder) {
    const pattern = ignorePatternFor(input);
    if (pattern) target.holder.ignorePattern = pattern;
  }
}

function collectTargets(recorder: Recorder, maxFrames: number): Target[] {
  const { events, spans, ignore } = recorder.stored();
  const targets: Target[] = [];
  const failedRequests = events.filter((e) => e.network !== undefined);
  for (const event of events) {
    // Every stack is mapped: errors, console.error/warn/trace/assert and any console call that logged an Error.
    const hasStack = event.type === 'error' || event.stack !== undefined || event.source === 'console.error';
    const ignored = matchesIgnore(event, ignore) || event.awaitedBy !== undefined;
    const unexpected = isUnexpectedIn(event, recorder.options.network) && !ignored;
    const explain = unexpected || (event.source === 'browser.security' && !ignored);
    const initiator = event.network?.initiator;
    // The stack that made a failed request (its call frames) is mapped too, so its app call reads in the app's source.
    const initiatorFrame: ParsedFrame[] = initiator?.url && initiator.line !== undefined ? [{ url: initiator.url, line: initiator.line, column: initiator.column ?? 0 }] : [];
    if (!hasStack && !explain && !initiatorFrame.length && !(event.network && event.callFrames)) continue;
    let frames: ParsedFrame[] = event.callFrames ? event.callFrames.slice(0, maxFrames) : event.stack ? parseStack(event.stack, event.message, maxFrames) : [];
    // An error without a stack is where the browser placed it, unless that place is only the browser's default.
    if (!frames.length && event.location?.url && !browserDefaultPlace(event)) frames = [{ url: event.location.url, line: event.location.line, column: event.location.column }];
    if (!frames.length) frames = initiatorFrame;
    const target: Target = { holder: event, source: event.source, message: event.message, frames, inNode: frames.map(isNodeFrame), explain, unexpected, network: event.network };
    if (explain && failedRequests.length) {
      target.failedRequests = failedBefore(event, failedRequests);
      if (!isServiceWorkerRealm(event.realm)) target.serviceWorkerFailures = failedBefore(event, failedRequests, (r) => isServiceWorkerRealm(r.realm) && realmContext(r.realm) === realmContext(event.realm));
    }
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

/** The failed requests of the event's realm (or of the realms `of` says) in the moments before it, oldest first. */
function failedBefore(event: StoredEvent, requests: readonly StoredEvent[], of = (r: StoredEvent) => r.realm === event.realm): NetworkFailure[] {
  return requests
    .filter((r) => of(r) && r.timeMs <= event.timeMs + 50 && r.timeMs >= event.timeMs - RESPONSE_EXPLAINS_MS)
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

async function lookUpScripts(targets: Target[], maps: SourceMaps, maxScripts: number, end: number, more: readonly string[] = []): Promise<Map<string, ScriptInfo | undefined>> {
  const urls = new Set<string>();
  for (const target of targets) {
    target.frames.forEach((frame, i) => {
      if (!target.inNode[i] && /^(https?|file):/i.test(frame.url)) urls.add(scriptKey(frame.url));
    });
    const loggedAt = 'loggedAt' in target.holder ? target.holder.loggedAt : undefined;
    if (loggedAt && /^(https?|file):/i.test(loggedAt.url)) urls.add(scriptKey(loggedAt.url));
  }
  // After every stack's scripts: only read for their maps' sources, they never take a stack's place under the limit.
  for (const url of more) urls.add(url);
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
    // A script without a map is only worth a word when it is a build's output (minified, or named by its content
    // hash); hand-written code reads fine.
    const bundle = script.minified === true || hasContentHash(fileNameOf(key));
    const cannotBeHad = script.cause !== undefined && (script.cause !== 'no-source-map' || bundle);
    if ((script.failed || cannotBeHad) && script.reason) out.unmappedReason = script.reason;
    if (cannotBeHad && !out.library) run.unmapped.add(key);
    // A bundle without its map holds the app's modules and its libraries alike (React in `entry.client-…`, React
    // Router in `jsx-runtime-…`): nothing says which, so it is "not mapped", not "your code".
    if (bundle && out.unmappedReason !== undefined) out.userCode = false;
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
  let shown = displaySource(position.source, map.sourceRoot, map.url);
  if (url?.startsWith('file:')) shown = relativePath(shown, run.cwd);
  // Sources and names come from the page's map: keep them to a readable length.
  out.original = { source: clip(shown, 300), line: position.line, column: position.column, ...(name ? { functionName: clip(name, 200) } : {}) };
  // A script Vite serves from outside the app's root (`/@fs/…`) stays a library's whatever its map calls its source.
  const originalLibrary = libraryOf(shown, map.ignored.has(position.source)) ?? libraryOf(position.source) ?? (isOutsideAppRoot(key) ? library : undefined);
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

/** Original sources without `sourcesContent` fetched per test to look for a component: only files named after it. */
const MAX_COMPONENT_FETCHES = 5;
/** Distinct components searched for by name per test: each search reads every source of the app once. */
const MAX_COMPONENTS_BY_NAME = 10;
/** React's `console.createTask` names (`<li>`, `<CartList>`, `<>`): the async parent is the element's owner. */
const REACT_TASK = /^<[^<>\s]*>$/;
/** A component stack line in a React warning's text: `    at CartList (http://localhost/app.js:12:3)`. */
const COMPONENT_STACK_LINE = /^\s*at ([A-Za-z_$][\w$.]*) \(((?:https?|file):\/\/[^()\s]+):(\d+):(\d+)\)\s*$/gm;

/**
 * Names the component that each event's own text names (never a neighbour's) and finds it in the app's source:
 * for React, by its owner stack when the event has one, else by its declaration in the original sources of the
 * maps this test loaded. Runs after the frames were mapped, with the same maps and within the same time limits.
 */
async function locateComponents(events: readonly StoredEvent[], run: Run, cpuEnd: number): Promise<void> {
  const named: Array<{ event: StoredEvent; named: NamedComponent }> = [];
  for (const event of events) {
    const component = componentNamedIn(event.message, event.stack);
    if (component) named.push({ event, named: component });
  }
  if (!named.length) return;
  let sources: Promise<SourceText[]> | undefined;
  const declarations = new Map<string, ComponentDeclaration | undefined>();
  for (const { event, named: component } of named) {
    const located: EventComponent = { name: component.name, framework: component.framework };
    event.component = located;
    if (Date.now() > cpuEnd) continue;
    const owner = component.framework === 'React' ? ownerOf(event, component.name, run) : undefined;
    if (owner) {
      Object.assign(located, owner, { foundBy: 'owner-stack' });
      continue;
    }
    const key = `${component.framework}\u0000${component.name}`;
    if (!declarations.has(key) && declarations.size < MAX_COMPONENTS_BY_NAME) {
      sources ??= componentSources(run, named.map((n) => n.named.name));
      declarations.set(key, locateComponent(component.name, await sources, component.framework));
    }
    const declaration = declarations.get(key);
    if (declaration) Object.assign(located, declaration, { foundBy: 'name' });
  }
  // A production build's component stack names a minifier's `Ui` or `t`: no component a reader could look for. Such a
  // name is kept only when the sources have it.
  for (const { event } of named) if (event.component && event.component.source === undefined && isMinifiedName(event.component.name)) delete event.component;
}

/** Errors per test whose enclosing component is looked for: each reads its frame's source once. */
const MAX_ENCLOSING = 20;

/**
 * An error whose own text names no component, thrown in a component's own method (`ngOnInit`, a class component's
 * `componentDidMount`, a Vue hook): its first frame in the app is inside the component's class or options object,
 * read from the original source the map carries (src/stack/enclosing-component.ts).
 */
async function locateEnclosingComponents(events: readonly StoredEvent[], run: Run, cpuEnd: number): Promise<void> {
  const wanted = events
    .filter((e) => !e.component && (e.type === 'error' || e.source === 'console.error'))
    .map((event) => ({ event, at: firstUserFrame(event.frames)?.original }))
    .filter((c): c is { event: StoredEvent; at: NonNullable<Frame['original']> } => c.at !== undefined)
    .slice(0, MAX_ENCLOSING);
  if (!wanted.length || Date.now() > cpuEnd) return;
  const sources = new Map((await componentSources(run, [])).map((s) => [s.source, s.text]));
  for (const { event, at } of wanted) {
    if (Date.now() > cpuEnd) return;
    const text = sources.get(at.source);
    const found = text === undefined ? undefined : enclosingComponent(text, at.line, at.source);
    if (found) event.component = { name: found.name, framework: found.framework, source: at.source, line: found.line, foundBy: 'enclosing' };
  }
}

/** One or two characters (`t`, `Ui`, `$e`): a minifier's name, not a developer's. */
function isMinifiedName(name: string): boolean {
  return /^[\p{L}_$][\p{L}\p{N}_$]?$/u.test(name);
}

/**
 * Where React's owner stack puts the component: the line of its own component stack (React 18's `at CartList (…)`
 * in the text) that names it, or, with `daebugAsyncStacks`, the first app frame under React's `console.createTask`
 * parent (the JSX that created the element). Only scripts already loaded are read.
 */
function ownerOf(event: StoredEvent, name: string, run: Run): ComponentDeclaration | undefined {
  for (const match of event.message.matchAll(COMPONENT_STACK_LINE)) {
    if (match[1]!.slice(match[1]!.lastIndexOf('.') + 1) !== name) continue;
    const url = match[2]!;
    if (!run.scripts.has(scriptKey(url))) continue;
    const original = locate({ url, line: Number(match[3]), column: Number(match[4]) }, false, run).frame;
    if (original.userCode && original.original) return { source: original.original.source, line: original.original.line };
  }
  const frames = event.frames ?? [];
  const parent = frames.findIndex((f) => f.asyncParent !== undefined && REACT_TASK.test(f.asyncParent));
  if (parent === -1 || frames.slice(0, parent).some((f) => f.userCode)) return undefined;
  const owner = frames.slice(parent).find((f) => f.userCode && f.original);
  return owner?.original ? { source: owner.original.source, line: owner.original.line } : undefined;
}

/**
 * The app's own original sources of every map loaded for this test, as frames show them; a source the map has no
 * `sourcesContent` for is read from its URL (a `file:` path on disk, or the dev server) when it is named after one
 * of the components.
 */
async function componentSources(run: Run, names: readonly string[]): Promise<SourceText[]> {
  const out = new Map<string, SourceText>();
  const missing: Array<{ shown: string; url: string }> = [];
  for (const script of run.scripts.values()) {
    const map = script?.map;
    if (!map) continue;
    for (const source of sourcesOf(map)) {
      const shown = shownSource(map, source, run.cwd);
      if (out.has(shown) || libraryOf(shown, map.ignored.has(source)) || libraryOf(source) || !isUserSource(source) || !isUserSource(shown)) continue;
      const content = map.contents.get(source);
      if (content) out.set(shown, { source: shown, text: content.text });
      else {
        const url = sourceUrl(map, source);
        if (url && /^(https?|file):/i.test(url) && names.some((name) => isNamedAfter(shown, name))) missing.push({ shown, url });
      }
    }
  }
  const wanted = missing.filter((m) => !out.has(m.shown)).slice(0, MAX_COMPONENT_FETCHES);
  const texts = await Promise.all(wanted.map((m) => withDeadline(run.maps.source(m.url), Math.max(0, run.lookupEnd - Date.now()))));
  wanted.forEach((m, i) => {
    const text = texts[i];
    if (text) out.set(m.shown, { source: m.shown, text: text.text });
  });
  return [...out.values()];
}

/** Every source a map names, with or without `sourcesContent` (the sections of an index map included). */
function sourcesOf(loaded: LoadedSourceMap): string[] {
  const payload = loaded.map.payload as { sources?: unknown; sections?: Array<{ map?: { sources?: unknown } }> };
  const parts = Array.isArray(payload.sections) ? payload.sections.map((s) => s.map?.sources) : [payload.sources];
  const sources = new Set<string>(loaded.contents.keys());
  for (const list of parts) if (Array.isArray(list)) for (const source of list) if (typeof source === 'string') sources.add(source);
  return [...sources];
}

/** A source as frames show it: the path a developer edits, relative to the working directory for `file:` maps. */
function shownSource(map: LoadedSourceMap, source: string, cwd: string): string {
  const url = sourceUrl(map, source);
  const shown = displaySource(source, map.sourceRoot, map.url);
  return clip(url?.startsWith('file:') ? relativePath(shown, cwd) : shown, 300);
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

/** The last segment of a URL's path: the script's file name. */
function fileNameOf(url: string): string {
  const path = url.split(/[?#]/, 1)[0]!;
  return path.slice(path.lastIndexOf('/') + 1);
}
