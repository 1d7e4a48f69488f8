import type { DaebugEvent } from '../model/schema';
import { fence } from './fence';
import { mappedFrames } from './frames';
import { networkBody } from './network-block';

/** The fence info string that names an event: `Error window.onerror`, `JSON console.log`, `Text console.warn`. */
export function eventInfo(event: DaebugEvent): string {
  if (event.source === 'network') return 'Error network';
  // Chromium's own log lines are not counted among the errors the header names: their fence must not say Error.
  if (event.type === 'console' && event.source.startsWith('browser.')) return `Text ${event.source}`;
  if (event.type === 'error') return `Error ${event.source}`;
  if (event.level === 'error') return `Error ${event.source}`;
  if (event.structured && event.source.startsWith('console.')) return `JSON ${event.source}`;
  return `Text ${event.source}`;
}

/** An event's fence content: the stack for errors, the message (and call site, if any) for console output. */
export function eventBody(event: DaebugEvent): string {
  const network = networkBody(event);
  if (network !== undefined) return network;
  const stack = event.stack;
  if (!stack) return event.message;
  if (event.type === 'error') return stack.startsWith(event.message) ? stack : `${event.message}\n${stack}`;
  const frames = stack.split('\n').filter((line) => /^\s+at\s/.test(line));
  const body = frames.length ? `${event.message}\n${frames.join('\n')}` : event.message;
  const loggedAt = event.loggedAt;
  return loggedAt ? `${body}\nlogged at ${loggedAt.url}:${loggedAt.line}:${loggedAt.column}` : body;
}

export function eventFence(event: DaebugEvent): string {
  let body = eventBody(event);
  const mapped = mappedFrames(event.frames);
  if (mapped) body += `\n\n${mapped}`;
  if (event.snippet) body += `\n\n${event.snippet}`;
  if (event.hint) body += `\n\n${event.hint}`;
  return fence(eventInfo(event), body);
}
