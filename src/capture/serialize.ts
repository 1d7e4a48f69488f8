/**
 * The serializer for console arguments and thrown values, as Node sees it.
 *
 * The serializer itself runs inside pages and workers. Its source is the TypeScript modules in
 * ./in-page/ (see ./in-page/README.md), bundled at build time by scripts/build-in-page.ts into one
 * function expression, SERIALIZER_SOURCE, which is what gets sent through CDP (`Runtime.callFunctionOn`):
 *
 *   const serialize = (${serializerFunctionSource()});
 *   serialize('console', args, limits);   // or serialize('thrown', value, limits)
 *
 * `serializeConsoleArgs` and `serializeThrown` are typed entry points that run the same modules in Node.
 */
import { SERIALIZER_SOURCE } from './in-page/generated/serializer-source';
import type { SerializeLimits } from './in-page/limits';
import { serialize } from './in-page/serialize';
import type { SerializedConsole, SerializedThrown } from './in-page/types';

export { defaultSerializeLimits, type SerializeLimits } from './in-page/limits';
export type { SerializedConsole, SerializedThrown, SerializeKind } from './in-page/types';
export { SERIALIZER_SOURCE };

/**
 * Source text of one function expression, `(kind: 'console' | 'thrown', input: unknown, limits?:
 * Partial<SerializeLimits>) => SerializedConsole | SerializedThrown`, self-contained (it references only
 * the language's built-ins and feature-detected host globals), to be embedded in code run in a page or worker.
 */
export function serializerFunctionSource(): string {
  return SERIALIZER_SOURCE;
}

/**
 * @deprecated Compatibility for code that embeds `serializeInRealm.toString()`; use
 * `serializerFunctionSource()`. This is SERIALIZER_SOURCE evaluated, so its `toString()` is exactly that text.
 */
export const serializeInRealm = (0, eval)(`(${SERIALIZER_SOURCE})`) as (
  kind: 'console' | 'thrown',
  input: unknown,
  limits?: Partial<SerializeLimits>,
) => SerializedConsole | SerializedThrown;

/** Serializes the arguments of one console call. */
export function serializeConsoleArgs(args: unknown[], limits?: Partial<SerializeLimits>): SerializedConsole {
  return serialize('console', args, limits) as SerializedConsole;
}

/** Describes a thrown value or rejection reason. */
export function serializeThrown(value: unknown, limits?: Partial<SerializeLimits>): SerializedThrown {
  return serialize('thrown', value, limits) as SerializedThrown;
}
