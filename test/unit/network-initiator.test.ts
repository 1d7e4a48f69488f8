import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initiatorFrames, MAX_INITIATOR_FRAMES, pendingFrom } from '../../src/capture/cdp/network';
import type { CdpStackTrace } from '../../src/capture/cdp/call-frames';
import { networkDraft } from '../../src/capture/network-failure';
import { Recorder } from '../../src/capture/recorder';
import { eventFence } from '../../src/format/event-block';
import { requestExcerpt } from '../../src/format/found-note';
import { initiatorText } from '../../src/format/network-block';
import { resolveOptions, type NetworkMode } from '../../src/options';
import { enrich } from '../../src/stack/enrich';
import { hintFor } from '../../src/stack/hints';
import type { FetchResult } from '../../src/stack/fetch-result';
import { SourceMaps } from '../../src/stack/source-maps';
import type { Frame, NetworkFailure } from '../../src/model/schema';
import { bundle, positionOf } from './helpers/bundle';

// The app calls a library's fetch wrapper (a package in node_modules): the initiator's top frame is the library's,
// the app's call is below it.
const files = {
  'main.ts': [
    "import { getJson } from 'fake-http';",
    '',
    'export async function loadUser(id: string): Promise<unknown> {',
    "  return getJson('/api/users/' + id);",
    '}',
    '(window as any).loadUser = loadUser;',
    '',
  ].join('\n'),
  'node_modules/fake-http/index.js': ['export function getJson(url) {', '  return fetch(url).then((r) => r.json());', '}', ''].join('\n'),
};
const app = bundle(files, 'main.ts');
const URL_JS = 'http://app.test/dist/app.js';
const js = (text: string): FetchResult => ({ ok: true, text, contentType: 'text/javascript' });

/** The stack Chromium sends for the request: the wrapper's fetch call, then the app's call of the wrapper. */
function stack(): Frame[] {
  const fetchAt = positionOf(app.js, 'fetch(');
  const callAt = positionOf(app.js, '"/api/users/"');
  // The minified names the browser prints: the last function declared before each position.
  const nameAt = (column: number) => [...app.js.slice(0, column).matchAll(/function (\w+)\(/g)].pop()?.[1] ?? '';
  return [
    { url: URL_JS, line: fetchAt.line, column: fetchAt.column, functionName: nameAt(fetchAt.column) },
    { url: URL_JS, line: callAt.line, column: callAt.column, functionName: nameAt(callAt.column) },
  ];
}

function recorder(network: NetworkMode = 'report'): Recorder {
  return new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {}, network }));
}

function failure(frames: Frame[]): NetworkFailure {
  const top = frames[0]!;
  return { method: 'GET', url: 'http://app.test/api/users/7', resourceType: 'fetch', status: 404, statusText: 'Not Found', initiator: { type: 'script', url: top.url, line: top.line, column: top.column } };
}

async function enriched(rec: Recorder): Promise<void> {
  const routes: Record<string, FetchResult> = { [URL_JS]: js(app.js), [`${URL_JS}.map`]: js(app.map) };
  await enrich(rec, new SourceMaps(async (url) => routes[url] ?? { ok: false, reason: 'HTTP 404' }));
}

describe("network: the initiator's stack", () => {
  it('keeps every frame, async parents followed and marked, 1-based, at most 30', () => {
    const frame = (n: number) => ({ functionName: `f${n}`, url: URL_JS, lineNumber: 0, columnNumber: n });
    const script = { type: 'script', stack: { callFrames: [frame(1), frame(2)], parent: { description: 'await', callFrames: [frame(3)] } } };
    const frames = initiatorFrames(script.stack);
    assert.deepEqual(frames, [
      { url: URL_JS, line: 1, column: 2, functionName: 'f1' },
      { url: URL_JS, line: 1, column: 3, functionName: 'f2' },
      { url: URL_JS, line: 1, column: 4, functionName: 'f3', asyncParent: 'await' },
    ]);
    const deep = { type: 'script', stack: { callFrames: Array.from({ length: 25 }, (_, i) => frame(i)), parent: { callFrames: Array.from({ length: 25 }, (_, i) => frame(i)) } } };
    assert.equal(initiatorFrames(deep.stack).length, MAX_INITIATOR_FRAMES);
    const parser: { type: string; url: string; stack?: CdpStackTrace } = { type: 'parser', url: 'http://h/index.html' };
    assert.deepEqual(initiatorFrames(parser.stack), []);
  });

  it("a pending request keeps the stack, made into frames when it fails, and the failed request's event carries them as its call frames", () => {
    const pending = pendingFrom({ request: { method: 'GET', url: 'http://h/api' }, type: 'Fetch', initiator: { type: 'script', stack: { callFrames: [{ functionName: 'get', url: URL_JS, lineNumber: 4, columnNumber: 9 }] } } });
    assert.deepEqual(initiatorFrames(pending?.initiatorStack), [{ url: URL_JS, line: 5, column: 10, functionName: 'get' }]);
    assert.deepEqual(networkDraft(failure(stack()), 0, stack()).callFrames, stack());
    assert.equal(networkDraft(failure(stack()), 0).callFrames, undefined);
  });
});

describe("network: the app's call that made a failed request", () => {
  it("is the first user frame after source mapping, not the library's fetch wrapper on top", async () => {
    const rec = recorder();
    rec.add({ ...networkDraft(failure(stack()), Date.now(), stack()), realm: 'page' });
    await enriched(rec);
    const [event] = rec.events();
    assert.equal(event?.frames?.[0]?.library, 'fake-http');
    assert.equal(event?.frames?.[1]?.userCode, true);
    const original = event?.network?.initiator?.original;
    assert.equal(original?.source, 'src/main.ts');
    assert.equal(original?.line, 4);
    assert.equal(original?.functionName, 'loadUser');
    // What CDP said stays: the top frame, at its generated position.
    assert.equal(event?.network?.initiator?.url, URL_JS);
    assert.match(eventFence(event!), new RegExp(`\\ninitiator: script src/main\\.ts:4:\\d+ in loadUser \\(through fake-http\\)\\n`));
  });

  it("stores the code of the app's call with the initiator, and the request's fence shows it (issue 37)", async () => {
    const rec = recorder();
    rec.add({ ...networkDraft(failure(stack()), Date.now(), stack()), realm: 'page' });
    await enriched(rec);
    const [event] = rec.events();
    const snippet = event?.network?.initiator?.snippet ?? '';
    assert.match(snippet, /^> 4 \| {3}return getJson\('\/api\/users\/' \+ id\);$/m);
    assert.match(snippet, /^ +\| +\^$/m);
    // Not an unexpected error by default: no code frame of its own, so the initiator's is shown below its fence.
    assert.equal(event?.snippet, undefined);
    assert.ok(requestExcerpt(event!).startsWith(`src/main.ts:4\n${snippet}`));
    assert.ok(eventFence(event!, requestExcerpt(event!)).includes(`\n\nsrc/main.ts:4\n${snippet}\n\`\`\``));
  });

  it("strict: the request's own hint and code frame name the app's line", async () => {
    const rec = recorder('strict');
    rec.add({ ...networkDraft(failure(stack()), Date.now(), stack()), realm: 'page' });
    await enriched(rec);
    const [event] = rec.events();
    assert.match(event?.hint ?? '', /GET http:\/\/app\.test\/api\/users\/7 \(requested in src\/main\.ts:4:\d+\) was answered 404/);
    assert.match(event?.snippet ?? '', /^> 4 \| {3}return getJson\('\/api\/users\/' \+ id\);$/m);
  });

  it('a body that is not JSON: the hint names the failed response and the app call that requested it', async () => {
    const rec = recorder();
    const now = Date.now();
    // The rejection is recorded first: the request's caller is found all the same.
    rec.add({ type: 'error', source: 'unhandledrejection', realm: 'page', timeMs: now, message: 'SyntaxError: Unexpected token \'n\', "not found" is not valid JSON' });
    rec.add({ ...networkDraft(failure(stack()), now - 20, stack()), realm: 'page' });
    await enriched(rec);
    const rejection = rec.events().find((e) => e.source === 'unhandledrejection');
    assert.match(rejection?.hint ?? '', /^- GET http:\/\/app\.test\/api\/users\/7 \(requested in src\/main\.ts:4:\d+ in loadUser\) returned 404 Not Found; its body is not JSON/m);
  });

  it('with no user frame (the library made the request itself), the initiator names no app call', async () => {
    const rec = recorder();
    const [top] = stack();
    rec.add({ ...networkDraft(failure([top!]), Date.now(), [top!]), realm: 'page' });
    await enriched(rec);
    const [event] = rec.events();
    assert.equal(event?.network?.initiator?.original, undefined);
    assert.match(eventFence(event!), /\ninitiator: script src\/node_modules\/fake-http\/index\.js:2:\d+/);
  });
});

describe('network: initiator text', () => {
  it('a parser initiator stays as CDP gave it; a report without frames uses the mapped caller', () => {
    assert.equal(initiatorText({ type: 'parser', url: 'http://h/index.html', line: 4 }, [{ url: 'http://h/index.html', line: 4, column: 1, userCode: true }]), 'parser http://h/index.html:4');
    assert.equal(initiatorText({ type: 'script', url: URL_JS, line: 1, column: 9, original: { source: 'src/a.ts', line: 3, column: 5, functionName: 'go' } }), 'script src/a.ts:3:5');
  });

  it('a hint without a mapped caller names the request only', () => {
    const hint = hintFor({ source: 'unhandledrejection', message: 'SyntaxError: Unexpected end of JSON input', failedRequests: [{ method: 'GET', url: 'http://h/x', resourceType: 'fetch', status: 500 }] });
    assert.match(hint ?? '', /^- GET http:\/\/h\/x returned 500; its body is not JSON/m);
  });
});
