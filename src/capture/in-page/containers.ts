/**
 * Containers as bounded JSON: arrays, ordinary objects (and class instances), Map and Set. Beyond
 * maxDepth they become "[Array]", "[Object]", "[Map]", "[Set]"; beyond maxBreadth they end with
 * "… N more items" (arrays, Map, Set) or a key `"…":"N more keys"` (objects). Only own enumerable string
 * keys are shown, through their descriptors: accessors are labelled, never run; `toJSON` is never called.
 */
import type { Ancestors } from './cycles';
import type { ResolvedLimits } from './limits';
import type { Output } from './output';
import { accessorLabel, quote } from './primitives';
import { gOPD } from './reflect';
import { cut } from './limits';
import { reason, unserializable } from './unserializable';

/** What the containers need from the renderer: `nested` renders one child value. */
export interface Walk {
  lim: ResolvedLimits;
  out: Output;
  ancestors: Ancestors;
  nested(v: unknown, depth: number): boolean;
}

function moreItems(n: number): string {
  return quote('… ' + n + ' more items');
}

export function arrayOut(w: Walk, a: unknown[], depth: number): void {
  const out = w.out;
  if (depth > w.lim.maxDepth) return out.put('"[Array]"');
  w.ancestors.push(a);
  const ld = gOPD(a, 'length');
  const len = ld && typeof ld.value === 'number' ? ld.value : 0;
  const n = Math.min(len, w.lim.maxBreadth);
  out.put('[');
  for (let i = 0; i < n; i++) {
    if (out.exhausted()) return;
    if (i > 0) out.put(',');
    let d: PropertyDescriptor | undefined;
    try {
      d = gOPD(a, String(i));
    } catch (e) {
      out.put(quote(unserializable(reason(e))));
      continue;
    }
    if (!d) out.put('"[empty]"');
    else if ('value' in d) w.nested(d.value, depth + 1);
    else out.put(quote(accessorLabel(d)));
  }
  if (len > n) out.put((n > 0 ? ',' : '') + moreItems(len - n));
  out.put(']');
}

export function objectOut(w: Walk, o: object, depth: number): void {
  const out = w.out;
  if (depth > w.lim.maxDepth) return out.put('"[Object]"');
  // Own enumerable string keys; runs no getters (a Proxy's traps may run, and may throw).
  // Key collection itself is native and O(keys); only maxBreadth of them are examined.
  const keys = Object.keys(o);
  w.ancestors.push(o);
  out.put('{');
  const n = Math.min(keys.length, w.lim.maxBreadth);
  let shown = 0;
  for (let i = 0; i < n; i++) {
    if (out.exhausted()) return;
    const k = keys[i] as string;
    let d: PropertyDescriptor | undefined;
    let err = '';
    try {
      d = gOPD(o, k);
    } catch (e) {
      err = reason(e);
    }
    if (!err && !d) continue;
    out.put((shown > 0 ? ',' : '') + quote(cut(k, w.lim.maxLength)) + ':');
    shown++;
    if (err || !d) out.put(quote(unserializable(err)));
    else if ('value' in d) w.nested(d.value, depth + 1);
    else out.put(quote(accessorLabel(d)));
  }
  if (keys.length > n) out.put((shown > 0 ? ',' : '') + '"…":' + quote(keys.length - n + ' more keys'));
  out.put('}');
}

/** `{"Map(n)":[[key,value],...]}`; keys may be objects. */
export function mapOut(w: Walk, m: Map<unknown, unknown>, depth: number): void {
  const out = w.out;
  if (depth > w.lim.maxDepth) return out.put('"[Map]"');
  const sd = gOPD(Map.prototype, 'size');
  const size = sd && sd.get ? (sd.get.call(m) as number) : 0;
  w.ancestors.push(m);
  out.put('{' + quote('Map(' + size + ')') + ':[');
  const it = Map.prototype.entries.call(m);
  const n = Math.min(size, w.lim.maxBreadth);
  for (let i = 0; i < n; i++) {
    if (out.exhausted()) return;
    const r = it.next();
    if (r.done) break;
    out.put(i > 0 ? ',[' : '[');
    w.nested(r.value[0], depth + 1);
    out.put(',');
    w.nested(r.value[1], depth + 1);
    out.put(']');
  }
  if (size > n) out.put((n > 0 ? ',' : '') + moreItems(size - n));
  out.put(']}');
}

/** `{"Set(n)":[value,...]}`. */
export function setOut(w: Walk, s: Set<unknown>, depth: number): void {
  const out = w.out;
  if (depth > w.lim.maxDepth) return out.put('"[Set]"');
  const sd = gOPD(Set.prototype, 'size');
  const size = sd && sd.get ? (sd.get.call(s) as number) : 0;
  w.ancestors.push(s);
  out.put('{' + quote('Set(' + size + ')') + ':[');
  const it = Set.prototype.values.call(s);
  const n = Math.min(size, w.lim.maxBreadth);
  for (let i = 0; i < n; i++) {
    if (out.exhausted()) return;
    const r = it.next();
    if (r.done) break;
    if (i > 0) out.put(',');
    w.nested(r.value, depth + 1);
  }
  if (size > n) out.put((n > 0 ? ',' : '') + moreItems(size - n));
  out.put(']}');
}
