/** Which label a non-plain object gets when it is shown as a single value rather than walked. */
import { builtinLabel } from './builtins';
import { errorHeadline, isErrorLike } from './errors';
import { hostLabel, platformObjectLabel } from './host';
import type { ResolvedLimits } from './limits';

/**
 * The label of a built-in leaf, DOM node, global scope, error-like value or opaque platform object, in
 * that order; null for containers (arrays, Map, Set, ordinary objects and class instances).
 */
export function leafLabel(o: object, lim: ResolvedLimits): string | null {
  const builtin = builtinLabel(o, lim);
  if (builtin !== null) return builtin;
  const host = hostLabel(o);
  if (host !== null) return host;
  if (isErrorLike(o)) return errorHeadline(o, lim.maxLength);
  return platformObjectLabel(o);
}
