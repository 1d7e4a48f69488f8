import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Recorder } from '../../src/capture/recorder';
import { formatIndexMarkdown, type RunIndex } from '../../src/format/index-markdown';
import { formatUnmappedSection } from '../../src/format/unmapped-scripts';
import type { Attempt, Frame, UnmappedScript } from '../../src/model/schema';
import { resolveOptions } from '../../src/options';
import { RunUnmappedScripts } from '../../src/run/unmapped-scripts';
import { enrich } from '../../src/stack/enrich';
import type { Fetcher, FetchResult } from '../../src/stack/fetch-result';
import { LruCache } from '../../src/stack/lru';
import { hasLongLine, SourceMaps, type ScriptInfo } from '../../src/stack/source-maps';
import { bundle } from './helpers/bundle';

// Why a script stays unmapped, said once per run (issue 24, item 1): the cause is classified where the script and its
// map are read, each test lists its scripts, and the reporter groups them for index.md.

const app = bundle({ 'main.ts': "(window as any).start = () => { throw new Error('boom'); };\n" }, 'main.ts');
const ORIGIN = 'http://app.test';
/** A build's minified output: one long line. */
const minified = `(()=>{${'var a=1;'.repeat(80)}window.start=function t(){throw new Error("boom")}})();\n`;
const handWritten = 'function start() {\n  throw new Error("boom");\n}\n';

const js = (text: string): FetchResult => ({ ok: true, text, contentType: 'text/javascript' });
const status = (code: number): FetchResult => ({ ok: false, reason: `HTTP ${code}`, status: code });

function server(routes: Record<string, FetchResult>): Fetcher {
  return async (url) => routes[url] ?? status(404);
}

function scriptOf(routes: Record<string, FetchResult>, url = `${ORIGIN}/app.js`): Promise<ScriptInfo> {
  return new SourceMaps(server(routes), new LruCache(50, 1 << 24)).script(url);
}

describe('the cause of an unmapped script', () => {
  const withMap = (map: string) => `${minified}//# sourceMappingURL=${map}\n`;
  const cases: Array<[string, Record<string, FetchResult>, Partial<ScriptInfo>]> = [
    ['a minified script with no sourceMappingURL', { [`${ORIGIN}/app.js`]: js(minified) }, { cause: 'no-source-map', minified: true }],
    ['a hand-written script with no sourceMappingURL', { [`${ORIGIN}/app.js`]: js(handWritten) }, { cause: 'no-source-map', minified: false }],
    ['a map that 404s', { [`${ORIGIN}/app.js`]: js(withMap('app.js.map')) }, { cause: 'map-not-found', mapUrl: `${ORIGIN}/app.js.map` }],
    ['a map that 410s', { [`${ORIGIN}/app.js`]: js(withMap('app.js.map')), [`${ORIGIN}/app.js.map`]: status(410) }, { cause: 'map-not-found' }],
    ['a map the server fails on', { [`${ORIGIN}/app.js`]: js(withMap('app.js.map')), [`${ORIGIN}/app.js.map`]: status(500) }, { cause: 'map-unreadable' }],
    ['a map that times out', { [`${ORIGIN}/app.js`]: js(withMap('app.js.map')), [`${ORIGIN}/app.js.map`]: { ok: false, reason: 'timed out after 2000 ms' } }, { cause: 'map-unreadable' }],
    ['an HTML page where the map should be', { [`${ORIGIN}/app.js`]: js(withMap('app.js.map')), [`${ORIGIN}/app.js.map`]: js('<!doctype html><html></html>') }, { cause: 'map-malformed' }],
    ['a script that cannot be read', {}, { cause: 'script-unreadable' }],
    ['an inline script of an HTML page', { [`${ORIGIN}/app.js`]: { ok: true, text: '<html><script>x()</script></html>', contentType: 'text/html' } }, { cause: undefined }],
    ['a script with a map', { [`${ORIGIN}/app.js`]: js(app.js), [`${ORIGIN}/app.js.map`]: js(app.map) }, { cause: undefined }],
  ];
  for (const [name, routes, expected] of cases) {
    it(name, async () => {
      const info = await scriptOf(routes);
      for (const [key, value] of Object.entries(expected)) assert.equal(info[key as keyof ScriptInfo], value, key);
    });
  }

  it('a script is minified when a line has 500 characters or more', () => {
    assert.equal(hasLongLine(minified, 500), true);
    assert.equal(hasLongLine(handWritten, 500), false);
    assert.equal(hasLongLine(`${'a'.repeat(499)}\n${'b'.repeat(499)}`, 500), false);
    assert.equal(hasLongLine(`short\n${'b'.repeat(500)}`, 500), true);
  });
});

describe("a test's unmapped scripts", () => {
  function thrownIn(url: string): Recorder {
    const rec = new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }));
    rec.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: Date.now(), message: 'Error: boom', stack: `Error: boom\n    at t (${url}:1:40)` });
    return rec;
  }

  it('lists app scripts whose map cannot be had, once each, not hand-written scripts or libraries', async () => {
    const routes = {
      [`${ORIGIN}/min.js`]: js(minified),
      [`${ORIGIN}/plain.js`]: js(handWritten),
      [`${ORIGIN}/react-dom.production.min.js`]: js(minified),
      [`${ORIGIN}/gone.js`]: js(`${minified}//# sourceMappingURL=gone.js.map\n`),
    };
    const rec = new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }));
    for (const file of ['min.js', 'min.js', 'plain.js', 'react-dom.production.min.js', 'gone.js']) {
      rec.add({ type: 'error', source: 'window.onerror', realm: 'page', timeMs: Date.now(), message: `Error: ${file}`, stack: `Error: ${file}\n    at t (${ORIGIN}/${file}:1:40)` });
    }
    await enrich(rec, new SourceMaps(server(routes), new LruCache(50, 1 << 24)));
    assert.deepEqual(rec.record().unmappedScripts, [
      { url: `${ORIGIN}/min.js`, cause: 'no-source-map', reason: 'the script has no sourceMappingURL' },
      { url: `${ORIGIN}/gone.js`, cause: 'map-not-found', reason: `source map ${ORIGIN}/gone.js.map: HTTP 404`, map: `${ORIGIN}/gone.js.map` },
    ]);
    const [min, , plain] = rec.events();
    assert.equal(min?.frames?.[0]?.unmappedReason, 'the script has no sourceMappingURL');
    assert.equal(plain?.frames?.[0]?.unmappedReason, undefined, 'a hand-written script reads fine unmapped');
  });

  it('a diagnostic holds its hint apart from its message, once', async () => {
    const rec = thrownIn(`${ORIGIN}/gone.js`);
    await enrich(rec, new SourceMaps(server({ [`${ORIGIN}/gone.js`]: js(`${minified}//# sourceMappingURL=gone.js.map\n`) }), new LruCache(50, 1 << 24)));
    const [diagnostic] = rec.record().diagnostics;
    assert.equal(diagnostic?.message, `daebug could not map ${ORIGIN}/gone.js: source map ${ORIGIN}/gone.js.map: HTTP 404`);
    assert.equal(diagnostic?.hint, 'The frames stay unmapped; index.md says once for the run why and what to change.');
  });
});

describe('the run’s unmapped scripts', () => {
  const frame = (url: string, mapped: boolean): Frame => ({ url, line: 1, column: 1, ...(mapped ? { original: { source: 'src/a.ts', line: 1, column: 1 } } : {}) });
  function attempt(unmappedScripts: UnmappedScript[], frames: Frame[] = []): Pick<Attempt, 'unmappedScripts' | 'events' | 'jobs'> {
    return { unmappedScripts, events: frames.length ? [{ type: 'error', level: 'error', source: 'window.onerror', realm: 'page', message: 'x', time: '', frames } as never] : [], jobs: [] };
  }
  const noMap = (url: string): UnmappedScript => ({ url, cause: 'no-source-map', reason: 'the script has no sourceMappingURL' });

  it('tells a build without maps from one script without a map, by whether another script of its server was mapped', () => {
    const run = new RunUnmappedScripts();
    run.add('t1', attempt([noMap('http://prod.test/_app/chunks/a1.js'), noMap('http://dev.test/worker.js')]));
    run.add('t2', attempt([noMap('http://prod.test/_app/chunks/a1.js')], [frame('http://dev.test/app.js', true), frame('http://prod.test/_app/chunks/b2.js', false)]));
    assert.deepEqual(run.notes(), [
      { cause: 'no-maps-built', scripts: [{ url: 'http://prod.test/_app/chunks/a1.js', reason: 'the script has no sourceMappingURL', tests: 2 }] },
      { cause: 'no-source-map', scripts: [{ url: 'http://dev.test/worker.js', reason: 'the script has no sourceMappingURL', tests: 1 }] },
    ]);
  });

  it('counts tests, not attempts, lists the widespread first and counts the rest past 10', () => {
    const run = new RunUnmappedScripts();
    for (let i = 0; i < 12; i++) run.add(`t${i}`, attempt([{ url: `http://a.test/s${i}.js`, cause: 'map-not-found', reason: 'HTTP 404', map: `http://a.test/s${i}.js.map` }]));
    run.add('t0', attempt([{ url: 'http://a.test/s11.js', cause: 'map-not-found', reason: 'HTTP 404' }]));
    run.add('t1', attempt([{ url: 'http://a.test/s11.js', cause: 'map-not-found', reason: 'HTTP 404' }]));
    run.add('t1', attempt([{ url: 'http://a.test/s11.js', cause: 'map-not-found', reason: 'HTTP 404' }]));
    const [note] = run.notes();
    assert.equal(note?.scripts.length, 10);
    assert.deepEqual(note?.scripts[0], { url: 'http://a.test/s11.js', map: 'http://a.test/s11.js.map', reason: 'HTTP 404', tests: 3 });
    assert.equal(note?.more, 2);
    assert.deepEqual(new RunUnmappedScripts().notes(), []);
  });

  it('index.md says each cause once, with its advice, and nothing when every script was mapped', () => {
    const notes = [
      { cause: 'no-maps-built', scripts: [{ url: 'http://prod.test/_app/chunks/a1.js', reason: 'the script has no sourceMappingURL', tests: 2 }] },
      { cause: 'map-not-found', scripts: [{ url: 'http://a.test/app.js', map: 'http://a.test/app.js.map', reason: 'source map http://a.test/app.js.map: HTTP 404', tests: 1 }], more: 3 },
      { cause: 'from-a-newer-daebug', scripts: [{ url: 'http://a.test/x.js', reason: 'why', tests: 1 }] },
    ];
    const lines = formatUnmappedSection(notes);
    assert.equal(lines[0], '## Source maps');
    assert.ok(lines.includes("- **The build emits no source maps**. No script of these servers has a `sourceMappingURL` and none was mapped: turn maps on in the build. Vite and SvelteKit: `build.sourcemap: true`; esbuild: `--sourcemap`; webpack: `devtool: 'source-map'`; Rollup: `output.sourcemap: true`."));
    assert.ok(lines.includes('  - `http://prod.test/_app/chunks/a1.js` (2 tests)'));
    assert.ok(lines.includes('  - `http://a.test/app.js`: source map http://a.test/app.js.map: HTTP 404 (1 test)'));
    assert.ok(lines.includes('  - … 3 more scripts: index.json'));
    assert.ok(lines.includes('- **`from-a-newer-daebug`**'));
    assert.equal(lines.filter((l) => l.includes('build.sourcemap')).length, 1);
    assert.deepEqual(formatUnmappedSection([]), []);
    const index: RunIndex = { schemaVersion: 1, status: 'passed', interrupted: false, startedAt: '', updatedAt: '', outputDir: '', tests: [], groups: [], unmappedByCause: notes };
    const md = formatIndexMarkdown(index);
    assert.equal(md.match(/^## Source maps$/gm)?.length, 1);
    assert.ok(md.indexOf('## Source maps') < md.indexOf('## Tests'));
    const { unmappedByCause: _none, ...mapped } = index;
    assert.doesNotMatch(formatIndexMarkdown(mapped), /Source maps/);
  });
});
