/**
 * A known error told from V8's preview of its values (issue 25: "known errors, those in the baseline, are previews
 * too"). A fingerprint hashes the normalised message, and a logged object's text differs between its preview
 * (`{"id":3,"tags":Array(2),"nested":Object}`) and its full serialization (`{"id":3,"tags":["a"],"nested":{"ok":true}}`):
 * the preview's fingerprint is never the baseline's, so a known `console.warn` of an object was read in full at every
 * passing test's end, the one read that waits for the page's main thread. Its shape is the message with every
 * bracketed part (an object or array logged) as `{…}` or `[…]`, with its kind and place: the same for the preview
 * and the full text, so a preview can be matched to the baseline group it belongs to. Pure.
 *
 * The shape keeps less than the fingerprint: two errors of one kind, at one place and with the same words, that log
 * objects of another structure share it. A shape that two groups of the baseline share matches neither.
 */
import type { BaselineEntry } from './baseline';
import { baselineMessage } from './baseline-message';
import { errorKind, stableWhere, type Fingerprintable } from './fingerprint';
import { normalizeMessage } from './normalize';

const CLOSE: Record<string, string> = { '{': '}', '[': ']' };

/**
 * A class instance's preview names its class as DevTools does (`Cart {id: 3, …}`, src/capture/remote-object.ts);
 * its full serialization is JSON (`{"id":3}`). The name goes, so both have one shape; JSON (`{"id":`) never matches.
 */
const CLASS_PREVIEW = /(^|[\s(,[:])[A-Za-z_$][\w$]* \{(?=(?:[A-Za-z_$][\w$]*|<[a-z]+>|"(?:[^"\\]|\\.)*"): |…\})/g;

/**
 * The message with each outermost `{…}` and `[…]` part collapsed; a part left open at the end (a message cut inside
 * an object) is collapsed too. A closing bracket that does not match gives the message back unchanged.
 */
export function messageShape(text: string): string {
  const message = text.replace(CLASS_PREVIEW, '$1{');
  let out = '';
  const open: string[] = [];
  let start = 0;
  for (let i = 0; i < message.length; i++) {
    const c = message[i]!;
    if (c === '{' || c === '[') {
      if (!open.length) {
        out += message.slice(start, i);
        start = i;
      }
      open.push(c);
    } else if (c === '}' || c === ']') {
      if (!open.length) continue;
      const opened = open.pop()!;
      if (CLOSE[opened] !== c) return message;
      if (!open.length) {
        out += `${opened}…${c}`;
        start = i + 1;
      }
    }
  }
  if (open.length) return `${out}${open[0]}…${CLOSE[open[0]!]}`;
  return out + message.slice(start);
}

/** The shape of an event: kind, message shape and place. Undefined for a failed request, whose URL is its identity. */
export function eventShape(event: Fingerprintable): string | undefined {
  if (event.network) return undefined;
  return shapeKey(event.source, baselineMessage(normalizeMessage(event.message)), stableWhere(event.frames));
}

/** The shapes of a baseline's groups, each with its fingerprint, or null where two groups share one. */
export function baselineShapes(groups: readonly BaselineEntry[]): Map<string, string | null> {
  const shapes = new Map<string, string | null>();
  for (const entry of groups) {
    const key = shapeKey(entry.source, baselineMessage(normalizeMessage(entry.message)), entry.where);
    shapes.set(key, shapes.has(key) ? null : entry.fingerprint);
  }
  return shapes;
}

function shapeKey(source: string, message: string, where: string | undefined): string {
  return `${errorKind(source)}\n${messageShape(message)}\n${where ?? ''}`;
}
