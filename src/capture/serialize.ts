/**
 * Browser-safe serialization of console arguments and thrown values.
 *
 * `serializeInRealm` is shipped into pages and workers as source text (`fn.toString()`, through CDP
 * `callFunctionOn`), so it is fully self-contained: no imports, no module-level values, no calls to
 * other top-level functions, no TypeScript constructs that compile to helpers. `serializeConsoleArgs`
 * and `serializeThrown` are its typed entry points for Node.
 *
 * Rendering conventions (nested values are JSON text; top-level strings and labels are unquoted):
 * - plain and class-instance objects: own enumerable string keys only, no class-name prefix,
 *   e.g. `{"a":1}`; accessors are never invoked and render as "[Getter]", "[Setter]" or
 *   "[Getter/Setter]"; `toJSON` is never called.
 * - Map: `{"Map(n)":[[key,value],...]}`; Set: `{"Set(n)":[value,...]}` (keys may be objects).
 * - over maxBreadth: arrays, Map and Set get a last element "… N more items", objects a last key
 *   `"…":"N more keys"`; beyond maxDepth: "[Object]", "[Array]", "[Map]", "[Set]".
 * - holes in sparse arrays: "[empty]"; undefined: "undefined"; NaN/±Infinity/-0/BigInt/Symbol: strings.
 * - boxed primitives: "[Number: 1]", "[String: \"s\"]", ...
 */

export interface SerializeLimits {
  /** max nesting depth for objects/arrays; default 3 */
  maxDepth: number;
  /** max own keys / items shown per object, array, Map, Set; default 50 */
  maxBreadth: number;
  /** max characters of the final message; default 1000 */
  maxLength: number;
}

export const defaultSerializeLimits: SerializeLimits = { maxDepth: 3, maxBreadth: 50, maxLength: 1000 };

export interface SerializedConsole {
  /** the message, at most limits.maxLength chars (+ marker) */
  text: string;
  /** true when at least one argument was an object/array/Map/etc (not a primitive) */
  structured: boolean;
  /** original length before cutting, only when cut */
  originalLength?: number;
}

export interface SerializedThrown {
  /** "TypeError: x is not a function" for Errors; for other values a readable rendering (`x` for a thrown string, `{"code":1}`, `42`, `undefined`, `Symbol(s)`) */
  message: string;
  /** the Error's name if it is an Error (or error-like: has string name+message), else undefined */
  name?: string;
  /** the stack string if any (cut to 20000 chars), with "Caused by: ..." lines for a cause chain (depth ≤ 5) and the inner errors of an AggregateError */
  stack?: string;
  /** true when the thrown value was not an Error */
  nonError: boolean;
}

/** Self-contained serializer for console arguments and thrown values; see the file header. */
export function serializeInRealm(kind: 'console' | 'thrown', input: unknown, limits?: Partial<SerializeLimits>): SerializedConsole | SerializedThrown {
  // ===== renderer: shared by both kinds =====
  function createRenderer(lim: Partial<SerializeLimits> | undefined) {
    function pick(x: unknown, d: number): number {
      return typeof x === 'number' && x >= 0 ? Math.floor(x) : d;
    }
    const maxDepth = pick(lim ? lim.maxDepth : undefined, 3);
    const maxBreadth = pick(lim ? lim.maxBreadth : undefined, 50);
    const maxLength = pick(lim ? lim.maxLength : undefined, 1000);
    // Work stops once the output passes this many chars; the result is cut to maxLength anyway.
    const budget = maxLength * 2 + 64;
    const gOPD = Object.getOwnPropertyDescriptor;
    const getProto = Object.getPrototypeOf;
    const fnToString = Function.prototype.toString;
    const objectProto = Object.prototype;
    let out: string[] = [];
    let used = 0;
    let extra = 0;
    let exhausted = false;
    let lastError = '';
    let topFailed = false;
    const ancestors: object[] = [];

    function isObj(x: unknown): x is object {
      return x !== null && (typeof x === 'object' || typeof x === 'function');
    }
    function reset(): void {
      out = [];
      used = 0;
      extra = 0;
      exhausted = false;
      topFailed = false;
      ancestors.length = 0;
    }
    function put(s: string): void {
      out.push(s);
      used += s.length;
      if (used > budget) exhausted = true;
    }
    // Free text of any size: copies at most what the budget allows, counts the rest.
    function putRaw(s: string): void {
      const room = budget - used;
      if (s.length > room) {
        const part = room > 0 ? s.slice(0, room) : '';
        out.push(part);
        used += part.length;
        extra += s.length - part.length;
        exhausted = true;
      } else {
        put(s);
      }
    }
    function addExtra(n: number): void {
      extra += n;
    }
    function cut(s: string, max: number): string {
      return s.length > max ? s.slice(0, max) + ' …[truncated, ' + s.length + ' chars]' : s;
    }
    function q(s: string): string {
      return JSON.stringify(s);
    }
    function rollback(mark: number, markUsed: number): void {
      out.length = mark;
      used = markUsed;
      exhausted = used > budget;
    }
    function reason(e: unknown): string {
      try {
        if (isObj(e)) {
          const d = gOPD(e, 'message');
          return d && typeof d.value === 'string' ? cut(d.value, 200) : 'exception';
        }
        return cut(String(e), 200);
      } catch {
        return 'exception';
      }
    }
    function prim(v: unknown): string {
      if (typeof v === 'number') return v === 0 && 1 / v < 0 ? '-0' : String(v);
      if (typeof v === 'bigint') return String(v) + 'n';
      if (typeof v === 'symbol') return cut(String(v), maxLength);
      if (typeof v === 'string') return v;
      return String(v);
    }
    function numJson(n: number): string {
      if (n !== n || n === Infinity || n === -Infinity) return '"' + String(n) + '"';
      return n === 0 && 1 / n < 0 ? '"-0"' : String(n);
    }
    function fnLabel(f: unknown): string {
      let name = '';
      try {
        const d = gOPD(f as object, 'name');
        if (d && typeof d.value === 'string') name = cut(d.value, 100);
      } catch {
        name = '';
      }
      return name ? '[Function: ' + name + ']' : '[Function (anonymous)]';
    }
    function accessorLabel(d: PropertyDescriptor): string {
      return d.get ? (d.set ? '[Getter/Setter]' : '[Getter]') : '[Setter]';
    }
    // Platform accessors such as V8's Error `stack` or DOMException `message`; never user code.
    function isNativeGetter(g: unknown): boolean {
      if (typeof g !== 'function') return false;
      const nd = gOPD(g, 'name');
      if (!nd || typeof nd.value !== 'string' || nd.value.slice(0, 4) !== 'get ') return false;
      const src = fnToString.call(g);
      return /\{\s*\[native code\]\s*\}\s*$/.test(src.length > 80 ? src.slice(-80) : src);
    }
    // A property found along the prototype chain: data value, or a native getter's result.
    function field(o: object, key: string): { v: unknown } | undefined {
      let cur: object | null = o;
      for (let i = 0; cur !== null && i < 32; i++) {
        const d = gOPD(cur, key);
        if (d) {
          if ('value' in d) return { v: d.value };
          return isNativeGetter(d.get) ? { v: (d.get as () => unknown).call(o) } : undefined;
        }
        cur = getProto(cur) as object | null;
      }
      return undefined;
    }
    function fieldValue(o: object, key: string): unknown {
      const f = field(o, key);
      return f ? f.v : undefined;
    }
    function isErrorLike(o: object): boolean {
      if (typeof Error !== 'undefined' && o instanceof Error) return true;
      if (typeof fieldValue(o, 'message') !== 'string') return false;
      return typeof fieldValue(o, 'stack') === 'string' || typeof fieldValue(o, 'name') === 'string';
    }
    function errorHeadline(o: object): string {
      const n = fieldValue(o, 'name');
      const m = fieldValue(o, 'message');
      const name = typeof n === 'string' && n ? cut(n, 200) : 'Error';
      return typeof m === 'string' && m ? name + ': ' + cut(m, maxLength) : name;
    }
    function viewLabel(o: object): string {
      const ta = getProto(Uint8Array.prototype) as object;
      const tagD = gOPD(ta, Symbol.toStringTag);
      const name: unknown = tagD && tagD.get ? tagD.get.call(o) : undefined;
      if (typeof name !== 'string') {
        const bl = gOPD(DataView.prototype, 'byteLength');
        return 'DataView(' + String(bl && bl.get ? bl.get.call(o) : '?') + ')';
      }
      const lenD = gOPD(ta, 'length');
      const len = lenD && lenD.get ? (lenD.get.call(o) as number) : 0;
      const n = Math.min(len, maxBreadth);
      const arr = o as unknown as ArrayLike<unknown>;
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(prim(arr[i]));
      return name + '(' + len + ') [' + items.join(',') + (len > n ? (n > 0 ? ',…' : '…') : '') + ']';
    }
    function regexpLabel(o: object): string {
      const rp = RegExp.prototype;
      const sd = gOPD(rp, 'source');
      const src = sd && sd.get ? String(sd.get.call(o)) : '';
      const flags: [string, string][] = [
        ['hasIndices', 'd'], ['global', 'g'], ['ignoreCase', 'i'], ['multiline', 'm'],
        ['dotAll', 's'], ['unicode', 'u'], ['unicodeSets', 'v'], ['sticky', 'y'],
      ];
      let f = '';
      for (const [prop, ch] of flags) {
        const d = gOPD(rp, prop);
        if (d && d.get && d.get.call(o)) f += ch;
      }
      return '/' + cut(src, maxLength) + '/' + f;
    }
    function elementSegment(el: Element): string {
      let s = String(el.localName || el.nodeName).toLowerCase();
      const id = el.getAttribute('id');
      if (id) s += '#' + id.slice(0, 60);
      const cls = el.getAttribute('class');
      if (cls) {
        const parts = cls.slice(0, 200).trim().split(/\s+/);
        for (let i = 0; i < parts.length && i < 3; i++) if (parts[i]) s += '.' + parts[i];
      }
      return s;
    }
    // DOM nodes (only where a DOM exists): "html > body > div#app > span.x" (≤ 4 levels), "#text \"abc…\"".
    function domLabel(o: object): string | null {
      if (typeof Node === 'undefined' || !(o instanceof Node)) return null;
      if (o.nodeType === 9) return '[Document ' + cut(String((o as Document).URL), 200) + ']';
      if (o.nodeType === 3) {
        const t = String(o.nodeValue ?? '');
        return '#text ' + q(t.length > 40 ? t.slice(0, 40) + '…' : t);
      }
      if (o.nodeType !== 1) return String(o.nodeName).toLowerCase();
      const segs: string[] = [];
      let el: Element | null = o as Element;
      while (el && segs.length < 4) {
        segs.unshift(elementSegment(el));
        el = el.parentElement;
      }
      return segs.join(' > ');
    }
    // Leaf rendering of non-plain objects that are not containers; null for containers.
    function special(o: object): string | null {
      if (ArrayBuffer.isView(o)) return viewLabel(o);
      if (o instanceof Date) {
        const t = Date.prototype.getTime.call(o);
        return t !== t ? 'Invalid Date' : Date.prototype.toISOString.call(o);
      }
      if (o instanceof RegExp) return regexpLabel(o);
      if (typeof Promise !== 'undefined' && o instanceof Promise) return '[Promise]';
      if (typeof WeakMap !== 'undefined' && o instanceof WeakMap) return '[WeakMap]';
      if (typeof WeakSet !== 'undefined' && o instanceof WeakSet) return '[WeakSet]';
      if (typeof WeakRef !== 'undefined' && o instanceof WeakRef) return '[WeakRef]';
      if (o instanceof ArrayBuffer) {
        const d = gOPD(ArrayBuffer.prototype, 'byteLength');
        return 'ArrayBuffer(' + String(d && d.get ? d.get.call(o) : '?') + ')';
      }
      if (typeof SharedArrayBuffer !== 'undefined' && o instanceof SharedArrayBuffer) {
        const d = gOPD(SharedArrayBuffer.prototype, 'byteLength');
        return 'SharedArrayBuffer(' + String(d && d.get ? d.get.call(o) : '?') + ')';
      }
      if (o instanceof Number) return '[Number: ' + prim(Number.prototype.valueOf.call(o)) + ']';
      if (o instanceof String) return '[String: ' + q(cut(String.prototype.valueOf.call(o), maxLength)) + ']';
      if (o instanceof Boolean) return '[Boolean: ' + String(Boolean.prototype.valueOf.call(o)) + ']';
      if (typeof BigInt !== 'undefined' && o instanceof BigInt) return '[BigInt: ' + prim(BigInt.prototype.valueOf.call(o)) + ']';
      if (o instanceof Symbol) return '[Symbol: ' + prim(Symbol.prototype.valueOf.call(o)) + ']';
      const dom = domLabel(o);
      if (dom !== null) return dom;
      if (typeof Window !== 'undefined' && o instanceof Window) return '[Window]';
      if (isErrorLike(o)) return errorHeadline(o);
      return null;
    }
    function arrayOut(a: unknown[], depth: number): void {
      if (depth > maxDepth) return put('"[Array]"');
      ancestors.push(a);
      const ld = gOPD(a, 'length');
      const len = ld && typeof ld.value === 'number' ? ld.value : 0;
      const n = Math.min(len, maxBreadth);
      put('[');
      for (let i = 0; i < n; i++) {
        if (exhausted) return;
        if (i > 0) put(',');
        let d: PropertyDescriptor | undefined;
        try {
          d = gOPD(a, String(i));
        } catch (e) {
          put(q('[Unserializable: ' + reason(e) + ']'));
          continue;
        }
        if (!d) put('"[empty]"');
        else if ('value' in d) nested(d.value, depth + 1);
        else put(q(accessorLabel(d)));
      }
      if (len > n) put((n > 0 ? ',' : '') + q('… ' + (len - n) + ' more items'));
      put(']');
    }
    function objectOut(o: object, depth: number): void {
      if (depth > maxDepth) return put('"[Object]"');
      // Own enumerable string keys; runs no getters (a Proxy's traps may run, and may throw).
      // Key collection itself is native and O(keys); only maxBreadth of them are examined.
      const keys = Object.keys(o);
      ancestors.push(o);
      put('{');
      const n = Math.min(keys.length, maxBreadth);
      let shown = 0;
      for (let i = 0; i < n; i++) {
        if (exhausted) return;
        const k = keys[i] as string;
        let d: PropertyDescriptor | undefined;
        let err = '';
        try {
          d = gOPD(o, k);
        } catch (e) {
          err = reason(e);
        }
        if (!err && !d) continue;
        put((shown > 0 ? ',' : '') + q(cut(k, maxLength)) + ':');
        shown++;
        if (err || !d) put(q('[Unserializable: ' + err + ']'));
        else if ('value' in d) nested(d.value, depth + 1);
        else put(q(accessorLabel(d)));
      }
      if (keys.length > n) put((shown > 0 ? ',' : '') + '"…":' + q(keys.length - n + ' more keys'));
      put('}');
    }
    function mapOut(m: Map<unknown, unknown>, depth: number): void {
      if (depth > maxDepth) return put('"[Map]"');
      const sd = gOPD(Map.prototype, 'size');
      const size = sd && sd.get ? (sd.get.call(m) as number) : 0;
      ancestors.push(m);
      put('{' + q('Map(' + size + ')') + ':[');
      const it = Map.prototype.entries.call(m);
      const n = Math.min(size, maxBreadth);
      for (let i = 0; i < n; i++) {
        if (exhausted) return;
        const r = it.next();
        if (r.done) break;
        put(i > 0 ? ',[' : '[');
        nested(r.value[0], depth + 1);
        put(',');
        nested(r.value[1], depth + 1);
        put(']');
      }
      if (size > n) put((n > 0 ? ',' : '') + q('… ' + (size - n) + ' more items'));
      put(']}');
    }
    function setOut(s: Set<unknown>, depth: number): void {
      if (depth > maxDepth) return put('"[Set]"');
      const sd = gOPD(Set.prototype, 'size');
      const size = sd && sd.get ? (sd.get.call(s) as number) : 0;
      ancestors.push(s);
      put('{' + q('Set(' + size + ')') + ':[');
      const it = Set.prototype.values.call(s);
      const n = Math.min(size, maxBreadth);
      for (let i = 0; i < n; i++) {
        if (exhausted) return;
        const r = it.next();
        if (r.done) break;
        if (i > 0) put(',');
        nested(r.value, depth + 1);
      }
      if (size > n) put((n > 0 ? ',' : '') + q('… ' + (size - n) + ' more items'));
      put(']}');
    }
    function nestedUnsafe(v: unknown, depth: number): void {
      const t = typeof v;
      if (t === 'string') return put(q(cut(v as string, maxLength)));
      if (t === 'number') return put(numJson(v as number));
      if (t === 'boolean') return put(v ? 'true' : 'false');
      if (t === 'undefined') return put('"undefined"');
      if (t === 'bigint' || t === 'symbol') return put(q(prim(v)));
      if (t === 'function') return put(q(fnLabel(v)));
      if (v === null) return put('null');
      const o = v as object;
      if (ancestors.indexOf(o) !== -1) return put('"[Circular]"');
      if (Array.isArray(o)) return arrayOut(o, depth);
      const proto: unknown = getProto(o);
      if (proto !== objectProto && proto !== null) {
        const s = special(o);
        if (s !== null) return put(q(s));
        if (o instanceof Map) return mapOut(o, depth);
        if (o instanceof Set) return setOut(o, depth);
      }
      objectOut(o, depth);
    }
    // JSON rendering of one value; a value whose inspection throws becomes "[Unserializable: reason]".
    function nested(v: unknown, depth: number): boolean {
      if (exhausted) return true;
      const mark = out.length;
      const markUsed = used;
      const markAnc = ancestors.length;
      try {
        nestedUnsafe(v, depth);
        return true;
      } catch (e) {
        rollback(mark, markUsed);
        lastError = reason(e);
        put(q('[Unserializable: ' + lastError + ']'));
        return false;
      } finally {
        ancestors.length = markAnc;
      }
    }
    // One top-level value: strings and labels unquoted, containers as JSON.
    function top(v: unknown): boolean {
      if (typeof v === 'string') {
        putRaw(v);
        return true;
      }
      if (!isObj(v)) {
        put(prim(v));
        return true;
      }
      const mark = out.length;
      const markUsed = used;
      let ok = true;
      try {
        if (typeof v === 'function') {
          put(fnLabel(v));
          return true;
        }
        if (!Array.isArray(v)) {
          const proto: unknown = getProto(v);
          if (proto !== objectProto && proto !== null) {
            const s = special(v);
            if (s !== null) {
              putRaw(s);
              return true;
            }
          }
        }
      } catch (e) {
        ok = false;
        lastError = reason(e);
      }
      if (ok && nested(v, 1)) return true;
      rollback(mark, markUsed);
      put('[Unserializable: ' + lastError + ']');
      return false;
    }
    function finish(): { text: string; total: number; cut: boolean } {
      const full = out.join('');
      const total = used + extra;
      if (total <= maxLength) return { text: full, total, cut: false };
      return { text: full.slice(0, maxLength) + ' …[truncated, ' + total + ' chars]', total, cut: true };
    }
    // A single value rendered on its own, cut to maxLength.
    function single(v: unknown): string {
      reset();
      topFailed = !top(v);
      return finish().text;
    }
    return {
      budget,
      maxLength,
      isObj,
      put,
      putRaw,
      addExtra,
      cut,
      q,
      prim,
      top,
      nested,
      finish,
      single,
      field,
      fieldValue,
      isErrorLike,
      errorHeadline,
      isExhausted: () => exhausted,
      failed: () => topFailed,
    };
  }
  // ===== renderer end =====

  function consoleArgs(args: unknown): SerializedConsole {

    try {
      const r = createRenderer(limits);
      const list: unknown[] = Array.isArray(args) ? args : [args];
      let structured = false;
      for (let k = 0; k < list.length && k < 10000; k++) {
        if (r.isObj(list[k])) {
          structured = true;
          break;
        }
      }
      const directive = (c: string, a: unknown): void => {
        if (c === 'c') return;
        if (c === 's') {
          r.top(a);
          return;
        }
        if (c === 'o' || c === 'O' || c === 'j') {
          if (typeof a === 'function') r.top(a);
          else if (typeof a === 'string' || r.isObj(a)) r.nested(a, 1);
          else r.put(r.prim(a));
          return;
        }
        // %d %i: integer (parseInt-like); %f: float
        if (typeof a === 'bigint') {
          r.put(c === 'f' ? r.prim(Number(a)) : r.prim(a));
          return;
        }
        let n = NaN;
        if (typeof a === 'number') n = a;
        else if (typeof a === 'string') {
          const s = a.length > 100 ? a.slice(0, 100) : a;
          n = c === 'f' ? parseFloat(s) : parseInt(s, 10);
        }
        if (c !== 'f') n = Math.trunc(n);
        r.put(r.prim(n));
      };
      let i = 0;
      const first = list[0];
      // Like Node and Chrome: a format string is only interpreted when arguments follow it.
      if (typeof first === 'string' && list.length > 1) {
        i = 1;
        const f = first.length > r.budget ? first.slice(0, r.budget) : first;
        r.addExtra(first.length - f.length);
        let last = 0;
        for (let p = 0; p < f.length - 1; p++) {
          if (f.charCodeAt(p) !== 37) continue;
          const c = f.charAt(p + 1);
          if (c === '%') {
            r.putRaw(f.slice(last, p) + '%');
            last = p + 2;
            p++;
            continue;
          }
          if ('sdifoOjc'.indexOf(c) === -1 || i >= list.length) continue;
          r.putRaw(f.slice(last, p));
          last = p + 2;
          p++;
          directive(c, list[i++]);
        }
        r.putRaw(f.slice(last));
      }
      for (; i < list.length && !r.isExhausted(); i++) {
        if (i > 0) r.put(' ');
        r.top(list[i]);
      }
      const fin = r.finish();
      const res: SerializedConsole = { text: fin.text, structured };
      if (fin.cut) res.originalLength = fin.total;
      return res;
    } catch {
      return { text: '[Unserializable console arguments]', structured: false };
    }
  }

  function thrown(value: unknown): SerializedThrown {

    try {
      const r = createRenderer(limits);
      const STACK_MAX = 20000;
      const errLike = (x: unknown): boolean => {
        try {
          return r.isObj(x) && r.isErrorLike(x);
        } catch {
          return false;
        }
      };
      if (r.isObj(value) && r.isErrorLike(value)) {
        let lost = 0;
        const clip = (s: string): string => {
          if (s.length <= STACK_MAX) return s;
          lost += s.length - STACK_MAX;
          return s.slice(0, STACK_MAX);
        };
        // A cause: its stack (or headline) if error-like, else rendered like a console argument.
        const describe = (x: unknown): string => {
          try {
            if (r.isObj(x) && r.isErrorLike(x)) {
              const s = r.fieldValue(x, 'stack');
              return typeof s === 'string' ? clip(s) : r.errorHeadline(x);
            }
            const t = r.single(x);
            return r.failed() ? '[Unserializable thrown value]' : t;
          } catch {
            return '[Unserializable thrown value]';
          }
        };
        // AggregateError-style `errors`: at most 10 lines "  [i] message".
        const inner = (x: object): string => {
          let s = '';
          try {
            const f = r.field(x, 'errors');
            if (!f || !Array.isArray(f.v)) return '';
            const arr = f.v as unknown[];
            const ld = Object.getOwnPropertyDescriptor(arr, 'length');
            const len = ld && typeof ld.value === 'number' ? ld.value : 0;
            for (let k = 0; k < len && k < 10; k++) {
              let line: string;
              try {
                const d = Object.getOwnPropertyDescriptor(arr, String(k));
                const item: unknown = d && 'value' in d ? d.value : undefined;
                line = r.isObj(item) && r.isErrorLike(item) ? r.errorHeadline(item) : r.single(item);
              } catch {
                line = '[Unserializable thrown value]';
              }
              s += '\n  [' + k + '] ' + line;
            }
            if (len > 10) s += '\n  … ' + (len - 10) + ' more';
          } catch {
            return s;
          }
          return s;
        };
        const headline = r.errorHeadline(value);
        const nameV = r.fieldValue(value, 'name');
        const name = typeof nameV === 'string' && nameV ? r.cut(nameV, 200) : 'Error';
        const stackV = r.fieldValue(value, 'stack');
        let tail = inner(value);
        const seen: unknown[] = [value];
        let cur: object = value;
        for (let d = 0; d < 5; d++) {
          let c: { v: unknown } | undefined;
          try {
            c = r.field(cur, 'cause');
          } catch {
            tail += '\nCaused by: [Unserializable thrown value]';
            break;
          }
          if (!c) break;
          if (seen.indexOf(c.v) !== -1) {
            tail += '\nCaused by: [Circular]';
            break;
          }
          tail += '\nCaused by: ' + describe(c.v);
          if (!errLike(c.v)) break;
          tail += inner(c.v as object);
          seen.push(c.v);
          cur = c.v as object;
        }
        let stack: string | undefined;
        if (typeof stackV === 'string') stack = clip(stackV) + tail;
        else if (tail) stack = headline + tail;
        if (stack !== undefined && stack.length + lost > STACK_MAX) {
          stack = stack.slice(0, STACK_MAX) + ' …[truncated, ' + (stack.length + lost) + ' chars]';
        }
        const res: SerializedThrown = { message: headline, name, nonError: false };
        if (stack !== undefined) res.stack = stack;
        return res;
      }
      const text = r.single(value);
      if (r.failed()) return { message: '[Unserializable thrown value]', nonError: true };
      return { message: text, nonError: true };
    } catch {
      return { message: '[Unserializable thrown value]', nonError: true };
    }
  }

  return kind === 'console' ? consoleArgs(input) : thrown(input);
}

/** Serializes the arguments of one console call. */
export function serializeConsoleArgs(args: unknown[], limits?: Partial<SerializeLimits>): SerializedConsole {
  return serializeInRealm('console', args, limits) as SerializedConsole;
}

/** Describes a thrown value or rejection reason. */
export function serializeThrown(value: unknown, limits?: Partial<SerializeLimits>): SerializedThrown {
  return serializeInRealm('thrown', value, limits) as SerializedThrown;
}
