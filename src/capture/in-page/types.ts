/** What the serializer returns; also the contract with src/capture (Node side). */

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
  /** the cause chain as data, nearest cause first (only when there is one) */
  causes?: SerializedErrorPart[];
  /** an AggregateError's `errors` as data (only when there are some) */
  members?: SerializedErrorPart[];
}

/** A cause or an AggregateError member: an error's name, message and stack, or any other value's rendering as message. */
export interface SerializedErrorPart {
  name?: string;
  message: string;
  stack?: string;
}

export type SerializeKind = 'console' | 'thrown';
