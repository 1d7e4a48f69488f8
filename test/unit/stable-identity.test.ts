// An error's fingerprint and its baseline text depend on the error and the code alone: not on the server's port,
// the page's nonce, the build's hashes and minified names, nor on which test saw it first.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeMessage, normalizeUrl } from '../../src/run/normalize';
import { fingerprintOf, keptFunctionName, stableWhere } from '../../src/run/fingerprint';
import { RunGroups, testKeyOf, whereOf } from '../../src/run/groups';
import { formatBaseline, makeBaseline } from '../../src/run/baseline';
import type { DaebugEvent, Frame } from '../../src/model/schema';

function frame(url: string, functionName: string, line = 1, extra: Partial<Frame> = {}): Frame {
  return { url, functionName, line, column: 120, userCode: true, ...extra };
}

function event(message: string, fields: Partial<DaebugEvent> = {}): DaebugEvent {
  return { type: 'error', source: 'window.onerror', realm: 'page', ts: '10:00:00', time: '2026-11-24T10:00:00.000Z', message, expected: false, unexpected: true, ...fields };
}

const cspInline = (nonce: string, hash: string) =>
  `Executing inline script violates the following Content Security Policy directive 'script-src 'nonce-${nonce}''. Either the 'unsafe-inline' keyword, a hash ('sha256-${hash}'), or a nonce ('nonce-...') is required to enable inline execution. The action has been blocked.`;

describe('normalizeMessage: values of one run', () => {
  it("replaces a CSP nonce and a CSP hash, inside the directive's own quotes too", () => {
    const a = normalizeMessage(cspInline('Ll2mt1AjuaUVD7yK', 'V2kaaafImTjn8RQTWZmF4IkgD9mTdMLqIghYCtJ6jMQ='));
    assert.equal(a, normalizeMessage(cspInline('q9+/ZZ0aBc==', 'xx+/Yy01=')));
    assert.doesNotMatch(a, /Ll2mt1/);
    assert.match(a, /nonce-<value>/);
    assert.equal(normalizeMessage('refused: nonce-Ll2mt1AjuaUVD7yK and sha384-AbC123+/x='), 'refused: nonce-<value> and sha384-<value>');
  });

  it('replaces random tokens of capitals, small letters and digits, JWTs included', () => {
    assert.equal(normalizeMessage('session Ll2mt1AjuaUVD7yK expired'), 'session <token> expired');
    assert.equal(normalizeMessage('chunk pCQTeX9T failed'), 'chunk <token> failed');
    assert.equal(normalizeMessage('csrf LlmtAjuaUVDyKqPw-x_Z rejected'), 'csrf <token> rejected');
    assert.equal(normalizeMessage('nonce q9+/ZZ0aBcLl2m/t1A== refused'), 'nonce <token> refused');
    assert.equal(normalizeMessage('nonce Ab+1234abcd/XyZq refused'), 'nonce <token> refused');
    assert.equal(normalizeMessage('see src/components/UserCard2 and text/html'), 'see src/components/UserCard2 and text/html');
    assert.equal(normalizeMessage('bad jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'), 'bad jwt <token>.<token>.<token>');
  });

  it("keeps code's names that carry a version or an acronym", () => {
    assert.equal(normalizeMessage('ReferenceError: useState2 is not defined'), 'ReferenceError: useState2 is not defined');
    assert.equal(normalizeMessage('ES2015-compatible build needs H264 and utf8Decoder'), 'ES2015-compatible build needs H264 and utf8Decoder');
    for (const name of ['getElementById', 'getElementsByClassName', 'XMLHttpRequest', 'DOMContentLoaded', 'IntersectionObserver', 'webkitRequestAnimationFrame', 'useSyncExternalStore', 'HTMLInputElement']) {
      assert.equal(normalizeMessage(`TypeError: ${name} is not a function`), `TypeError: ${name} is not a function`);
    }
  });

  it('drops the port of a host:port inside a message, with or without a scheme', () => {
    assert.equal(normalizeMessage('connect ECONNREFUSED 127.0.0.1:44503'), normalizeMessage('connect ECONNREFUSED 127.0.0.1:3000'));
    assert.equal(normalizeMessage('proxy localhost:44503 down'), normalizeMessage('proxy localhost:5173 down'));
    assert.equal(normalizeMessage("WebSocket connection to 'ws://127.0.0.1:44503/socket' failed"), normalizeMessage("WebSocket connection to 'ws://127.0.0.1:3000/socket' failed"));
    assert.equal(normalizeMessage('GET http://127.0.0.1:44503/csp/?port=44503 failed'), 'GET http://127.0.0.1/csp/ failed');
  });

  it("drops a URL's hash-named file, port and query", () => {
    assert.equal(normalizeUrl('http://127.0.0.1:44503/csp/?port=44503'), 'http://127.0.0.1/csp/');
    assert.equal(normalizeUrl('http://127.0.0.1:44503/_app/immutable/chunks/pCQTeX9T.js'), 'http://127.0.0.1/_app/immutable/chunks/<hash>.js');
    assert.equal(normalizeUrl('http://127.0.0.1:44503/_app/immutable/chunks/e-tR2VKL.js?v=1'), 'http://127.0.0.1/_app/immutable/chunks/<hash>.js');
  });
});

describe('whereOf', () => {
  it("leaves a page URL's query out of the place a group was first seen", () => {
    assert.equal(whereOf({ frames: [frame('http://127.0.0.1:44503/csp/?port=44503#top', 'pay', 5)] }), 'http://127.0.0.1:44503/csp/:5 in pay');
    assert.equal(whereOf({ location: { url: 'http://127.0.0.1:44503/csp/?port=44503', line: 7, column: 1 } }), 'http://127.0.0.1:44503/csp/:7');
  });
});

describe('keptFunctionName', () => {
  const chunk = 'http://127.0.0.1:4173/_app/immutable/chunks/pCQTeX9T.js';
  it("leaves out a minifier's names in a hash-named file, and keeps the rest", () => {
    assert.equal(keptFunctionName('t', chunk), '');
    assert.equal(keptFunctionName('Xe', chunk), '');
    assert.equal(keptFunctionName('$e', chunk), '');
    assert.equal(keptFunctionName('new Xe', chunk), '');
    assert.equal(keptFunctionName('Object.t', chunk), 'Object');
    assert.equal(keptFunctionName('Xe.render', chunk), 'render');
    assert.equal(keptFunctionName('Object.u [as checkoutNow]', chunk), 'Object [as checkoutNow]');
    assert.equal(keptFunctionName('formatTotal', chunk), 'formatTotal');
    assert.equal(keptFunctionName('t', 'http://127.0.0.1:4173/assets/index-BKGzNfDO.js'), '');
  });

  it("keeps every name in a file without a hash: a hand-written `f` is the developer's", () => {
    assert.equal(keptFunctionName('f', 'http://127.0.0.1:4173/app.js'), 'f');
    assert.equal(keptFunctionName('Object.t', 'http://127.0.0.1:4173/src/settings.js'), 'Object.t');
  });
});

describe('fingerprintOf across rebuilds', () => {
  const origin = (port: number) => `http://127.0.0.1:${port}`;

  it('is the same for a throw in a hash-named chunk without a map when every hash and the minified names changed', () => {
    const build1 = event('TypeError: total is not a number: 12', { frames: [frame(`${origin(4173)}/_app/immutable/chunks/pCQTeX9T.js`, 'e', 1), frame(`${origin(4173)}/_app/immutable/chunks/B-2Ffd9y.js`, 't', 1)] });
    const build2 = event('TypeError: total is not a number: 7', { frames: [frame(`${origin(5173)}/_app/immutable/chunks/e-tR2VKL.js`, 'Xe', 1), frame(`${origin(5173)}/_app/immutable/chunks/CoZiL36h.js`, 'n', 1)] });
    assert.equal(fingerprintOf(build1), fingerprintOf(build2));
    assert.equal(stableWhere(build1.frames), 'http://127.0.0.1/_app/immutable/chunks/<hash>.js');
    // Another message in the same folder is another group.
    assert.notEqual(fingerprintOf(build1), fingerprintOf({ ...build1, message: 'TypeError: cart is empty' }));
  });

  it('is the same with a map, whose function name the original is, whatever the chunk was called', () => {
    const mapped = (file: string, name: string) => event('Error: shared broke', { frames: [frame(`${origin(4173)}/assets/${file}`, name, 1, { original: { source: '../src/lib/shared.ts', line: 4, column: 9, functionName: 'formatTotal' } })] });
    assert.equal(fingerprintOf(mapped('shared-BKGzNfDO.js', 'e')), fingerprintOf(mapped('shared-DiwrgTda.js', 'Xe')));
    assert.equal(stableWhere(mapped('shared-BKGzNfDO.js', 'e').frames), 'src/lib/shared.ts in formatTotal');
    // A map without the function's name: the minified one is not used in its place.
    const nameless = (file: string, name: string) => event('Error: shared broke', { frames: [frame(`${origin(4173)}/assets/${file}`, name, 1, { original: { source: '../src/lib/shared.ts', line: 4, column: 9 } })] });
    assert.equal(fingerprintOf(nameless('shared-BKGzNfDO.js', 'e')), fingerprintOf(nameless('shared-DiwrgTda.js', 'Xe')));
  });

  it('is the same for a CSP violation whatever the nonce', () => {
    const csp = (nonce: string) => event(cspInline(nonce, 'V2kaaafImTjn8RQTWZmF4IkgD9mTdMLqIghYCtJ6jMQ='), { type: 'console', source: 'browser.issue', level: 'error', location: { url: `${origin(44503)}/csp/?port=44503`, line: 1, column: 1 } });
    assert.equal(fingerprintOf(csp('Ll2mt1AjuaUVD7yK')), fingerprintOf(csp('Zq81hx0PoR2mTTa4')));
  });
});

describe('baseline text', () => {
  const attempt = (test: string) => ({ testKey: testKeyOf({ project: '', file: 'a.spec.ts', titlePath: ['a.spec.ts', test] }), report: `${test}.md` });
  const csp = (port: number, nonce: string) => event(cspInline(nonce, 'V2kaaafImTjn8RQTWZmF4IkgD9mTdMLqIghYCtJ6jMQ='), { type: 'console', source: 'browser.issue', level: 'error', location: { url: `http://127.0.0.1:${port}/csp/?port=${port}`, line: 1, column: 1 } });
  const thrown = (port: number, id: number, source: string) => event(`Uncaught Error: order ${id} failed at http://127.0.0.1:${port}/api/orders/${id}`, { source, frames: [frame(`http://127.0.0.1:${port}/assets/index-${port === 1 ? 'BKGzNfDO' : 'DiwrgTda'}.js`, 'submitOrder', 3)] });

  function baselineOf(port: number, nonces: [string, string], order: 'ab' | 'ba'): string {
    const groups = new RunGroups();
    const a = () => groups.addAttempt(attempt('a'), [csp(port, nonces[0]), thrown(port, port + 1, 'window.onerror')]);
    const b = () => groups.addAttempt(attempt('b'), [csp(port, nonces[1]), thrown(port, port + 2, 'pageerror')]);
    for (const add of order === 'ab' ? [a, b] : [b, a]) add();
    return formatBaseline(makeBaseline(groups.baselineEntries()));
  }

  it('is the same bytes for two runs with other ports, nonces, ids, bundle hashes and test order', () => {
    const first = baselineOf(1, ['Ll2mt1AjuaUVD7yK', 'Zq81hx0PoR2mTTa4'], 'ab');
    const second = baselineOf(2, ['p0OnmQ7rTb2x9AaZ', 'UUq1r8PL0kz3mN4e'], 'ba');
    assert.equal(second, first);
    const parsed = JSON.parse(first) as { groups: { message: string; source: string; where?: string; tests: number }[] };
    // The CSP violation of both tests is one group; the uncaught error too, whichever way the browser reported it.
    assert.equal(parsed.groups.length, 2);
    assert.ok(parsed.groups.every((g) => g.tests === 2));
    const order = parsed.groups.find((g) => g.message.startsWith('Error'))!;
    assert.equal(order.message, 'Error: order <n> failed at http://127.0.0.1/api/orders/<id>');
    assert.equal(order.source, 'pageerror');
    assert.equal(order.where, 'http://127.0.0.1/assets/index.js in submitOrder');
    assert.doesNotMatch(first, /Ll2mt1|:1\/|port=|\d{4}-\d\d-\d\d/);
  });
});
