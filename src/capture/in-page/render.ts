/**
 * The renderer: one value at top level (strings and labels unquoted, containers as JSON) or nested
 * (always JSON), within the limits. A value whose inspection throws becomes "[Unserializable: reason]"
 * and the output stays balanced: what the failed value had written is rolled back first.
 */
import { arrayOut, mapOut, objectOut, setOut, type Walk } from './containers';
import { createAncestors } from './cycles';
import { leafLabel } from './leaf';
import { cut, resolveLimits, type ResolvedLimits, type SerializeLimits } from './limits';
import { createOutput, type Output } from './output';
import { fnLabel, numJson, prim, quote } from './primitives';
import { isObj, isPlainObject } from './reflect';
import { reason, unserializable } from './unserializable';

export interface Renderer {
  readonly lim: ResolvedLimits;
  readonly out: Output;
  /** Renders one top-level value; false when it could not be inspected at all. */
  top(v: unknown): boolean;
  /** Renders one value as JSON; false when it could not be inspected (a label was written instead). */
  nested(v: unknown, depth: number): boolean;
  /** A single value rendered on its own from an empty output, cut to maxLength. */
  single(v: unknown): string;
  /** Whether the last `single` value could not be inspected. */
  failed(): boolean;
}

export function createRenderer(limits?: Partial<SerializeLimits> | null): Renderer {
  const lim = resolveLimits(limits);
  const out = createOutput(lim.budget, lim.maxLength);
  const ancestors = createAncestors();
  let lastError = '';
  let topFailed = false;
  const walk: Walk = { lim, out, ancestors, nested };

  function nestedUnsafe(v: unknown, depth: number): void {
    const t = typeof v;
    if (t === 'string') return out.put(quote(cut(v as string, lim.maxLength)));
    if (t === 'number') return out.put(numJson(v as number));
    if (t === 'boolean') return out.put(v ? 'true' : 'false');
    if (t === 'undefined') return out.put('"undefined"');
    if (t === 'bigint' || t === 'symbol') return out.put(quote(prim(v, lim.maxLength)));
    if (t === 'function') return out.put(quote(fnLabel(v)));
    if (v === null) return out.put('null');
    const o = v as object;
    if (ancestors.has(o)) return out.put('"[Circular]"');
    if (Array.isArray(o)) return arrayOut(walk, o, depth);
    if (!isPlainObject(o)) {
      const s = leafLabel(o, lim);
      if (s !== null) return out.put(quote(s));
      if (o instanceof Map) return mapOut(walk, o, depth);
      if (o instanceof Set) return setOut(walk, o, depth);
    }
    objectOut(walk, o, depth);
  }

  function nested(v: unknown, depth: number): boolean {
    if (out.exhausted()) return true;
    const mark = out.mark();
    const markAnc = ancestors.size();
    try {
      nestedUnsafe(v, depth);
      return true;
    } catch (e) {
      out.rollback(mark);
      lastError = reason(e);
      out.put(quote(unserializable(lastError)));
      return false;
    } finally {
      ancestors.restore(markAnc);
    }
  }

  function top(v: unknown): boolean {
    if (typeof v === 'string') {
      out.putRaw(v);
      return true;
    }
    if (!isObj(v)) {
      out.put(prim(v, lim.maxLength));
      return true;
    }
    const mark = out.mark();
    let ok = true;
    try {
      if (typeof v === 'function') {
        out.put(fnLabel(v));
        return true;
      }
      if (!Array.isArray(v) && !isPlainObject(v)) {
        const s = leafLabel(v, lim);
        if (s !== null) {
          out.putRaw(s);
          return true;
        }
      }
    } catch (e) {
      ok = false;
      lastError = reason(e);
    }
    if (ok && nested(v, 1)) return true;
    out.rollback(mark);
    out.put(unserializable(lastError));
    return false;
  }

  return {
    lim,
    out,
    top,
    nested,
    single(v: unknown): string {
      out.reset();
      ancestors.restore(0);
      topFailed = false;
      topFailed = !top(v);
      return out.finish().text;
    },
    failed: () => topFailed,
  };
}
