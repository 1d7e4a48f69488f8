import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hintFor, ignorePatternFor } from '../../src/stack/hints';
import { matchesIgnore } from '../../src/model/classify';


const cases: Array<{ name: string; source: string; message: string; expect: RegExp }> = [
  { name: 'ReferenceError (Chromium)', source: 'window.onerror', message: 'ReferenceError: cartTotal is not defined', expect: /Is `cartTotal` declared, imported and spelled right in src\/a\.ts:3:5\?/ },
  { name: 'ReferenceError (WebKit)', source: 'pageerror', message: "ReferenceError: Can't find variable: cartTotal", expect: /`cartTotal` declared/ },
  { name: 'TDZ', source: 'window.onerror', message: "ReferenceError: Cannot access 'store' before initialization", expect: /`store` is used in src\/a\.ts:3:5 before its `let`\/`const`\/`class` line ran/ },
  { name: 'property of undefined (Chromium)', source: 'window.onerror', message: "TypeError: Cannot read properties of undefined (reading 'price')", expect: /The value before `\.price` is undefined in src\/a\.ts:3:5/ },
  { name: 'property of null (old Chromium)', source: 'window.onerror', message: "TypeError: Cannot read property 'price' of null", expect: /before `\.price` is null/ },
  { name: 'property of undefined (Firefox)', source: 'pageerror', message: 'TypeError: can\'t access property "price", item.product is undefined', expect: /before `\.price` is undefined/ },
  { name: 'property of undefined (WebKit)', source: 'pageerror', message: "TypeError: undefined is not an object (evaluating 'item.product.price')", expect: /before `\.price` is undefined/ },
  { name: 'not a function', source: 'window.onerror', message: 'TypeError: api.load is not a function', expect: /Is `api\.load` spelled right and a function at this point in src\/a\.ts:3:5/ },
  { name: 'unhandled rejection', source: 'unhandledrejection', message: 'Error: profile payload has no id', expect: /`await` the call that started it .* or add `\.catch\(\.\.\.\)`/ },
  { name: 'failed fetch', source: 'unhandledrejection', message: 'TypeError: Failed to fetch', expect: /request failed before any response[\s\S]*Access-Control-Allow-Origin[\s\S]*`await` the call/ },
  { name: 'network error (Firefox)', source: 'pageerror', message: 'TypeError: NetworkError when attempting to fetch resource.', expect: /request failed before any response/ },
  { name: 'CSP', source: 'browser.security', message: "Refused to load the script 'http://cdn.example/x.js' because it violates the following Content Security Policy directive: \"script-src 'self'\".", expect: /Content-Security-Policy blocked this/ },
  { name: 'dynamic import', source: 'unhandledrejection', message: 'TypeError: Failed to fetch dynamically imported module: http://localhost/assets/page-1a2b.js', expect: /lazily loaded chunk or module did not load/ },
  { name: 'webpack chunk', source: 'unhandledrejection', message: 'ChunkLoadError: Loading chunk 417 failed.', expect: /lazily loaded chunk/ },
  { name: 'ResizeObserver', source: 'window.onerror', message: 'ResizeObserver loop completed with undelivered notifications.', expect: /browser noise, not a bug/ },
  { name: 'cross-origin script', source: 'window.onerror', message: 'Script error.', expect: /crossorigin/ },
  { name: 'HTML instead of JSON', source: 'unhandledrejection', message: `SyntaxError: Unexpected token '<', "<!doctype "... is not valid JSON`, expect: /response was HTML/ },
];

describe('hintFor', () => {
  for (const c of cases) {
    it(`${c.name}: a "Please check:" block with no advice to ignore it, and an ignore pattern that matches the error`, () => {
      const input = { source: c.source, message: c.message, where: 'src/a.ts:3:5' };
      const hint = hintFor(input);
      assert.ok(hint, `no hint for ${c.message}`);
      assert.match(hint, /^Please check:\n- /);
      assert.match(hint, c.expect);
      assert.doesNotMatch(hint, /daebugIgnore|expectError/);
      assert.equal(matchesIgnore({ type: 'error', source: c.source, message: c.message }, [ignorePatternFor(input)]), true, ignorePatternFor(input));
    });
  }

  it('says when a rejection has no frame in user code, and names it when it has one', () => {
    const message = `SyntaxError: Unexpected token 'o', "not found" is not valid JSON`;
    assert.match(hintFor({ source: 'unhandledrejection', message })!, /No frame of this rejection is in your code[^\n]*`\.json\(\)`/);
    assert.doesNotMatch(hintFor({ source: 'unhandledrejection', message, where: 'src/Profile.tsx:11:5' })!, /No frame/);
    assert.doesNotMatch(hintFor({ source: 'window.onerror', message })!, /No frame/);
  });

  it('says an offline browser failed a request, not CORS or the server (net::ERR_INTERNET_DISCONNECTED)', () => {
    const offline = { method: 'GET', url: 'http://h/api/data', errorText: 'net::ERR_INTERNET_DISCONNECTED', resourceType: 'fetch' };
    const rejection = hintFor({ source: 'unhandledrejection', message: 'TypeError: Failed to fetch', failedRequests: [offline] })!;
    assert.match(rejection, /GET http:\/\/h\/api\/data failed because the browser was offline[^\n]*context\.setOffline\(true\)/);
    assert.doesNotMatch(rejection, /Access-Control-Allow-Origin|CORS:/);
    const request = hintFor({ source: 'network', message: 'GET http://h/api/data failed: net::ERR_INTERNET_DISCONNECTED', network: offline, where: 'src/api.ts:3:9' })!;
    assert.match(request, /\(requested in src\/api\.ts:3:9\) failed because the browser was offline/);
    assert.doesNotMatch(request, /CORS, the CSP/);
    assert.match(hintFor({ source: 'console.error', message: 'Error: net::ERR_INTERNET_DISCONNECTED' })!, /^- The request failed because the browser was offline/m);
    // Any other failure before a response still names CORS among the causes.
    assert.match(hintFor({ source: 'unhandledrejection', message: 'TypeError: Failed to fetch', failedRequests: [{ ...offline, errorText: 'net::ERR_CONNECTION_REFUSED' }] })!, /Access-Control-Allow-Origin/);
  });

  it('leaves an error it does not recognise alone', () => {
    assert.equal(hintFor({ source: 'window.onerror', message: 'Error: the cart is closed' }), undefined);
  });

  it('keeps the ignore pattern as the text itself, quotes and backslashes included', () => {
    assert.equal(ignorePatternFor({ source: 'unhandledrejection', message: `Error: can't parse "a\\b"` }), `Error: can't parse "a\\b"`);
  });

  it('keeps volatile parts (URLs, long numbers) out of the ignore pattern', () => {
    assert.equal(ignorePatternFor({ source: 'unhandledrejection', message: 'Error: request 123456 to http://api.test/x failed' }), 'Error: request');
  });

  it("a CSP violation's pattern is the blocked URL's path, not the words every blocked script shares", () => {
    const blocked = (url: string) => `Loading the script '${url}' violates the following Content Security Policy directive: "script-src 'self' https://cdn.example". Note that 'script-src-elem' was not explicitly set, so 'script-src' is used as a fallback. The action has been blocked.`;
    const worker = blocked('http://localhost:44503/worker.js');
    const pattern = ignorePatternFor({ source: 'browser.issue', message: worker });
    assert.equal(pattern, '/worker.js');
    const event = (message: string) => ({ type: 'console' as const, source: 'browser.issue', message });
    assert.equal(matchesIgnore(event(worker), [pattern]), true);
    assert.equal(matchesIgnore(event(blocked('http://localhost:44503/analytics.js')), [pattern]), false);
    assert.equal(ignorePatternFor({ source: 'browser.security', message: "Refused to connect to 'https://api.example/v1/cart?id=3' because it violates the following Content Security Policy directive: \"connect-src 'self'\"." }), '/v1/cart');
    // daebug's own wording of an issue that had no console line.
    assert.equal(ignorePatternFor({ source: 'browser.issue', message: 'Content-Security-Policy blocked http://127.0.0.1:4517/x.js: directive script-src-elem' }), '/x.js');
    // Inline code names no URL of its own: the URL in the policy is not the blocked thing.
    const inline = "Executing inline script violates the following Content Security Policy directive 'script-src 'self' https://cdn.example'. Either the 'unsafe-inline' keyword, a hash ('sha256-abc'), or a nonce ('nonce-...') is required to enable inline execution.";
    assert.equal(ignorePatternFor({ source: 'browser.issue', message: inline }), 'Executing inline script violates the following Content Security Policy');
  });

  it('gives a stable pattern of a known error, and one for an error no rule knows', () => {
    assert.equal(ignorePatternFor({ source: 'window.onerror', message: 'ResizeObserver loop completed with undelivered notifications.' }), 'ResizeObserver loop');
    assert.equal(ignorePatternFor({ source: 'window.onerror', message: 'Error: the cart is closed' }), 'Error: the cart is closed');
  });
});
