/** The parts of CDP's Runtime.RemoteObject that daebug reads. */
export interface RemoteObject {
  type: string;
  subtype?: string;
  className?: string;
  value?: unknown;
  unserializableValue?: string;
  description?: string;
  objectId?: string;
  preview?: { properties?: Array<{ name: string; type: string; value?: string; subtype?: string }>; overflow?: boolean; description?: string; subtype?: string };
}

export function isPrimitive(object: RemoteObject): boolean {
  return object.type !== 'object' && object.type !== 'function' ? true : object.subtype === 'null';
}

/** Text of a primitive console argument, as the console would print it. */
export function primitiveText(object: RemoteObject): string {
  switch (object.type) {
    case 'string':
      return String(object.value);
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return object.description ?? 'Symbol()';
    case 'bigint':
      return object.unserializableValue ?? object.description ?? 'BigInt';
    case 'number':
      return object.unserializableValue ?? String(object.value);
    case 'object':
      return object.subtype === 'null' ? 'null' : previewText(object);
    case 'function':
      return `[Function: ${functionName(object.description)}]`;
    default:
      return object.unserializableValue ?? String(object.value ?? object.description ?? '');
  }
}

function functionName(description: string | undefined): string {
  const match = /^(?:async\s+)?(?:function\*?|class)\s*([\w$]*)/.exec(description ?? '');
  return match?.[1] || '(anonymous)';
}

/**
 * Values whose preview lists their internals (a Map's `size`, a RegExp's `lastIndex`, an element's every property, a
 * Date's nothing): V8's description says what they are (`Map(2)`, the date, `/a+b/gi`, `span#target.label`).
 */
const DESCRIBED: ReadonlySet<string> = new Set(['map', 'set', 'weakmap', 'weakset', 'date', 'regexp', 'node', 'promise', 'typedarray', 'arraybuffer', 'dataview', 'iterator', 'generator']);

/** A property name as DevTools shows it: bare when it is an identifier, else quoted. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The class an object is an instance of, when it is not a plain `Object`: CDP's `className`
 * (`DedicatedWorkerGlobalScope`, `Cart`); undefined for plain objects, arrays and objects without a name.
 */
function instanceClass(object: RemoteObject): string | undefined {
  if (object.subtype !== undefined) return undefined;
  const name = object.className ?? object.preview?.description ?? object.description;
  return name && name !== 'Object' && IDENTIFIER.test(name) ? name : undefined;
}

/**
 * A shallow rendering from V8's preview, used until (or instead of) the full in-page serialization: one level deep,
 * V8's first properties (5 of an object, 100 of an array), long strings shortened in the middle. A class instance
 * keeps its class's name as DevTools shows it (`DedicatedWorkerGlobalScope {name: "", onmessage: null, …}`): a dump
 * of its properties alone does not say what it is. Plain objects stay JSON-like (`{"a":1}`).
 */
export function previewText(object: RemoteObject): string {
  if (object.subtype === 'error') return object.description ?? 'Error';
  if (object.subtype && DESCRIBED.has(object.subtype) && object.description) return object.description;
  const preview = object.preview;
  if (!preview?.properties) return object.description ?? object.className ?? 'Object';
  const isArray = object.subtype === 'array';
  // A function's preview value is empty: its type says more.
  const valueOf = (p: (typeof preview.properties)[number]) => (p.type === 'string' ? JSON.stringify(p.value ?? '') : p.value || p.type);
  const named = instanceClass(object);
  if (named) {
    const fields = preview.properties.map((p) => `${IDENTIFIER.test(p.name) ? p.name : JSON.stringify(p.name)}: ${valueOf(p)}`);
    if (preview.overflow) fields.push('…');
    return `${named} {${fields.join(', ')}}`;
  }
  const parts = preview.properties.map((p) => (isArray ? valueOf(p) : `${JSON.stringify(p.name)}:${valueOf(p)}`));
  if (preview.overflow) parts.push(isArray ? '"…"' : '"…":"…"');
  return isArray ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}

/**
 * Applies console format specifiers (%s %d %i %f %o %O %j %c %%) to the arguments; `texts` are the arguments' own
 * texts when some are objects (their previews), else each primitive's.
 */
export function formatPrimitiveArgs(args: readonly RemoteObject[], texts: readonly string[] = args.map(primitiveText)): string {
  const first = args[0];
  if (!first || first.type !== 'string' || !texts[0]!.includes('%')) return texts.join(' ');
  let next = 1;
  const head = texts[0]!.replace(/%([sdifoOjc%])/g, (whole, spec: string) => {
    if (spec === '%') return '%';
    if (next >= texts.length) return whole;
    const arg = args[next];
    const text = texts[next++]!;
    if (spec === 'c') return '';
    if (spec === 'd' || spec === 'i') return arg?.type === 'number' || arg?.type === 'string' ? String(Math.trunc(Number(text))) : 'NaN';
    if (spec === 'f') return String(Number(text));
    if ((spec === 'o' || spec === 'O' || spec === 'j') && arg?.type === 'string') return JSON.stringify(text);
    return text;
  });
  return [head, ...texts.slice(next)].join(' ');
}
