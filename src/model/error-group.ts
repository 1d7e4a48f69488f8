import { z } from 'zod';
import { firstSeenSchema } from './history-summary';

/**
 * One distinct problem of a run: the events of every test and attempt that share a fingerprint
 * (src/run/fingerprint.ts), as `index.json`'s `groups` and `npx daebug groups --json` list them.
 */
export const errorGroupSchema = z.object({
  fingerprint: z.string(),
  /** The first occurrence's message; the first one read in full when an earlier one kept V8's preview. */
  message: z.string(),
  /** The first occurrence's source (`window.onerror`, `unhandledrejection`, `console.error`, `network`, …). */
  source: z.string(),
  /** The first occurrence's original `file:line`, and ` in <function>` when known. */
  where: z.string().optional(),
  /** Occurrences across all tests and attempts. */
  count: z.number().int(),
  /** Distinct tests it happened in (repeats and retries of one test count once). */
  tests: z.number().int(),
  /** The Markdown reports it happened in, relative to the reports folder, first-seen first. */
  reports: z.array(z.string()),
  origin: z.enum(['app', 'third-party', 'browser']),
  /** Its events count as unexpected errors (strict mode fails on them unless they are known). */
  unexpected: z.boolean(),
  /** With a baseline: not in it. Absent when the run had no baseline. */
  new: z.boolean().optional(),
  /** It happened in some attempts of its tests and not in others (retries, `--repeat-each`). */
  intermittent: z.boolean(),
  /** Attempts of its tests that had it (`seen`), and all attempts of those tests (`total`). */
  attempts: z.object({ seen: z.number().int(), total: z.number().int() }),
  /** With a history (the reporter's `history`): the first kept run that had it; `runsAgo: 0` is new in this run. */
  firstSeen: firstSeenSchema.optional(),
});

/** A baseline group that did not happen in this run: fixed, or not reached. `npx daebug baseline --prune` drops it. */
export const fixedGroupSchema = z.object({
  fingerprint: z.string(),
  message: z.string(),
  source: z.string(),
  where: z.string().optional(),
});

export type ErrorGroup = z.infer<typeof errorGroupSchema>;
export type FixedGroup = z.infer<typeof fixedGroupSchema>;
