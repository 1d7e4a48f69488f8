import { eventKind } from '../model/event-kind';
import { positionText } from '../model/position-text';
import type { DaebugEvent, ErrorPart, Frame, Location } from '../model/schema';
import { fence } from './fence';
import { loggedWhere } from './logged-where';
import { stackLines } from './frames';
import { networkBody } from './network-block';

/** Frame lines of a console event's stack (a warning's, a trace's): its place, not a full story. */
const CONSOLE_FRAMES = 4;

/** The fence info string that names an event: `Error window.onerror`, `JSON console.log`, `Text console.warn`. */
export function eventInfo(event: Pick<DaebugEvent, 'type' | 'source'>): string {
  return `${eventKind(event)} ${event.source}`;
}

const FRAME_LINE = /^\s+at\s|^\s*\S*@\S+:\d+/;

/** A stack split into its own headline (`TypeError: x is undefined`, over several lines if the message has them) and the rest. */
function splitStack(stack: string): { headline: string; rest: string[] } {
  const lines = stack.split('\n');
  const at = lines.findIndex((line) => FRAME_LINE.test(line));
  return at === -1 ? { headline: stack, rest: [] } : { headline: lines.slice(0, at).join('\n'), rest: lines.slice(at) };
}

/**
 * What went wrong, then one stack: the mapped frames when there are frames (library runs folded), else the
 * raw stack lines. The raw frames stay in the JSON report.
 */
export function errorBody(message: string, stack: string | undefined, frames: readonly Frame[] | undefined, shown?: number): string {
  if (!stack) return frames?.length ? [message, ...stackLines(frames, shown)].join('\n') : message;
  const { headline, rest } = splitStack(stack);
  return [headline || message, ...(frames?.length ? stackLines(frames, shown) : rest)].join('\n');
}

function where(location: Location & { original?: { source: string; line: number; column: number } | undefined }): string {
  const at = location.original;
  return at ? `${at.source}:${at.line}:${at.column}` : positionText(location.url, location.line, location.column);
}

/** An event's fence content: the message and one stack, and where a console call logged a thrown Error. */
export function eventBody(event: DaebugEvent): string {
  const network = networkBody(event);
  if (network !== undefined) return network;
  const isError = eventKind(event) === 'Error';
  let body: string;
  if (event.type === 'error') body = errorBody(event.message, event.stack, event.frames);
  else if (event.stack === undefined && !event.frames?.length) body = event.message;
  else {
    // A console call's message is its arguments; a logged Error adds its own stack below them.
    const frames = event.frames?.length ? stackLines(event.frames, isError || event.loggedAt ? undefined : CONSOLE_FRAMES) : errorBody('', event.stack, undefined).split('\n').slice(1);
    body = [event.message, ...frames].join('\n');
  }
  const logged = loggedWhere(event);
  if (logged && 'by' in logged) body += `\n${logged.by}`;
  else if (event.loggedAt) body += `\nlogged at ${where(event.loggedAt)}`;
  return body + errorParts(event);
}

/** Parts shown of each cause or AggregateError member: its headline and a few frames. */
const PART_FRAMES = 4;

/** An Error's `cause` chain and an AggregateError's members, each with its own (mapped, folded) stack. */
function errorParts(event: DaebugEvent): string {
  const lines: string[] = [];
  const part = (label: string, p: ErrorPart) => {
    lines.push(`${label}${p.name ? `${p.name}: ` : ''}${p.message.split('\n', 1)[0]}`);
    if (p.frames?.length) lines.push(...stackLines(p.frames, PART_FRAMES));
    else if (p.stack) lines.push(...splitStack(p.stack).rest.slice(0, PART_FRAMES));
  };
  for (const cause of event.cause ?? []) part('Caused by: ', cause);
  (event.aggregate ?? []).forEach((member, i) => part(`[${i}] `, member));
  return lines.length ? `\n${lines.join('\n')}` : '';
}

/** An event's fence; `excerpt`, the code of a line located by other means than a frame, goes below its own code frame. */
export function eventFence(event: DaebugEvent, excerpt = ''): string {
  let body = eventBody(event);
  if (event.snippet) body += `\n\n${event.snippet}`;
  if (excerpt) body += `\n\n${excerpt}`;
  if (event.hint) body += `\n\n${event.hint}`;
  return fence(eventInfo(event), body);
}
