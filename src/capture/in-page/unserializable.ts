/** What is shown in place of a value whose inspection threw (a revoked Proxy, a throwing trap). */
import { cut } from './limits';
import { gOPD, isObj } from './reflect';

/** The exception's own `message` data property (never a getter), else its text for primitives, else "exception". */
export function reason(e: unknown): string {
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

export function unserializable(why: string): string {
  return '[Unserializable: ' + why + ']';
}
