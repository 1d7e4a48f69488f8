// Which words of a file name are a bundler's content hash: the part of a name that the next build renames.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isContentHash, readsAsName } from '../../src/model/content-hash';
import { isPerRunFolder, normalizeFileName, normalizeSource, normalizeUrl, pathInsideApp } from '../../src/run/normalize';
import { withNamingEra } from '../../src/model/naming-era';
import { fingerprintOf } from '../../src/run/fingerprint';
import { markEvents } from '../../src/run/mark-events';
import type { DaebugEvent } from '../../src/model/schema';

describe('normalizeFileName', () => {
  it('names a file that is only a hash <hash>, whatever the bundler and whatever `-` or `_` the hash holds', () => {
    // SvelteKit and Nuxt chunks (Vite, Rollup, Rolldown: 8 base64url characters), Next's hex chunks.
    for (const name of ['pCQTeX9T.js', 'e-tR2VKL.js', 'B-2Ffd9y.js', 'Bc_JsqBD.js', 'CoZiL36h.js', '2s6Z5c9J.js', 'BOfp5JJn.js', 'DZf1vT4Q.mjs', '2852872c-5a7a6c1b3f2d4e5f.js']) {
      assert.equal(normalizeFileName(name), `<hash>.${name.split('.').pop()}`, name);
    }
  });

  it('drops a hash that ends a name, after `-` or `.`, and keeps the name', () => {
    const cases: [string, string][] = [
      ['index-BKGzNfDO.js', 'index.js'],
      ['index-DiwrgTda.js', 'index.js'],
      ['index-e-tR2VKL.js', 'index.js'],
      ['logger-LvdykevT.js', 'logger.js'],
      ['codeMirrorModule-DNqxPF-E.js', 'codeMirrorModule.js'],
      ['register-nyXW-TH3.js', 'register.js'],
      ['rolldown-runtime-DYf_mQCB.js', 'rolldown-runtime.js'],
      ['_plugin-vue_export-helper-DlAUqK2U.js', '_plugin-vue_export-helper.js'],
      ['main-ZKN3QFNM.js', 'main.js'], // esbuild: base32 capitals
      ['chunk-ZKNQFNMA.js', 'chunk.js'],
      ['start.DZf1vT4Q.js', 'start.js'], // SvelteKit entries and nodes
      ['0.DZf1vT4Q.js', '0.js'],
      ['chunk.3f9a1c.js', 'chunk.js'],
      ['app.91d2e0.js', 'app.js'],
      ['app-4c7b13.js', 'app.js'],
      ['main.3f9a1c2b.js', 'main.js'], // Create React App
      ['787.3f9a1c2b.chunk.js', '787.chunk.js'],
      ['framework-0a1b2c3d4e5f6789.js', 'framework.js'], // Next
    ];
    for (const [name, expected] of cases) assert.equal(normalizeFileName(name), expected, name);
  });

  it('drops a hash that ends any dotted part of a name, as React Router names its route modules', () => {
    const cases: [string, string][] = [
      ['entry.client-Dy10eZpM.js', 'entry.client.js'],
      ['yes.render-CKjeKT-E.js', 'yes.render.js'],
      ['users._id-B3kq9XzA.js', 'users._id.js'],
      ['root-CUK3qG0y.js', 'root.js'],
      ['render.throw-AbCd1234.mjs', 'render.throw.mjs'],
      ['chunk-62JRHF6Z.js', 'chunk.js'],
      ['a.b.c-0a1b2c3d4e.js', 'a.b.c.js'],
    ];
    for (const [name, expected] of cases) assert.equal(normalizeFileName(name), expected, name);
  });

  it("keeps a library's versioned name, whose name and major could pass for a hash, and still drops a hash after it", () => {
    // 'jquery-3' is 8 base64url characters and 'jq' reads as no English: it became '<hash>.7.1.min.js', and any
    // library named so ('zepto-1', 'vuex-4') shared that one name.
    for (const name of ['jquery-3.7.1.min.js', 'jquery-3.6.0.js', 'lodash-4.17.21.js', 'react-dom-18.2.0.production.min.js', 'vuex-4.1.0.js', 'zepto-1.2.0.min.js']) {
      assert.equal(normalizeFileName(name), name, name);
    }
    assert.notEqual(normalizeFileName('jquery-3.7.1.min.js'), normalizeFileName('zepto-1.7.1.min.js'));
    assert.equal(normalizeFileName('app-1.2.3-Dy10eZpM.js'), 'app-1.2.3.js');
    assert.equal(normalizeFileName('pCQTeX9T.js'), '<hash>.js');
  });

  it('keeps names a developer wrote', () => {
    for (const name of ['settings.js', 'UserCard.js', 'index.js', 'vendor.js', 'main.js', 'polyfills.js', 'app.js', 'x.js', 'user-settings.js', 'user-api.js', 'my_utils.js', 'vendor_2.js', 'TodoList.js', 'HomePage.js', 'useStore.js', 'ApiError.js', 'APIError.js', 'ReactDOM.js', 'fromJSON.js', 'Checkbox.js', 'polyfill.js', 'checkout.js', 'DataGrid.js', 'CartItem.js', 'Children.js', 'myWidget.js', 'ToObject.js', 'jsonView.js', 'BrokenWidget.tsx', 'UserCard.svelte', 'chunk.3f2a.min.js', 'index.html', '.env']) {
      assert.equal(normalizeFileName(name), name, name);
    }
  });
});

describe('isContentHash', () => {
  it('is true for hex with a digit and for 8 base64url characters that read as no name', () => {
    assert.equal(isContentHash('91d2e0'), true);
    assert.equal(isContentHash('0a1b2c3d4e5f6789'), true);
    assert.equal(isContentHash('pCQTeX9T'), true);
    assert.equal(isContentHash('e-tR2VKL'), true);
    assert.equal(isContentHash('ZKN3QFNM'), true);
    assert.equal(isContentHash('facade'), false); // hex letters without a digit: a word
    assert.equal(isContentHash('20261124'), false); // digits: an id or a date, not a hash
    assert.equal(isContentHash('pCQTeX9'), false); // not a bundler's length
    assert.equal(isContentHash('settings'), false);
  });

  it('reads names in lowercase, camelCase and PascalCase, with an acronym at one end, as names', () => {
    for (const name of ['settings', 'UserCard', 'userCard', 'APIError', 'ReactDOM', 'html', 'user-api', '_layout', 'page-2']) assert.equal(readsAsName(name), true, name);
    for (const token of ['e-tR2VKL', 'BKGzNfDO', 'DiwrgTda', 'Bc_JsqBD', '-OuVNHpo', 'ZKN3QFNM']) assert.equal(readsAsName(token), false, token);
  });

  it('reads camelCase words only when they begin as words do, and acronyms only when code writes them', () => {
    // Vite chunk names that read as names before (a rebuild split their errors' fingerprints): random capitals at an
    // end (`YOIK`, `QIG`, `WWD`) or a start (`KV`), two-letter words no one writes (`Zy`, `Jy`), onsets English
    // has not (`Fm`, `Yc`), short pieces of letters no abbreviation has (`qnzy`, `zf`).
    for (const token of ['LukiYOIK', 'HoHxaQIG', 'EutedWWD', 'KVImtyCe', 'ZyJyUahr', 'UnFmheyz', 'Ycftoxez', 'qnzy_zf0']) assert.equal(isContentHash(token), true, token);
    // Names as code writes them keep their place.
    // The looser reading stays for words in error messages and folder names: their fingerprints do not move.
    for (const name of ['RTCPeerConnection', 'IDBObjectStore', 'LukiYOIK']) assert.equal(readsAsName(name), true, name);
    for (const name of ['ReactDOM', 'toJSON', 'APIError', 'XmlParse', 'JsonView', 'HtmlView', 'SseError', 'AdScript', 'LRUCache', 'IdSelect', 'rfc-3986', 'jws_sign', 'DataGrid', 'AppShell', 'Checkout', 'StepFlow', 'getStyle', 'TwoPanel']) assert.equal(isContentHash(name), false, name);
  });

  it('takes fewer than 1 in 400 random Rollup hashes for a name (measured: about 1 in 900; 1 in 170 before the camelCase rules)', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let seed = 24;
    // A fixed linear congruential generator: the same tokens on every run.
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const tokens = Array.from({ length: 20_000 }, () => Array.from({ length: 8 }, () => alphabet[Math.floor(next() * 64)]).join(''));
    const missed = tokens.filter((token) => !isContentHash(token));
    assert.ok(missed.length < tokens.length / 400, `${missed.length} of ${tokens.length} read as names: ${missed.slice(0, 20).join(' ')}`);
  });
});

describe('pathInsideApp', () => {
  it('cuts a path after the folder a run named at random, so each fresh build folder gives one place', () => {
    const a = 'file:///work/rr/.tmp/integration/rr-vite-5-template-4m0q2ctb5b8/build/server/index.js';
    const b = 'file:///work/rr/.tmp/integration/rr-vite-5-template-9x1kq0zz2ab/build/server/index.js';
    assert.equal(normalizeUrl(a), 'file:///build/server/index.js');
    assert.equal(normalizeUrl(a), normalizeUrl(b));
    assert.equal(normalizeUrl('file:///tmp/rr-app-aB3xYz/build/server/index-BKGzNfDO.js'), 'file:///build/server/index.js');
    assert.equal(normalizeUrl('file:///tmp/3f1c2a9e-1b2c-4d5e-8f90-123456789abc/app/root.tsx'), 'file:///app/root.tsx');
    assert.equal(normalizeSource('/tmp/rr-app-aB3xYz/app/root.tsx'), 'app/root.tsx');
    assert.equal(normalizeSource('/tmp/rr-app-Zq81mnX2/app/root.tsx'), 'app/root.tsx');
  });

  it('keeps a package from its node_modules, and a path with no random folder whole', () => {
    assert.equal(pathInsideApp('/ci/7/node_modules/react-dom/cjs/x.js'), '/node_modules/react-dom/cjs/x.js');
    assert.equal(pathInsideApp('/home/me/shop/src/cart.ts'), '/home/me/shop/src/cart.ts');
    assert.equal(normalizeUrl('http://127.0.0.1:4517/tmp-aB3xYz/app.js'), 'http://127.0.0.1/tmp-aB3xYz/app.js');
  });

  it('tells a folder named at random from one a developer named', () => {
    for (const folder of ['rr-vite-5-template-4m0q2ctb5b8', 'tmp-12345', 'vitest-aB3xYz', 'playwright-artifacts-Xk29aQ', 'build-0a1b2c3d']) assert.equal(isPerRunFolder(folder), true, folder);
    for (const folder of ['my-project', 'react19', 'node-v20', 'playwright-1.57.0', 'fixtures', 'Template', 'e2e', 'UserCard2', 'src', 'app', 'v1', 'facade']) assert.equal(isPerRunFolder(folder), false, folder);
  });
});

/** A script that failed to load: its fingerprint holds the script's file name. */
const failedScript = (url: string): DaebugEvent => ({
  type: 'console', source: 'network', level: 'error', realm: 'page', ts: '10:00:00', time: '2026-11-27T10:00:00.000Z',
  message: `GET ${url} → 404 Not Found`, expected: false, unexpected: true,
  network: { method: 'GET', url, resourceType: 'script', status: 404, statusText: 'Not Found' },
});

/** A baseline holding `fingerprint` knows the failed script at `url`: the event takes that fingerprint and counts as known. */
function assertKnownBy(url: string, fingerprint: string): void {
  const event = failedScript(url);
  const { known } = markEvents([[event]], new Set([fingerprint]));
  assert.equal(event.known, true);
  assert.equal(event.fingerprint, fingerprint);
  assert.equal(known, 1);
}

describe('a baseline written when versioned names were read as hashes', () => {
  const failed = failedScript;

  it('still knows the error: the event takes the fingerprint the baseline holds', () => {
    const url = 'http://127.0.0.1:4517/static/jquery-3.7.1.min.js';
    const before = withNamingEra('before-versioned-names', () => fingerprintOf(failed(url)));
    assert.notEqual(fingerprintOf(failed(url)), before, 'the name is kept whole now, so the fingerprint moved');
    assertKnownBy(url, before);
  });

  it('and a baseline written since knows it by its own fingerprint', () => {
    const event = failed('http://127.0.0.1:4517/static/jquery-3.7.1.min.js');
    const now = fingerprintOf(failed('http://127.0.0.1:4517/static/jquery-3.7.1.min.js'));
    markEvents([[event]], new Set([now]));
    assert.equal(event.known, true);
    assert.equal(event.fingerprint, now);
  });
});

describe('a baseline written before camelCase names were read strictly', () => {
  const thrown = failedScript;
  // A third-party chunk whose name does not change from run to run, and that fails to load in every run: `LukiYOIK`
  // read as a name then, as a hash now.
  const url = 'https://cdn.example.com/assets/LukiYOIK.js';

  it('still knows the error, under the earlier rules alone and under the rules before versioned names too', () => {
    const before = withNamingEra('before-camel-rules', () => fingerprintOf(thrown(url)));
    assert.notEqual(fingerprintOf(thrown(url)), before, 'the name is a hash now, so the fingerprint moved');
    for (const baseline of [before, withNamingEra('before-versioned-names', () => fingerprintOf(thrown(url)))]) assertKnownBy(url, baseline);
  });

  it('and an error the baseline does not hold stays unknown, with the fingerprint of now', () => {
    const event = thrown(url);
    markEvents([[event]], new Set([withNamingEra('before-camel-rules', () => fingerprintOf(thrown('https://cdn.example.com/assets/KVImtyCe.js')))]));
    assert.equal(event.known, undefined);
    assert.equal(event.fingerprint, fingerprintOf(thrown(url)));
  });
});

describe('naming eras', () => {
  it('an era drops its own rule and every later one, and ends when its call returns, even by a throw', () => {
    assert.equal(isContentHash('LukiYOIK'), true);
    assert.equal(withNamingEra('before-camel-rules', () => isContentHash('LukiYOIK')), false);
    assert.equal(normalizeFileName('jquery-3.7.1.min.js'), 'jquery-3.7.1.min.js');
    assert.equal(withNamingEra('before-camel-rules', () => normalizeFileName('jquery-3.7.1.min.js')), 'jquery-3.7.1.min.js');
    assert.equal(withNamingEra('before-versioned-names', () => [isContentHash('LukiYOIK'), normalizeFileName('jquery-3.7.1.min.js')]).join(' '), 'false <hash>.7.1.min.js');
    assert.equal(withNamingEra('before-versioned-names', () => withNamingEra('now', () => isContentHash('LukiYOIK'))), true);
    assert.throws(() => withNamingEra('before-camel-rules', () => { throw new Error('inside'); }), /inside/);
    assert.equal(isContentHash('LukiYOIK'), true);
  });
});
