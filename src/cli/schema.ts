import { z } from 'zod';
import { indexEntrySchema } from '../model/run-index';

/**
 * The test an error or a match belongs to: the index row's fields that name it (`titlePath` is the spec file,
 * describe titles and the test title), with `markdown` and `json` as paths (`--dir` plus the file name).
 */
export const cliTestSchema = indexEntrySchema.pick({ title: true, titlePath: true, file: true, line: true, project: true, status: true, markdown: true, json: true });

/** Where an error happened: the original source when a source map mapped it, else the script's URL. */
export const cliLocationSchema = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  mapped: z.boolean(),
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
  /** The stack as the browser gave it. */
  stack: z.string().optional(),
  /** The stack with each frame a source map mapped at its original file, line, column and function; absent when none was mapped. */
  originalStack: z.string().optional(),
  hint: z.string().optional(),
  /** Matched `daebugIgnore` or `daebug.expectError`. */
  expected: z.boolean(),
  /** Counts as an unexpected error (strict mode fails on it). */
  unexpected: z.boolean(),
  /** The error's group in the run (`npx daebug groups`), the same for the same error in any test. */
  fingerprint: z.string().optional(),
  /** Its fingerprint is in the run's baseline (`daebugBaseline`). */
  known: z.boolean().optional(),
  /** The Playwright attempt the error happened in (0 first, then retries). */
  retry: z.number().int(),
  test: cliTestSchema,
});

/** `daebug errors --json`. */
export const errorsOutputSchema = z.object({
  dir: z.string(),
  /** Errors listed or left out by `limit`: those of tests matching `--test`, without expected ones unless `--expected`. */
  total: z.number().int(),
  limit: z.number().int(),
  /** Errors that matched `daebugIgnore` or `daebug.expectError`, counted but not listed (`--expected` lists them). */
  expectedLeftOut: z.number().int(),
  /** The most recent `limit` errors, oldest first. */
  errors: z.array(cliErrorSchema),
});

/** `daebug summary --json`: index.json's rows, tests with unexpected errors first. */
export const summaryOutputSchema = z.object({
  dir: z.string(),
  /** Playwright's run status, `running` while the run goes on; absent when the folder had no valid index.json. */
  status: z.string().optional(),
  updatedAt: z.string().optional(),
  tests: z.array(indexEntrySchema),
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
export type ShowMatchesOutput = z.infer<typeof showMatchesOutputSchema>;
