/**
 * How a report names lines found in the app's source by what an event names (its URL), not by a frame of its stack:
 * `found in your source by its URL: `src/users.ts:12``. Said the same way wherever the event's place is shown, and
 * never dressed up as a stack frame: a text search may match more than one line, and all of them are listed.
 */
import type { DaebugEvent } from '../model/schema';
import { code } from './fence';

const HOW: Record<'url', string> = { url: 'by its URL' };

/** `src/users.ts:12`, one per found line. */
export function foundPlaces(event: DaebugEvent): string[] {
  return (event.foundInSource ?? []).map((f) => `${f.source}:${f.line}`);
}

/** `found in your source by its URL: `src/users.ts:12``, or '' when nothing was found. */
export function foundNote(event: DaebugEvent): string {
  const found = event.foundInSource ?? [];
  if (!found.length) return '';
  const by = HOW[found[0]!.by];
  const lines = foundPlaces(event).map((place) => code(place)).join(', ');
  return `found in your source ${by}: ${lines}${found.length > 1 ? ' (each line that matches)' : ''}`;
}
