import { z } from 'zod';

/** Version of the JSON report layout; bumped on any breaking change of field meaning. */
export const SCHEMA_VERSION = 1;

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

/** A failed request or a response of 400 or more (events of the source `network`). */
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
  /** What started the request: the parser of a document, or a script (with its call site), as CDP says. */
  initiator: z
    .object({
      type: z.string(),
      url: z.string().optional(),
      line: z.number().int().optional(),
      column: z.number().int().optional(),
      /** The initiating script's position in the original source, when its source map had it. */
      original: z.object({ source: z.string(), line: z.number().int(), column: z.number().int() }).optional(),
    })
    .optional(),
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
  /** true for events that count as unexpected errors (strict mode fails on them). */
  unexpected: z.boolean().optional(),
  /** true when the message was rendered from structured (object) arguments. */
  structured: z.boolean().optional(),
  /** true when the page's document was gone before its values could be read: the message is V8's preview. */
  preview: z.boolean().optional(),
  frames: z.array(frameSchema).optional(),
  snippet: z.string().optional(),
  hint: z.string().optional(),
  network: networkSchema.optional(),
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
export type NetworkFailure = z.infer<typeof networkSchema>;
export type ErrorPart = z.infer<typeof errorPartSchema>;
export type DaebugEvent = z.infer<typeof eventSchema>;
export type Job = z.infer<typeof jobSchema>;
export type Dropped = z.infer<typeof droppedSchema>;
export type Diagnostic = z.infer<typeof diagnosticSchema>;
export type StaleAllowList = z.infer<typeof staleAllowListSchema>;
export type Summary = z.infer<typeof summarySchema>;
export type ReportTest = z.infer<typeof testInfoSchema>;
export type Attempt = z.infer<typeof attemptSchema>;
export type Report = z.infer<typeof reportSchema>;
