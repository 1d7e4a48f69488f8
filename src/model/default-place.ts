/**
 * The place Chromium gives an exception that has no stack, which is no line to fix. Pure; capture keeps the place in
 * the event's `location` (what the browser said), and enrichment, the line to fix, the reports and the CLI leave it
 * out of where they say the error is.
 */
import { UNCAUGHT_SOURCES } from './classify';
import type { Location } from './schema';

/** What the place of an event is read from; `frames` are a written report's (enrichment made them from `location`). */
export interface PlacedEvent {
  source: string;
  message: string;
  stack?: string | undefined;
  location?: Location | undefined;
  frames?: ReadonlyArray<{ url: string; line: number; column: number }> | undefined;
}

/**
 * A frame line of a stack after its message: V8's `    at …`, Firefox's and WebKit's `fn@url:line:col`. Read here
 * without the stack parser, which the CLI does not load.
 */
const FRAME_LINE = /\n\s+at\s|\n\s*[^\s@]*@\S+:\d+/;

/** A SyntaxError's position is where the parser stopped, which may well be line 1, column 1. */
const SYNTAX_ERROR = /^(?:Uncaught )?SyntaxError\b/;

/**
 * The location of an uncaught error or rejection that had no stack, when it is line 1, column 1 (CDP's 0:0): where
 * Chromium puts an exception no script line threw, at the start of its realm's main script. A promise the browser
 * rejected itself lands there: a service worker's `respondWith()` given no Response rejects with "Failed to convert
 * value to 'Response'.", placed at the first line of `service-worker.js`, which in a dev server's service worker is
 * the one-line module that imports the real source (SvelteKit's `import '/src/service-worker.js';`). Undefined for
 * any other event. A report written before this was known has that place as its one frame: it is that place too.
 */
export function browserDefaultPlace(event: PlacedEvent): Location | undefined {
  const at = event.location;
  if (!at || at.line !== 1 || at.column !== 1 || !UNCAUGHT_SOURCES.has(event.source) || SYNTAX_ERROR.test(event.message)) return undefined;
  const stack = event.stack?.startsWith(event.message) ? event.stack.slice(event.message.length) : event.stack;
  if (stack && FRAME_LINE.test(`\n${stack}`)) return undefined;
  const frames = event.frames ?? [];
  const only = frames[0];
  if (frames.length > 1 || (only && (only.url !== at.url || only.line !== at.line || only.column !== at.column))) return undefined;
  return at;
}
