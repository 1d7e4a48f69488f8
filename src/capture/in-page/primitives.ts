/** Primitives (top-level text and nested JSON), JSON quoting, function and accessor labels. */
import { cut } from './limits';
import { gOPD } from './reflect';

/** JSON string literal. */
export function quote(s: string): string {
  return JSON.stringify(s);
}

/** Readable text of a primitive at top level: strings as-is, `-0`, `10n`, `Symbol(s)`, `undefined`. */
export function prim(v: unknown, maxLength: number): string {
  if (typeof v === 'number') return v === 0 && 1 / v < 0 ? '-0' : String(v);
  if (typeof v === 'bigint') return String(v) + 'n';
  if (typeof v === 'symbol') return cut(String(v), maxLength);
  if (typeof v === 'string') return v;
  return String(v);
}

/** A number as JSON: NaN, ±Infinity and -0 become strings. */
export function numJson(n: number): string {
  if (n !== n || n === Infinity || n === -Infinity) return '"' + String(n) + '"';
  return n === 0 && 1 / n < 0 ? '"-0"' : String(n);
}

/** `[Function: name]` from the own `name` data property, else `[Function (anonymous)]`. */
export function fnLabel(f: unknown): string {
  let name = '';
  try {
    const d = gOPD(f as object, 'name');
    if (d && typeof d.value === 'string') name = cut(d.value, 100);
  } catch {
    name = '';
  }
  return name ? '[Function: ' + name + ']' : '[Function (anonymous)]';
}

/** An accessor is shown, never run. */
export function accessorLabel(d: PropertyDescriptor): string {
  return d.get ? (d.set ? '[Getter/Setter]' : '[Getter]') : '[Setter]';
}
