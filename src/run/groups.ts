/**
 * Groups a run's errors by fingerprint: one entry per distinct problem, with how often and in how many tests it
 * happened, whether a baseline knew it, and whether it came and went between attempts of one test. Pure and
 * incremental: the reporter adds each attempt as it ends, the CLI adds the attempts it reads from the reports,
 * and both get the same groups.
 */
import type { ErrorGroup, FixedGroup } from '../model/error-group';
import { browserDefaultPlace } from '../model/default-place';
import { isPlaceUrl, locationText, positionText } from '../model/position-text';
import type { DaebugEvent, Frame } from '../model/schema';
import { firstUserFrame } from '../stack/first-user-frame';
import type { BaselineData, BaselineEntry } from './baseline';
import { fingerprintOf, isFingerprinted, stableWhere, originOf, pageOriginsOf, type ErrorOrigin } from './fingerprint';
import { normalizeMessage } from './normalize';

interface Building {
  fingerprint: string;
  message: string;
  /**
   * The message as the fingerprint reads it (ports, nonces, ids, numbers and hashes replaced): the same for every
   * event of the group, so the baseline's text is the same whichever test, port or nonce came first.
   */
  stableMessage: string;
  /** The messages are an event's V8 preview (a known error left unread, src/run/message-shape.ts): a full one replaces them. */
  previewMessage: boolean;
  /** The smallest source of the group (`pageerror` and `window.onerror` are one kind): the same in any test order. */
  stableSource: string;
  /** Where, as the fingerprint reads it (file without host port or hash, and function), for the baseline. */
  stableWhere: string | undefined;
  source: string;
  where: string | undefined;
  origin: ErrorOrigin;
  order: number;
  count: number;
  unexpected: boolean;
  known: boolean;
  reports: string[];
  reportSet: Set<string>;
  /** Attempts that had it, per test. */
  seenIn: Map<string, number>;
}

/** The test an attempt belongs to: what stays the same across retries and repeats. */
export interface AttemptOf {
  /** Stable across retries and `--repeat-each` repeats: project, spec file and title path. */
  testKey: string;
  /** The attempt's Markdown report, relative to the reports folder. */
  report: string;
}

/** `project␀file␀title path`: one test whatever its retry or repeat. */
export function testKeyOf(test: { project: string; file: string; titlePath: readonly string[] }): string {
  return [test.project, test.file, ...test.titlePath].join('\u0000');
}

/**
 * The first user frame's original `file:line` and function, else the first frame's, as one short string. A URL's
 * query and fragment are left out: they hold a run's data (`?port=44503`), and `…?port=44503:5` reads as a port.
 */
export function whereOf(event: Pick<DaebugEvent, 'frames' | 'location' | 'network'> & Partial<Pick<DaebugEvent, 'source' | 'message' | 'stack'>>): string | undefined {
  // The browser's default place (the first line of the realm's script, for an error without a stack) is no place.
  if (browserDefaultPlace({ source: '', message: '', ...event })) return undefined;
  const located = event.frames?.filter((f) => f.original || isPlaceUrl(f.url));
  const frame: Frame | undefined = firstUserFrame(located) ?? located?.[0];
  if (frame) {
    const name = frame.original?.functionName ?? frame.functionName;
    return `${frame.original ? `${frame.original.source}:${frame.original.line}` : positionText(frame.url, frame.line)}${name ? ` in ${name}` : ''}`;
  }
  const initiator = event.network?.initiator;
  if (initiator?.original) return `${initiator.original.source}:${initiator.original.line}`;
  if (isPlaceUrl(initiator?.url) && initiator.line !== undefined) return positionText(initiator.url, initiator.line);
  return locationText(event.location, false);
}

/** Accumulates the groups of a run, one attempt at a time. */
export class RunGroups {
  private readonly building = new Map<string, Building>();
  private readonly attemptsOf = new Map<string, number>();
  private order = 0;
  private baselineSet: ReadonlySet<string> | undefined;
  private baselineData: BaselineData | undefined;
  private anyKnownMarks = false;
  private anyBaseline = false;

  /** The run's baseline, when the reporter or the CLI could read it: `new` and `fixed` are measured against it. */
  setBaseline(baseline: BaselineData): void {
    this.baselineData = baseline;
    this.baselineSet = new Set(baseline.groups.map((g) => g.fingerprint));
    this.anyBaseline = true;
  }

  /** A test ran with a baseline (its report names one), even when the file cannot be read here. */
  noteBaseline(): void {
    this.anyBaseline = true;
  }

  get hasBaseline(): boolean {
    return this.anyBaseline;
  }

  /** One attempt of a test (a retry, a repeat, or the only one), with all its events. */
  addAttempt(of: AttemptOf, events: readonly DaebugEvent[]): void {
    this.attemptsOf.set(of.testKey, (this.attemptsOf.get(of.testKey) ?? 0) + 1);
    const seenHere = new Set<Building>();
    let pageOrigins: Set<string> | undefined;
    for (const event of events) {
      // A sighting of another error (React Router's log of React's) is that error, counted once with it.
      if (event.expected || event.sightingOf !== undefined || !isFingerprinted(event)) continue;
      let fingerprint = event.fingerprint;
      let origin = event.origin;
      if (fingerprint === undefined) {
        // A report written before fingerprints: made here by the same rule.
        fingerprint = fingerprintOf(event);
        pageOrigins ??= pageOriginsOf(events);
        origin = originOf(event, pageOrigins);
      }
      let group = this.building.get(fingerprint);
      if (!group) {
        group = {
          fingerprint,
          message: event.message,
          stableMessage: normalizeMessage(event.message),
          previewMessage: event.preview === true,
          stableSource: event.source,
          stableWhere: event.network ? undefined : stableWhere(event.frames),
          source: event.source,
          where: whereOf(event),
          origin: origin ?? 'app',
          order: this.order++,
          count: 0,
          unexpected: false,
          known: false,
          reports: [],
          reportSet: new Set(),
          seenIn: new Map(),
        };
        this.building.set(fingerprint, group);
      }
      group.count++;
      if (group.previewMessage && !event.preview) {
        group.message = event.message;
        group.stableMessage = normalizeMessage(event.message);
        group.previewMessage = false;
      }
      if (event.source < group.stableSource) group.stableSource = event.source;
      if (event.unexpected) group.unexpected = true;
      if (event.known) {
        group.known = true;
        this.anyKnownMarks = true;
      }
      if (!group.reportSet.has(of.report)) {
        group.reportSet.add(of.report);
        group.reports.push(of.report);
      }
      if (!seenHere.has(group)) {
        seenHere.add(group);
        group.seenIn.set(of.testKey, (group.seenIn.get(of.testKey) ?? 0) + 1);
      }
    }
  }

  /** The groups, most widespread first: by tests, then occurrences, then fingerprint (the same in any shard order). */
  groups(): ErrorGroup[] {
    const withBaseline = this.anyBaseline || this.anyKnownMarks;
    return [...this.building.values()]
      .sort((a, b) => b.seenIn.size - a.seenIn.size || b.count - a.count || (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0))
      .map((g) => {
        let seen = 0;
        let total = 0;
        for (const [test, n] of g.seenIn) {
          seen += n;
          total += this.attemptsOf.get(test) ?? n;
        }
        const group: ErrorGroup = {
          fingerprint: g.fingerprint,
          message: g.message,
          source: g.source,
          count: g.count,
          tests: g.seenIn.size,
          reports: g.reports,
          origin: g.origin,
          unexpected: g.unexpected,
          intermittent: seen < total,
          attempts: { seen, total },
        };
        if (g.where !== undefined) group.where = g.where;
        if (withBaseline) group.new = this.baselineSet ? !this.baselineSet.has(g.fingerprint) : !g.known;
        return group;
      });
  }

  /** Baseline groups that did not happen in this run; undefined without a readable baseline. */
  fixed(): FixedGroup[] | undefined {
    if (!this.baselineData) return undefined;
    return this.baselineData.groups
      .filter((entry) => !this.building.has(entry.fingerprint))
      .map((entry) => {
        const fixed: FixedGroup = { fingerprint: entry.fingerprint, message: entry.message, source: entry.source };
        if (entry.where !== undefined) fixed.where = entry.where;
        return fixed;
      });
  }

  /**
   * The run's groups as baseline entries (`npx daebug baseline`): message, source and place are functions of the
   * fingerprint's inputs (the normalised message; where without a line, port, query or bundle hash), so runs with the
   * same groups and counts write the same text whatever order their tests ended in, and whatever port or nonce
   * each had.
   */
  baselineEntries(): BaselineEntry[] {
    return this.groups().map((g) => {
      const building = this.building.get(g.fingerprint)!;
      const entry: BaselineEntry = { fingerprint: g.fingerprint, source: building.stableSource, message: building.stableMessage, count: g.count, tests: g.tests };
      if (building.stableWhere) entry.where = building.stableWhere;
      return entry;
    });
  }
}
