import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clearSourceMapCache, needsFetch, SourceMaps } from '../../src/stack/source-maps';
import { LruCache } from '../../src/stack/lru';
import type { Fetcher, FetchResult } from '../../src/stack/fetch-result';

const js = (text: string): FetchResult => ({ ok: true, text, contentType: 'text/javascript' });
const json = (value: unknown): FetchResult => ({ ok: true, text: JSON.stringify(value), contentType: 'application/json' });
const map = (sourcesContent?: string[]) => ({ version: 3, sources: ['src/a.ts', 'src/b.ts'], names: [], mappings: 'AAAA;ACAA', ...(sourcesContent ? { sourcesContent } : {}) });

function server(routes: Record<string, FetchResult>): Fetcher {
  return async (url) => routes[url] ?? { ok: false, reason: 'HTTP 404', status: 404 };
}

describe("needsFetch: whether a frame's script may still be fetched in this worker (src/stack/source-maps.ts)", () => {
  it('is true until the script is in the shared cache, then false when its map carries every source', async () => {
    clearSourceMapCache();
    const url = 'http://h/assets/app.js';
    const maps = new SourceMaps(server({ [url]: js('x()\n//# sourceMappingURL=app.js.map'), 'http://h/assets/app.js.map': json(map(['a', 'b'])) }));
    assert.equal(needsFetch(url), true);
    const info = maps.script(url);
    assert.equal(needsFetch(url), true, 'on its way: not answered yet');
    assert.ok((await info).map);
    assert.equal(needsFetch(url), false);
    assert.equal(needsFetch(`${url}#x`), false, 'the cache key has no hash');
    assert.equal(needsFetch('http://h/assets/other.js'), true);
  });

  it("stays true when the map lacks a source's text (fetched later, as frames need it), and false for an answered 404 or a script without a map", async () => {
    clearSourceMapCache();
    const partial = 'http://h/partial.js';
    const plain = 'http://h/plain.js';
    const missing = 'http://h/missing.js';
    const maps = new SourceMaps(server({ [partial]: js('x()\n//# sourceMappingURL=partial.js.map'), 'http://h/partial.js.map': json(map()), [plain]: js('plain()') }));
    await Promise.all([maps.script(partial), maps.script(plain), maps.script(missing)]);
    assert.equal(needsFetch(partial), true);
    assert.equal(needsFetch(plain), false);
    assert.equal(needsFetch(missing), false, 'a 404 is kept for the run: asking again answers the same');
  });

  it('is true again for a request that failed before any answer (not kept: the next test tries again)', async () => {
    clearSourceMapCache();
    const url = 'http://h/down.js';
    const maps = new SourceMaps(async () => ({ ok: false, reason: 'connection refused', inTransit: true }));
    await maps.script(url);
    // The cache drops a transient failure once it settles.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(needsFetch(url), true);
  });

  it('asks the cache it is given: a SourceMaps with a cache of its own answers from that cache, not the shared one', async () => {
    clearSourceMapCache();
    const url = 'http://h/own.js';
    const maps = new SourceMaps(server({ [url]: js('own()') }), new LruCache(10, 1024 * 1024));
    await maps.script(url);
    assert.equal(maps.needsFetch(url), false);
    assert.equal(needsFetch(url), true, 'the shared cache never saw it');
  });
});
