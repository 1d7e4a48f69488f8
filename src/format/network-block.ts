import type { DaebugEvent, NetworkFailure } from '../model/schema';

/** `script http://…/app.js:12:5`, `parser http://…/index.html:4`, or just the initiator's type. */
export function initiatorText(initiator: NonNullable<NetworkFailure['initiator']>): string {
  if (initiator.original) return `${initiator.type} ${initiator.original.source}:${initiator.original.line}:${initiator.original.column}`;
  if (!initiator.url) return initiator.type;
  const line = initiator.line === undefined ? '' : `:${initiator.line}${initiator.column === undefined ? '' : `:${initiator.column}`}`;
  return `${initiator.type} ${initiator.url}${line}`;
}

/**
 * The fence content of a failed request: its line (method, URL, status or error text), then the resource type and
 * what started it. For Chromium's own "Failed to load resource" line (`daebugNetwork: 'off'`) the URL it is about,
 * which the line's text does not name.
 */
export function networkBody(event: DaebugEvent): string | undefined {
  const failure = event.network;
  if (failure) {
    const lines = [event.message, `resource: ${failure.resourceType}`];
    if (failure.initiator) lines.push(`initiator: ${initiatorText(failure.initiator)}`);
    return lines.join('\n');
  }
  if (event.source === 'browser.network' && event.location?.url && !event.message.includes(event.location.url)) return `${event.message}\nurl: ${event.location.url}`;
  return undefined;
}
