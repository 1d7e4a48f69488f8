/**
 * The in-page serializer's entry, bundled by scripts/build-in-page.ts into one function expression
 * (SERIALIZER_SOURCE) that src/capture sends to pages and workers.
 *
 * Rendering conventions (nested values are JSON text; top-level strings and labels are unquoted):
 * - plain and class-instance objects: own enumerable string keys only, no class-name prefix,
 *   e.g. `{"a":1}`; accessors are never invoked and render as "[Getter]", "[Setter]" or
 *   "[Getter/Setter]"; `toJSON` is never called.
 * - Map: `{"Map(n)":[[key,value],...]}`; Set: `{"Set(n)":[value,...]}` (keys may be objects).
 * - over maxBreadth: arrays, Map and Set get a last element "… N more items", objects a last key
 *   `"…":"N more keys"`; beyond maxDepth: "[Object]", "[Array]", "[Map]", "[Set]".
 * - holes in sparse arrays: "[empty]"; undefined: "undefined"; NaN/±Infinity/-0/BigInt/Symbol: strings.
 * - boxed primitives: "[Number: 1]", "[String: \"s\"]", ...
 * - host objects are labelled, never enumerated (see host.ts); errors as "Name: message".
 */
import { serializeConsoleCall } from './console';
import type { SerializeLimits } from './limits';
import { serializeThrownValue } from './thrown';
import type { SerializedConsole, SerializedThrown, SerializeKind } from './types';

/** `console`: `input` is the call's argument list; `thrown`: the thrown value or rejection reason. Never throws. */
export function serialize(kind: SerializeKind, input: unknown, limits?: Partial<SerializeLimits> | null): SerializedConsole | SerializedThrown {
  return kind === 'console' ? serializeConsoleCall(input, limits) : serializeThrownValue(input, limits);
}
