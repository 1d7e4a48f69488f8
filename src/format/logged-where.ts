/**
 * Where a console call that logged an Error was made, in the report's words: `logged at src/SaveButton.tsx:16:15`
 * when the call is the app's; when it is a library's (React's boundary log in `react-dom`, Angular's ErrorHandler in
 * `_pending_tasks-chunk.mjs`), its place inside that library tells nothing, so who logged it is said instead:
 * `logged by Angular's ErrorHandler`. Pure.
 */
import { consoleCallInApp, loggedBy } from '../diagnosis/logged-by';
import type { DaebugEvent } from '../model/schema';
import { libraryOf } from '../stack/library';

export type LoggedWhere = { at: { source: string; line: number; column: number } } | { by: string };

export function loggedWhere(event: DaebugEvent): LoggedWhere | undefined {
  const loggedAt = event.loggedAt;
  if (!loggedAt) return undefined;
  const at = loggedAt.original ?? { source: loggedAt.url, line: loggedAt.line, column: loggedAt.column };
  if (consoleCallInApp(event) !== false) return { at };
  const logger = loggedBy(event);
  if (logger?.by === 'framework') return { by: `logged by ${logger.what}` };
  const library = libraryOf(at.source);
  return { by: `logged by a library${library ? ` (${library})` : ''}` };
}
