/**
 * The zod schemas of daebug's test options. Loaded only when a value fails the quick check of src/options.ts, to
 * name what is wrong: zod and these schemas are about half of what a worker loads, and nearly every suite passes
 * values the quick check accepts (issue 25: what a test does not use, it does not load).
 */
import { z } from 'zod';

const positiveInt = z.number().int().positive();

export const limitsSchema = z
  .object({
    eventsPerSecond: positiveInt,
    maxEvents: positiveInt.min(10),
    maxMessageLength: positiveInt.min(20),
    maxStackLength: positiveInt.min(20),
    maxReportBytes: positiveInt.min(4096),
    maxDepth: positiveInt.max(20),
    maxBreadth: positiveInt.max(10_000),
  })
  .partial()
  .strict();

export const ignoreSchema = z.array(z.union([z.string(), z.instanceof(RegExp)]));

export const networkModeSchema = z.enum(['off', 'report', 'strict']);

const redactObjectSchema = z
  .object({
    patterns: z.array(z.instanceof(RegExp)).optional(),
    builtIn: z.boolean().optional(),
  })
  .strict();

export const redactSchema = z.union([z.boolean(), redactObjectSchema]);

export const valuesModeSchema = z.enum(['auto', 'full']);

export const booleanSchema = z.boolean();

export const baselineSchema = z.string().min(1).optional();

/** `['daebug/reporter', { ... }]`'s options (src/reporter/options.ts), for what the quick checks there refuse. */
export const reporterSchemas = {
  outputDir: z.string().min(1).optional(),
  maxReportBytes: z.number().int().min(4096).optional(),
  githubAnnotations: z.union([z.boolean(), z.enum(['all', 'new'])]).optional(),
  githubSummary: z.boolean().optional(),
  maxAnnotations: z.number().int().min(0).optional(),
  history: z.union([z.literal(false), z.string().min(1)]).optional(),
  historyRuns: z.number().int().min(1).optional(),
};
