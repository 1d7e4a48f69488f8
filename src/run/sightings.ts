/**
 * One throw, one problem. Frameworks report an error they caught more than once: React logs it (`console.error(error)`
 * in production, "The above error occurred in…" in development), React Router logs it again ("React Router caught
 * the following error during render"), Vue and Angular log it from their handlers, and React's development build
 * renders a failing component twice, so the same line throws twice within a moment. Each of those is a sighting of
 * one error: this module finds them, keeps one as the error (its `primary`) and names the others' loggers. Pure.
 *
 * Two events are sightings of one throw when they are in the same realm, within `MOMENT_MS` of each other, reported
 * by two reporters, and carry the same Error: its stack text, which a re-log or a rethrow of one Error object keeps to
 * the character. Two throws of one line are two Errors with stacks of their own (another caller, another retry of the
 * render): they are repeats of one error, which the report counts in one entry, not sightings.
 */
import { UNCAUGHT_SOURCES } from '../model/classify';
import type { DaebugEvent } from '../model/schema';
import { libraryOf } from '../stack/library';
import { isUserSource } from '../stack/user-code';
import { hasContentHash, normalizeMessage } from './normalize';

/** How far apart sightings of one throw lie: one commit of a framework, its retry, its logs. */
export const MOMENT_MS = 1000;

/** A framework's words when it logs an error it caught, and whose words they are. */
const FRAMEWORK_LOGS: ReadonlyArray<[RegExp, string]> = [
  [/^React Router caught the following error during render\b/, 'React Router'],
  [/The above error occurred in (?:the <[A-Za-z_$][\w$.]*> component|one of your React components)/, 'React'],
  [/^\[Vue warn\]/, 'Vue'],
  [/^ERROR\b/, "Angular's ErrorHandler"],
];

/** Packages whose console calls are a framework's, by the name a reader knows. */
const FRAMEWORK_PACKAGES: ReadonlyArray<[RegExp, string]> = [
  [/^react-router(?:-dom)?$|^@react-router\//, 'React Router'],
  [/^react-dom$|^react$|^scheduler$/, 'React'],
  [/^vue$|^@vue\//, 'Vue'],
  [/^@angular\//, 'Angular'],
];

/** The text of the Error an event is about: the first line of its own stack, else of its message, without "Uncaught ". */
export function errorText(event: Pick<DaebugEvent, 'message' | 'stack'>): string {
  const stackHead = event.stack?.split('\n', 1)[0]?.trim();
  return normalizeMessage(stackHead || event.message);
}

/** Which events can be sightings of an error: thrown, rejected, or logged with `console.error` / `console.warn`. */
function isErrorSighting(event: DaebugEvent): boolean {
  return UNCAUGHT_SOURCES.has(event.source) || event.source === 'console.error' || event.source === 'console.warn';
}

/**
 * Who reported this sighting, in a reader's words: `uncaught`, `unhandled rejection`, `React`, `React Router`, `Vue`,
 * `Angular's ErrorHandler`, another library by its package, `your code`, or `console.error` when nothing tells (a
 * console call in a bundle without a source map).
 */
export function sightingBy(event: DaebugEvent): string {
  if (event.source === 'unhandledrejection') return 'unhandled rejection';
  if (UNCAUGHT_SOURCES.has(event.source)) return 'uncaught';
  for (const [words, who] of FRAMEWORK_LOGS) if (words.test(event.message)) return who;
  const at = event.loggedAt ?? event.frames?.[0];
  if (!at) return event.source;
  const source = at.original?.source;
  const library = libraryOf(source ?? at.url) ?? (source ? undefined : event.frames?.[0]?.library);
  if (library) return FRAMEWORK_PACKAGES.find(([pattern]) => pattern.test(library))?.[1] ?? library;
  if (source) return isUserSource(source) ? 'your code' : event.source;
  // A console call in a build's output without a map: its own code or a bundled library's, nothing tells which.
  const file = at.url.split(/[?#]/, 1)[0]!;
  return hasContentHash(file.slice(file.lastIndexOf('/') + 1)) ? event.source : 'your code';
}

/** How well a sighting stands for the error: its own uncaught report, then a log of the Error as itself, then the rest. */
function standing(event: DaebugEvent): number {
  if (UNCAUGHT_SOURCES.has(event.source)) return 3;
  const headline = normalizeMessage(event.message);
  return headline === errorText(event) ? 2 : event.source === 'console.error' ? 1 : 0;
}

/**
 * Sightings, not repeats: two reporters (React and React Router, a framework's log and the uncaught report). A loop
 * that throws or logs a new Error from one line, reported the same way each time, repeats the error: the report
 * counts those repeats in one entry, and strict mode still sees each one.
 */
function isOneThrowSeenTwice(members: readonly DaebugEvent[]): boolean {
  return new Set(members.map(sightingBy)).size > 1;
}

export interface SightingGroup {
  /** The sighting that stands for the error: it keeps its fingerprint and its place among the unexpected errors. */
  primary: number;
  /** Every sighting, the primary included, as indexes into the events, in time order. */
  members: number[];
}

/**
 * The groups of two or more sightings of one throw among `events` (a test's events in time order), as indexes. An
 * expected event and an unexpected one are never one group: each keeps what the test said of it.
 */
export function findSightings(events: readonly DaebugEvent[]): SightingGroup[] {
  const open = new Map<string, { members: number[]; lastMs: number }>();
  const groups: Array<{ members: number[] }> = [];
  events.forEach((event, i) => {
    if (!isErrorSighting(event)) return;
    // An Error's stack: its headline and at least one frame (a bare message is no identity).
    if (!event.stack || !/\n\s+at\s/.test(event.stack)) return;
    const key = [event.realm, event.expected ? 'expected' : '', event.stack].join('\u0000');
    const timeMs = Date.parse(event.time);
    const current = open.get(key);
    if (current && Math.abs(timeMs - current.lastMs) <= MOMENT_MS) {
      current.members.push(i);
      current.lastMs = timeMs;
      return;
    }
    const group = { members: [i], lastMs: timeMs };
    open.set(key, group);
    groups.push(group);
  });
  return groups
    .filter(({ members }) => members.length > 1 && isOneThrowSeenTwice(members.map((i) => events[i]!)))
    .map(({ members }) => {
      let primary = members[0]!;
      for (const i of members) if (standing(events[i]!) > standing(events[primary]!)) primary = i;
      return { primary, members };
    });
}
