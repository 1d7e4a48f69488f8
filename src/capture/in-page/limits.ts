/** Bounds on one serialization, and cutting text to them. */

export interface SerializeLimits {
  /** max nesting depth for objects/arrays; default 3 */
  maxDepth: number;
  /** max own keys / items shown per object, array, Map, Set; default 50 */
  maxBreadth: number;
  /** max characters of the final message; default 1000 */
  maxLength: number;
}

export const defaultSerializeLimits: SerializeLimits = { maxDepth: 3, maxBreadth: 50, maxLength: 1000 };

export interface ResolvedLimits extends SerializeLimits {
  /** Work stops once the output passes this many chars; the result is cut to maxLength anyway. */
  budget: number;
}

function pick(x: unknown, fallback: number): number {
  return typeof x === 'number' && x >= 0 ? Math.floor(x) : fallback;
}

/** Fills in defaults for missing, negative or non-numeric limits. */
export function resolveLimits(lim?: Partial<SerializeLimits> | null): ResolvedLimits {
  const maxDepth = pick(lim ? lim.maxDepth : undefined, defaultSerializeLimits.maxDepth);
  const maxBreadth = pick(lim ? lim.maxBreadth : undefined, defaultSerializeLimits.maxBreadth);
  const maxLength = pick(lim ? lim.maxLength : undefined, defaultSerializeLimits.maxLength);
  return { maxDepth, maxBreadth, maxLength, budget: maxLength * 2 + 64 };
}

/** The marker appended to text that was cut; `total` is the length before cutting. */
export function truncatedMarker(total: number): string {
  return ' …[truncated, ' + total + ' chars]';
}

/** `s` itself, or its first `max` chars and the marker. */
export function cut(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) + truncatedMarker(s.length) : s;
}
