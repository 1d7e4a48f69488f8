/**
 * Unit tests on the in-page modules themselves (src/capture/in-page/), imported as TypeScript in Node.
 * Host objects (DOM nodes, windows, worker scopes, platform objects) are Node-side fakes; "native"
 * functions are bound functions, whose source text is `function () { [native code] }` like the browser's.
 * The behaviour of the whole serializer is tested in serialize.test.ts, and the bundled string there too.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { builtinLabel, regexpLabel, viewLabel } from '../../src/capture/in-page/builtins';
import { serializeConsoleCall, isStructured } from '../../src/capture/in-page/console';
import { arrayOut, mapOut, objectOut, setOut, type Walk } from '../../src/capture/in-page/containers';
import { createAncestors } from '../../src/capture/in-page/cycles';
import { causeParts, errorPart, memberParts, PART_STACK_MAX } from '../../src/capture/in-page/error-parts';
import { errorHeadline, errorName, isErrorLike } from '../../src/capture/in-page/errors';
import { applyFormat, directive } from '../../src/capture/in-page/format';
import { brandOf, domLabel, globalScopeLabel, openingTag, hostLabel, platformObjectLabel } from '../../src/capture/in-page/host';
import { leafLabel } from '../../src/capture/in-page/leaf';
import { cut, defaultSerializeLimits, resolveLimits, truncatedMarker } from '../../src/capture/in-page/limits';
import { createOutput } from '../../src/capture/in-page/output';
import { accessorLabel, fnLabel, numJson, prim, quote } from '../../src/capture/in-page/primitives';
import { field, fieldValue, isNativeFunction, isNativeGetter, isObj, isPlainObject } from '../../src/capture/in-page/reflect';
import { createRenderer } from '../../src/capture/in-page/render';
import { serialize } from '../../src/capture/in-page/serialize';
import { causeChain, innerErrors, serializeThrownValue, STACK_MAX } from '../../src/capture/in-page/thrown';
import { reason, unserializable } from '../../src/capture/in-page/unserializable';

const IN_PAGE = path.join(__dirname, '..', '..', 'src', 'capture', 'in-page');
const LIM = resolveLimits();

// ----- fakes -----

/** A function whose source text is `function () { [native code] }`, named like a platform function. */
function native<T extends (...args: never[]) => unknown>(name: string, fn: T): T {
  const bound = fn.bind(null) as T;
  Object.defineProperty(bound, 'name', { value: name });
  return bound;
}
/** A native-looking getter that always returns `value` (bound functions ignore `this`). */
function nativeGetter(key: string, value: () => unknown): () => unknown {
  return native('get ' + key, value);
}
/** A platform-object prototype: native constructor and a `Symbol.toStringTag` data property. */
function platformProto(brand: string, parent: object = Object.prototype): object {
  return Object.create(parent, {
    constructor: { value: native(brand, () => undefined), writable: true, configurable: true },
    [Symbol.toStringTag]: { value: brand, configurable: true },
  });
}
/** Like `location`: own enumerable native accessors and native methods only. */
function fakeLocation(): object {
  return Object.create(platformProto('Location'), {
    href: { get: nativeGetter('href', () => 'https://example.test/'), set: native('set href', () => undefined), enumerable: true },
    origin: { get: nativeGetter('origin', () => 'https://example.test'), enumerable: true },
    assign: { value: native('assign', () => undefined), enumerable: true },
  });
}
/** Like a worker's global scope: an own native `self` getter returning the scope, and page globals. */
function fakeWorkerScope(): object {
  const scope = Object.create(platformProto('DedicatedWorkerGlobalScope', platformProto('WorkerGlobalScope'))) as Record<string, unknown>;
  Object.defineProperty(scope, 'self', { get: nativeGetter('self', () => scope), enumerable: true, configurable: true });
  scope.pageGlobal = 1;
  return scope;
}

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
function withGlobals<T>(globals: Record<string, unknown>, fn: () => T): T {
  const g = globalThis as Record<string, unknown>;
  Object.assign(g, globals);
  try {
    return fn();
  } finally {
    for (const k of Object.keys(globals)) delete g[k];
  }
}
function el(tag: string, attrs: Record<string, string>, parent: FakeNode | null): FakeNode {
  const n = new FakeNode(1, tag.toUpperCase(), attrs);
  n.parentElement = parent;
  return n;
}
function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

// ----- the folder's boundary -----

describe('in-page modules: imports', () => {
  it('import only each other: nothing from Node, npm or the rest of src/', () => {
    const files = fs.readdirSync(IN_PAGE).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length >= 10, files.join(', '));
    for (const file of files) {
      const text = fs.readFileSync(path.join(IN_PAGE, file), 'utf8');
      const specifiers = [...text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'|\brequire\s*\(\s*'([^']+)'/g)].map((m) => m[1] ?? m[2] ?? m[3]);
      for (const s of specifiers) {
        assert.match(s ?? '', /^\.\/[\w-]+$/, `${file} imports ${s}`);
        assert.ok(fs.existsSync(path.join(IN_PAGE, `${s}.ts`)), `${file} imports ${s}, which is not in the folder`);
      }
      assert.doesNotMatch(text, /\brequire\s*\(|\bimport\s*\(/, `${file} loads modules dynamically`);
    }
  });
  it('feature-detect host globals: no bare reference to document, window, self or navigator', () => {
    for (const file of fs.readdirSync(IN_PAGE).filter((f) => f.endsWith('.ts'))) {
      const code = fs.readFileSync(path.join(IN_PAGE, file), 'utf8').replace(/\/\*[^]*?\*\/|\/\/.*$/gm, '').replace(/'[^'\n]*'/g, "''");
      assert.doesNotMatch(code, /(?<![.\w'])(document|window|self|navigator|location|globalThis)\b(?!\s*:)/, file);
    }
  });
});

// ----- limits, output, primitives -----

describe('limits.ts', () => {
  it('fills in defaults for missing, negative and non-numeric limits and floors the rest', () => {
    assert.deepEqual(resolveLimits(), { ...defaultSerializeLimits, budget: 2064 });
    assert.deepEqual(resolveLimits(null), resolveLimits({}));
    assert.deepEqual(resolveLimits({ maxDepth: -1, maxBreadth: '5' as unknown as number, maxLength: 10.9 }), { maxDepth: 3, maxBreadth: 50, maxLength: 10, budget: 84 });
    assert.deepEqual(resolveLimits({ maxDepth: 0, maxBreadth: 0, maxLength: 0 }), { maxDepth: 0, maxBreadth: 0, maxLength: 0, budget: 64 });
  });
  it('cuts text with the marker naming the original length', () => {
    assert.equal(cut('abcdef', 6), 'abcdef');
    assert.equal(cut('abcdef', 2), 'ab …[truncated, 6 chars]');
    assert.equal(truncatedMarker(7), ' …[truncated, 7 chars]');
  });
});

describe('output.ts', () => {
  it('collects pieces and reports exhaustion past the budget', () => {
    const out = createOutput(5, 100);
    out.put('abc');
    assert.equal(out.exhausted(), false);
    out.put('def');
    assert.equal(out.exhausted(), true);
    assert.deepEqual(out.finish(), { text: 'abcdef', total: 6, cut: false });
  });
  it('putRaw copies only what the budget allows and counts the rest', () => {
    const out = createOutput(10, 4);
    out.putRaw('x'.repeat(1_000_000));
    assert.equal(out.exhausted(), true);
    assert.deepEqual(out.finish(), { text: 'xxxx …[truncated, 1000000 chars]', total: 1_000_000, cut: true });
  });
  it('rolls back to a mark; counted extra chars stay counted; reset clears everything', () => {
    const out = createOutput(100, 100);
    out.put('keep');
    const m = out.mark();
    out.put('drop');
    out.addExtra(3);
    out.rollback(m);
    assert.deepEqual(out.finish(), { text: 'keep', total: 7, cut: false });
    out.reset();
    assert.deepEqual(out.finish(), { text: '', total: 0, cut: false });
  });
});

describe('primitives.ts', () => {
  it('renders primitives for top-level text and numbers for JSON', () => {
    assert.deepEqual([1.5, -0, 0, 5n, Symbol('s'), 'str', undefined, null, true].map((v) => prim(v, 1000)), ['1.5', '-0', '0', '5n', 'Symbol(s)', 'str', 'undefined', 'null', 'true']);
    assert.equal(prim(Symbol('x'.repeat(20)), 5), 'Symbo …[truncated, 28 chars]');
    assert.deepEqual([NaN, Infinity, -Infinity, -0, 0, 2.5].map(numJson), ['"NaN"', '"Infinity"', '"-Infinity"', '"-0"', '0', '2.5']);
    assert.equal(quote('a"b\n'), '"a\\"b\\n"');
  });
  it('labels functions by their own name data property only', () => {
    function named() {}
    assert.equal(fnLabel(named), '[Function: named]');
    assert.equal(fnLabel(Object.defineProperty(() => 1, 'name', { value: '' })), '[Function (anonymous)]');
    assert.equal(fnLabel(Object.defineProperty(() => 1, 'name', { get: () => 'ran' })), '[Function (anonymous)]');
    assert.equal(fnLabel(new Proxy(() => 1, { getOwnPropertyDescriptor() { throw new Error('no'); } })), '[Function (anonymous)]');
    assert.equal(fnLabel(Object.defineProperty(() => 1, 'name', { value: 'n'.repeat(150) })), `[Function: ${'n'.repeat(100)} …[truncated, 150 chars]]`);
  });
  it('labels accessors', () => {
    const f = () => 1;
    assert.deepEqual([{ get: f }, { set: f }, { get: f, set: f }].map(accessorLabel), ['[Getter]', '[Setter]', '[Getter/Setter]']);
  });
});

// ----- reading without running page code -----

describe('reflect.ts', () => {
  it('tells native functions and native getters from page code', () => {
    assert.equal(isNativeFunction(Math.max), true);
    assert.equal(isNativeFunction(() => 1), false);
    assert.equal(isNativeFunction('function () { [native code] }'), false);
    const sizeGetter = Object.getOwnPropertyDescriptor(Map.prototype, 'size')?.get;
    assert.equal(isNativeGetter(sizeGetter), true);
    assert.equal(isNativeGetter(Math.max), false, 'native, but not named "get …"');
    assert.equal(isNativeGetter(native('', () => 's')), true, "Chromium's own Error stack accessor has an empty name");
    assert.equal(isNativeGetter(Object.getOwnPropertyDescriptor({ get x() { return 1; } }, 'x')?.get), false);
  });
  it('finds data properties along the chain and runs native getters only', () => {
    let ran = 0;
    const proto = { inherited: 'p', get user() { ran++; return 'u'; } };
    const o = Object.create(proto, { own: { value: 'o', enumerable: true } }) as object;
    assert.deepEqual(field(o, 'own'), { v: 'o' });
    assert.equal(fieldValue(o, 'inherited'), 'p');
    assert.equal(field(o, 'user'), undefined);
    assert.equal(field(o, 'missing'), undefined);
    assert.equal(ran, 0);
    assert.equal(fieldValue(new Map([[1, 2]]), 'size'), 1);
  });
  it('knows objects and plain objects', () => {
    assert.deepEqual([null, 1, 'x', {}, () => 1].map(isObj), [false, false, false, true, true]);
    assert.equal(isPlainObject({}), true);
    assert.equal(isPlainObject(Object.create(null)), true);
    assert.equal(isPlainObject(new (class X {})()), false);
  });
});

describe('unserializable.ts', () => {
  it('names the reason from an own message data property, never a getter', () => {
    assert.equal(reason(new Error('trap says no')), 'trap says no');
    assert.equal(reason(Object.defineProperty({}, 'message', { get: () => 'ran' })), 'exception');
    assert.equal(reason('thrown string'), 'thrown string');
    assert.equal(reason('r'.repeat(300)), 'r'.repeat(200) + ' …[truncated, 300 chars]');
    assert.equal(reason(revokedProxy()), 'exception');
    assert.equal(unserializable('why'), '[Unserializable: why]');
  });
});

describe('cycles.ts', () => {
  it('tracks the containers being rendered and restores depth', () => {
    const a = createAncestors();
    const x = {};
    const y = {};
    a.push(x);
    const depth = a.size();
    a.push(y);
    assert.equal(a.has(y), true);
    a.restore(depth);
    assert.equal(a.has(y), false);
    assert.equal(a.has(x), true);
  });
});

// ----- labels -----

describe('builtins.ts', () => {
  it('labels typed arrays, DataView, buffers, dates, regexps, promises, weak collections and boxed primitives', () => {
    assert.equal(viewLabel(new Int8Array([1, -2]), LIM), 'Int8Array(2) [1,-2]');
    assert.equal(viewLabel(new Uint8Array(5), resolveLimits({ maxBreadth: 0 })), 'Uint8Array(5) […]');
    assert.equal(viewLabel(new DataView(new ArrayBuffer(3)), LIM), 'DataView(3)');
    assert.equal(regexpLabel(/a\/b/dgimsuy, 1000), '/a\\/b/dgimsuy');
    assert.equal(regexpLabel(/xyz/, 1), '/x …[truncated, 3 chars]/');
    const labels = [new Date(0), new Date(NaN), Promise.resolve(), new WeakMap(), new WeakSet(), new WeakRef({}), new ArrayBuffer(2), new SharedArrayBuffer(4), Object(1), Object('s'), Object(false), Object(3n), Object(Symbol('y'))].map((o) => builtinLabel(o, LIM));
    assert.deepEqual(labels, ['1970-01-01T00:00:00.000Z', 'Invalid Date', '[Promise]', '[WeakMap]', '[WeakSet]', '[WeakRef]', 'ArrayBuffer(2)', 'SharedArrayBuffer(4)', '[Number: 1]', '[String: "s"]', '[Boolean: false]', '[BigInt: 3n]', '[Symbol: Symbol(y)]']);
  });
  it('reads through the built-in prototypes, not the object', () => {
    const d = new Date(0);
    Object.defineProperty(d, 'toISOString', { value: () => 'page code ran' });
    assert.equal(builtinLabel(d, LIM), '1970-01-01T00:00:00.000Z');
  });
  it('returns null for containers and other objects', () => {
    for (const o of [{}, [], new Map(), new Set(), new Error('e'), new (class X {})()]) assert.equal(builtinLabel(o, LIM), null);
  });
});

describe('host.ts', () => {
  it('returns null without a DOM (as in a worker) for anything but global scopes and platform objects', () => {
    assert.equal(typeof (globalThis as Record<string, unknown>).Node, 'undefined');
    assert.equal(domLabel(new FakeNode(1, 'DIV')), null);
    assert.equal(hostLabel({ nodeType: 1 }), null);
  });
  it('renders elements as DevTools does (interface and opening tag), text nodes, documents and other nodes', () => {
    const html = el('html', {}, null);
    const body = el('body', {}, html);
    const app = el('div', { id: 'app' }, body);
    const span = el('span', { class: ' x  y ' }, app);
    const btn = el('button', { id: 'save', class: 'btn primary big extra' }, span);
    const text = Object.assign(new FakeNode(3, '#text'), { nodeValue: 'abc'.repeat(20) });
    const doc = Object.assign(new FakeNode(9, '#document'), { URL: 'https://example.test/page' });
    assert.equal(openingTag(btn as unknown as Element), '<button id="save" class="btn primary big extra">');
    withGlobals({ Node: FakeNode }, () => {
      assert.equal(domLabel(span), 'FakeNode <span class="x y">');
      assert.equal(domLabel(btn), 'FakeNode <button id="save" class="btn primary big extra">');
      assert.equal(domLabel(el('input', { id: 'a"b' }, null)), 'FakeNode <input id="a&quot;b">');
      assert.equal(domLabel(text), '#text "' + 'abc'.repeat(20).slice(0, 40) + '…"');
      assert.equal(domLabel(doc), '#document https://example.test/page');
      assert.equal(domLabel(new FakeNode(8, '#comment')), '#comment');
      assert.equal(domLabel({}), null);
    });
  });
  it("labels this realm's window, a worker's global scope and another frame's window, never enumerating them", () => {
    class FakeWindow {}
    withGlobals({ Window: FakeWindow }, () => assert.equal(globalScopeLabel(new FakeWindow()), 'Window'));
    const scope = fakeWorkerScope();
    assert.equal(globalScopeLabel(scope), 'DedicatedWorkerGlobalScope');
    assert.equal(hostLabel(scope), 'DedicatedWorkerGlobalScope');
    assert.equal(serializeConsoleCall(['self', scope]).text, 'self DedicatedWorkerGlobalScope');
    assert.equal(serializeConsoleCall([{ scope }]).text, '{"scope":"DedicatedWorkerGlobalScope"}');
  });
  it('does not take page objects with a `self` for global scopes', () => {
    class Holder {
      self: unknown = this;
    }
    let ran = 0;
    const withGetter = Object.create({}, { self: { get: () => (ran++, withGetter), enumerable: true } }) as object;
    const otherSelf = Object.create({}, { self: { get: nativeGetter('self', () => ({})), enumerable: true } }) as object;
    assert.equal(globalScopeLabel(new Holder()), null);
    assert.equal(globalScopeLabel(withGetter), null);
    assert.equal(globalScopeLabel(otherSelf), null);
    assert.equal(ran, 0);
  });
  it('labels platform objects made only of native accessors and methods by their interface name', () => {
    const loc = fakeLocation();
    assert.equal(brandOf(loc), 'Location');
    assert.equal(platformObjectLabel(loc), 'Location');
    assert.equal(serializeConsoleCall(['at', loc, { loc }]).text, 'at Location {"loc":"Location"}');
    const event = Object.create(platformProto('PointerEvent', platformProto('Event')), {
      isTrusted: { get: nativeGetter('isTrusted', () => true), enumerable: true },
    }) as object;
    assert.equal(platformObjectLabel(event), 'PointerEvent');
    const untagged = Object.create(Object.create(Object.prototype, { constructor: { value: native('DOMRect', () => undefined) } }), {
      x: { get: nativeGetter('x', () => 0), enumerable: true },
    }) as object;
    assert.equal(brandOf(untagged), 'DOMRect');
  });
  it('leaves page data, page classes and empty objects to be rendered as objects', () => {
    const withData = Object.assign(fakeLocation(), { mine: 1 });
    class PageClass {
      constructor() {
        Object.defineProperty(this, 'g', { get: nativeGetter('g', () => 1), enumerable: true });
      }
    }
    const onlyMethods = Object.create(platformProto('Thing'), { m: { value: Math.max, enumerable: true } }) as object;
    for (const o of [withData, new PageClass(), Object.create(platformProto('Empty')), onlyMethods, new Map(), {}]) {
      assert.equal(platformObjectLabel(o), null);
    }
    assert.equal(serializeConsoleCall([withData]).text, '{"href":"[Getter/Setter]","origin":"[Getter]","assign":"[Function: assign]","mine":1}');
  });
});

describe('errors.ts', () => {
  it('detects Errors and error-like objects', () => {
    assert.equal(isErrorLike(new TypeError('t')), true);
    assert.equal(isErrorLike({ name: 'HttpError', message: '404' }), true);
    assert.equal(isErrorLike({ message: 'm', stack: 's' }), true);
    assert.equal(isErrorLike({ message: 'only a message' }), false);
    assert.equal(isErrorLike({ name: 'n', message: 1 }), false);
  });
  it('names and headlines them without running getters', () => {
    let ran = 0;
    const e = Object.defineProperty(new RangeError('r'), 'name', { get: () => (ran++, 'Page') });
    assert.equal(errorName(e), 'Error');
    assert.equal(errorHeadline(e, 1000), 'Error: r');
    assert.equal(ran, 0);
    assert.equal(errorHeadline(new Error(''), 1000), 'Error');
    assert.equal(errorHeadline({ name: '', message: 'm', stack: '' }, 1000), 'Error: m');
    assert.equal(errorHeadline(new Error('abcdef'), 3), 'Error: abc …[truncated, 6 chars]');
    assert.equal(errorName({ name: 'n'.repeat(250), message: '' }), 'n'.repeat(200) + ' …[truncated, 250 chars]');
  });
});

describe('leaf.ts', () => {
  it('labels built-ins, host objects, error-likes and platform objects; null for containers', () => {
    assert.equal(leafLabel(new Date(0), LIM), '1970-01-01T00:00:00.000Z');
    assert.equal(leafLabel(fakeWorkerScope(), LIM), 'DedicatedWorkerGlobalScope');
    assert.equal(leafLabel(new TypeError('bad'), LIM), 'TypeError: bad');
    assert.equal(leafLabel(fakeLocation(), LIM), 'Location');
    for (const o of [new Map(), new Set(), new (class X { a = 1; })()]) assert.equal(leafLabel(o, LIM), null);
  });
  it('prefers the error headline for a platform object that is error-like (DOMException)', () => {
    const domException = Object.create(platformProto('DOMException'), {
      message: { get: nativeGetter('message', () => 'The operation was aborted.'), enumerable: true },
      name: { get: nativeGetter('name', () => 'AbortError'), enumerable: true },
    }) as object;
    assert.equal(leafLabel(domException, LIM), 'AbortError: The operation was aborted.');
  });
});

// ----- walking -----

describe('containers.ts', () => {
  function walk(limits = {}): Walk & { text(): string } {
    const lim = resolveLimits(limits);
    const out = createOutput(lim.budget, Infinity);
    const w: Walk = { lim, out, ancestors: createAncestors(), nested: (v) => (out.put(JSON.stringify(v) ?? '"?"'), true) };
    return Object.assign(w, { text: () => out.finish().text });
  }
  it('writes arrays with holes, accessors and the rest counted', () => {
    const w = walk({ maxBreadth: 4 });
    // eslint-disable-next-line no-sparse-arrays
    const a: unknown[] = [1, , 'x'];
    Object.defineProperty(a, 3, { get: () => 1, enumerable: true });
    a.length = 10;
    arrayOut(w, a, 1);
    assert.equal(w.text(), '[1,"[empty]","x","[Getter]","… 6 more items"]');
    assert.equal(w.ancestors.has(a), true, 'the renderer restores ancestors, not the container');
  });
  it('writes objects by own enumerable string keys, cut keys, and the rest counted', () => {
    const w = walk({ maxBreadth: 2, maxLength: 3 });
    objectOut(w, { abcdef: 1, b: 2, c: 3, [Symbol('s')]: 4 }, 1);
    assert.equal(w.text(), '{"abc …[truncated, 6 chars]":1,"b":2,"…":"1 more keys"}');
    const w2 = walk({ maxBreadth: 2 });
    objectOut(w2, { abcdef: 1, b: 2, c: 3 }, 1);
    assert.equal(w2.text(), '{"abcdef":1,"b":2,"…":"1 more keys"}');
  });
  it('writes Map and Set entries, and labels beyond maxDepth', () => {
    const w = walk({ maxBreadth: 1 });
    mapOut(w, new Map([['k', 'v'], ['k2', 'v2']]), 1);
    setOut(w, new Set([1, 2, 3]), 1);
    assert.equal(w.text(), '{"Map(2)":[["k","v"],"… 1 more items"]}{"Set(3)":[1,"… 2 more items"]}');
    const deep = walk({ maxDepth: 0 });
    arrayOut(deep, [], 1);
    objectOut(deep, {}, 1);
    mapOut(deep, new Map(), 1);
    setOut(deep, new Set(), 1);
    assert.equal(deep.text(), '"[Array]""[Object]""[Map]""[Set]"');
  });
  it('names a descriptor lookup that throws and goes on', () => {
    const w = walk();
    const p = new Proxy([1, 2], {
      getOwnPropertyDescriptor(t, k) {
        if (k === '0') throw new Error('item nope');
        return Reflect.getOwnPropertyDescriptor(t, k);
      },
    });
    arrayOut(w, p, 1);
    assert.equal(w.text(), '["[Unserializable: item nope]",2]');
  });
});

describe('render.ts', () => {
  it('writes top-level strings and labels unquoted, nested ones as JSON', () => {
    const r = createRenderer();
    assert.equal(r.single('s'), 's');
    assert.equal(r.single(new Date(0)), '1970-01-01T00:00:00.000Z');
    assert.equal(r.single(() => 1), '[Function (anonymous)]');
    assert.equal(r.single(['s', new Date(0)]), '["s","1970-01-01T00:00:00.000Z"]');
  });
  it('marks cycles but not repeated references', () => {
    const r = createRenderer();
    const shared = { x: 1 };
    const o: Record<string, unknown> = { a: shared, b: shared };
    o.me = [o];
    assert.equal(r.single(o), '{"a":{"x":1},"b":{"x":1},"me":["[Circular]"]}');
  });
  it('rolls back a value that fails half-way and reports top-level failure', () => {
    const r = createRenderer();
    const failing = new Proxy({ a: 1 }, { getOwnPropertyDescriptor() { throw new Error('late'); } });
    assert.equal(r.single({ ok: [1, failing] }), '{"ok":[1,"[Unserializable: late]"]}');
    assert.equal(r.failed(), false);
    assert.equal(r.single(revokedProxy()), "[Unserializable: Cannot perform 'IsArray' on a proxy that has been revoked]");
    assert.equal(r.failed(), true);
    assert.equal(r.single(1), '1');
    assert.equal(r.failed(), false);
  });
});

// ----- console and thrown -----

describe('format.ts', () => {
  it('applies directives and returns the first unused argument', () => {
    const r = createRenderer();
    const used = applyFormat(r, '%s=%d %% %c%o|%x %s', ['a', '12.9px', 'color: red', { k: [1] }], 0);
    assert.equal(used, 4);
    assert.equal(r.out.finish().text, 'a=12 % {"k":[1]}|%x %s');
  });
  it('formats numbers like Node: %d and %i truncate, %f keeps the fraction, BigInt stays BigInt', () => {
    const cases: [string, unknown, string][] = [
      ['d', '42.9px', '42'], ['i', -2.5, '-2'], ['f', '3.25rem', '3.25'], ['d', 'abc', 'NaN'], ['d', 5n, '5n'], ['f', 5n, '5'], ['d', {}, 'NaN'],
      ['o', 'str', '"str"'], ['j', null, 'null'], ['O', () => 1, '[Function (anonymous)]'], ['c', 'color: red', ''],
      ['o', new TypeError('boom'), 'TypeError: boom'],
    ];
    for (const [c, a, expected] of cases) {
      const r = createRenderer();
      directive(r, c, a);
      assert.equal(r.out.finish().text, expected, `%${c} of ${String(a)}`);
    }
  });
});

describe('console.ts', () => {
  it('knows structured calls', () => {
    assert.equal(isStructured(['a', 1, null]), false);
    assert.equal(isStructured(['a', []]), true);
  });
  it('joins arguments, reads a format only when arguments follow, and reports cutting', () => {
    assert.deepEqual(serializeConsoleCall(['%s!', 'hi', 2]), { text: 'hi! 2', structured: false });
    assert.deepEqual(serializeConsoleCall(['100%']), { text: '100%', structured: false });
    assert.deepEqual(serializeConsoleCall('one value'), { text: 'one value', structured: false });
    assert.deepEqual(serializeConsoleCall(['abcdef'], { maxLength: 3 }), { text: 'abc …[truncated, 6 chars]', structured: false, originalLength: 6 });
    assert.deepEqual(serializeConsoleCall(revokedProxy()), { text: '[Unserializable console arguments]', structured: false });
  });
});

describe('thrown.ts', () => {
  it('lists inner errors and the cause chain', () => {
    const r = createRenderer();
    const agg = new AggregateError([new Error('a'), 'b', { c: 1 }], 'agg', { cause: new TypeError('why', { cause: 'root' }) });
    assert.equal(innerErrors(r, agg), '\n  [0] Error: a\n  [1] b\n  [2] {"c":1}');
    assert.equal(innerErrors(r, new Error('no errors')), '');
    const clipper = { clip: (s: string) => s, lost: () => 0 };
    const tail = causeChain(r, clipper, agg);
    assert.match(tail, /^\nCaused by: TypeError: why\n {4}at [^]*\nCaused by: root$/);
  });
  it('describes errors and other values', () => {
    const e = new Error('m');
    e.stack = 'Error: m\n    at here';
    assert.deepEqual(serializeThrownValue(e), { message: 'Error: m', name: 'Error', stack: 'Error: m\n    at here', nonError: false });
    assert.deepEqual(serializeThrownValue({ code: 1 }), { message: '{"code":1}', nonError: true });
    assert.deepEqual(serializeThrownValue(revokedProxy()), { message: '[Unserializable thrown value]', nonError: true });
  });
  it('cuts the stack with its causes to STACK_MAX chars', () => {
    const e = new Error('long', { cause: new Error('inner') });
    e.stack = 's'.repeat(STACK_MAX + 5);
    const t = serializeThrownValue(e);
    assert.equal(t.stack?.slice(0, STACK_MAX), 's'.repeat(STACK_MAX));
    assert.match(t.stack?.slice(STACK_MAX) ?? '', /^ …\[truncated, \d+ chars\]$/);
  });
});

describe('error-parts.ts', () => {
  it('gives the cause chain as data, nearest first, each with its own stack', () => {
    const r = createRenderer();
    const root = new RangeError('root');
    const top = new Error('top', { cause: new TypeError('mid', { cause: root }) });
    const parts = causeParts(r, top);
    assert.deepEqual(parts.map((p) => [p.name, p.message]), [['TypeError', 'mid'], ['RangeError', 'root']]);
    assert.match(parts[0]?.stack ?? '', /^TypeError: mid\n {4}at /);
    assert.deepEqual(causeParts(r, new Error('none')), []);
    assert.deepEqual(causeParts(r, new Error('a', { cause: { code: 7 } })), [{ message: '{"code":7}' }]);
  });
  it('stops at a cycle and after five causes', () => {
    const r = createRenderer();
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    assert.deepEqual(causeParts(r, a).map((p) => p.message), ['b']);
    let deep = new Error('0');
    for (let i = 1; i < 9; i++) deep = new Error(String(i), { cause: deep });
    assert.equal(causeParts(r, deep).length, 5);
  });
  it("gives an AggregateError's members as data, at most ten", () => {
    const r = createRenderer();
    const members = memberParts(r, new AggregateError([new TypeError('x'), 'plain'], 'all failed'));
    assert.equal(members[0]?.name, 'TypeError');
    assert.match(members[0]?.stack ?? '', /^TypeError: x\n/);
    assert.deepEqual(members[1], { message: 'plain' });
    assert.equal(memberParts(r, new AggregateError(Array.from({ length: 15 }, (_, i) => new Error(String(i))))).length, 10);
    assert.deepEqual(memberParts(r, new Error('no members')), []);
  });
  it('cuts each stack and never runs getters', () => {
    const r = createRenderer();
    const e = new Error('long');
    e.stack = 's'.repeat(PART_STACK_MAX + 10);
    assert.ok((errorPart(r, e).stack ?? '').length < PART_STACK_MAX + 40);
    let calls = 0;
    const sneaky = new Error('sneaky');
    Object.defineProperty(sneaky, 'cause', { get: () => (calls++, new Error('c')) });
    assert.deepEqual(causeParts(r, sneaky), []);
    assert.equal(calls, 0);
  });
  it('comes with the thrown value only when present', () => {
    const t = serializeThrownValue(new AggregateError([new Error('m')], 'agg', { cause: new Error('c') }));
    assert.deepEqual(t.causes?.map((p) => p.message), ['c']);
    assert.deepEqual(t.members?.map((p) => p.message), ['m']);
    assert.equal('causes' in serializeThrownValue(new Error('plain')), false);
  });
});

describe('serialize.ts (the entry)', () => {
  it('dispatches on kind', () => {
    assert.deepEqual(serialize('console', ['a', 1], LIM), { text: 'a 1', structured: false });
    assert.deepEqual(serialize('thrown', 'a'), { message: 'a', nonError: true });
  });
});
