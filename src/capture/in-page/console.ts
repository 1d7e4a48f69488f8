/** One console call's arguments as one line of text. */
import { applyFormat } from './format';
import type { SerializeLimits } from './limits';
import { isObj } from './reflect';
import { createRenderer } from './render';
import type { SerializedConsole } from './types';

/** Whether any of the first 10000 arguments is an object or function. */
export function isStructured(list: unknown[]): boolean {
  for (let k = 0; k < list.length && k < 10000; k++) {
    if (isObj(list[k])) return true;
  }
  return false;
}

/**
 * The arguments joined by spaces; a first string argument followed by others is a format string
 * (like Node and Chrome, a lone format string is printed as it is). A non-array is one argument.
 */
export function serializeConsoleCall(args: unknown, limits?: Partial<SerializeLimits> | null): SerializedConsole {
  try {
    const r = createRenderer(limits);
    const list: unknown[] = Array.isArray(args) ? args : [args];
    const structured = isStructured(list);
    let i = 0;
    const first = list[0];
    if (typeof first === 'string' && list.length > 1) i = applyFormat(r, first, list, 1);
    for (; i < list.length && !r.out.exhausted(); i++) {
      if (i > 0) r.out.put(' ');
      r.top(list[i]);
    }
    const fin = r.out.finish();
    const res: SerializedConsole = { text: fin.text, structured };
    if (fin.cut) res.originalLength = fin.total;
    return res;
  } catch {
    return { text: '[Unserializable console arguments]', structured: false };
  }
}
