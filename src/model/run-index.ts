import { z } from 'zod';
import { summarySchema } from './schema';

/** One test's row of `index.json`. */
export const indexEntrySchema = z.object({
  title: z.string(),
  titlePath: z.array(z.string()),
  file: z.string(),
  line: z.number().int(),
  project: z.string(),
  status: z.string(),
  expectedStatus: z.string(),
  retry: z.number().int(),
  attempts: z.number().int(),
  duration: z.number(),
  summary: summarySchema,
  /** The Markdown report's file name, relative to the reports folder. */
  markdown: z.string(),
  /** The JSON report's file name, relative to the reports folder. */
  json: z.string(),
  repeatEachIndex: z.number().int().optional(),
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
});

export type IndexEntryData = z.infer<typeof indexEntrySchema>;
export type RunIndexData = z.infer<typeof runIndexSchema>;
