/**
 * Reading properties without running page code: only own descriptors, data values, and the platform's
 * own native getters (V8's Error `stack`, DOMException `message`, a window's `self`). The built-ins are
 * captured when the bundle is evaluated, i.e. at each call into the page.
 */

export const gOPD = Object.getOwnPropertyDescriptor;
export const getProto = Object.getPrototypeOf as (o: object) => object | null;
export const objectProto: object = Object.prototype;
const fnToString = Function.prototype.toString;
const NATIVE_TAIL = /\{\s*\[native code\]\s*\}\s*$/;

export function isObj(x: unknown): x is object {
  return x !== null && (typeof x === 'object' || typeof x === 'function');
}

/** Objects whose prototype is this realm's Object.prototype or null. */
export function isPlainObject(o: object): boolean {
  const proto = getProto(o);
  return proto === objectProto || proto === null;
}

/** A function implemented by the engine or the browser (also true for bound functions). */
export function isNativeFunction(f: unknown): boolean {
  if (typeof f !== 'function') return false;
  const src: string = fnToString.call(f);
  return NATIVE_TAIL.test(src.length > 80 ? src.slice(-80) : src);
}

/**
 * A platform accessor such as V8's Error `stack` or DOMException `message`; never user code. Chromium's own
 * `stack` accessor on each Error instance has an empty name, Web IDL getters are named "get …".
 */
export function isNativeGetter(g: unknown): boolean {
  if (typeof g !== 'function') return false;
  const nd = gOPD(g, 'name');
  if (!nd || typeof nd.value !== 'string' || (nd.value !== '' && nd.value.slice(0, 4) !== 'get ')) return false;
  return isNativeFunction(g);
}

/** A property found along the prototype chain: data value, or a native getter's result; undefined otherwise. */
export function field(o: object, key: string): { v: unknown } | undefined {
  let cur: object | null = o;
  for (let i = 0; cur !== null && i < 32; i++) {
    const d = gOPD(cur, key);
    if (d) {
      if ('value' in d) return { v: d.value };
      return isNativeGetter(d.get) ? { v: (d.get as () => unknown).call(o) } : undefined;
    }
    cur = getProto(cur);
  }
  return undefined;
}

export function fieldValue(o: object, key: string): unknown {
  const f = field(o, key);
  return f ? f.v : undefined;
}
