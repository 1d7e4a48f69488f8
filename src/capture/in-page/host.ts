/**
 * Host objects: what the browser provides rather than the language. They are labelled, never enumerated:
 * their own properties are the platform's accessors, so enumerating them would only print "[Getter]"s.
 *
 * They print the way DevTools prints them collapsed:
 * - DOM nodes (where a DOM exists): elements by interface and opening tag, `HTMLButtonElement <button id="save">`;
 *   `#text "abc…"`; `#document https://…`; other nodes by their lower-case name (`#comment`).
 * - global scopes: `Window`, `DedicatedWorkerGlobalScope` (a window of another frame too).
 * - other platform objects whose own enumerable properties are all native accessors or methods
 *   (`location`, events' `isTrusted`): `Location`, `MouseEvent`.
 *
 * Nothing here assumes a DOM: `Node` and `Window` are feature-detected, the rest reads descriptors.
 */
import { cut } from './limits';
import { quote } from './primitives';
import { gOPD, getProto, isNativeFunction, isNativeGetter, isObj } from './reflect';

/** The opening tag of an element with its `id` and `class` (each cut to 60 characters): `<button id="save" class="btn">`. */
export function openingTag(el: Element): string {
  let s = '<' + String(el.localName || el.nodeName).toLowerCase();
  for (const name of ['id', 'class']) {
    const value = el.getAttribute(name);
    if (value) s += ' ' + name + '="' + value.trim().replace(/\s+/g, ' ').slice(0, 60).replace(/"/g, '&quot;') + '"';
  }
  return s + '>';
}

/** The label of a DOM node of this realm, or null (no DOM, or not a node). */
export function domLabel(o: object): string | null {
  if (typeof Node === 'undefined' || !(o instanceof Node)) return null;
  if (o.nodeType === 9) return '#document ' + cut(String((o as Document).URL), 200);
  if (o.nodeType === 3) {
    const value = o.nodeValue;
    const t = String(value === null || value === undefined ? '' : value);
    return '#text ' + quote(t.length > 40 ? t.slice(0, 40) + '…' : t);
  }
  if (o.nodeType !== 1) return String(o.nodeName).toLowerCase();
  return brandOf(o) + ' ' + openingTag(o as Element);
}

/** The interface name: a `Symbol.toStringTag` data property on the chain, else the constructor's name. */
export function brandOf(o: object): string {
  let cur: object | null = o;
  for (let i = 0; cur !== null && i < 32; i++) {
    const d = gOPD(cur, Symbol.toStringTag);
    if (d && typeof d.value === 'string' && d.value) return cut(d.value, 100);
    cur = getProto(cur);
  }
  const proto = getProto(o);
  const cd = proto ? gOPD(proto, 'constructor') : undefined;
  const ctor: unknown = cd ? cd.value : undefined;
  const nd = typeof ctor === 'function' ? gOPD(ctor, 'name') : undefined;
  return nd && typeof nd.value === 'string' && nd.value ? cut(nd.value, 100) : 'Object';
}

/**
 * A window or worker global scope: `Window` for this realm's window; otherwise any object whose own
 * `self` is a native getter returning the object itself (a worker's scope, another frame's window).
 */
export function globalScopeLabel(o: object): string | null {
  if (typeof Window !== 'undefined' && o instanceof Window) return 'Window';
  const d = gOPD(o, 'self');
  if (!d || !isNativeGetter(d.get) || (d.get as () => unknown).call(o) !== o) return null;
  return brandOf(o);
}

/** More own keys than any platform object has: not worth checking. */
const MAX_PLATFORM_KEYS = 256;

/**
 * A platform object (its prototype's constructor is native) whose own enumerable properties are all
 * native accessors or native methods, at least one an accessor: `Location`, `PointerEvent`. Objects
 * with data of their own, and instances of page-defined classes, return null and are rendered as objects.
 */
export function platformObjectLabel(o: object): string | null {
  const proto = getProto(o);
  if (!isObj(proto)) return null;
  const cd = gOPD(proto, 'constructor');
  if (!cd || !('value' in cd) || !isNativeFunction(cd.value)) return null;
  const keys = Object.keys(o);
  if (keys.length === 0 || keys.length > MAX_PLATFORM_KEYS) return null;
  let accessors = 0;
  for (let i = 0; i < keys.length; i++) {
    const d = gOPD(o, keys[i] as string);
    if (!d) continue;
    if ('value' in d) {
      if (!isNativeFunction(d.value)) return null;
    } else {
      if ((d.get && !isNativeFunction(d.get)) || (d.set && !isNativeFunction(d.set))) return null;
      accessors++;
    }
  }
  return accessors > 0 ? brandOf(o) : null;
}

/** DOM nodes and global scopes (checked before error-likes; platformObjectLabel comes after them). */
export function hostLabel(o: object): string | null {
  const dom = domLabel(o);
  if (dom !== null) return dom;
  return globalScopeLabel(o);
}
