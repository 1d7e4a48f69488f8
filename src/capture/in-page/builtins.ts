/**
 * Labels of the language's own leaf objects: typed arrays and DataView, Date, RegExp, Promise, weak
 * collections, buffers and boxed primitives. Values are read through the built-in prototypes' own
 * accessors and methods, never through the object (a subclass or an own property cannot interfere).
 */
import { cut, type ResolvedLimits } from './limits';
import { prim, quote } from './primitives';
import { gOPD, getProto } from './reflect';

/** `Uint8Array(3) [1,2,3]` (at most maxBreadth items, then `…`) or `DataView(4)`. */
export function viewLabel(o: object, lim: ResolvedLimits): string {
  const ta = getProto(Uint8Array.prototype) as object;
  const tagD = gOPD(ta, Symbol.toStringTag);
  const name: unknown = tagD && tagD.get ? tagD.get.call(o) : undefined;
  if (typeof name !== 'string') {
    const bl = gOPD(DataView.prototype, 'byteLength');
    return 'DataView(' + String(bl && bl.get ? bl.get.call(o) : '?') + ')';
  }
  const lenD = gOPD(ta, 'length');
  const len = lenD && lenD.get ? (lenD.get.call(o) as number) : 0;
  const n = Math.min(len, lim.maxBreadth);
  const arr = o as unknown as ArrayLike<unknown>;
  const items: string[] = [];
  for (let i = 0; i < n; i++) items.push(prim(arr[i], lim.maxLength));
  return name + '(' + len + ') [' + items.join(',') + (len > n ? (n > 0 ? ',…' : '…') : '') + ']';
}

const REGEXP_FLAGS: [string, string][] = [
  ['hasIndices', 'd'], ['global', 'g'], ['ignoreCase', 'i'], ['multiline', 'm'],
  ['dotAll', 's'], ['unicode', 'u'], ['unicodeSets', 'v'], ['sticky', 'y'],
];

/** `/source/flags`, the source cut to maxLength. */
export function regexpLabel(o: object, maxLength: number): string {
  const rp = RegExp.prototype;
  const sd = gOPD(rp, 'source');
  const src = sd && sd.get ? String(sd.get.call(o)) : '';
  let f = '';
  for (let i = 0; i < REGEXP_FLAGS.length; i++) {
    const flag = REGEXP_FLAGS[i] as [string, string];
    const d = gOPD(rp, flag[0]);
    if (d && d.get && d.get.call(o)) f += flag[1];
  }
  return '/' + cut(src, maxLength) + '/' + f;
}

function byteLength(proto: object, o: object): string {
  const d = gOPD(proto, 'byteLength');
  return String(d && d.get ? d.get.call(o) : '?');
}

/** The label of a built-in leaf object, or null for anything else. */
export function builtinLabel(o: object, lim: ResolvedLimits): string | null {
  if (ArrayBuffer.isView(o)) return viewLabel(o, lim);
  if (o instanceof Date) {
    const t = Date.prototype.getTime.call(o);
    return t !== t ? 'Invalid Date' : Date.prototype.toISOString.call(o);
  }
  if (o instanceof RegExp) return regexpLabel(o, lim.maxLength);
  if (typeof Promise !== 'undefined' && o instanceof Promise) return '[Promise]';
  if (typeof WeakMap !== 'undefined' && o instanceof WeakMap) return '[WeakMap]';
  if (typeof WeakSet !== 'undefined' && o instanceof WeakSet) return '[WeakSet]';
  if (typeof WeakRef !== 'undefined' && o instanceof WeakRef) return '[WeakRef]';
  if (o instanceof ArrayBuffer) return 'ArrayBuffer(' + byteLength(ArrayBuffer.prototype, o) + ')';
  if (typeof SharedArrayBuffer !== 'undefined' && o instanceof SharedArrayBuffer) {
    return 'SharedArrayBuffer(' + byteLength(SharedArrayBuffer.prototype, o) + ')';
  }
  if (o instanceof Number) return '[Number: ' + prim(Number.prototype.valueOf.call(o), lim.maxLength) + ']';
  if (o instanceof String) return '[String: ' + quote(cut(String.prototype.valueOf.call(o), lim.maxLength)) + ']';
  if (o instanceof Boolean) return '[Boolean: ' + String(Boolean.prototype.valueOf.call(o)) + ']';
  if (typeof BigInt !== 'undefined' && o instanceof BigInt) return '[BigInt: ' + prim(BigInt.prototype.valueOf.call(o), lim.maxLength) + ']';
  if (o instanceof Symbol) return '[Symbol: ' + prim(Symbol.prototype.valueOf.call(o), lim.maxLength) + ']';
  return null;
}
