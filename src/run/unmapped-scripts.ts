/**
 * The run's scripts whose frames could not be mapped, grouped by cause, so that `index.md` says once per run why and
 * what to change, instead of every report repeating it. A script with no `sourceMappingURL` is told apart by what
 * the rest of the run shows: when no script of its server was mapped, the build emits no maps at all. Pure and
 * incremental like `groups.ts`: the reporter adds each attempt as it ends.
 */
import type { UnmappedNote } from '../model/unmapped-note';
import type { Attempt, Frame } from '../model/schema';

/** Scripts listed per cause before the rest is counted. */
const MAX_SCRIPTS = 10;

/** The order causes are listed in: what stops every frame first. */
const CAUSES = ['no-maps-built', 'map-not-found', 'no-source-map', 'map-malformed', 'map-unreadable', 'script-unreadable'];

interface Seen {
  url: string;
  cause: string;
  map: string | undefined;
  reason: string;
  tests: Set<string>;
  order: number;
}

export class RunUnmappedScripts {
  private readonly scripts = new Map<string, Seen>();
  /** Servers (`origin`) with at least one script mapped in the run. */
  private readonly mappedOrigins = new Set<string>();

  add(testKey: string, attempt: Pick<Attempt, 'unmappedScripts' | 'events' | 'jobs'>): void {
    for (const script of attempt.unmappedScripts ?? []) {
      const key = `${script.cause}\u0000${script.url}`;
      let seen = this.scripts.get(key);
      if (!seen) {
        seen = { url: script.url, cause: script.cause, map: script.map, reason: script.reason, tests: new Set(), order: this.scripts.size };
        this.scripts.set(key, seen);
      }
      seen.tests.add(testKey);
    }
    const mapped = (frames: readonly Frame[] | undefined) => {
      for (const frame of frames ?? []) if (frame.original && /^(https?|file):/i.test(frame.url)) this.mappedOrigins.add(originOf(frame.url));
    };
    for (const event of attempt.events) mapped(event.frames);
    for (const job of attempt.jobs) mapped(job.error?.frames);
  }

  /** One note per cause, in the order of CAUSES; empty when every script could be mapped. */
  notes(): UnmappedNote[] {
    const byCause = new Map<string, Seen[]>();
    for (const seen of this.scripts.values()) {
      const cause = seen.cause === 'no-source-map' && !this.mappedOrigins.has(originOf(seen.url)) ? 'no-maps-built' : seen.cause;
      byCause.set(cause, [...(byCause.get(cause) ?? []), seen]);
    }
    const rank = (cause: string) => (CAUSES.includes(cause) ? CAUSES.indexOf(cause) : CAUSES.length);
    return [...byCause.entries()]
      .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
      .map(([cause, list]) => {
        const sorted = list.sort((a, b) => b.tests.size - a.tests.size || a.order - b.order);
        const note: UnmappedNote = {
          cause,
          scripts: sorted.slice(0, MAX_SCRIPTS).map((s) => ({ url: s.url, ...(s.map ? { map: s.map } : {}), reason: s.reason, tests: s.tests.size })),
        };
        if (sorted.length > MAX_SCRIPTS) note.more = sorted.length - MAX_SCRIPTS;
        return note;
      });
  }
}

/** The server a script comes from; every `file:` script counts as one. */
function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'file:' ? 'file:' : parsed.origin;
  } catch {
    return url;
  }
}
