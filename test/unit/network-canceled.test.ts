// A request the page canceled is a `network.canceled` line, never a failure (issue 24 item 3): which CDP and
// Playwright outcomes are cancels, what the capture makes of them, and that no run groups or baselines them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NetworkCapture, replacedBy, type PendingRequest } from '../../src/capture/cdp/network';
import { canceledDraft, isCanceledByPage, isCanceledText } from '../../src/capture/network-failure';
import { Recorder } from '../../src/capture/recorder';
import { eventFence } from '../../src/format/event-block';
import { summarize } from '../../src/model/attempt';
import { isFingerprinted } from '../../src/run/fingerprint';
import { RunGroups, testKeyOf } from '../../src/run/groups';
import { markEvents } from '../../src/run/mark-events';
import { fakePage } from './helpers/fake-page';
import { resolveOptions, type NetworkMode } from '../../src/options';

// `Network.loadingFailed` as Chromium 156 sent it in probes (errorText, canceled, blockedReason, corsErrorStatus).
const SENT = {
  abortController: { errorText: 'net::ERR_ABORTED', canceled: true },
  removedFrame: { errorText: 'net::ERR_ABORTED', canceled: true },
  afterScript404: { errorText: 'net::ERR_ABORTED', canceled: true },
  refused: { errorText: 'net::ERR_CONNECTION_REFUSED', canceled: false },
  unsafePort: { errorText: 'net::ERR_UNSAFE_PORT', canceled: false },
  dns: { errorText: 'net::ERR_NAME_NOT_RESOLVED', canceled: false },
  cors: { errorText: 'net::ERR_FAILED', canceled: false, corsErrorStatus: { corsError: 'MissingAllowOriginHeader' } },
  csp: { errorText: '', canceled: false, blockedReason: 'csp' },
  devtoolsBlock: { errorText: '', canceled: false, blockedReason: 'inspector' },
};

describe('canceled: which outcomes are cancels', () => {
  it("CDP: Chromium's canceled flag with nothing that blocked it", () => {
    assert.equal(isCanceledByPage(SENT.abortController), true);
    assert.equal(isCanceledByPage(SENT.removedFrame), true);
    for (const name of ['refused', 'unsafePort', 'dns', 'cors', 'csp', 'devtoolsBlock'] as const) assert.equal(isCanceledByPage(SENT[name]), false, name);
    // Should a block ever come with the flag, the block wins: it is a failure.
    assert.equal(isCanceledByPage({ errorText: 'net::ERR_ABORTED', canceled: true, blockedReason: 'mixed-content' }), false);
    assert.equal(isCanceledByPage({ errorText: 'net::ERR_ABORTED', canceled: true, corsErrorStatus: { corsError: 'PreflightInvalidStatus' } }), false);
    assert.equal(isCanceledByPage({ errorText: 'net::ERR_ABORTED' }), false);
  });

  it("Playwright's requestfailed text: each browser's word for a cancel, nothing else", () => {
    for (const text of ['net::ERR_ABORTED', 'NS_BINDING_ABORTED', 'cancelled', 'Load request cancelled']) assert.equal(isCanceledText(text), true, text);
    for (const text of ['net::ERR_CONNECTION_REFUSED', 'net::ERR_UNSAFE_PORT', 'net::ERR_BLOCKED_BY_CLIENT', 'csp', 'inspector', 'net::ERR_FAILED', 'failed', undefined]) assert.equal(isCanceledText(text), false, String(text));
  });

  it("a new document cancels the earlier document's requests of its frame, not its own nor other frames'", () => {
    const pending = new Map<string, PendingRequest>([
      ['old-fetch', { method: 'GET', url: 'http://h/slow', resourceType: 'fetch', frameId: 'F', loaderId: 'L1' }],
      ['new-fetch', { method: 'GET', url: 'http://h/api', resourceType: 'fetch', frameId: 'F', loaderId: 'L2' }],
      ['navigation', { method: 'GET', url: 'http://h/next', resourceType: 'document', frameId: 'F', loaderId: 'L3' }],
      ['child-frame', { method: 'GET', url: 'http://h/slow', resourceType: 'xhr', frameId: 'G', loaderId: 'L1' }],
      ['worker', { method: 'GET', url: 'http://h/slow', resourceType: 'fetch' }],
    ]);
    assert.deepEqual(replacedBy(pending, { id: 'F', loaderId: 'L2' }), ['old-fetch']);
  });
});

function capture(network: NetworkMode = 'report') {
  const recorder = new Recorder(resolveOptions({ strict: true, capture: true, ignore: [], limits: {}, network }));
  const target = fakePage();
  const net = new NetworkCapture({ recorder, realmOf: () => 'page', readLater() {} });
  let id = 0;
  const send = (url: string, type: string, frame = { frameId: 'F', loaderId: 'L1' }) => {
    const requestId = String(++id);
    net.onEvent(target, 'Network.requestWillBeSent', { requestId, request: { method: 'GET', url }, type, initiator: { type: 'script', url: 'http://h/app.js', lineNumber: 9, columnNumber: 2 }, timestamp: 100, wallTime: 1_800_000_000, ...frame });
    return requestId;
  };
  return { recorder, target, net, send };
}

describe('canceled: what the CDP capture records', () => {
  it("an aborted fetch is a network.canceled line at level info, kept under daebugNetwork: 'strict' but never unexpected", () => {
    const { recorder, target, net, send } = capture('strict');
    net.onEvent(target, 'Network.loadingFailed', { requestId: send('http://h/slow', 'Fetch'), timestamp: 101, ...SENT.abortController });
    const [event] = recorder.events();
    assert.equal(event!.source, 'network.canceled');
    assert.equal(event!.level, 'info');
    assert.equal(event!.message, 'GET http://h/slow canceled (net::ERR_ABORTED)');
    assert.deepEqual(event!.network, { method: 'GET', url: 'http://h/slow', resourceType: 'fetch', canceled: true, errorText: 'net::ERR_ABORTED', initiator: { type: 'script', url: 'http://h/app.js', line: 10, column: 3 } });
    assert.equal(event!.unexpected, undefined);
    assert.equal(eventFence(event!), '```Text network.canceled\nGET http://h/slow canceled (net::ERR_ABORTED)\nresource: fetch\ninitiator: script http://h/app.js:10:3\n```');
  });

  it("a script's 404 stays one failure: the net::ERR_ABORTED Chromium sends after it adds nothing", () => {
    const { recorder, target, net, send } = capture('strict');
    const requestId = send('http://h/missing.js', 'Script');
    net.onEvent(target, 'Network.responseReceived', { requestId, response: { status: 404, statusText: '' }, timestamp: 101 });
    net.onEvent(target, 'Network.loadingFailed', { requestId, timestamp: 101, ...SENT.afterScript404 });
    assert.deepEqual(recorder.events().map((e) => [e.source, e.message, e.unexpected]), [['network', 'GET http://h/missing.js 404 (Not Found)', true]]);
  });

  it('a refused connection and a CSP block stay failures', () => {
    const { recorder, target, net, send } = capture('strict');
    net.onEvent(target, 'Network.loadingFailed', { requestId: send('http://127.0.0.1:1/', 'Fetch'), timestamp: 101, ...SENT.refused });
    net.onEvent(target, 'Network.loadingFailed', { requestId: send('http://localhost/x.js', 'Script'), timestamp: 101, ...SENT.csp });
    assert.deepEqual(recorder.events().map((e) => [e.source, e.unexpected]), [['network', true], ['network', true]]);
  });

  it("a navigation cancels the old document's pending requests (Chromium sends no loadingFailed for them)", () => {
    const { recorder, target, net, send } = capture();
    send('http://h/slow', 'Fetch');
    send('http://h/next', 'Document', { frameId: 'F', loaderId: 'L2' });
    net.onEvent(target, 'Page.frameNavigated', { frame: { id: 'F', loaderId: 'L2', url: 'http://h/next' } });
    assert.deepEqual(recorder.events().map((e) => [e.source, e.message]), [['network.canceled', 'GET http://h/slow canceled (its document was replaced)']]);
    assert.equal(recorder.events()[0]!.network!.errorText, undefined);
  });

  it('a canceled data: or blob: load is no line at all', () => {
    const { recorder, target, net, send } = capture();
    net.onEvent(target, 'Network.loadingFailed', { requestId: send('data:image/svg+xml,<svg/>', 'Document'), timestamp: 101, ...SENT.removedFrame });
    assert.deepEqual(recorder.events(), []);
  });
});

describe('canceled: never counted, grouped or baselined', () => {
  const recorder = new Recorder(resolveOptions({ strict: true, capture: true, ignore: [], limits: {}, network: 'strict' }));
  recorder.add({ ...canceledDraft({ method: 'GET', url: 'http://h/_app/data.json', resourceType: 'fetch' }, Date.now(), { errorText: 'net::ERR_ABORTED' }), realm: 'page' });
  const events = recorder.events();

  it('is no failed request or error in the header counts', () => {
    assert.deepEqual(summarize(events, 0), { errors: 0, unexpected: 0, console: 0, dropped: 0, expected: 0 });
  });

  it('gets no fingerprint, so no group and no baseline entry', () => {
    assert.equal(isFingerprinted(events[0]!), false);
    markEvents([events]);
    assert.equal(events[0]!.fingerprint, undefined);
    const groups = new RunGroups();
    groups.addAttempt({ testKey: testKeyOf({ project: '', file: 'a.spec.ts', titlePath: ['t'] }), report: 't.md' }, events);
    assert.deepEqual(groups.groups(), []);
    assert.deepEqual(groups.baselineEntries(), []);
  });
});
