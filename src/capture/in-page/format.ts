/**
 * Console format specifiers, like Node and Chrome: `%s` (the value as at top level), `%d`/`%i`
 * (parseInt-like integer), `%f` (float), `%o`/`%O`/`%j` (JSON; an Error as its headline), `%c` (consumed, prints nothing) and `%%`.
 * A directive without an argument left stays as it is.
 */
import { prim } from './primitives';
import { isErrorLike } from './errors';
import { isObj } from './reflect';
import type { Renderer } from './render';

const DIRECTIVES = 'sdifoOjc';

/** Writes one directive's argument. */
export function directive(r: Renderer, c: string, a: unknown): void {
  if (c === 'c') return;
  if (c === 's') {
    r.top(a);
    return;
  }
  if (c === 'o' || c === 'O' || c === 'j') {
    // An Error is shown as its headline, as at top level (React logs caught render errors with '%o').
    if (typeof a === 'function' || (isObj(a) && isErrorLike(a))) r.top(a);
    else if (typeof a === 'string' || isObj(a)) r.nested(a, 1);
    else r.out.put(prim(a, r.lim.maxLength));
    return;
  }
  // %d %i: integer (parseInt-like); %f: float
  if (typeof a === 'bigint') {
    r.out.put(c === 'f' ? prim(Number(a), r.lim.maxLength) : prim(a, r.lim.maxLength));
    return;
  }
  let n = NaN;
  if (typeof a === 'number') n = a;
  else if (typeof a === 'string') {
    const s = a.length > 100 ? a.slice(0, 100) : a;
    n = c === 'f' ? parseFloat(s) : parseInt(s, 10);
  }
  if (c !== 'f') n = Math.trunc(n);
  r.out.put(prim(n, r.lim.maxLength));
}

/**
 * Writes `format` with its directives replaced by `args` from index `from`; returns the index of the
 * first argument no directive used. The format is read up to the output budget only.
 */
export function applyFormat(r: Renderer, format: string, args: unknown[], from: number): number {
  let i = from;
  const f = format.length > r.lim.budget ? format.slice(0, r.lim.budget) : format;
  r.out.addExtra(format.length - f.length);
  let last = 0;
  for (let p = 0; p < f.length - 1; p++) {
    if (f.charCodeAt(p) !== 37) continue; // '%'
    const c = f.charAt(p + 1);
    if (c === '%') {
      r.out.putRaw(f.slice(last, p) + '%');
      last = p + 2;
      p++;
      continue;
    }
    if (DIRECTIVES.indexOf(c) === -1 || i >= args.length) continue;
    r.out.putRaw(f.slice(last, p));
    last = p + 2;
    p++;
    directive(r, c, args[i++]);
  }
  r.out.putRaw(f.slice(last));
  return i;
}
