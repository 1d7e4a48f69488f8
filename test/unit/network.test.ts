import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { failureFromLoadingFailed, failureFromResponse, initiatorOf, pendingFrom, type PendingRequest } from '../../src/capture/cdp/network';
import { failureMessage, isFavicon, networkDraft } from '../../src/capture/network-failure';
import { Recorder } from '../../src/capture/recorder';
import { eventFence } from '../../src/format/event-block';
import { hintFor, ignorePatternFor } from '../../src/stack/hints';
import { summarize } from '../../src/model/attempt';
import { resolveOptions, type NetworkMode } from '../../src/options';
import { DaebugOptionsError } from '../../src/errors';
import type { DaebugEvent, NetworkFailure } from '../../src/model/schema';

const APP = 'http://127.0.0.1:4517/app.js';

function willBeSent(url: string, type: string, initiator: { type: string } = { type: 'other' }) {
  return { request: { method: 'GET', url }, type, initiator, timestamp: 100, wallTime: 1_800_000_000 };
}

describe('network: CDP events to failures', () => {
  it('keeps documents, scripts, stylesheets, fetch and XHR, never images or the favicon', () => {
    for (const type of ['Document', 'Script', 'Stylesheet', 'Fetch', 'XHR']) assert.ok(pendingFrom(willBeSent('http://h/x', type)), type);
    assert.equal(pendingFrom(willBeSent('http://h/logo.png', 'Image')), undefined);
    assert.equal(pendingFrom(willBeSent('http://h/favicon.ico', 'Fetch')), undefined);
    assert.equal(isFavicon('http://h/favicon.ico?v=2'), true);
    assert.equal(isFavicon('http://h/favicon.ico.js'), false);
    assert.equal(isFavicon('http://h/static/FAVICON.ICO#x'), true);
    assert.equal(isFavicon('http://h/app.js'), false);
    assert.equal(isFavicon('http://h/app.js?icon=favicon.ico'), false);
  });

  it('keeps only method, URL, type, initiator and the clock offset of a request', () => {
    const pending = pendingFrom({ ...willBeSent('http://h/api', 'XHR'), request: { method: 'POST', url: 'http://h/api', postData: 'x'.repeat(1000), headers: { a: 'b' } } as never });
    assert.deepEqual(pending, { method: 'POST', url: 'http://h/api', resourceType: 'xhr', initiator: { type: 'other' }, wallOffsetMs: 1_800_000_000_000 - 100_000 });
  });

  it("names the initiator's first frame with a URL, through async parents, 1-based", () => {
    assert.deepEqual(initiatorOf({ type: 'script', stack: { callFrames: [{ url: APP, lineNumber: 11, columnNumber: 4 }] } }), { type: 'script', url: APP, line: 12, column: 5 });
    assert.deepEqual(initiatorOf({ type: 'script', stack: { callFrames: [], parent: { callFrames: [{ url: '', lineNumber: 0, columnNumber: 0 }, { url: APP, lineNumber: 2, columnNumber: 0 }] } } }), { type: 'script', url: APP, line: 3, column: 1 });
    assert.deepEqual(initiatorOf({ type: 'parser', url: 'http://h/index.html', lineNumber: 4 }), { type: 'parser', url: 'http://h/index.html', line: 5 });
    assert.deepEqual(initiatorOf({ type: 'other' }), { type: 'other' });
  });

  const request: PendingRequest = { method: 'GET', url: 'http://h/api/cart', resourceType: 'fetch' };

  it('a response of 400 or more is a failure; an empty status text gets the standard reason', () => {
    assert.equal(failureFromResponse(request, { status: 304, statusText: 'Not Modified' }), undefined);
    const failure = failureFromResponse(request, { status: 404, statusText: '' })!;
    assert.deepEqual(failure, { method: 'GET', url: 'http://h/api/cart', resourceType: 'fetch', status: 404, statusText: 'Not Found' });
    assert.equal(failureMessage(failure), 'GET http://h/api/cart 404 (Not Found)');
  });

  it('a failed load names its error, a CORS error, what blocked it, and a cancel', () => {
    assert.equal(failureFromLoadingFailed(request, { errorText: 'net::ERR_CONNECTION_REFUSED' }).errorText, 'net::ERR_CONNECTION_REFUSED');
    assert.equal(failureFromLoadingFailed(request, { errorText: 'net::ERR_FAILED', corsErrorStatus: { corsError: 'MissingAllowOriginHeader' } }).errorText, 'net::ERR_FAILED (CORS MissingAllowOriginHeader)');
    assert.equal(failureFromLoadingFailed(request, { errorText: 'net::ERR_BLOCKED_BY_CLIENT', blockedReason: 'inspector' }).errorText, 'net::ERR_BLOCKED_BY_CLIENT (blocked: inspector)');
    const aborted = failureFromLoadingFailed(request, { errorText: 'net::ERR_ABORTED', canceled: true });
    assert.equal(failureMessage(aborted), 'GET http://h/api/cart failed: net::ERR_ABORTED (canceled)');
  });
});

function recorded(network: NetworkMode | undefined, ignore: string[] = []): DaebugEvent[] {
  const recorder = new Recorder(resolveOptions({ strict: true, capture: true, ignore, limits: {}, network }));
  const failure: NetworkFailure = { method: 'GET', url: 'http://h/missing.js', resourceType: 'script', status: 404, statusText: 'Not Found', initiator: { type: 'parser', url: 'http://h/index.html', line: 3 } };
  recorder.add({ ...networkDraft(failure, Date.now()), realm: 'page' });
  return recorder.events();
}

describe('network: classification and rendering', () => {
  it("is reported but not unexpected by default; 'strict' makes it unexpected; daebugIgnore matches its URL", () => {
    assert.equal(recorded(undefined)[0]!.unexpected, undefined);
    assert.equal(recorded('report')[0]!.unexpected, undefined);
    assert.equal(recorded('strict')[0]!.unexpected, true);
    const ignored = recorded('strict', ['/missing.js'])[0]!;
    assert.equal(ignored.unexpected, undefined);
    assert.equal(ignored.expected, true);
  });

  it('renders one fixed `Error network` fence with the line, the resource type and the initiator', () => {
    const [event] = recorded('report');
    assert.equal(eventFence(event!), '```Error network\nGET http://h/missing.js 404 (Not Found)\nresource: script\ninitiator: parser http://h/index.html:3\n```');
  });

  it("counts failed requests among the header's errors, and Chromium's own lines render as Text", () => {
    const events = recorded('report');
    const browserLine: DaebugEvent = { ...events[0]!, source: 'browser.network', level: 'error', message: 'Failed to load resource: net::ERR_FAILED', location: { url: 'http://h/img.png', line: 1, column: 1 } };
    delete browserLine.network;
    assert.deepEqual(summarize([...events, browserLine], 0), { errors: 1, unexpected: 0, console: 0, dropped: 0, expected: 0, network: 1 });
    assert.equal(eventFence(browserLine), '```Text browser.network\nFailed to load resource: net::ERR_FAILED\nurl: http://h/img.png\n```');
  });

  it('daebugNetwork accepts off, report and strict, and names them when given anything else', () => {
    assert.equal(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }).network, 'report');
    assert.throws(
      () => resolveOptions({ strict: false, capture: true, ignore: [], limits: {}, network: 'loud' }),
      (error: unknown) => error instanceof DaebugOptionsError && /daebugNetwork/.test(error.message) && /'off', 'report' or 'strict'/.test(error.message) && /"loud"/.test(error.message),
    );
  });
});

describe('hints: a body that is not JSON', () => {
  const notFound = `SyntaxError: Unexpected token 'o', "not found" is not valid JSON`;
  const failed: NetworkFailure = { method: 'GET', url: 'http://h/api/cart', resourceType: 'fetch', status: 404, statusText: 'Not Found' };

  it('a plain "not found" body is not called HTML', () => {
    const hint = hintFor({ source: 'unhandledrejection', message: notFound })!;
    assert.doesNotMatch(hint, /HTML/);
    assert.match(hint, /Text that is not JSON was parsed as JSON \(it starts with "not found"\)/);
  });

  it('names the failed response just before it', () => {
    const hint = hintFor({ source: 'unhandledrejection', message: notFound, failedRequests: [{ ...failed, url: 'http://h/older' }, failed, { method: 'GET', url: 'http://h/refused', resourceType: 'fetch', errorText: 'net::ERR_CONNECTION_REFUSED' }] })!;
    assert.match(hint, /^- GET http:\/\/h\/api\/cart returned 404 Not Found; its body is not JSON \(it starts with "not found"\)/m);
    assert.doesNotMatch(hint, /older|HTML/);
  });

  it('a fetch that failed before any response names the request just before it', () => {
    const refused: NetworkFailure = { method: 'POST', url: 'http://h/save', resourceType: 'fetch', errorText: 'net::ERR_CONNECTION_REFUSED' };
    const hint = hintFor({ source: 'unhandledrejection', message: 'TypeError: Failed to fetch', failedRequests: [refused, failed] })!;
    assert.match(hint, /^- POST http:\/\/h\/save failed before any response \(net::ERR_CONNECTION_REFUSED\): is the URL right/m);
  });

  it("a failed request itself ('strict'): what to check, and its path as the ignore pattern", () => {
    const input = { source: 'network', message: 'GET http://h:4517/api/cart 404 (Not Found)', network: failed, where: 'src/cart.ts:3:5' };
    const hint = hintFor(input)!;
    assert.match(hint, /^- GET http:\/\/h\/api\/cart \(requested in src\/cart\.ts:3:5\) was answered 404: is the URL right/m);
    assert.doesNotMatch(hint, /daebugIgnore/);
    assert.equal(ignorePatternFor(input), '/api/cart');
    const refused = hintFor({ source: 'network', message: 'x', network: { method: 'GET', url: 'http://h/x', resourceType: 'fetch', errorText: 'net::ERR_CONNECTION_REFUSED' } })!;
    assert.match(refused, /got no response \(net::ERR_CONNECTION_REFUSED\): is the server up/);
  });

  it('an HTML body without a failed response is still HTML', () => {
    assert.match(hintFor({ source: 'unhandledrejection', message: `SyntaxError: Unexpected token '<', "<!doctype "... is not valid JSON` })!, /response was HTML/);
  });
});
