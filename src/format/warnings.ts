/**
 * The report's "Warnings" section: what a framework (or the app) warned about with `console.warn`, and React's
 * warnings, which arrive as `console.error` ("Each child in a list should have a unique "key" prop"). Each is shown by
 * its first line and its place: the component its own text names, located in the source, else its first frame in
 * the app. Warnings that say the same thing at the same place are one entry with a count; two warnings with the same
 * frame but different components stay apart. A warning that counts as an unexpected error (React's are
 * `console.error`) is listed once, among the unexpected errors, and only counted here. Pure.
 */
import { isThrownError } from '../diagnosis/explains';
import { errorClass } from '../diagnosis/rank';
import { loggedBy, REACT_WARNING } from '../diagnosis/logged-by';
import type { DaebugEvent } from '../model/schema';
import { componentNote } from './component-note';
import { eventInfo } from './event-block';
import { code, fence } from './fence';
import { foundExcerpt, foundNote } from './found-note';
import { firstLine, type FirstLineOptions } from '../text/first-line';
import { firstUserFrame, frameWhere } from './frames';

/** React's log about an error it caught is about that error, not a warning of its own. */
const REACT_CAUGHT = /The above error occurred in the </;

/** A warning: any `console.warn`, and a `console.error` that is a framework's warning rather than an Error. */
export function isWarning(event: DaebugEvent): boolean {
  if (event.expected) return false;
  if (event.source === 'console.warn') return true;
  if (event.source !== 'console.error' || isThrownError(event) || REACT_CAUGHT.test(event.message)) return false;
  // A framework's error handler logs an error on the app's behalf, whatever the value (Angular's ErrorHandler with an
  // HttpErrorResponse, which is no Error): the header must not count it among the warnings.
  const logger = loggedBy(event);
  if (logger?.by === 'framework' && !logger.warning) return false;
  return REACT_WARNING.test(event.message) || errorClass(event) === 'library-warning';
}

export interface WarningEntry {
  event: DaebugEvent;
  /** Warnings with the same words at the same place, this one included. */
  count: number;
  members: DaebugEvent[];
}

/** Where a warning is, in the report's words: its component, its first frame in the app, or neither. */
export function warningPlace(event: DaebugEvent): string {
  // A warning about how a component is used: where it is used (or its `.map(`) is the line to fix.
  const used = event.foundInSource?.[0]?.by === 'url' ? '' : foundNote(event);
  if (event.component) return `${componentNote(event.component)}${used ? `; ${used}` : ''}`;
  const frame = firstUserFrame(event.frames);
  if (frame) return `at ${code(frameWhere(frame))}`;
  const found = foundNote(event);
  if (found) return `${event.frames?.length ? 'no frame of its stack is in your code; ' : ''}${found}`;
  return event.frames?.length ? 'no frame of its stack is in your code' : '';
}

/** The code of the found line `warningPlace` names (where a component is used, its `.map(`), or ''. */
function placeExcerpt(event: DaebugEvent): string {
  const named = event.component ? event.foundInSource?.[0]?.by !== 'url' : !firstUserFrame(event.frames);
  return named ? foundExcerpt(event) : '';
}

const WARNING_LINE: FirstLineOptions = { max: 300, trim: true };

/**
 * The test's warnings that are not unexpected errors (those are listed once, as unexpected errors), one entry per
 * distinct first line, component and place, in the order they first came.
 */
export function warningEntries(events: readonly DaebugEvent[]): WarningEntry[] {
  const entries = new Map<string, WarningEntry>();
  for (const event of events) {
    if (!isWarning(event) || event.unexpected) continue;
    const key = [event.source, event.realm, firstLine(event.message, WARNING_LINE), event.component?.name ?? '', warningPlace(event)].join('\u0000');
    const entry = entries.get(key);
    if (entry) {
      entry.count++;
      entry.members.push(event);
    } else entries.set(key, { event, count: 1, members: [event] });
  }
  return [...entries.values()];
}

/** Warnings that count as unexpected errors: the Unexpected errors section lists them, the Warnings section does not. */
export function unexpectedWarnings(events: readonly DaebugEvent[]): number {
  return events.filter((e) => e.unexpected && isWarning(e)).length;
}

/** Entries listed at most; the JSON report has every warning. */
export const WARNINGS_LISTED = 20;

/**
 * `## Warnings`: one list line per entry (source, realm, time, place, repeats) and its first line in a fence, while they fit in `room` bytes; empty without warnings.
 */
export function warningsSection(events: readonly DaebugEvent[], h: string, room: number): string[] {
  const entries = warningEntries(events);
  if (!entries.length) return [];
  const total = entries.reduce((sum, e) => sum + e.count, 0);
  const elsewhere = unexpectedWarnings(events);
  const also = elsewhere ? `; ${elsewhere} more ${elsewhere === 1 ? 'is an unexpected error' : 'are unexpected errors'}, listed above only` : '';
  const lines = ['', `${h}# Warnings`, '', `${total} ${total === 1 ? 'warning' : 'warnings'}, each by its first line and where it is; the JSON report has their stacks${also}.`, ''];
  let used = Buffer.byteLength(lines.join('\n'));
  let listed = 0;
  for (const [index, { event, count, members }] of entries.slice(0, WARNINGS_LISTED).entries()) {
    const place = warningPlace(event);
    const repeats = count > 1 ? ` × ${count}${members[count - 1]!.ts === event.ts ? '' : ` (${event.ts} to ${members[count - 1]!.ts})`}` : '';
    // A line found in the source (where a component is used) shows its code, as a frame's code frame would.
    const excerpt = placeExcerpt(event);
    const body = firstLine(event.message, WARNING_LINE) + (excerpt ? `\n\n${excerpt}` : '');
    const entry = [`${index + 1}. ${code(event.source)} in ${code(event.realm)} at ${event.ts}${place ? `: ${place}` : ''}${repeats}`, fence(eventInfo(event), body), ''];
    const size = Buffer.byteLength(entry.join('\n')) + 1;
    if (used + size > room) break;
    lines.push(...entry);
    used += size;
    listed++;
  }
  const left = entries.slice(listed).reduce((sum, e) => sum + e.count, 0);
  if (left) lines.push(`… ${left} more ${left === 1 ? 'warning' : 'warnings'} in the JSON report …`, '');
  return lines;
}

