/**
 * The baseline file (`daebug-baseline.json`): the fingerprints of a run's known errors, written by
 * `npx daebug baseline` and read through `daebugBaseline`. Pure: parsing and formatting; src/run/baseline-file.ts
 * reads and writes it. The text is stable so that it diffs well in git: sorted by fingerprint, no dates, and no
 * value of one run (a port, a nonce, an id): two runs with the same groups and counts write the same bytes.
 */
import { z } from 'zod';
import { baselineMessage } from './baseline-message';

export const BASELINE_VERSION = 1;

export const baselineEntrySchema = z.object({
  fingerprint: z.string().regex(/^[0-9a-f]{6,64}$/, 'a fingerprint of hex digits'),
  /** The event source of its first occurrence (`window.onerror`, `console.error`, `network`, …). */
  source: z.string(),
  /**
   * The group's message as its fingerprint reads it, for people reading the file: first line, with ports, nonces,
   * ids, numbers and hashes replaced (`Error: Invoice <n> not found`), so that it does not change between runs.
   * Files written before this rule hold the first occurrence's own message; both parse.
   */
  message: z.string(),
  /** Where it was first seen: original `file:line` and function, when known. */
  where: z.string().optional(),
  /** Occurrences in the run the baseline was written from. */
  count: z.number().int().min(0),
  /** Distinct tests it occurred in. */
  tests: z.number().int().min(0),
});

export const baselineSchema = z.object({
  daebugBaseline: z.literal(BASELINE_VERSION),
  groups: z.array(baselineEntrySchema),
});

export type BaselineEntry = z.infer<typeof baselineEntrySchema>;
export type BaselineData = z.infer<typeof baselineSchema>;

/** A baseline made from a run's groups: sorted by fingerprint, messages cut to one line. */
export function makeBaseline(entries: readonly BaselineEntry[]): BaselineData {
  const groups = [...entries]
    .sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0))
    .map((entry) => {
      // The schema's key order, so that a file read and written again is the same text.
      const clean: BaselineEntry = { fingerprint: entry.fingerprint, source: entry.source, message: baselineMessage(entry.message), ...(entry.where ? { where: entry.where } : {}), count: entry.count, tests: entry.tests };
      return clean;
    });
  return { daebugBaseline: BASELINE_VERSION, groups };
}

/**
 * A run's entries written over an existing baseline: a group already in it keeps its message and place as the file
 * had them, so the file changes only where groups came, went or were counted again. A known error the run left to V8's
 * preview (src/run/message-shape.ts) would otherwise rewrite its message from the preview's text.
 */
export function keepWording(entries: readonly BaselineEntry[], existing: readonly BaselineEntry[]): BaselineEntry[] {
  const had = new Map(existing.map((entry) => [entry.fingerprint, entry]));
  return entries.map((entry) => {
    const old = had.get(entry.fingerprint);
    if (!old) return entry;
    const { where: _where, ...rest } = entry;
    return { ...rest, message: old.message, ...(old.where ? { where: old.where } : {}) };
  });
}

export function formatBaseline(baseline: BaselineData): string {
  return JSON.stringify(baseline, null, 2) + '\n';
}

export type ParsedBaseline = { ok: true; baseline: BaselineData } | { ok: false; reason: string };

/** Parses a baseline file's text; the reason says what was wrong, for an error that names the file. */
export function parseBaseline(text: string): ParsedBaseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `it is not valid JSON (${(error as Error).message})` };
  }
  const parsed = baselineSchema.safeParse(value);
  if (parsed.success) return { ok: true, baseline: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.map(String).join('.')}` : '';
  return { ok: false, reason: `it is not a daebug baseline${where}: ${issue?.message ?? 'invalid'} (expected { "daebugBaseline": ${BASELINE_VERSION}, "groups": [...] }, as written by npx daebug baseline)` };
}
