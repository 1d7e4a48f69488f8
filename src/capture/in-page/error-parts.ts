/**
 * An error's cause chain and an AggregateError's members as data, each with its own stack, so the Node side can
 * parse and source-map them like the error itself. Bounded like the text form (thrown.ts): at most MAX_CAUSES causes
 * and MAX_INNER_ERRORS members, each stack cut to PART_STACK_MAX characters; a cycle ends the chain.
 */
import { errorHeadline, errorName, isErrorLike } from './errors';
import { cut } from './limits';
import { field, fieldValue, gOPD, isObj } from './reflect';
import type { Renderer } from './render';
import type { SerializedErrorPart } from './types';

export const PART_STACK_MAX = 8000;
const PARTS_MAX_CAUSES = 5;
const PARTS_MAX_MEMBERS = 10;

/** One cause or member: name, message and stack of an error-like value; any other value rendered like a console argument. */
export function errorPart(r: Renderer, x: unknown): SerializedErrorPart {
  try {
    if (isObj(x) && isErrorLike(x)) {
      const m = fieldValue(x, 'message');
      const s = fieldValue(x, 'stack');
      const part: SerializedErrorPart = { name: errorName(x), message: typeof m === 'string' ? cut(m, r.lim.maxLength) : errorHeadline(x, r.lim.maxLength) };
      if (typeof s === 'string' && s) part.stack = cut(s, PART_STACK_MAX);
      return part;
    }
    const text = r.single(x);
    return { message: r.failed() ? '[Unserializable value]' : text };
  } catch {
    return { message: '[Unserializable value]' };
  }
}

/** `value.cause`, its cause and so on, oldest last. */
export function causeParts(r: Renderer, value: object): SerializedErrorPart[] {
  const parts: SerializedErrorPart[] = [];
  const seen: unknown[] = [value];
  let cur: unknown = value;
  for (let d = 0; d < PARTS_MAX_CAUSES && isObj(cur); d++) {
    let c: { v: unknown } | undefined;
    try {
      c = field(cur, 'cause');
    } catch {
      break;
    }
    if (!c || seen.indexOf(c.v) !== -1) break;
    parts.push(errorPart(r, c.v));
    seen.push(c.v);
    try {
      if (!isErrorLike(c.v as object)) break;
    } catch {
      break;
    }
    cur = c.v;
  }
  return parts;
}

/** An AggregateError's own `errors` (a data property holding an array), in order. */
export function memberParts(r: Renderer, value: object): SerializedErrorPart[] {
  const parts: SerializedErrorPart[] = [];
  try {
    const f = field(value, 'errors');
    if (!f || !Array.isArray(f.v)) return parts;
    const arr = f.v as unknown[];
    const ld = gOPD(arr, 'length');
    const len = ld && typeof ld.value === 'number' ? ld.value : 0;
    for (let k = 0; k < len && k < PARTS_MAX_MEMBERS; k++) {
      const d = gOPD(arr, String(k));
      parts.push(errorPart(r, d && 'value' in d ? d.value : undefined));
    }
  } catch {
    return parts;
  }
  return parts;
}
