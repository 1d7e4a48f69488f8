/**
 * How a report says that one error was seen more than once (src/run/sightings.ts): `logged 3 times: by React, by
 * React Router, uncaught`. Said the same way in the Markdown's unexpected errors, the CLI's blocks and the MCP tools.
 */
import type { DaebugEvent } from '../model/schema';

type Sighting = NonNullable<DaebugEvent['sightings']>[number];

/** `by React`, `uncaught`, `unhandled rejection`: a sighting's reporter as a phrase. */
function byPhrase(sighting: Sighting): string {
  return sighting.by === 'uncaught' || sighting.by === 'unhandled rejection' || sighting.by.startsWith('console.') ? sighting.by : `by ${sighting.by}`;
}

/** `logged 2 times: by React, by React Router`, or nothing for an error seen once. */
export function sightingsNote(sightings: readonly Sighting[] | undefined): string {
  if (!sightings || sightings.length < 2) return '';
  const phrases: string[] = [];
  const counts = new Map<string, number>();
  for (const sighting of sightings) {
    const phrase = byPhrase(sighting);
    if (!counts.has(phrase)) phrases.push(phrase);
    counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  }
  const said = phrases.map((phrase) => (counts.get(phrase)! > 1 ? `${phrase} (×${counts.get(phrase)})` : phrase));
  return `logged ${sightings.length} times: ${said.join(', ')}`;
}
