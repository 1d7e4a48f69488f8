/**
 * How a report names the component an event's own text named: `component `<CartList>` at `src/CartList.tsx:3`
 * (found by name)`. Said the same way in the root cause, the unexpected errors and the warnings.
 */
import type { EventComponent } from '../model/schema';
import { code } from './fence';

/** `at `src/CartList.tsx:3` (found by name)`, or why there is no place. */
export function componentPlace(component: EventComponent): string {
  if (component.source === undefined || component.line === undefined) return "(not found in the source maps' sources)";
  const how = component.foundBy === 'owner-stack' ? `from ${component.framework}'s owner stack` : component.foundBy === 'enclosing' ? 'its code encloses the frame' : 'found by name';
  return `at ${code(`${component.source}:${component.line}`)} (${how})`;
}

/** `component `<CartList>` at `src/CartList.tsx:3` (found by name)`. */
export function componentNote(component: EventComponent): string {
  return `component ${code(`<${component.name}>`)} ${componentPlace(component)}`;
}
