/**
 * The line an agent should open for an error, said once for the Markdown, `daebug errors`, the MCP tools and the
 * failure output: the first frame of the app's code; without one, the line daebug found by evidence (the app's call
 * that made the failed request behind the error, the `.map(` a key warning is about, where a component is used, the
 * assignment behind NG0100); without either, nothing, and the caller keeps the top frame with a note, or says why
 * the place the browser gave is none (`unplacedAt`). Pure.
 */
import { browserDefaultPlace } from '../model/default-place';
import type { DaebugEvent, FoundLine, Location } from '../model/schema';
import { firstUserFrame } from '../stack/first-user-frame';

export interface LineToFix {
  file: string;
  line: number;
  /** 1 for a line found by text, which has no column. */
  column: number;
  functionName?: string;
  /** At its original source (a map had it, or it was found in the app's sources). */
  mapped: boolean;
  /**
   * How a line that is no frame of the stack was found: `initiator` (the app's call that made the request, for the
   * request itself or for the error it caused, which `request` then names), or how `foundInSource` found it.
   */
  found?: { by: 'initiator' | FoundLine['by']; request?: string; places: string[] };
  /** The code around the line, as enrichment stored it (a frame's code frame, the initiator's, a found line's); absent when it could not be read. */
  snippet?: string;
}

/** The line to fix, or undefined when neither a frame nor evidence places the error. */
export function lineToFix(event: DaebugEvent, events: readonly DaebugEvent[] = []): LineToFix | undefined {
  // A warning about how a component is used (a wrong prop) is fixed where it is used, as the report's Warnings
  // section says: its one frame in the app is the bootstrap (Vue's `mount()`) or whatever re-rendered it.
  if (event.component && event.foundInSource?.[0] && event.foundInSource[0].by !== 'url') return foundLine(event.foundInSource);
  // The browser's default place (the first line of the realm's script) is no frame, even where a report made one of it.
  const frame = browserDefaultPlace(event) ? undefined : firstUserFrame(event.frames);
  if (frame) {
    const functionName = frame.original?.functionName ?? frame.functionName;
    const at = frame.original ? { file: frame.original.source, line: frame.original.line, column: frame.original.column, mapped: true } : { file: frame.url || '<anonymous>', line: frame.line, column: frame.column, mapped: false };
    // The event's code frame is its first user frame's, this frame's.
    return { ...at, ...(functionName ? { functionName } : {}), ...(event.snippet ? { snippet: event.snippet } : {}) };
  }
  const cause = event.causedBy === undefined ? undefined : events[event.causedBy];
  const request = event.network ? event : cause?.network ? cause : undefined;
  const caller = request?.network?.initiator?.original;
  if (request && caller) {
    const place = `${caller.source}:${caller.line}`;
    const found: LineToFix['found'] = { by: 'initiator', places: [place] };
    if (request !== event) found.request = request.message.split('\n', 1)[0]!;
    const snippet = request.network?.initiator?.snippet;
    return { file: caller.source, line: caller.line, column: caller.column, mapped: true, ...(caller.functionName ? { functionName: caller.functionName } : {}), found, ...(snippet ? { snippet } : {}) };
  }
  return event.foundInSource?.length ? foundLine(event.foundInSource) : undefined;
}

/** The first line found by evidence, with the others it was found with. */
function foundLine(lines: readonly FoundLine[]): LineToFix {
  const first = lines[0]!;
  return { file: first.source, line: first.line, column: 1, mapped: true, found: { by: first.by, places: lines.map((l) => `${l.source}:${l.line}`) }, ...(first.snippet ? { snippet: first.snippet } : {}) };
}

/**
 * The place the browser gave an error that has no line to fix: its default place for an exception without a stack,
 * the first line of the realm's main script (src/model/default-place.ts), when no evidence found a line either.
 * Undefined when the error has a line to fix, or a place worth naming.
 */
export function unplacedAt(event: DaebugEvent, events: readonly DaebugEvent[] = []): Location | undefined {
  const at = browserDefaultPlace(event);
  return at && !lineToFix(event, events) ? at : undefined;
}
