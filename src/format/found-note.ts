/**
 * How a report names lines found in the app's source by what an event names (its URL), not by a frame of its stack:
 * `found in your source by its URL: `src/users.ts:12``. Said the same way wherever the event's place is shown, and
 * never dressed up as a stack frame: a text search may match more than one line, and all of them are listed.
 */
import type { DaebugEvent } from '../model/schema';
import { code } from './fence';

/** How the lines were found, in the report's words. */
function how(event: DaebugEvent, by: NonNullable<DaebugEvent['foundInSource']>[number]['by']): string {
  const name = event.component?.name;
  if (by === 'component-use') return `where ${code(`<${name ?? '?'}>`)} is used`;
  if (by === 'key-map') return `the ${code('.map(')} in ${code(name ?? '?')}`;
  return 'by its URL';
}

/** `src/users.ts:12`, one per found line. */
export function foundPlaces(event: DaebugEvent): string[] {
  return (event.foundInSource ?? []).map((f) => `${f.source}:${f.line}`);
}

/** `found in your source by its URL: `src/users.ts:12``, or '' when nothing was found. */
export function foundNote(event: DaebugEvent): string {
  const found = event.foundInSource ?? [];
  if (!found.length) return '';
  const by = found[0]!.by;
  const lines = foundPlaces(event).map((place) => code(place)).join(', ');
  return `found in your source${by === 'url' ? ' ' : ': '}${how(event, by)}: ${lines}${found.length > 1 ? ' (each line that matches)' : ''}`;
}
