/**
 * The step of enrichment that locates events by their evidence when no frame of their stack is the app's: a failed
 * request (or a resource the browser could not load) at the app's literal naming its URL, an error at the request
 * whose URL it names, a framework's warning at the line its rule points to (locate-evidence.ts has the pure rules).
 * Runs after the frames were mapped and the components named, over the app's own original sources, loaded once and
 * only when an event needs them.
 */
import type { StoredEvent } from '../capture/recorder';
import type { DaebugEvent } from '../model/schema';
import { isNetworkFailure } from '../model/classify';
import { failedLoadOf } from '../model/failed-load';
import { requestNamedBy } from '../model/names-url';
import type { SourceText } from './locate-component';
import { assignmentsOfValue, innerHtmlBindings, linesNamingUrl, linesUsingComponent, mapCallsInComponent, ng0100CurrentValue, type FoundLine } from './locate-evidence';
import { codeFrame } from './code-frame';
import { TextLines } from './text-lines';
import { isUserSource } from './user-code';

export interface EvidenceOptions {
  /**
   * Also locate the browser's own lines about resources it could not load (an image, a font: src/model/failed-load.ts)
   * by their URL. Off with `daebugNetwork: 'off'`, where daebug leaves the network alone and those lines stand for
   * failed requests of every kind.
   */
  loads?: boolean;
}

/** Locates what can be located by evidence among a test's events, in place; stops looking past `cpuEnd`. */
export async function locateByEvidence(events: readonly StoredEvent[], appSources: () => Promise<SourceText[]>, cpuEnd: number, options: EvidenceOptions = {}): Promise<void> {
  let loaded: Promise<SourceText[]> | undefined;
  const sources = () => (loaded ??= appSources());
  await locateRequests(events, sources, cpuEnd);
  if (options.loads) await locateLoads(events, sources, cpuEnd);
  placeByNamedRequest(events);
  await locateUses(events, sources, cpuEnd);
  if (events.some((e) => e.foundInSource?.some((f) => f.snippet === undefined))) addSnippets(events, await sources());
}

type Found = NonNullable<DaebugEvent['foundInSource']>[number];

/**
 * Each found line gets the code around it, as a frame gets its code frame, read from the same sources it was found
 * in: the reporter and the CLI print it without reading the app's files again. No caret: a line found by text has
 * no column.
 */
function addSnippets(events: readonly StoredEvent[], sources: readonly SourceText[]): void {
  const texts = new Map<string, TextLines | undefined>();
  const textOf = (source: string) => {
    if (!texts.has(source)) {
      const found = sources.find((s) => s.source === source);
      texts.set(source, found ? new TextLines(found.text) : undefined);
    }
    return texts.get(source);
  };
  for (const event of events) {
    for (const line of event.foundInSource ?? []) {
      if (line.snippet !== undefined) continue;
      const text = textOf(line.source);
      const snippet = text ? codeFrame(text, line.line, 1, { caret: false }) : undefined;
      if (snippet) (line as Found).snippet = snippet;
    }
  }
}

/** Failed requests located by their URL per test: each search reads every source of the app once. */
const MAX_REQUESTS_BY_URL = 20;

/**
 * A failed request whose initiator's stack has no frame of the app (a library's client behind a promise chain, a
 * fetch with no script on the stack) is located at the app's lines whose literal names its URL, in the original
 * sources of the maps this test loaded: the evidence an agent would grep for, found the same way.
 */
async function locateRequests(events: readonly StoredEvent[], appSources: () => Promise<SourceText[]>, cpuEnd: number): Promise<void> {
  const unplaced = failedRequests(events).filter((e) => !e.network!.initiator?.original && !(e.frames ?? []).some((f) => f.userCode)).slice(0, MAX_REQUESTS_BY_URL);
  if (!unplaced.length) return;
  const sources = await appSources();
  for (const event of unplaced) {
    if (Date.now() > cpuEnd) return;
    const found = linesNamingUrl(event.network!.url, sources);
    if (found.length) event.foundInSource = found.map((f) => ({ ...f, by: 'url' as const }));
  }
}

/**
 * A resource the page could not load that daebug does not record as a failed request (an `<img src>`, a font, a
 * video) comes with the browser's line alone: no initiator, no stack. It is located the same way, at the app's
 * lines whose literal names its URL (or, failing that, its file: `./missing-avatar.png`).
 */
async function locateLoads(events: readonly StoredEvent[], appSources: () => Promise<SourceText[]>, cpuEnd: number): Promise<void> {
  const loads = failedLoads(events).slice(0, MAX_REQUESTS_BY_URL);
  if (!loads.length) return;
  const sources = await appSources();
  for (const { event, url } of loads) {
    if (Date.now() > cpuEnd) return;
    const found = linesNamingUrl(url, sources);
    if (found.length) event.foundInSource = found.map((f) => ({ ...f, by: 'url' as const }));
  }
}

/** The browser's lines about resources it could not load, not located yet, each with the resource's URL. */
export function failedLoads(events: readonly StoredEvent[]): Array<{ event: StoredEvent; url: string }> {
  return events.flatMap((event) => {
    const load = event.dropped || event.foundInSource?.length ? undefined : failedLoadOf(event);
    return load ? [{ event, url: load.url }] : [];
  });
}

/** The failed requests among the events; a request the page canceled (`network.canceled`) has nothing to fix. */
function failedRequests(events: readonly StoredEvent[]): StoredEvent[] {
  return events.filter((e) => isNetworkFailure(e) && e.network && !e.dropped);
}

/**
 * An error with no frame of the app that names a failed request's whole URL (Angular's `HttpErrorResponse`, logged by
 * its ErrorHandler) is that request's failure: the line to fix is the call that made the request, found by its URL
 * or given by its initiator, and the error says so the same way (`by: 'url'`: its own text names the URL).
 */
function placeByNamedRequest(events: readonly StoredEvent[]): void {
  const requests = failedRequests(events);
  if (!requests.length) return;
  for (const event of events) {
    if (event.network || event.dropped || event.foundInSource?.length || (event.frames ?? []).some((f) => f.userCode)) continue;
    const request = requestNamedBy(event, requests, (r) => r.network!.url);
    const caller = request?.network?.initiator?.original;
    const snippet = request?.network?.initiator?.snippet;
    const found: Found[] | undefined = request?.foundInSource ?? (caller && isUserSource(caller.source) ? [{ source: caller.source, line: caller.line, by: 'url' as const, ...(snippet ? { snippet } : {}) }] : undefined);
    if (found?.length) event.foundInSource = found.map((f) => ({ ...f }));
  }
}

/** Vue's warnings about how a component is used: the fix is in the parent that passes the props. */
const VUE_PROP_WARNING = /^\[Vue warn\]: (?:Missing required prop|Invalid prop)/;
const REACT_KEY_WARNING = /unique "key" prop/;
/** Angular's NG0100: the template read a value the component changed after the check. */
const ANGULAR_CHANGED_AFTER_CHECK = /\bNG0100\b|ExpressionChangedAfterItHasBeenChecked/;
/** Angular's DomSanitizer, on an `[innerHTML]` value it had to strip. */
const ANGULAR_SANITIZED = /sanitizing HTML stripped some content/;

/** Which use-site rule an event's warning calls for; undefined for none. */
function useRule(event: StoredEvent): 'component-use' | 'key-map' | 'assignment' | 'inner-html' | undefined {
  const component = event.component;
  if (!component) return undefined;
  if (component.framework === 'Vue') return VUE_PROP_WARNING.test(event.message) ? 'component-use' : undefined;
  if (component.framework === 'React') return REACT_KEY_WARNING.test(event.message) && component.foundBy === 'name' ? 'key-map' : undefined;
  if (component.foundBy !== 'name') return undefined;
  if (ANGULAR_CHANGED_AFTER_CHECK.test(event.message)) return 'assignment';
  return ANGULAR_SANITIZED.test(event.message) ? 'inner-html' : undefined;
}

/**
 * A warning about how the app uses a component is fixed where it is used, not where it is declared: Vue's prop
 * warnings at the parent's `<UserCard` / `h(UserCard,`, React's missing-key warning at the `.map(` inside the
 * component it names (located by name; React's owner stack already gives the JSX line), Angular's NG0100 where the
 * component sets the new value, its sanitizer warning at the component's `[innerHTML]` binding.
 */
async function locateUses(events: readonly StoredEvent[], appSources: () => Promise<SourceText[]>, cpuEnd: number): Promise<void> {
  const wanted = events.filter((e) => useRule(e) !== undefined);
  if (!wanted.length || Date.now() > cpuEnd) return;
  const sources = await appSources();
  for (const event of wanted) {
    const component = event.component!;
    const rule = useRule(event)!;
    const declaration = component.source !== undefined && component.line !== undefined ? { source: component.source, line: component.line } : undefined;
    let found: FoundLine[] = [];
    if (rule === 'component-use') found = linesUsingComponent(component.name, sources);
    else if (declaration && rule === 'key-map') found = mapCallsInComponent(declaration, sources);
    else if (declaration && rule === 'inner-html') found = innerHtmlBindings(declaration, component.name, sources);
    else if (declaration && rule === 'assignment') {
      const value = ng0100CurrentValue(event.message);
      if (value !== undefined) found = assignmentsOfValue(declaration, value, sources);
    }
    if (found.length) event.foundInSource = found.map((f) => ({ ...f, by: rule }));
  }
}
