import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import vm from 'node:vm';
import {
  defaultSerializeLimits,
  serializeConsoleArgs,
  serializeInRealm,
  serializerFunctionSource,
  serializeThrown,
  SERIALIZER_SOURCE,
  type SerializeLimits,
} from '../../src/capture/serialize';
import { bundleSerializer, moduleText, OUT_FILE } from '../../scripts/build-in-page';

/** Text of one console call. */
function text(args: unknown[], limits?: Partial<SerializeLimits>): string {
  return serializeConsoleArgs(args, limits).text;
}
/** Text of a single value, parsed back as JSON (objects render as JSON text). */
function json(value: unknown, limits?: Partial<SerializeLimits>): unknown {
  return JSON.parse(text([value], limits));
}
/**
 * Far above what bounded work takes (a few ms), far below what walking every entry of the input takes (seconds):
 * it tells the two apart on a loaded machine, where a tight bound would only measure the load.
 */
const BOUNDED_MS = 1500;
function timed<T>(fn: () => T): { result: T; ms: number } {
  const t0 = performance.now();
  const result = fn();
  return { result, ms: performance.now() - t0 };
}
function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
function throwingProxy(): object {
  const boom = () => {
    throw new Error('trap says no');
  };
  return new Proxy(
    {},
    { ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom, get: boom, has: boom },
  );
}

describe('defaults', () => {
  it('exports the documented default limits', () => {
    assert.deepEqual(defaultSerializeLimits, { maxDepth: 3, maxBreadth: 50, maxLength: 1000 });
  });
});

describe('serializeConsoleArgs: top-level primitives', () => {
  it('prints strings as-is and joins arguments with a space', () => {
    assert.equal(text(['a "quoted" string', 'b']), 'a "quoted" string b');
  });
  it('prints numbers, -0, BigInt, Symbol, undefined, null, booleans readably', () => {
    assert.equal(text([1.5, -0, 0, 123n, Symbol('desc'), Symbol(), undefined, null, true]), '1.5 -0 0 123n Symbol(desc) Symbol() undefined null true');
  });
  it('prints NaN and ±Infinity', () => {
    assert.equal(text([NaN, Infinity, -Infinity]), 'NaN Infinity -Infinity');
  });
  it('reports structured only when an argument is not a primitive', () => {
    assert.equal(serializeConsoleArgs(['a', 1, null, undefined, 2n]).structured, false);
    assert.equal(serializeConsoleArgs(['a', { b: 1 }]).structured, true);
    assert.equal(serializeConsoleArgs([[1]]).structured, true);
    assert.equal(serializeConsoleArgs([new Map()]).structured, true);
    assert.equal(serializeConsoleArgs([() => 1]).structured, true);
  });
  it('handles an empty argument list', () => {
    assert.deepEqual(serializeConsoleArgs([]), { text: '', structured: false });
  });
});

describe('serializeConsoleArgs: format strings', () => {
  it('substitutes %s', () => {
    assert.equal(text(['hello %s!', 'world']), 'hello world!');
    assert.equal(text(['%s|%s', 5, { a: 1 }]), '5|{"a":1}');
  });
  it('substitutes %d and %i parseInt-like', () => {
    assert.equal(text(['%d items', '42.9px']), '42 items');
    assert.equal(text(['%i/%d', 3.7, -2.5]), '3/-2');
    assert.equal(text(['%d', 'abc']), 'NaN');
    assert.equal(text(['%d', 5n]), '5n');
  });
  it('substitutes %f with a float', () => {
    assert.equal(text(['%f', '3.25rem']), '3.25');
    assert.equal(text(['%f', 1.5]), '1.5');
  });
  it('renders %o, %O and %j arguments as JSON', () => {
    assert.equal(text(['obj=%o', { a: [1, 2] }]), 'obj={"a":[1,2]}');
    assert.equal(text(['%O', { b: 'x' }]), '{"b":"x"}');
    assert.equal(text(['%j', 'str']), '"str"');
  });
  it('consumes %c and prints nothing for it', () => {
    const out = serializeConsoleArgs(['%cStyled%c plain', 'color: red', 'font-weight: bold']);
    assert.equal(out.text, 'Styled plain');
    assert.equal(out.structured, false);
  });
  it('turns %% into % when arguments follow', () => {
    assert.equal(text(['%d%% done', 50]), '50% done');
  });
  it('does not interpret a lone format string (like Node and Chrome)', () => {
    assert.equal(text(['100%% sure %s']), '100%% sure %s');
  });
  it('leaves directives without arguments in place and appends extra arguments', () => {
    assert.equal(text(['%s and %s', 'a']), 'a and %s');
    assert.equal(text(['%s', 'a', 'b', { c: 1 }]), 'a b {"c":1}');
  });
  it('does not treat a non-string first argument as a format', () => {
    assert.equal(text([1, '%s', 2]), '1 %s 2');
  });
});

describe('serializeConsoleArgs: objects as JSON', () => {
  it('renders objects and arrays as compact JSON', () => {
    assert.equal(text([{ a: 1, b: [1, 2], c: { d: 'x' } }]), '{"a":1,"b":[1,2],"c":{"d":"x"}}');
  });
  it('renders nested special numbers, BigInt, Symbol and undefined as strings', () => {
    assert.deepEqual(json({ n: NaN, i: Infinity, m: -Infinity, z: -0, b: 123n, s: Symbol('x'), u: undefined }), {
      n: 'NaN', i: 'Infinity', m: '-Infinity', z: '-0', b: '123n', s: 'Symbol(x)', u: 'undefined',
    });
    assert.deepEqual(json([undefined, NaN]), ['undefined', 'NaN']);
  });
  it('skips symbol keys', () => {
    assert.equal(text([{ [Symbol('k')]: 1, a: 2 }]), '{"a":2}');
  });
  it('marks circular references', () => {
    const o: Record<string, unknown> = { a: 1 };
    o.self = o;
    o.list = [o];
    assert.deepEqual(json(o), { a: 1, self: '[Circular]', list: ['[Circular]'] });
  });
  it('does not mark repeated but non-circular references', () => {
    const shared = { x: 1 };
    assert.deepEqual(json({ a: shared, b: shared }), { a: { x: 1 }, b: { x: 1 } });
  });
  it('cuts nesting beyond maxDepth (default 3)', () => {
    assert.deepEqual(json({ a: { b: { c: { d: 1 } } } }), { a: { b: { c: '[Object]' } } });
    assert.deepEqual(json([[[[1]]]]), [[['[Array]']]]);
    assert.deepEqual(json({ a: { b: 1 } }, { maxDepth: 1 }), { a: '[Object]' });
    assert.deepEqual(json({ m: new Map([[1, 2]]), s: new Set([1]) }, { maxDepth: 1 }), { m: '[Map]', s: '[Set]' });
  });
  it('shows at most maxBreadth array items, then "… N more items"', () => {
    const arr = Array.from({ length: 60 }, (_, i) => i);
    const out = json(arr) as unknown[];
    assert.equal(out.length, 51);
    assert.equal(out[49], 49);
    assert.equal(out[50], '… 10 more items');
    assert.deepEqual(json([1, 2, 3], { maxBreadth: 2 }), [1, 2, '… 1 more items']);
  });
  it('shows at most maxBreadth object keys, then a "…" key', () => {
    const obj = Object.fromEntries(Array.from({ length: 60 }, (_, i) => ['k' + i, i]));
    const out = json(obj) as Record<string, unknown>;
    assert.equal(Object.keys(out).length, 51);
    assert.equal(out.k49, 49);
    assert.equal(out.k50, undefined);
    assert.equal(out['…'], '10 more keys');
  });
  it('shows at most maxBreadth Map and Set entries', () => {
    const map = new Map(Array.from({ length: 5 }, (_, i) => [i, 'v' + i] as const));
    assert.deepEqual(json(map, { maxBreadth: 2 }), { 'Map(5)': [[0, 'v0'], [1, 'v1'], '… 3 more items'] });
    const set = new Set([1, 2, 3, 4]);
    assert.deepEqual(json(set, { maxBreadth: 3 }), { 'Set(4)': [1, 2, 3, '… 1 more items'] });
  });
  it('renders Map as {"Map(n)":[[k,v],...]} (object keys allowed) and Set as {"Set(n)":[...]}', () => {
    assert.deepEqual(json(new Map<unknown, unknown>([['k', 1], [{ o: 1 }, [2]]])), { 'Map(2)': [['k', 1], [{ o: 1 }, [2]]] });
    assert.deepEqual(json(new Set(['a', 1])), { 'Set(2)': ['a', 1] });
  });
  it('renders functions by name', () => {
    function named() {}
    const arrow = () => 1;
    assert.deepEqual(json({ named, arrow, anon: (() => () => 1)(), klass: class Foo {} }), {
      named: '[Function: named]', arrow: '[Function: arrow]', anon: '[Function (anonymous)]', klass: '[Function: Foo]',
    });
    assert.equal(text([named]), '[Function: named]');
  });
  it('renders Date (valid and invalid)', () => {
    assert.deepEqual(json({ d: new Date(0), bad: new Date(NaN) }), { d: '1970-01-01T00:00:00.000Z', bad: 'Invalid Date' });
    assert.equal(text([new Date(0)]), '1970-01-01T00:00:00.000Z');
    assert.equal(text([new Date('nope')]), 'Invalid Date');
  });
  it('renders RegExp with flags', () => {
    assert.deepEqual(json({ re: /a+b\//gimsuy }), { re: '/a+b\\//gimsuy' });
    assert.equal(text([/x/d]), '/x/d');
  });
  it('renders typed arrays with at most maxBreadth items', () => {
    assert.deepEqual(json({ u: new Uint8Array([1, 2, 3]) }), { u: 'Uint8Array(3) [1,2,3]' });
    assert.equal(text([new Float64Array([NaN, -0, 1.5])]), 'Float64Array(3) [NaN,-0,1.5]');
    assert.equal(text([new BigInt64Array([1n, -2n])]), 'BigInt64Array(2) [1n,-2n]');
    assert.equal(text([new Uint16Array(10)], { maxBreadth: 3 }), 'Uint16Array(10) [0,0,0,…]');
    assert.equal(text([new DataView(new ArrayBuffer(4))]), 'DataView(4)');
  });
  it('renders ArrayBuffer by size', () => {
    assert.deepEqual(json({ b: new ArrayBuffer(16) }), { b: 'ArrayBuffer(16)' });
  });
  it('renders nested Errors as "Name: message"', () => {
    assert.deepEqual(json({ e: new TypeError('bad thing'), plain: new Error('') }), { e: 'TypeError: bad thing', plain: 'Error' });
    assert.equal(text(['failed:', new RangeError('too big')]), 'failed: RangeError: too big');
  });
  it('renders Promise, WeakMap, WeakSet and boxed primitives as labels', () => {
    assert.deepEqual(json({ p: Promise.resolve(1), wm: new WeakMap(), ws: new WeakSet() }), { p: '[Promise]', wm: '[WeakMap]', ws: '[WeakSet]' });
    assert.equal(text([Object(1), Object('s'), Object(true), Object(2n)]), '[Number: 1] [String: "s"] [Boolean: true] [BigInt: 2n]');
  });
  it('renders objects with a null prototype', () => {
    const o = Object.assign(Object.create(null) as Record<string, unknown>, { x: 1, y: { z: 2 } });
    assert.equal(text([o]), '{"x":1,"y":{"z":2}}');
  });
  it('renders class instances by their own enumerable fields', () => {
    class Point {
      constructor(public x: number, public y: number) {}
      get len() {
        return Math.hypot(this.x, this.y);
      }
    }
    assert.equal(text([new Point(1, 2)]), '{"x":1,"y":2}');
  });
  it('marks holes of sparse arrays', () => {
    // eslint-disable-next-line no-sparse-arrays
    assert.deepEqual(json([1, , 3]), [1, '[empty]', 3]);
  });
  it('cuts nested strings longer than maxLength before rendering them', () => {
    // The nested cut is visible in the total length: the 5000-char string counts as 100 + marker.
    const out = serializeConsoleArgs([{ s: 'y'.repeat(5000) }], { maxLength: 100 });
    const expected = JSON.stringify({ s: 'y'.repeat(100) + ' …[truncated, 5000 chars]' });
    assert.equal(out.originalLength, expected.length);
    assert.equal(out.text, expected.slice(0, 100) + ` …[truncated, ${expected.length} chars]`);
    // keys are cut the same way
    const keyed = serializeConsoleArgs([{ ['k'.repeat(5000)]: 1 }], { maxLength: 100 });
    assert.equal(keyed.originalLength, JSON.stringify({ ['k'.repeat(100) + ' …[truncated, 5000 chars]']: 1 }).length);
  });
});

describe('serializeConsoleArgs: never invokes user code', () => {
  it('does not invoke getters and labels accessors', () => {
    let calls = 0;
    const o = {
      get g() {
        calls++;
        return 1;
      },
      set s(_v: unknown) {
        calls++;
      },
      get gs() {
        calls++;
        return 1;
      },
      set gs(_v: unknown) {
        calls++;
      },
      get boom(): unknown {
        calls++;
        throw new Error('getter ran');
      },
    };
    assert.deepEqual(json(o), { g: '[Getter]', s: '[Setter]', gs: '[Getter/Setter]', boom: '[Getter]' });
    assert.deepEqual(json([o]), [{ g: '[Getter]', s: '[Setter]', gs: '[Getter/Setter]', boom: '[Getter]' }]);
    const arr: unknown[] = [1];
    Object.defineProperty(arr, 1, { get: () => calls++, enumerable: true });
    assert.deepEqual(json(arr), [1, '[Getter]']);
    assert.equal(calls, 0);
  });
  it('never calls toJSON, even a throwing one', () => {
    let calls = 0;
    const o = {
      a: 1,
      toJSON() {
        calls++;
        throw new Error('toJSON ran');
      },
    };
    assert.deepEqual(json(o), { a: 1, toJSON: '[Function: toJSON]' });
    assert.deepEqual(json({ nested: o }), { nested: { a: 1, toJSON: '[Function: toJSON]' } });
    assert.equal(calls, 0);
  });
  it('does not run getters on error objects (message, stack, cause)', () => {
    let calls = 0;
    const e = new Error('real');
    // V8 formats `stack` lazily on first read, and the engine's formatter (Node's prepareStackTrace)
    // reads `message` itself; that is engine behaviour, not ours, so let it happen before the getters exist.
    void e.stack;
    Object.defineProperty(e, 'message', { get: () => (calls++, 'from getter') });
    Object.defineProperty(e, 'cause', { get: () => (calls++, new Error('c')) });
    assert.equal(text([{ e }]), '{"e":"Error"}');
    const t = serializeThrown(e);
    assert.equal(t.message, 'Error');
    assert.equal(calls, 0);
  });
});

describe('serializeConsoleArgs: hostile values', () => {
  it('renders a revoked Proxy as [Unserializable: …] at top level and nested', () => {
    const p = revokedProxy();
    assert.match(text([p]), /^\[Unserializable: .*revoked.*\]$/);
    const nested = json({ a: 1, p, b: [p] }) as Record<string, unknown>;
    assert.equal(nested.a, 1);
    assert.match(String(nested.p), /^\[Unserializable: .*revoked/);
    assert.match(String((nested.b as unknown[])[0]), /^\[Unserializable: /);
  });
  it('renders a Proxy whose ownKeys trap throws as [Unserializable: …]', () => {
    const p = new Proxy({ a: 1 }, {
      ownKeys() {
        throw new Error('ownKeys nope');
      },
    });
    assert.equal(text([p]), '[Unserializable: ownKeys nope]');
    assert.deepEqual(json({ ok: true, p }), { ok: true, p: '[Unserializable: ownKeys nope]' });
  });
  it('renders a Proxy whose descriptor lookup throws as [Unserializable: …]', () => {
    const p = new Proxy({ a: 1 }, {
      getOwnPropertyDescriptor() {
        throw new Error('gopd nope');
      },
    });
    assert.deepEqual(json({ p }), { p: '[Unserializable: gopd nope]' });
    const arr = new Proxy([1, 2], {
      getOwnPropertyDescriptor(target, key) {
        if (key === '1') throw new Error('item nope');
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
    });
    assert.deepEqual(json(arr), [1, '[Unserializable: item nope]']);
  });
  it('keeps the output balanced after a failure deep inside a container', () => {
    const p = throwingProxy();
    assert.deepEqual(json({ a: [1, { b: p }], c: 2 }), { a: [1, { b: '[Unserializable: trap says no]' }], c: 2 });
  });
  it('never throws, whatever the input', () => {
    const weird: unknown[] = [
      revokedProxy(), throwingProxy(), new Proxy(() => 1, { get() { throw new Error('x'); } }),
      { [Symbol.toStringTag]: 'X' }, Object.create(revokedProxy()), [revokedProxy()], new Map([[revokedProxy(), throwingProxy()]]),
    ];
    for (const w of weird) {
      assert.doesNotThrow(() => serializeConsoleArgs([w]));
      assert.doesNotThrow(() => serializeConsoleArgs(['%s %o %d %f', w, w, w, w]));
      assert.doesNotThrow(() => serializeThrown(w));
    }
    assert.doesNotThrow(() => serializeConsoleArgs(null as unknown as unknown[]));
  });
});

describe('serializeConsoleArgs: DOM values (with a minimal fake DOM)', () => {
  // Node has no DOM; install just enough for the `typeof Node !== 'undefined' && v instanceof Node` path.
  class FakeNode {
    nodeValue: string | null = null;
    parentElement: FakeNode | null = null;
    constructor(public nodeType: number, public nodeName: string, public attrs: Record<string, string> = {}) {}
    get localName() {
      return this.nodeType === 1 ? this.nodeName.toLowerCase() : null;
    }
    getAttribute(name: string) {
      return this.attrs[name] ?? null;
    }
  }
  function withDom<T>(fn: () => T): T {
    const g = globalThis as Record<string, unknown>;
    g.Node = FakeNode;
    g.Window = class FakeWindow {};
    try {
      return fn();
    } finally {
      delete g.Node;
      delete g.Window;
    }
  }
  function el(tag: string, attrs: Record<string, string>, parent: FakeNode | null): FakeNode {
    const n = new FakeNode(1, tag.toUpperCase(), attrs);
    n.parentElement = parent;
    return n;
  }
  it('renders an element as DevTools does: its interface and opening tag', () => {
    const html = el('html', {}, null);
    const body = el('body', {}, html);
    const app = el('div', { id: 'app' }, body);
    const span = el('span', { class: ' x  y ' }, app);
    const btn = el('button', { id: 'save', class: 'btn primary' }, span);
    withDom(() => {
      assert.equal(text([span]), 'FakeNode <span class="x y">');
      assert.equal(text([btn]), 'FakeNode <button id="save" class="btn primary">');
      assert.deepEqual(json({ target: app }), { target: 'FakeNode <div id="app">' });
    });
  });
  it('renders text nodes, documents and windows', () => {
    const t = new FakeNode(3, '#text');
    t.nodeValue = 'abc'.repeat(20);
    const doc = Object.assign(new FakeNode(9, '#document'), { URL: 'https://example.test/page' });
    withDom(() => {
      assert.equal(text([t]), '#text "' + 'abc'.repeat(20).slice(0, 40) + '…"');
      assert.equal(text([doc]), '#document https://example.test/page');
      const W = (globalThis as Record<string, unknown>).Window as new () => object;
      assert.deepEqual(json({ w: new W() }), { w: 'Window' });
    });
  });
});

describe('serializeConsoleArgs: length limit and bounded cost', () => {
  it('cuts the final text at maxLength with a marker and reports originalLength', () => {
    const out = serializeConsoleArgs(['x'.repeat(5000)]);
    assert.equal(out.text, 'x'.repeat(1000) + ' …[truncated, 5000 chars]');
    assert.equal(out.originalLength, 5000);
    const small = serializeConsoleArgs(['x'.repeat(1000)]);
    assert.equal(small.text.length, 1000);
    assert.equal(small.originalLength, undefined);
    assert.equal(text(['abcdef', 'ghi'], { maxLength: 4 }), 'abcd …[truncated, 10 chars]');
  });
  it('cuts object output too', () => {
    const out = serializeConsoleArgs([Array.from({ length: 40 }, () => 'w'.repeat(100))]);
    assert.ok(out.text.startsWith('["www'));
    assert.ok(out.text.length <= 1100);
    assert.ok((out.originalLength ?? 0) > 1000);
  });
  it('handles a 10 MB string quickly and without copying it', () => {
    const big = 's'.repeat(10 * 1024 * 1024);
    const { result, ms } = timed(() => serializeConsoleArgs([big]));
    assert.ok(result.text.length <= 1100, `length ${result.text.length}`);
    assert.equal(result.originalLength, big.length);
    assert.ok(ms < BOUNDED_MS, `took ${ms} ms`);
    const nested = timed(() => serializeConsoleArgs([{ a: big, b: [big], m: new Map([[big, big]]) }]));
    assert.ok(nested.result.text.length <= 1100);
    assert.ok(nested.ms < BOUNDED_MS, `took ${nested.ms} ms`);
    const fmt = big + ' %s';
    const formatted = timed(() => serializeConsoleArgs([fmt, 'arg']));
    assert.ok(formatted.result.text.length <= 1100);
    assert.ok(formatted.ms < BOUNDED_MS, `took ${formatted.ms} ms`);
  });
  it('handles an array of 1e6 numbers quickly', () => {
    const arr = Array.from({ length: 1e6 }, (_, i) => i);
    const { result, ms } = timed(() => serializeConsoleArgs([arr]));
    assert.ok(result.text.length <= 1100);
    assert.ok(result.text.endsWith(',"… 999950 more items"]'));
    assert.ok(ms < BOUNDED_MS, `took ${ms} ms`);
  });
  it('handles a Map, Set and typed array with millions of entries quickly', () => {
    const map = new Map<number, number>();
    const set = new Set<number>();
    for (let i = 0; i < 1e6; i++) {
      map.set(i, i);
      set.add(i);
    }
    const u8 = new Uint8Array(1e7);
    const { result, ms } = timed(() => serializeConsoleArgs([map, set, u8]));
    assert.ok(result.text.length <= 1100);
    assert.ok(result.text.startsWith('{"Map(1000000)":[[0,0],[1,1]'));
    assert.ok(ms < BOUNDED_MS, `took ${ms} ms`);
  });
  it('stops early on wide and deep input', () => {
    const wide = Array.from({ length: 50 }, () =>
      Object.fromEntries(Array.from({ length: 50 }, (_, i) => ['k' + i, Array.from({ length: 50 }, () => ({ x: 'y'.repeat(500) }))])),
    );
    const { result, ms } = timed(() => serializeConsoleArgs([wide]));
    assert.ok(result.text.length <= 1100);
    assert.ok(ms < BOUNDED_MS, `took ${ms} ms`);
    const many = Array.from({ length: 100000 }, (_, i) => ({ i }));
    const spread = timed(() => serializeConsoleArgs(many));
    assert.ok(spread.result.text.length <= 1100);
    assert.ok(spread.ms < BOUNDED_MS, `took ${spread.ms} ms`);
  });
});

describe('serializeThrown', () => {
  it('describes an Error with name, message and stack', () => {
    const e = new TypeError('x is not a function');
    const t = serializeThrown(e);
    assert.equal(t.message, 'TypeError: x is not a function');
    assert.equal(t.name, 'TypeError');
    assert.equal(t.nonError, false);
    assert.equal(t.stack, e.stack);
  });
  it('uses just the name for an empty message and honours custom names', () => {
    assert.equal(serializeThrown(new Error('')).message, 'Error');
    class MyError extends Error {
      override name = 'MyError';
    }
    const t = serializeThrown(new MyError('custom'));
    assert.equal(t.message, 'MyError: custom');
    assert.equal(t.name, 'MyError');
  });
  it('has no stack when the error has none and no cause', () => {
    const e = new Error('no stack');
    (e as { stack?: string | undefined }).stack = undefined;
    const t = serializeThrown(e);
    assert.equal(t.stack, undefined);
    assert.equal('stack' in t, false);
  });
  it('treats error-like objects as errors', () => {
    assert.deepEqual(serializeThrown({ name: 'HttpError', message: '404' }), { message: 'HttpError: 404', name: 'HttpError', nonError: false });
    const withStack = serializeThrown({ message: 'm', stack: 'Error: m\n    at x' });
    assert.equal(withStack.message, 'Error: m');
    assert.equal(withStack.stack, 'Error: m\n    at x');
  });
  it('appends the cause chain', () => {
    const root = new RangeError('root');
    const mid = new TypeError('mid', { cause: root });
    const top = new Error('top', { cause: mid });
    const t = serializeThrown(top);
    const lines = (t.stack ?? '').split('\n');
    const caused = lines.filter((l) => l.startsWith('Caused by: '));
    assert.deepEqual(caused, ['Caused by: TypeError: mid', 'Caused by: RangeError: root']);
    assert.ok(t.stack?.startsWith(top.stack ?? '∅'));
  });
  it('serializes non-Error causes like console arguments', () => {
    assert.match(serializeThrown(new Error('a', { cause: 'plain string' })).stack ?? '', /\nCaused by: plain string$/);
    assert.match(serializeThrown(new Error('a', { cause: { code: 7 } })).stack ?? '', /\nCaused by: \{"code":7\}$/);
    assert.match(serializeThrown(new Error('a', { cause: undefined })).stack ?? '', /\nCaused by: undefined$/);
  });
  it('uses the headline when there is no stack but there is a cause', () => {
    const e = new Error('outer', { cause: 'why' });
    (e as { stack?: string | undefined }).stack = undefined;
    assert.equal(serializeThrown(e).stack, 'Error: outer\nCaused by: why');
  });
  it('limits the cause chain to depth 5 and survives cycles', () => {
    let e = new Error('e0');
    for (let i = 1; i <= 8; i++) e = new Error('e' + i, { cause: e });
    const caused = (serializeThrown(e).stack ?? '').split('\n').filter((l) => l.startsWith('Caused by: '));
    assert.deepEqual(caused, ['Caused by: Error: e7', 'Caused by: Error: e6', 'Caused by: Error: e5', 'Caused by: Error: e4', 'Caused by: Error: e3']);
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    const cyc = (serializeThrown(a).stack ?? '').split('\n').filter((l) => l.startsWith('Caused by: '));
    assert.deepEqual(cyc, ['Caused by: Error: b', 'Caused by: [Circular]']);
  });
  it('lists the inner errors of an AggregateError (at most 10)', () => {
    const agg = new AggregateError([new Error('first'), new TypeError('second'), 'third', { n: 4 }], 'many failed');
    const t = serializeThrown(agg);
    assert.equal(t.message, 'AggregateError: many failed');
    assert.equal(t.name, 'AggregateError');
    const inner = (t.stack ?? '').split('\n').filter((l) => l.startsWith('  ['));
    assert.deepEqual(inner, ['  [0] Error: first', '  [1] TypeError: second', '  [2] third', '  [3] {"n":4}']);
    const big = serializeThrown(new AggregateError(Array.from({ length: 15 }, (_, i) => new Error('e' + i))));
    const lines = (big.stack ?? '').split('\n');
    assert.equal(lines.filter((l) => l.startsWith('  [')).length, 10);
    assert.ok(lines.includes('  … 5 more'));
    assert.equal(big.message, 'AggregateError');
  });
  it('cuts a huge stack to 20000 chars with the marker', () => {
    const e = new Error('long');
    e.stack = 'Error: long\n' + '    at f (x.js:1:1)\n'.repeat(5000);
    const t = serializeThrown(e);
    assert.equal(t.stack?.slice(0, 20000), e.stack.slice(0, 20000));
    assert.equal(t.stack?.slice(20000), ` …[truncated, ${e.stack.length} chars]`);
  });
  it('bounds a 10 MB error message', () => {
    const error = new Error('m'.repeat(10 * 1024 * 1024));
    void error.stack;
    const { result, ms } = timed(() => serializeThrown(error));
    assert.ok(result.message.length <= 1100);
    assert.ok((result.stack ?? '').length <= 20100);
    assert.ok(ms < BOUNDED_MS, `took ${ms} ms`);
  });
  it('renders non-Error throws of every type readably', () => {
    const cases: [unknown, string][] = [
      ['x', 'x'],
      [42, '42'],
      [-0, '-0'],
      [NaN, 'NaN'],
      [undefined, 'undefined'],
      [null, 'null'],
      [true, 'true'],
      [{ code: 1 }, '{"code":1}'],
      [[1, 'a'], '[1,"a"]'],
      [Symbol('s'), 'Symbol(s)'],
      [10n, '10n'],
      [function thrower() {}, '[Function: thrower]'],
      [() => 0, '[Function (anonymous)]'],
      [new Date(0), '1970-01-01T00:00:00.000Z'],
    ];
    for (const [value, message] of cases) {
      assert.deepEqual(serializeThrown(value), { message, nonError: true }, `for ${message}`);
    }
  });
  it('bounds non-Error throws like console arguments', () => {
    const t = serializeThrown('z'.repeat(10 * 1024 * 1024));
    assert.ok(t.message.length <= 1100);
    assert.match(t.message, / …\[truncated, 10485760 chars\]$/);
  });
  it('renders a thrown value like a single console argument', () => {
    const corpus: unknown[] = ['%s text', 1, -0, null, undefined, 5n, Symbol('q'), { a: [1, { b: 2 }] }, [1, 2], new Map([[1, 2]]), new Set([3]), new Date(1), /r/g, new Uint8Array(2), () => 1];
    for (const v of corpus) assert.equal(serializeThrown(v).message, serializeConsoleArgs([v]).text);
  });
  it('returns [Unserializable thrown value] for values whose inspection throws', () => {
    for (const p of [revokedProxy(), throwingProxy(), new Proxy({}, { ownKeys() { throw new Error('no'); } })]) {
      assert.deepEqual(serializeThrown(p), { message: '[Unserializable thrown value]', nonError: true });
    }
  });
  it('survives hostile causes and inner errors', () => {
    const e = new Error('outer', { cause: revokedProxy() });
    assert.match(serializeThrown(e).stack ?? '', /\nCaused by: \[Unserializable thrown value\]$/);
    const agg = new AggregateError([throwingProxy(), new Error('ok')], 'agg');
    const inner = (serializeThrown(agg).stack ?? '').split('\n').filter((l) => l.startsWith('  ['));
    assert.deepEqual(inner, ['  [0] [Unserializable thrown value]', '  [1] Error: ok']);
  });
});

describe('the shipped source: SERIALIZER_SOURCE, bundled from src/capture/in-page/ by scripts/build-in-page.ts', () => {
  // Each test evaluates the string in a fresh V8 context that has nothing but the language built-ins (no
  // module scope, no `exports`, no `require`, no Node or DOM globals), much like a worker receiving it.
  function inEmptyRealm(script: string): unknown {
    return JSON.parse(vm.runInContext(`const serialize = (${SERIALIZER_SOURCE});\n${script}`, vm.createContext({})) as string);
  }

  it('is the text of the current in-page modules (the generated file is not stale)', async () => {
    const source = await bundleSerializer();
    assert.equal(SERIALIZER_SOURCE, source);
    assert.equal(fs.readFileSync(OUT_FILE, 'utf8'), moduleText(source));
  });

  it('is one function expression that imports, exports and requires nothing', () => {
    assert.equal(serializerFunctionSource(), SERIALIZER_SOURCE);
    assert.match(SERIALIZER_SOURCE, /^function daebugSerialize\(kind, input, limits\) \{"use strict";/);
    assert.match(SERIALIZER_SOURCE, /\}$/);
    assert.doesNotMatch(SERIALIZER_SOURCE, /\brequire\s*\(|\bexports\b|\bmodule\.|\bimport\b|\bexport\b|__name\(/);
    const fn = (0, eval)('(' + SERIALIZER_SOURCE + ')') as unknown;
    assert.equal(typeof fn, 'function');
    assert.equal((fn as (...a: unknown[]) => unknown).length, 3);
  });

  it('serializeInRealm (compatibility) is that function evaluated, so its toString() is the shipped text', () => {
    assert.equal(serializeInRealm.toString(), SERIALIZER_SOURCE);
    const c: Record<string, unknown> = { a: 1 };
    c.self = c;
    assert.deepEqual(serializeInRealm('console', ['%s:', 'x', c]), serializeConsoleArgs(['%s:', 'x', c]));
    const e = new Error('outer', { cause: new TypeError('inner') });
    assert.deepEqual(serializeInRealm('thrown', e, { maxLength: 100 }), serializeThrown(e, { maxLength: 100 }));
  });

  it('serializes a circular object, an Error with a cause, a Map and a huge string in an empty realm', () => {
    const got = inEmptyRealm(`
      const circular = { name: 'a' }; circular.self = circular; circular.list = [circular, { back: circular }];
      const error = new Error('outer', { cause: new TypeError('inner', { cause: 'root' }) });
      const map = new Map([[{ id: 1 }, 'object key'], ['k', new Set([1, 'two'])]]);
      const huge = 'h'.repeat(10 * 1024 * 1024);
      JSON.stringify({
        circular: serialize('console', ['c', circular]),
        thrown: serialize('thrown', error),
        logged: serialize('console', [error]),
        map: serialize('console', [map], { maxDepth: 3, maxBreadth: 50, maxLength: 1000 }),
        huge: serialize('console', [huge]),
        hugeThrown: serialize('thrown', huge, { maxLength: 10 }),
      });`) as Record<string, { text?: string; message?: string; stack?: string }>;
    assert.deepEqual(got.circular, { text: 'c {"name":"a","self":"[Circular]","list":["[Circular]",{"back":"[Circular]"}]}', structured: true });
    assert.equal(got.thrown?.message, 'Error: outer');
    assert.equal((got.thrown as { name?: string }).name, 'Error');
    assert.match(got.thrown?.stack ?? '', /^Error: outer\n {4}at [^]*\nCaused by: TypeError: inner\n {4}at [^]*\nCaused by: root$/);
    assert.deepEqual(got.logged, { text: 'Error: outer', structured: true });
    assert.deepEqual(got.map, { text: '{"Map(2)":[[{"id":1},"object key"],["k",{"Set(2)":[1,"two"]}]]}', structured: true });
    assert.deepEqual(got.huge, { text: 'h'.repeat(1000) + ' …[truncated, 10485760 chars]', structured: false, originalLength: 10485760 });
    assert.deepEqual(got.hugeThrown, { message: 'hhhhhhhhhh …[truncated, 10485760 chars]', nonError: true });
  });

  it('gives the same results in an empty realm as the modules give in Node', () => {
    const script = `
      const f = (args) => serialize('console', args);
      const c = { a: 1 }; c.self = c;
      JSON.stringify([
        f(['%s=%d %o %c%%', 'n', '42px', { a: [1, 2] }, 'color:red']),
        f([c, new Map([['k', new Set([1])]]), new Date(0), /x/g, new Uint8Array(3), new Error('e')]),
        f([{ a: { b: { c: { d: 1 } } } }, 1n, Symbol('s'), -0, NaN, undefined]),
        f(['x'.repeat(5000)]),
        f([Proxy.revocable({}, {}).proxy]),
        serialize('thrown', { code: 1 }),
        serialize('thrown', new AggregateError([new Error('a'), 'b'], 'agg')).stack.split('\\n').filter((l) => l.startsWith('  [')),
      ]);`;
    const c: Record<string, unknown> = { a: 1 };
    c.self = c;
    const here = [
      serializeConsoleArgs(['%s=%d %o %c%%', 'n', '42px', { a: [1, 2] }, 'color:red']),
      serializeConsoleArgs([c, new Map([['k', new Set([1])]]), new Date(0), /x/g, new Uint8Array(3), new Error('e')]),
      serializeConsoleArgs([{ a: { b: { c: { d: 1 } } } }, 1n, Symbol('s'), -0, NaN, undefined]),
      serializeConsoleArgs(['x'.repeat(5000)]),
      serializeConsoleArgs([Proxy.revocable({}, {}).proxy]),
      serializeThrown({ code: 1 }),
      (serializeThrown(new AggregateError([new Error('a'), 'b'], 'agg')).stack ?? '').split('\n').filter((l) => l.startsWith('  [')),
    ];
    assert.deepEqual(inEmptyRealm(script), JSON.parse(JSON.stringify(here)));
  });

  it('works in the wrapper shapes src/capture sends through Runtime.callFunctionOn', () => {
    const ctx = vm.createContext({});
    const script = `
      const thrown = function (limits) { return (${SERIALIZER_SOURCE})('thrown', this, limits); };
      const logged = function (limits, ...args) { return (${SERIALIZER_SOURCE})('console', args, limits); };
      const e = new TypeError('inner');
      JSON.stringify([
        thrown.call(new Error('outer', { cause: e }), { maxLength: 100 }).message,
        /Caused by: TypeError: inner/.test(thrown.call(new Error('outer', { cause: e })).stack),
        thrown.call(new AggregateError([e], 'agg')).stack.split('\\n').filter((l) => l.startsWith('  [')),
        thrown.call({ code: 1 }),
        logged({ maxDepth: 1, maxBreadth: 2, maxLength: 1000 }, 'v:', { a: { b: 1 } }, [1, 2, 3]),
      ]);`;
    assert.deepEqual(JSON.parse(vm.runInContext(script, ctx) as string), [
      'Error: outer',
      true,
      ['  [0] TypeError: inner'],
      { message: '{"code":1}', nonError: true },
      { text: 'v: {"a":"[Object]"} [1,2,"… 1 more items"]', structured: true },
    ]);
  });

  it('never throws in an empty realm, whatever it is given', () => {
    const got = inEmptyRealm(`
      const { proxy, revoke } = Proxy.revocable({}, {}); revoke();
      JSON.stringify([
        serialize('console', null), serialize('console', proxy), serialize('thrown', proxy),
        serialize('console', ['x'], 'not limits'), serialize('console', ['x'], { maxLength: -1 }),
      ]);`);
    assert.deepEqual(got, [
      { text: 'null', structured: false },
      { text: '[Unserializable console arguments]', structured: false },
      { message: '[Unserializable thrown value]', nonError: true },
      { text: 'x', structured: false },
      { text: 'x', structured: false },
    ]);
  });
});
