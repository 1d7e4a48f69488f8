import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { originalFunctionName } from '../../src/stack/function-name';
import { decodeDataUrl, findSourceMappingUrl, resolveMapUrl } from '../../src/stack/map-url';
import { displaySource, originalPosition, parseSourceMap, sourceUrl, SourceMapParseError } from '../../src/stack/source-map';
import { TextLines } from '../../src/stack/text-lines';
import { bundle, positionOf } from './helpers/bundle';

const files = {
  'main.ts': "import { total } from './cart';\nexport function start(): number {\n  return total([]);\n}\n(window as any).start = start;\n",
  'cart.ts': "export function total(items: number[]): number {\n  const first = items[0] as unknown as { price: number };\n  return first.price * 2;\n}\n",
};

describe('parseSourceMap and originalPosition', () => {
  const app = bundle(files, 'main.ts');
  const map = parseSourceMap(app.map, 'http://localhost/dist/app.js.map');

  it('maps a minified position to the original file, line and column', () => {
    const at = positionOf(app.js, '.price');
    const original = originalPosition(map, at.line, at.column + 1);
    assert.deepEqual(original && { source: original.source, line: original.line, column: original.column }, { source: '../src/cart.ts', line: 3, column: 16 });
  });

  it('keeps sourcesContent per source', () => {
    assert.equal(map.contents.get('../src/cart.ts')?.line(3), '  return first.price * 2;');
  });

  it('says nothing for a line the map does not cover, instead of borrowing an earlier line', () => {
    assert.equal(originalPosition(map, 40, 1), undefined);
  });

  it('recovers the original function name that minification replaced', () => {
    const lines = new TextLines(app.js);
    const at = positionOf(app.js, '.price');
    const minified = [...app.js.slice(0, app.js.indexOf('.price')).matchAll(/function (\w+)\(/g)].pop()?.[1];
    assert.ok(minified && minified !== 'total', `expected a minified name, got ${minified}`);
    assert.equal(originalFunctionName(map, lines, minified, at.line, at.column + 1), 'total');
    assert.equal(originalFunctionName(map, lines, `Object.${minified} [as total]`, at.line, at.column + 1), 'total');
    assert.equal(originalFunctionName(map, lines, undefined, at.line, at.column), undefined);
  });

  it('reads index maps (sections)', () => {
    const indexed = parseSourceMap(JSON.stringify({ version: 3, sections: [{ offset: { line: 10, column: 0 }, map: JSON.parse(app.map) }] }), 'http://localhost/x.map');
    const at = positionOf(app.js, '.price');
    assert.equal(originalPosition(indexed, at.line + 10, at.column + 1)?.line, 3);
    assert.equal(indexed.contents.size, 2);
  });

  it('rejects malformed maps with a short reason', () => {
    assert.throws(() => parseSourceMap('{"version":3,"mappings":', 'x'), (e: unknown) => e instanceof SourceMapParseError && /not valid JSON/.test(e.message));
    assert.throws(() => parseSourceMap('{"version":3}', 'x'), /no "sources" array or "mappings" string/);
    assert.throws(() => parseSourceMap('null', 'x'), /not a JSON object/);
  });

  it('accepts the XSSI guard prefix', () => {
    assert.doesNotThrow(() => parseSourceMap(`)]}'\n${app.map}`, 'x'));
  });
});

describe('map URLs', () => {
  it('finds the last sourceMappingURL comment, not one inside a string', () => {
    assert.equal(findSourceMappingUrl('a();\n//# sourceMappingURL=app.js.map\n'), 'app.js.map');
    assert.equal(findSourceMappingUrl('a();\n//@ sourceMappingURL=old.map'), 'old.map');
    assert.equal(findSourceMappingUrl('a();\n/*# sourceMappingURL=css.map */'), 'css.map');
    assert.equal(findSourceMappingUrl('x("//# sourceMappingURL=" + u);\n'), undefined);
    assert.equal(findSourceMappingUrl('x("//# sourceMappingURL=" + u);\n//# sourceMappingURL=real.map'), 'real.map');
    assert.equal(findSourceMappingUrl('no map here'), undefined);
  });

  it('decodes base64 and percent-encoded data: maps', () => {
    assert.equal(decodeDataUrl(`data:application/json;charset=utf-8;base64,${Buffer.from('{"a":1}').toString('base64')}`), '{"a":1}');
    assert.equal(decodeDataUrl('data:application/json,%7B%22a%22%3A1%7D'), '{"a":1}');
    assert.equal(decodeDataUrl('app.js.map'), undefined);
  });

  it('resolves a map next to its script, or absolute', () => {
    assert.equal(resolveMapUrl('app.js.map', 'http://h/dist/app.js?v=2'), 'http://h/dist/app.js.map');
    assert.equal(resolveMapUrl('/maps/app.map', 'http://h/dist/app.js'), 'http://h/maps/app.map');
  });

  it('inline maps from a bundler work end to end', () => {
    const app = bundle(files, 'main.ts', 'inline');
    const reference = findSourceMappingUrl(app.js);
    assert.ok(reference?.startsWith('data:application/json;base64,'));
    const map = parseSourceMap(decodeDataUrl(reference!)!, 'http://h/app.js');
    const at = positionOf(app.js, '.price');
    assert.equal(originalPosition(map, at.line, at.column + 1)?.source, '../src/cart.ts');
  });
});

describe('displaySource and sourceUrl', () => {
  it('shows the path a developer edits', () => {
    assert.equal(displaySource('../src/cart.ts'), 'src/cart.ts');
    assert.equal(displaySource('webpack://shop/./src/cart.ts'), 'src/cart.ts');
    assert.equal(displaySource('webpack:///src/cart.ts'), 'src/cart.ts');
    assert.equal(displaySource('http://localhost:5173/src/cart.ts?t=1'), 'src/cart.ts');
    assert.equal(displaySource('cart.ts', 'src/'), 'src/cart.ts');
    assert.equal(displaySource('file:///home/me/app/src/cart.ts'), '/home/me/app/src/cart.ts');
  });

  it("takes a bare file name's folder from the map URL (Vite's dev server names only the file)", () => {
    assert.equal(displaySource('Checkout.tsx', '', 'http://127.0.0.1:5173/src/components/Checkout.tsx?t=1'), 'src/components/Checkout.tsx');
    assert.equal(displaySource('./Checkout.tsx', '', 'http://127.0.0.1:5173/src/components/Checkout.tsx'), 'src/components/Checkout.tsx');
    // A path with folders keeps the bundler's meaning, not the server's.
    assert.equal(displaySource('../src/cart.ts', '', 'http://h/app/dist/app.js.map'), 'src/cart.ts');
    assert.equal(displaySource('webpack://shop/./src/cart.ts', '', 'http://h/app.js.map'), 'src/cart.ts');
    // A sourceRoot with a folder already places it; a file: map stays a path.
    assert.equal(displaySource('cart.ts', 'src/', 'http://h/dist/app.js.map'), 'src/cart.ts');
    assert.equal(displaySource('cart.ts', '', 'file:///home/me/app/dist/app.js.map'), 'cart.ts');
  });

  it('resolves a source against the map URL and sourceRoot for fetching', () => {
    const map = parseSourceMap(JSON.stringify({ version: 3, sources: ['cart.ts'], sourceRoot: '../src', mappings: 'AAAA' }), 'http://h/dist/app.js.map');
    assert.equal(sourceUrl(map, 'cart.ts'), 'http://h/src/cart.ts');
  });
});
