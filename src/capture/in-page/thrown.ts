/**
 * A thrown value or rejection reason. For an error-like value: its headline, name and stack, the stack
 * followed by "Caused by: …" lines for the cause chain (depth ≤ 5, cycles marked "[Circular]") and the
 * inner errors of an AggregateError ("  [i] …", at most 10); the whole stack is cut to 20000 chars. Any
 * other value is rendered like a single console argument. The causes and inner errors also come as data
 * (error-parts.ts).
 */
import { causeParts, memberParts } from './error-parts';
import { errorHeadline, errorName, isErrorLike } from './errors';
import { truncatedMarker, type SerializeLimits } from './limits';
import { field, fieldValue, gOPD, isObj } from './reflect';
import { createRenderer, type Renderer } from './render';
import type { SerializedThrown } from './types';

export const STACK_MAX = 20000;
export const MAX_CAUSES = 5;
export const MAX_INNER_ERRORS = 10;
const UNSERIALIZABLE = '[Unserializable thrown value]';

function errLike(x: unknown): x is object {
  try {
    return isObj(x) && isErrorLike(x);
  } catch {
    return false;
  }
}

/** Stack text kept under STACK_MAX per piece, counting what was cut. */
interface Clipper {
  clip(s: string): string;
  lost(): number;
}

function createClipper(): Clipper {
  let lost = 0;
  return {
    clip(s: string): string {
      if (s.length <= STACK_MAX) return s;
      lost += s.length - STACK_MAX;
      return s.slice(0, STACK_MAX);
    },
    lost: () => lost,
  };
}

/** A cause: its stack (or headline) if error-like, else rendered like a console argument. */
export function describeCause(r: Renderer, clipper: Clipper, x: unknown): string {
  try {
    if (isObj(x) && isErrorLike(x)) {
      const s = fieldValue(x, 'stack');
      return typeof s === 'string' ? clipper.clip(s) : errorHeadline(x, r.lim.maxLength);
    }
    const t = r.single(x);
    return r.failed() ? UNSERIALIZABLE : t;
  } catch {
    return UNSERIALIZABLE;
  }
}

/** AggregateError-style `errors`: at most 10 lines "\n  [i] message", then "\n  … N more". */
export function innerErrors(r: Renderer, x: object): string {
  let s = '';
  try {
    const f = field(x, 'errors');
    if (!f || !Array.isArray(f.v)) return '';
    const arr = f.v as unknown[];
    const ld = gOPD(arr, 'length');
    const len = ld && typeof ld.value === 'number' ? ld.value : 0;
    for (let k = 0; k < len && k < MAX_INNER_ERRORS; k++) {
      let line: string;
      try {
        const d = gOPD(arr, String(k));
        const item: unknown = d && 'value' in d ? d.value : undefined;
        line = isObj(item) && isErrorLike(item) ? errorHeadline(item, r.lim.maxLength) : r.single(item);
      } catch {
        line = UNSERIALIZABLE;
      }
      s += '\n  [' + k + '] ' + line;
    }
    if (len > MAX_INNER_ERRORS) s += '\n  … ' + (len - MAX_INNER_ERRORS) + ' more';
  } catch {
    return s;
  }
  return s;
}

/** The "Caused by:" lines (with each error cause's inner errors) following `value`'s own inner errors. */
export function causeChain(r: Renderer, clipper: Clipper, value: object): string {
  let tail = '';
  const seen: unknown[] = [value];
  let cur: object = value;
  for (let d = 0; d < MAX_CAUSES; d++) {
    let c: { v: unknown } | undefined;
    try {
      c = field(cur, 'cause');
    } catch {
      tail += '\nCaused by: ' + UNSERIALIZABLE;
      break;
    }
    if (!c) break;
    if (seen.indexOf(c.v) !== -1) {
      tail += '\nCaused by: [Circular]';
      break;
    }
    tail += '\nCaused by: ' + describeCause(r, clipper, c.v);
    if (!errLike(c.v)) break;
    tail += innerErrors(r, c.v);
    seen.push(c.v);
    cur = c.v;
  }
  return tail;
}

function describeError(r: Renderer, value: object): SerializedThrown {
  const clipper = createClipper();
  const headline = errorHeadline(value, r.lim.maxLength);
  const name = errorName(value);
  const stackV = fieldValue(value, 'stack');
  let tail = innerErrors(r, value);
  tail += causeChain(r, clipper, value);
  let stack: string | undefined;
  if (typeof stackV === 'string') stack = clipper.clip(stackV) + tail;
  else if (tail) stack = headline + tail;
  if (stack !== undefined && stack.length + clipper.lost() > STACK_MAX) {
    stack = stack.slice(0, STACK_MAX) + truncatedMarker(stack.length + clipper.lost());
  }
  const res: SerializedThrown = { message: headline, name, nonError: false };
  if (stack !== undefined) res.stack = stack;
  const causes = causeParts(r, value);
  if (causes.length) res.causes = causes;
  const members = memberParts(r, value);
  if (members.length) res.members = members;
  return res;
}

export function serializeThrownValue(value: unknown, limits?: Partial<SerializeLimits> | null): SerializedThrown {
  try {
    const r = createRenderer(limits);
    if (isObj(value) && isErrorLike(value)) return describeError(r, value);
    const text = r.single(value);
    if (r.failed()) return { message: UNSERIALIZABLE, nonError: true };
    return { message: text, nonError: true };
  } catch {
    return { message: UNSERIALIZABLE, nonError: true };
  }
}
