/**
 * How a report names lines found in the app's source by what an event names (its URL), not by a frame of its stack:
 * `found in your source by its URL: `src/users.ts:12``. Said the same way wherever the event's place is shown, and
 * never dressed up as a stack frame: a text search may match more than one line, and all of them are listed.
 */
import { lineToFix, type LineToFix } from '../diagnosis/line-to-fix';
import { placeUrl } from '../model/position-text';
import type { DaebugEvent, Location } from '../model/schema';
import { code } from './fence';

/** How the lines were found, in the report's words; `plain` for text outside Markdown (a test's failure message). */
function how(event: DaebugEvent, by: NonNullable<DaebugEvent['foundInSource']>[number]['by'], plain = false): string {
  const show = plain ? (text: string) => text : code;
  const name = event.component?.name;
  if (by === 'component-use') return `where ${show(`<${name ?? '?'}>`)} is used`;
  if (by === 'key-map') return `the ${show('.map(')} in ${show(name ?? '?')}`;
  if (by === 'assignment') return `where ${show(name ?? '?')} sets the new value`;
  if (by === 'inner-html') return `the ${show('[innerHTML]')} binding in ${show(name ?? '?')}`;
  return 'by its URL';
}

/** `src/users.ts:12`, one per found line. */
export function foundPlaces(event: DaebugEvent): string[] {
  return (event.foundInSource ?? []).map((f) => `${f.source}:${f.line}`);
}

/** `found in your source by its URL: `src/users.ts:12``, or '' when nothing was found; `plain` without backticks. */
export function foundNote(event: DaebugEvent, { plain = false } = {}): string {
  const found = event.foundInSource ?? [];
  if (!found.length) return '';
  const lines = foundPlaces(event).map((place) => (plain ? place : code(place))).join(', ');
  return `${foundHow(event, { plain })}: ${lines}${found.length > 1 ? ' (each line that matches)' : ''}`;
}

/** `found in your source by its URL`, without the lines; '' when nothing was found. */
export function foundHow(event: DaebugEvent, { plain = false } = {}): string {
  const by = event.foundInSource?.[0]?.by;
  return by ? `found in your source${by === 'url' ? ' ' : ': '}${how(event, by, plain)}` : '';
}

/**
 * What to do at the found lines, for a Root cause's "Try first" when no frame of the stack is the app's: the line
 * to open named by what was searched for. '' when nothing was found.
 */
export function foundAdvice(event: DaebugEvent): string {
  const found = event.foundInSource ?? [];
  if (!found.length) return '';
  const places = foundPlaces(event).map((place) => code(place)).join(', ');
  const name = code(event.component?.name ?? '?');
  const one = found.length === 1 ? '' : ' (each line that matches)';
  switch (found[0]!.by) {
    case 'component-use':
      return `No frame of its stack is in your code; open ${places}, where ${code(`<${event.component?.name ?? '?'}>`)} is used${one}, and pass the props it warns about.`;
    case 'key-map':
      return `No frame of its stack is in your code; open ${places}, the ${code('.map(')} in ${name}${one}, and give each element it returns a stable ${code('key')}.`;
    case 'assignment':
      return `No frame of its stack is in your code; open ${places}, where ${name} sets the new value${one}: it changes after Angular checked the view, so set it before (in ${code('ngOnInit')} or as the initial value) or make it a signal.`;
    case 'inner-html':
      return `No frame of its stack is in your code; open ${places}, the ${code('[innerHTML]')} binding in ${name}${one}: bind markup without the content Angular strips (scripts, event handlers), or sanitize it yourself.`;
    default:
      return `No frame of its stack is in your code; its URL is written at ${places} in your source${one}: open the call there that made this request.`;
  }
}

/** The code of each found line that has it stored, under its place: `src/CartList.tsx:5` then its lines; '' for none. */
export function foundExcerpt(event: DaebugEvent): string {
  return (event.foundInSource ?? [])
    .filter((f) => f.snippet)
    .map((f) => `${f.source}:${f.line}\n${f.snippet}`)
    .join('\n\n');
}

/**
 * The code of the line to fix when no frame of the stack is the app's (a frame's code frame is the event's own
 * `snippet`): the app's call that made the request behind it, else each line found in the source; '' for none.
 */
export function lineToFixExcerpt(event: DaebugEvent, toFix: LineToFix | undefined): string {
  if (!toFix?.found) return '';
  if (toFix.found.by === 'initiator') return toFix.snippet ? `${toFix.file}:${toFix.line}\n${toFix.snippet}` : '';
  return foundExcerpt(event);
}

/**
 * A failed request's located line, with its code: the app's call that made it (unless the event shows it already),
 * else the lines naming its URL. The fence names those lines on its `found in your source by its URL:` line just
 * above: the code of a single one follows without its place again.
 */
export function requestExcerpt(event: DaebugEvent): string {
  const initiator = event.network?.initiator;
  if (initiator?.snippet && initiator.original) return event.snippet ? '' : `${initiator.original.source}:${initiator.original.line}\n${initiator.snippet}`;
  const found = event.foundInSource ?? [];
  return found.length === 1 && found[0]!.by === 'url' ? (found[0]!.snippet ?? '') : foundExcerpt(event);
}

/**
 * How the line to fix was found when no frame of the stack is the app's (src/diagnosis/line-to-fix.ts), in plain
 * words for `daebug errors`' `found:` line and the Markdown: `the app's call that made the request behind it (GET
 * http://h/api/prices.json 404)`, `found in your source: the .map( in PriceList`; each line listed when several match.
 */
export function lineToFixHow(event: DaebugEvent, found: NonNullable<LineToFix['found']>, { plain = true } = {}): string {
  const show = plain ? (text: string) => text : code;
  if (found.by === 'initiator') return found.request ? `the app's call that made the request behind it (${show(found.request)})` : "the app's call that made this request";
  const how = foundHow(event, { plain });
  return found.places.length > 1 ? `${how} (each line that matches: ${found.places.map(show).join(', ')})` : how;
}

/**
 * Why an error is not placed although the browser gave it a place (src/diagnosis/line-to-fix.ts `unplacedAt`): `no
 * line to fix: the browser gave no stack, only its default place, line 1 of `…/service-worker.js`, the realm's main
 * script`. Said the same way in the Markdown, the failure message and `daebug errors`' `note:` line.
 */
export function unplacedNote(at: Location, { plain = true } = {}): string {
  const script = plain ? placeUrl(at.url) : code(placeUrl(at.url));
  return `no line to fix: the browser gave no stack, only its default place, line 1 of ${script}, the realm's main script`;
}

/** `the app's call that made the request behind it: `src/App.tsx:30``, for an error a failed request caused; or ''. */
export function initiatorNote(event: DaebugEvent, events: readonly DaebugEvent[]): string {
  const toFix = lineToFix(event, events);
  return toFix?.found?.by === 'initiator' ? `${lineToFixHow(event, toFix.found, { plain: false })}: ${code(`${toFix.file}:${toFix.line}:${toFix.column}`)}` : '';
}
