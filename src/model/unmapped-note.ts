import { z } from 'zod';

/**
 * One reason a run's scripts stayed unmapped, with the scripts it holds for, as `index.json`'s `unmappedByCause`
 * lists them (src/run/unmapped-scripts.ts) and `index.md` says them once for the run.
 */
export const unmappedNoteSchema = z.object({
  /**
   * A report's `unmappedScripts[].cause` (`no-source-map`, `map-not-found`, `map-unreadable`, `map-malformed`,
   * `script-unreadable`), or `no-maps-built`: scripts without a `sourceMappingURL` from a server none of whose
   * scripts was mapped in the run, so the build emits no maps at all.
   */
  cause: z.string(),
  /** The scripts, those in the most tests first. */
  scripts: z.array(
    z.object({
      url: z.string(),
      /** The source map's URL, when the script names one. */
      map: z.string().optional(),
      /** What the frames say (`unmappedReason`), from the first test that had it. */
      reason: z.string(),
      /** Distinct tests with frames in it. */
      tests: z.number().int(),
    }),
  ),
  /** Scripts of this cause past those listed. */
  more: z.number().int().optional(),
});

export type UnmappedNote = z.infer<typeof unmappedNoteSchema>;
