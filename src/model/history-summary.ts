import { z } from 'zod';

/**
 * What a run's own outputs say of the history across runs (src/history/): `index.json`'s `history` and each group's
 * `firstSeen`. The shapes of src/history/flaky.ts, as zod schemas for the published index schema.
 */
export const runPointSchema = z.object({
  /** 1-based among the kept runs, oldest first. */
  run: z.number().int(),
  /** How many runs before the newest: 0 is the newest (this run, in its own index). */
  runsAgo: z.number().int(),
  endedAt: z.string(),
  commit: z.string().optional(),
  branch: z.string().optional(),
});

export const evidenceSubjectSchema = z.union([
  z.object({ kind: z.literal('group'), fingerprint: z.string(), source: z.string(), message: z.string(), where: z.string().optional() }),
  z.object({ kind: z.literal('request'), method: z.string(), url: z.string(), status: z.number().int().optional(), error: z.string().optional() }),
]);

const countSchema = z.object({ present: z.number().int(), of: z.number().int() });

export const evidenceSchema = z.object({
  subject: evidenceSubjectSchema,
  failing: countSchema,
  passing: countSchema,
  /** One-sided Fisher's exact test on present/absent × failing/passing attempts. */
  p: z.number(),
  namedCause: z.number().int(),
});

export const testNameSchema = z.object({ project: z.string(), file: z.string(), titlePath: z.array(z.string()), title: z.string() });

export const flakyTestSchema = z.object({
  test: testNameSchema,
  runs: z.number().int(),
  unstableRuns: z.number().int(),
  attempts: z.number().int(),
  failures: z.number().int(),
  retriesPassed: z.number().int(),
  firstFlaked: runPointSchema,
  /** What separates its failing attempts from its passing ones; empty when nothing in the browser does. */
  evidence: z.array(evidenceSchema),
});

export const failingTestSchema = z.object({
  test: testNameSchema,
  since: runPointSchema,
  runs: z.number().int(),
  passedBefore: z.boolean(),
  appeared: z.array(evidenceSubjectSchema),
});

/** `index.json`'s `history`: the top of `npx daebug flaky` as of this run, this run included. */
export const historySummarySchema = z.object({
  /** The history folder, absolute. */
  dir: z.string(),
  /** Kept runs read, this one included. */
  runs: z.number().int(),
  /** The rule evidence is selected by. */
  rule: z.string(),
  /** The most unstable flaky tests (at most 10). */
  flaky: z.array(flakyTestSchema),
  /** All flaky tests. */
  flakyCount: z.number().int(),
  /** Tests failing in every attempt since some run, newest breakage first (at most 10). */
  failingSince: z.array(failingTestSchema),
  failingCount: z.number().int(),
  /** History files left out (truncated, not a run). */
  skipped: z.array(z.object({ file: z.string(), reason: z.string() })).optional(),
});

/** When the history first saw a group: `runsAgo: 0` is new in this run. */
export const firstSeenSchema = z.object({ runsAgo: z.number().int(), endedAt: z.string(), commit: z.string().optional() });

export type HistorySummary = z.infer<typeof historySummarySchema>;
export type RunPoint = z.infer<typeof runPointSchema>;
export type EvidenceSubject = z.infer<typeof evidenceSubjectSchema>;
export type Evidence = z.infer<typeof evidenceSchema>;
export type TestName = z.infer<typeof testNameSchema>;
export type FlakyTest = z.infer<typeof flakyTestSchema>;
export type FailingTest = z.infer<typeof failingTestSchema>;
export type FirstSeen = z.infer<typeof firstSeenSchema>;
