import { failedLoadOf } from '../model/failed-load';
import { foundPlaces } from './found-note';
import type { DaebugEvent, Frame, NetworkFailure } from '../model/schema';
import { firstUserFrame, frameWhere } from './frames';

/** The libraries whose frames are above the app's call: `axios`, `@angular/common, rxjs`. */
function librariesAbove(frames: readonly Frame[], user: Frame): string[] {
  const names: string[] = [];
  for (const frame of frames.slice(0, frames.indexOf(user))) if (frame.library && !names.includes(frame.library)) names.push(frame.library);
  return names;
}

/**
 * `script src/api/user.ts:12:5 in loadUser (through axios)`: the app's call in the initiator's stack (its mapped
 * frames, the event's `frames`) and the libraries it went through; else the top frame, `parser http://…/index.html:4`,
 * or just the initiator's type.
 */
export function initiatorText(initiator: NonNullable<NetworkFailure['initiator']>, given?: readonly Frame[]): string {
  // Only a script has a stack: the parser's one frame is its document line, shown as CDP gave it.
  const frames = initiator.type === 'script' ? given : undefined;
  const user = firstUserFrame(frames);
  if (frames && user) {
    const through = librariesAbove(frames, user);
    return `${initiator.type} ${frameWhere(user)}${through.length ? ` (through ${through.slice(0, 3).join(', ')})` : ''}`;
  }
  if (initiator.original) return `${initiator.type} ${initiator.original.source}:${initiator.original.line}:${initiator.original.column}`;
  const top = frames?.find((f) => f.url);
  if (top?.original) return `${initiator.type} ${frameWhere(top)}`;
  if (!initiator.url) return initiator.type;
  const line = initiator.line === undefined ? '' : `:${initiator.line}${initiator.column === undefined ? '' : `:${initiator.column}`}`;
  return `${initiator.type} ${initiator.url}${line}`;
}

/**
 * The fence content of a failed request: its line (method, URL, status or error text), then the resource type and
 * what started it. For Chromium's own "Failed to load resource" line (`daebugNetwork: 'off'`, or a resource daebug
 * does not record as a request: an image, a font) the URL it is about, which the line's text does not name, and the
 * app's lines that name it.
 */
export function networkBody(event: DaebugEvent): string | undefined {
  const failure = event.network;
  if (failure) {
    const lines = [event.message, `resource: ${failure.resourceType}`];
    if (failure.initiator) lines.push(`initiator: ${initiatorText(failure.initiator, event.frames)}`);
    // Found by its URL in the app's source, not a frame: said as such, every matching line.
    const found = foundPlaces(event);
    if (found.length) lines.push(`found in your source by its URL: ${found.join(', ')}`);
    return lines.join('\n');
  }
  if ((event.source !== 'browser.network' && !failedLoadOf(event)) || !event.location?.url) return undefined;
  const lines = [event.message];
  if (!event.message.includes(event.location.url)) lines.push(`url: ${event.location.url}`);
  // A resource the browser could not load, found in the app's source by its URL, as a failed request's is.
  const found = foundPlaces(event);
  if (found.length) lines.push(`found in your source by its URL: ${found.join(', ')}`);
  return lines.length > 1 ? lines.join('\n') : undefined;
}
