/**
 * The one rule that names an event's kind, used by the Markdown fences and by the header's counts alike, so the
 * two always agree. It depends on the event's type and source only, never on its content:
 *
 * - `Error`: everything thrown (uncaught errors, rejections, crashes), `console.error` / `console.assert`, and failed
 *   requests (source `network`);
 * - `JSON`: `console.log`, `console.dir`, `console.dirxml`, `console.table` (values as the page logged them);
 * - `Text`: every other source: `console.warn`, `console.info`, `console.debug`, `console.trace`, browser lines,
 *   navigations and worker starts.
 */
export type EventKind = 'Error' | 'JSON' | 'Text';

const ERROR_CONSOLE: ReadonlySet<string> = new Set(['console.error', 'console.assert', 'network']);
const JSON_CONSOLE: ReadonlySet<string> = new Set(['console.log', 'console.dir', 'console.dirxml', 'console.table']);

export function eventKind(event: { type: 'error' | 'console'; source: string }): EventKind {
  if (event.type === 'error' || ERROR_CONSOLE.has(event.source)) return 'Error';
  return JSON_CONSOLE.has(event.source) ? 'JSON' : 'Text';
}
