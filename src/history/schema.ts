/**
 * The zod schema of a run's history file (src/history/run-file.ts), published as `history.schema.json`. Reading
 * history checks files with a quick structural check (src/history/check.ts) that accepts only what this schema
 * accepts: a unit test keeps the two in step, and zod loads only where the schema itself is asked for.
 */
import { z } from 'zod';
import { HISTORY_VERSION } from './run-file';

export const historyGroupSchema = z.object({
  fingerprint: z.string(),
  source: z.string(),
  message: z.string(),
  where: z.string().optional(),
  aka: z.array(z.string()).optional(),
});

export const historyRequestSchema = z.object({
  method: z.string(),
  url: z.string(),
  status: z.number().int().optional(),
  error: z.string().optional(),
});

export const historyAttemptSchema = z.object({
  retry: z.number().int().min(0),
  repeat: z.number().int().min(1).optional(),
  status: z.string(),
  ok: z.boolean(),
  duration: z.number(),
  errors: z.array(z.string()).optional(),
  known: z.array(z.string()).optional(),
  other: z.array(z.string()).optional(),
  requests: z.array(historyRequestSchema).optional(),
  cause: z.string().optional(),
});

export const historyTestSchema = z.object({
  project: z.string(),
  file: z.string(),
  titlePath: z.array(z.string()),
  attempts: z.array(historyAttemptSchema),
});

/** One run of `<history>/<id>.json`. */
export const historyRunSchema = z.object({
  version: z.literal(HISTORY_VERSION),
  id: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  status: z.string(),
  commit: z.string().optional(),
  branch: z.string().optional(),
  ci: z.string().optional(),
  shard: z.object({ current: z.number().int(), total: z.number().int() }).optional(),
  merged: z.boolean().optional(),
  groups: z.array(historyGroupSchema),
  tests: z.array(historyTestSchema),
});
