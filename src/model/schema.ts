import { z } from 'zod';

import { SCHEMA_VERSION } from './schema-version';

export { SCHEMA_VERSION };

export const locationSchema = z.object({
  url: z.string(),
  line: z.number().int(),
  column: z.number().int(),
});

export const frameSchema = z.object({
  functionName: z.string().optional(),
  url: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  original: z
    .object({ source: z.string(), line: z.number().int(), column: z.number().int(), functionName: z.string().optional() })
    .optional(),
  userCode: z.boolean().optional(),
  /** The library the frame runs in (a `node_modules` package, a source on the map's ignoreList, a framework runtime); the Markdown folds such frames. */
  library: z.string().optional(),
  unmappedReason: z.string().optional(),
  /**
   * On the first frame of an async parent (daebugAsyncStacks): what scheduled the work below it, as CDP names it
   * (`setTimeout`, `await`, `Promise.then`, a `console.createTask` name such as React's `<button>`).
   */
  asyncParent: z.string().optional(),
});

/** An Error's cause or an AggregateError member, with its own stack, parsed and source-mapped like the error's. */
export const errorPartSchema = z.object({
  /** The Error's name; absent when the cause is not an Error (then `message` is the value's rendering). */
  name: z.string().optional(),
  message: z.string(),
  stack: z.string().optional(),
  /** Where it was thrown: the top of its own stack. */
  location: locationSchema.optional(),
  frames: z.array(frameSchema).optional(),
});

/**
 * A failed request or a response of 400 or more (events of the source `network`), or a request the page canceled
 * itself (source `network.canceled`, with `canceled: true`).
 */
export const networkSchema = z.object({
  method: z.string(),
  url: z.string(),
  /** The response's status, when there was a response. */
  status: z.number().int().optional(),
  statusText: z.string().optional(),
  /** Why there was no response, e.g. `net::ERR_CONNECTION_REFUSED`. */
  errorText: z.string().optional(),
  /** `document`, `script`, `stylesheet`, `fetch` or `xhr`, as Playwright names them. */
  resourceType: z.string(),
  /**
   * The page canceled the request itself (an `AbortController`, a navigation, a router replacing a preload, a frame
   * removed while it loaded): not a failure, so never unexpected, never grouped and never in a baseline.
   */
  canceled: z.literal(true).optional(),
  /**
   * What started the request, as CDP says: the parser of a document, or a script. A script's whole stack when it
   * made the request (at most 30 frames, async parents included with `daebugAsyncStacks`) is the event's `frames`,
   * source-mapped like an error's, a library's fetch wrapper (axios, Angular's HttpClient) on top.
   */
  initiator: z
    .object({
      type: z.string(),
      /** The innermost frame with a URL (the script, or the document for the parser), at its generated position. */
      url: z.string().optional(),
      line: z.number().int().optional(),
      column: z.number().int().optional(),
      /**
       * The app's own call that made the request: the first user frame of the initiator's stack (below any library
       * frames) at its original position and function, when a source map had it.
       */
      original: z.object({ source: z.string(), line: z.number().int(), column: z.number().int(), functionName: z.string().optional() }).optional(),
      /** The code around `original`, as a frame's `snippet`: the app's call that made the request, with a caret. */
      snippet: z.string().optional(),
    })
    .optional(),
});

/**
 * The component a framework names in the event's own text (React's "Check the render method of `X`", Vue's `at <X>`,
 * Angular's "Expression location: X component"), never one borrowed from a neighbouring event, and where it is.
 */
export const componentSchema = z.object({
  /** As the framework wrote it, without brackets: `CartList`. */
  name: z.string(),
  framework: z.enum(['React', 'Vue', 'Angular']),
  /** The original source that holds it, as frames show sources (`src/CartList.tsx`); absent when it was not found. */
  source: z.string().optional(),
  /** 1-based line in `source`: of the declaration (found by name), or of the owner frame. */
  line: z.number().int().optional(),
  /**
   * How it was found: `name` when its declaration (`function CartList(`, `class AppComponent`, a Vue SFC `UserCard.vue`)
   * was searched for in the source map's sources; `owner-stack` when React's owner stack (a component stack in the
   * message, or the `console.createTask` frames `daebugAsyncStacks` exposes) gave the line in the component that rendered it;
   * `enclosing` when the event's text names none but its first frame in the app is inside the component's own class or
   * options object (an Angular `@Component` class's `ngOnInit`, a React class component's method, a Vue
   * `defineComponent` object's hook): `line` is that class's or object's declaration.
   */
  foundBy: z.enum(['name', 'owner-stack', 'enclosing']).optional(),
});

/**
 * A Chromium DevTools issue (the Audits domain): a Content-Security-Policy violation, a CORS block, mixed content,
 * a cookie that was not set or sent, a deprecated feature. Events of the source `browser.issue` carry one, and a
 * failed request blocked by CORS carries its CORS issue.
 */
export const browserIssueSchema = z.object({
  kind: z.enum(['csp', 'cors', 'mixed-content', 'cookie', 'deprecation']),
  /** Chromium's issue code, e.g. `ContentSecurityPolicyIssue`, `CorsIssue`. */
  code: z.string(),
  /** What the browser blocked: the script, image or frame URL (CSP, mixed content). */
  blockedUrl: z.string().optional(),
  /** The CSP directive that blocked it, e.g. `script-src-elem`. */
  directive: z.string().optional(),
  /** A report-only policy: nothing was blocked. */
  reportOnly: z.boolean().optional(),
  /** Why: CORS's error (`MissingAllowOriginHeader`), the CSP violation's kind (`url`, `inline`, `eval`), a cookie's reasons. */
  reason: z.string().optional(),
  /** The request it is about (CORS, cookies). */
  requestUrl: z.string().optional(),
});

/** A line of the app's original source found by what an event names, not by its stack. */
export const foundLineSchema = z.object({
  source: z.string(),
  /** 1-based. */
  line: z.number().int(),
  /**
   * What was looked for: `url`, a failed request's URL; `component-use`, where the app uses the component a warning
   * about its use names (Vue's prop warnings); `key-map`, the `.map(` in the component React's key warning names;
   * `assignment`, where the component Angular's NG0100 names sets the new value; `inner-html`, the `[innerHTML]`
   * binding of the component Angular's sanitizer warning comes from.
   */
  by: z.enum(['url', 'component-use', 'key-map', 'assignment', 'inner-html']),
  /** The lines around it, numbered, the line marked with `>`, as a frame's `snippet` (no caret: found by text, it has no column). */
  snippet: z.string().optional(),
});

export const eventSchema = z.object({
  type: z.enum(['error', 'console']),
  level: z.string().optional(),
  source: z.string(),
  realm: z.string(),
  ts: z.string().regex(/^\d\d:\d\d:\d\d$/),
  time: z.string(),
  message: z.string(),
  stack: z.string().optional(),
  location: locationSchema.optional(),
  /** For a console call that logged an Error: where the console call was (`location` is where the Error was thrown). */
  loggedAt: locationSchema
    .extend({
      /** The console call's position in the original source, when the script's source map had it. */
      original: z.object({ source: z.string(), line: z.number().int(), column: z.number().int() }).optional(),
    })
    .optional(),
  jobId: z.string().optional(),
  step: z.string().optional(),
  stepId: z.string().optional(),
  expected: z.boolean(),
  /**
   * Why an event no allow-list entry names is expected: `awaited by the test (page.waitForEvent('pageerror'))` when the
   * test waited for this very error, which is then what it checks, not a bug it missed.
   */
  expectedBy: z.string().optional(),
  /** true for events that count as unexpected errors (strict mode fails on them). */
  unexpected: z.boolean().optional(),
  /** true when the message was rendered from structured (object) arguments. */
  structured: z.boolean().optional(),
  /** true when the values were not read in full (a passing test's log under `daebugValues: 'auto'`, or the page was gone first): the message is V8's preview. */
  preview: z.boolean().optional(),
  frames: z.array(frameSchema).optional(),
  snippet: z.string().optional(),
  hint: z.string().optional(),
  /**
   * For an unexpected error: the substring that `daebugIgnore` or `daebug.expectError(pattern)` would match it by
   * (a failed request's URL path, a known error's stable words, else the message's start without its volatile parts).
   * For an error that is the app's intended behaviour in the test, not for hiding a bug; the Markdown never lists it.
   */
  ignorePattern: z.string().optional(),
  network: networkSchema.optional(),
  /** A DevTools issue (source `browser.issue`, or a failed request blocked by CORS): what was blocked, by what, why. */
  issue: browserIssueSchema.optional(),
  /** The thrown or logged Error's `cause` chain, nearest first (at most 5). */
  cause: z.array(errorPartSchema).optional(),
  /** An AggregateError's `errors`, in order (at most 10). */
  aggregate: z.array(errorPartSchema).optional(),
  /**
   * For errors, warnings, failed requests and the browser's error lines: a short stable hash of the error's kind,
   * normalised message and first user frame (file and function), the same for the same error in any test, build or
   * shard. `index.json`'s `groups` are keyed by it; a baseline file lists them.
   */
  fingerprint: z.string().optional(),
  /** `app`, `third-party` (every URL it names is of another origin than the test's pages) or `browser` (the browser's own line). */
  origin: z.enum(['app', 'third-party', 'browser']).optional(),
  /** The fingerprint is in the baseline file (`daebugBaseline`): strict mode does not fail on it. */
  known: z.boolean().optional(),
  /** The framework component this event's own text names, located in the original source when it could be. */
  component: componentSchema.optional(),
  /**
   * Where the app's own source names this event's evidence, found when no frame of its stack is the app's: `by: 'url'`
   * for a failed request, the lines whose string or template literal names its URL (`` `/api/users/${id}` `` for
   * `/api/users/42`), most specific first, at most 3; `component-use`, `key-map`, `assignment` and `inner-html` for a
   * warning about a component's use. Found by text, not a frame: several lines may match.
   */
  foundInSource: z.array(foundLineSchema).optional(),
  /**
   * The event that explains this one, as an index into this attempt's top-level `events` (a failed request before the
   * JSON parse error of its body; React's error before its boundary log). Indexes are per attempt: `events` is never
   * reordered once written, so `events[causedBy]` is the cause.
   */
  causedBy: z.number().int().nonnegative().optional(),
  /** The events this one explains, as indexes into this attempt's top-level `events`, in order; the inverse of `causedBy`. */
  causes: z.array(z.number().int().nonnegative()).optional(),
  /**
   * This event is another sighting of the error at `events[sightingOf]`: the same throw, logged again by a framework
   * (React, React Router, Vue, Angular) or reported again as uncaught, in the same realm within a moment. It shares that
   * error's fingerprint and is not an unexpected error of its own: the error is counted, listed and fails a strict
   * test once.
   */
  sightingOf: z.number().int().nonnegative().optional(),
  /**
   * On an error seen more than once (see `sightingOf`): every sighting, this one included, in time order, with who
   * reported it (`uncaught`, `unhandled rejection`, `React`, `React Router`, `Vue`, `Angular's ErrorHandler`, a
   * library's package, `your code`, or the console method when nothing tells).
   */
  sightings: z.array(z.object({ source: z.string(), by: z.string(), time: z.string() })).optional(),
});

export const jobSchema = z.object({
  id: z.string(),
  title: z.string().optional(),
  kind: z.enum(['eval', 'job', 'step']).optional(),
  realm: z.string(),
  code: z.string().optional(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  durationMs: z.number().optional(),
  ok: z.boolean(),
  /** false when the test ended (timeout, crash) before the job finished. */
  finished: z.boolean().optional(),
  /** The job's result as a JSON value: a function becomes its source text, undefined becomes "undefined". */
  value: z.unknown().optional(),
  error: z
    .object({ message: z.string(), stack: z.string().optional(), frames: z.array(frameSchema).optional(), snippet: z.string().optional(), hint: z.string().optional() })
    .optional(),
  events: z.array(eventSchema),
});

export const droppedSchema = z.object({
  total: z.number().int(),
  bySource: z.record(z.string(), z.number().int()),
  firstAt: z.string().optional(),
  lastAt: z.string().optional(),
});

/**
 * Why a script's frames cannot be mapped: it has no `sourceMappingURL` (`no-source-map`), its map is not served
 * (`map-not-found`: 404, 410, no such file), cannot be read (`map-unreadable`: another status, a timeout, too large),
 * is not a source map (`map-malformed`), or the script itself cannot be read (`script-unreadable`).
 */
export type UnmappedCause = 'no-source-map' | 'map-not-found' | 'map-unreadable' | 'map-malformed' | 'script-unreadable';

/** A script some of the test's frames (not a library's) stayed unmapped in, for the run's index to say once why. */
export const unmappedScriptSchema = z.object({
  /** The script's URL. */
  url: z.string(),
  /** An `UnmappedCause`; read as a string, so a report of a newer daebug with a new cause still parses. */
  cause: z.string(),
  /** What the frames say (`unmappedReason`). */
  reason: z.string(),
  /** The source map's URL, when the script names one. */
  map: z.string().optional(),
});

export const diagnosticSchema = z.object({
  code: z.string(),
  message: z.string(),
  hint: z.string().optional(),
  time: z.string(),
});

/** Allow-list entries that matched nothing in the test, as written (`"text"` or `/re/`). */
export const staleAllowListSchema = z.object({
  daebugIgnore: z.array(z.string()),
  expectError: z.array(z.string()),
});

export const summarySchema = z.object({
  errors: z.number().int(),
  unexpected: z.number().int(),
  console: z.number().int(),
  dropped: z.number().int(),
  expected: z.number().int().optional(),
  /** Events of the source `network` (counted in `errors` too). */
  network: z.number().int().optional(),
  /** Unexpected errors whose fingerprint is in the baseline (counted in `unexpected` too); present with a baseline. */
  known: z.number().int().optional(),
});

export const testInfoSchema = z.object({
  title: z.string(),
  titlePath: z.array(z.string()),
  file: z.string(),
  line: z.number().int(),
  project: z.string(),
  status: z.string(),
  expectedStatus: z.string(),
  retry: z.number().int(),
  duration: z.number(),
  strict: z.boolean(),
  /** Playwright's repeatEachIndex with `--repeat-each`, present only for repeats after the first. */
  repeatEachIndex: z.number().int().optional(),
  /** The baseline file of `daebugBaseline`, absolute, when the test had one. */
  baseline: z.string().optional(),
  /** When the test failed: the end of its failing step or action (an `expect` that timed out, a click that threw). */
  failedAt: z.string().optional(),
  /** When the test failed: the title of that step or action (`Click locator('#save')`, `Expect "toBeVisible"`). */
  failedStep: z.string().optional(),
  /** When the test failed: where that step or action is in the spec, `file:line` relative to the root. */
  failedLocation: z.string().optional(),
  /** When the test failed: the first line of Playwright's first error (`Test timeout of 30000ms exceeded.`). */
  failure: z.string().optional(),
});

const reportBody = {
  schemaVersion: z.literal(SCHEMA_VERSION),
  test: testInfoSchema,
  capture: z.boolean().optional(),
  realms: z.array(z.string()).optional(),
  jobs: z.array(jobSchema),
  /** `test.step` blocks that had events, rendered like jobs. */
  steps: z.array(jobSchema).optional(),
  events: z.array(eventSchema),
  summary: summarySchema,
  dropped: droppedSchema.optional(),
  diagnostics: z.array(diagnosticSchema).optional(),
  /**
   * Scripts whose frames stayed unmapped because their map cannot be had (not because mapping ran out of time);
   * scripts without a map are listed only when minified. `index.md` says once for the run why.
   */
  unmappedScripts: z.array(unmappedScriptSchema).optional(),
  /** `daebugIgnore` and `expectError` entries that matched no event of this test. */
  staleAllowList: staleAllowListSchema.optional(),
  markdownFile: z.string().optional(),
};

export const attemptSchema = z.object(reportBody);

/** The JSON report written for each test: `reports/<slug>.json`. */
export const reportSchema = z.object({
  ...reportBody,
  /** Earlier attempts of the same test (retries), oldest first. */
  attempts: z.array(attemptSchema).optional(),
});

export type Location = z.infer<typeof locationSchema>;
export type Frame = z.infer<typeof frameSchema>;
export type EventComponent = z.infer<typeof componentSchema>;
export type FoundLine = z.infer<typeof foundLineSchema>;
export type NetworkFailure = z.infer<typeof networkSchema>;
export type BrowserIssue = z.infer<typeof browserIssueSchema>;
export type ErrorPart = z.infer<typeof errorPartSchema>;
export type DaebugEvent = z.infer<typeof eventSchema>;
export type Job = z.infer<typeof jobSchema>;
export type Dropped = z.infer<typeof droppedSchema>;
export type Diagnostic = z.infer<typeof diagnosticSchema>;
export type UnmappedScript = z.infer<typeof unmappedScriptSchema>;
export type StaleAllowList = z.infer<typeof staleAllowListSchema>;
export type Summary = z.infer<typeof summarySchema>;
export type ReportTest = z.infer<typeof testInfoSchema>;
export type Attempt = z.infer<typeof attemptSchema>;
export type Report = z.infer<typeof reportSchema>;
