import { z } from 'zod';
import { indexEntrySchema } from '../model/run-index';
import { frameSchema } from '../model/schema';

/**
 * The test an error or a match belongs to: the index row's fields that name it (`titlePath` is the spec file,
 * describe titles and the test title), with `markdown` and `json` as paths (`--dir` plus the file name).
 */
export const cliTestSchema = indexEntrySchema.pick({ title: true, titlePath: true, file: true, line: true, project: true, status: true, markdown: true, json: true });

/**
 * Where an error happened, as the Markdown report says it: its first user frame, at the original source when a
 * source map mapped it, else the script's URL; without a user frame, the browser's own location of the error.
 */
export const cliLocationSchema = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  mapped: z.boolean(),
  /** The function of that frame (its original name when the map had it). */
  functionName: z.string().optional(),
});

/** One error of `daebug errors --json` (the same errors and order as the text output). */
export const cliErrorSchema = z.object({
  message: z.string(),
  /** `window.onerror`, `self.onerror`, `unhandledrejection`, `console.error`, `page.crash`, ... */
  source: z.string(),
  realm: z.string(),
  /** ISO time of the event. */
  time: z.string(),
  location: cliLocationSchema.optional(),
  /**
   * How `location` was found when no frame of the stack is in the app's code: the app's call that made the failed
   * request behind the error, or a line found in the app's sources by what the error names (the `.map(` a key
   * warning is about, where a component is used, the assignment behind NG0100). Absent when `location` is a frame.
   */
  found: z.string().optional(),
  /**
   * The code around `location`, numbered, its line marked with `>`, as the report stored it: the frame's code frame,
   * the code of the app's call that made the request, or of the line found in the source (no caret: found by text).
   */
  snippet: z.string().optional(),
  /** The resource a browser's "Failed to load resource" line is about (its text does not name it): an image, a font. */
  url: z.string().optional(),
  /**
   * Why there is no `location` although the browser gave the error a place: it had no stack, and the place is only
   * the browser's default one, the first line of the realm's main script (a dev server's service worker: its
   * `import` line), and no evidence found the line to fix. The `note:` line of the text output.
   */
  unplaced: z.string().optional(),
  /** The stack as the browser gave it. */
  stack: z.string().optional(),
  /** The stack with each frame a source map mapped at its original file, line, column and function; absent when none was mapped. */
  originalStack: z.string().optional(),
  /** The stack's frames as the JSON report has them (mapped, user code and libraries marked); the text folds library runs like the Markdown. */
  frames: z.array(frameSchema).optional(),
  hint: z.string().optional(),
  /** Matched `daebugIgnore` or `daebug.expectError`. */
  expected: z.boolean(),
  /** Counts as an unexpected error (strict mode fails on it). */
  unexpected: z.boolean(),
  /** The error's group in the run (`npx daebug groups`), the same for the same error in any test. */
  fingerprint: z.string().optional(),
  /** Its fingerprint is in the run's baseline (`daebugBaseline`). */
  known: z.boolean().optional(),
  /** The error is the root cause the test's report names for this attempt (its "Root cause" section, `rankRootCause`). */
  rootCause: z.boolean(),
  /** For the root cause: how it was chosen, as the report's "Chosen:" line says it. */
  rootCauseReason: z.string().optional(),
  /** The Playwright attempt the error happened in (0 first, then retries). */
  retry: z.number().int(),
  test: cliTestSchema,
  /** How often the same error (its fingerprint) happened in this attempt, when more than once: one block stands for them all. */
  count: z.number().int().optional(),
  /** Every sighting of this one throw (a framework's log, the uncaught report), as the JSON report's event lists them. */
  sightings: z.array(z.object({ source: z.string(), by: z.string(), time: z.string() })).optional(),
});

/** `daebug errors --json`. */
export const errorsOutputSchema = z.object({
  dir: z.string(),
  /** Errors listed or left out by `limit`: those of tests matching `--test`, without expected ones unless `--expected`. */
  total: z.number().int(),
  limit: z.number().int(),
  /** Errors that matched `daebugIgnore` or `daebug.expectError`, counted but not listed (`--expected` lists them). */
  expectedLeftOut: z.number().int(),
  /** Unexpected errors the baseline knows, counted but not listed under `--new`; absent without it. */
  knownLeftOut: z.number().int().optional(),
  /** The most recent `limit` errors, oldest first. */
  errors: z.array(cliErrorSchema),
});

/** One test of `daebug summary --json`: its index.json row, and the root cause its report names. */
export const summaryTestSchema = indexEntrySchema.extend({
  /**
   * The root cause the test's report names (its "Root cause", of the last attempt): the first line of its message,
   * after its source unless it is an Error's own (`console.error: …`). Absent without unexpected errors.
   */
  rootCause: z.string().optional(),
  /** Where the root cause is: its first user frame's `file:line:column in function`, as the report says it. */
  rootCauseWhere: z.string().optional(),
});

/** `daebug summary --json`: index.json's rows, tests with unexpected errors first. */
export const summaryOutputSchema = z.object({
  dir: z.string(),
  /** Playwright's run status, `running` while the run goes on; absent when the folder had no valid index.json. */
  status: z.string().optional(),
  updatedAt: z.string().optional(),
  tests: z.array(summaryTestSchema),
});

/** `daebug show --json` when the query matched no test or several (one match prints the JSON report itself). */
export const showMatchesOutputSchema = z.object({
  query: z.string(),
  matches: z.array(cliTestSchema),
});

export type CliTest = z.infer<typeof cliTestSchema>;
export type CliLocation = z.infer<typeof cliLocationSchema>;
export type CliError = z.infer<typeof cliErrorSchema>;
export type ErrorsOutput = z.infer<typeof errorsOutputSchema>;
export type SummaryOutput = z.infer<typeof summaryOutputSchema>;
export type SummaryTest = z.infer<typeof summaryTestSchema>;
export type ShowMatchesOutput = z.infer<typeof showMatchesOutputSchema>;
