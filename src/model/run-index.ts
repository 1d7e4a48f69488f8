import { z } from 'zod';
import { errorGroupSchema, fixedGroupSchema } from './error-group';
import { summarySchema, testInfoSchema } from './schema';
import { unmappedNoteSchema } from './unmapped-note';
import { historySummarySchema } from './history-summary';

/** One test's row of `index.json`: the report's test fields, its attempts and counts, and its files. */
export const indexEntrySchema = testInfoSchema.pick({ title: true, titlePath: true, file: true, line: true, project: true, status: true, expectedStatus: true, retry: true, duration: true, repeatEachIndex: true }).extend({
  attempts: z.number().int(),
  summary: summarySchema,
  /** The Markdown report's file name, relative to the reports folder. */
  markdown: z.string(),
  /** The JSON report's file name, relative to the reports folder. */
  json: z.string(),
});

/** `reports/index.json`: the run's status and one row per test that finished. */
export const runIndexSchema = z.object({
  schemaVersion: z.literal(1),
  status: z.string(),
  interrupted: z.boolean(),
  startedAt: z.string(),
  updatedAt: z.string(),
  outputDir: z.string(),
  tests: z.array(indexEntrySchema),
  /** The run's distinct errors, warnings and failed requests, one per fingerprint, most widespread first. */
  groups: z.array(errorGroupSchema).optional(),
  /** The baseline file (`daebugBaseline`) the run's tests used, absolute. */
  baseline: z.string().optional(),
  /** Baseline groups that did not happen in this run (`npx daebug baseline --prune` drops them); present with a readable baseline. */
  fixed: z.array(fixedGroupSchema).optional(),
  /** Why scripts stayed unmapped in the run, one entry per cause; absent when every script could be mapped. */
  unmappedByCause: z.array(unmappedNoteSchema).optional(),
  /** With a history (the reporter's `history`): flaky and failing tests across the kept runs, this one included. */
  history: historySummarySchema.optional(),
});

export type IndexEntryData = z.infer<typeof indexEntrySchema>;
export type RunIndexData = z.infer<typeof runIndexSchema>;
