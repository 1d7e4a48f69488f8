import { z } from 'zod';
import { diagnosticSchema, droppedSchema, eventSchema, jobSchema, staleAllowListSchema, unmappedScriptSchema } from './schema';
import { RECORD_VERSION } from './record-version';

/**
 * What the reporter needs from the fixture's record. Loose: fields it does not know are allowed (and kept,
 * see `parseRecord` in src/model/record.ts), so the capture side can add optional fields without a reporter change.
 * Loaded only for a record that does not carry this run's key (src/model/record-key.ts).
 */
export const recordSchema = z.looseObject({
  version: z.literal(RECORD_VERSION),
  capture: z.boolean(),
  strict: z.boolean(),
  realms: z.array(z.string()),
  jobs: z.array(jobSchema),
  steps: z.array(jobSchema).optional(),
  events: z.array(eventSchema),
  dropped: droppedSchema,
  diagnostics: z.array(diagnosticSchema),
  unmappedScripts: z.array(unmappedScriptSchema).optional(),
  maxReportBytes: z.number().int().positive().optional(),
  staleAllowList: staleAllowListSchema.optional(),
  baseline: z.string().optional(),
  key: z.string().optional(),
});
