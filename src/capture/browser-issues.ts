/**
 * DevTools issues (src/capture/cdp/audits.ts) merged with what the browser also said about the same problem, so
 * each problem appears once: Chromium writes a CSP violation as a `security` console line too (before the issue),
 * and a CORS block as a `cors` line and a failed request (after it). The line that came first becomes the issue's
 * event; a line that comes after an issue is left out.
 */
import { issueDraft, logLineOf, type CdpIssue } from './cdp/audits';
import { add, type RuntimeSink } from './cdp/runtime';
import type { Target } from './cdp/target';
import type { StoredEvent } from './recorder';
import type { BrowserIssue } from '../model/schema';

/** What a browser line said, as `Log.entryAdded` gave it. */
export interface LogLine {
  source?: string;
  category?: string;
  text?: string;
}

/** How long one problem's issue and its console line may lie apart. */
const SAME_PROBLEM_MS = 2000;
/** Lines and issues remembered per test to merge with: a flood of them must not grow without bound. */
const REMEMBERED = 50;

interface Remembered<T> {
  target: Target;
  atMs: number;
  value: T;
}

export class BrowserIssues {
  private readonly lines: Remembered<{ line: LogLine; event: StoredEvent }>[] = [];
  private readonly issues: Remembered<BrowserIssue>[] = [];
  private readonly byRequest = new Map<string, BrowserIssue>();

  constructor(
    private readonly sink: RuntimeSink,
    /** Failed requests are captured: a blocked request's issue goes into its event instead of one of its own. */
    private readonly requestsCaptured: () => boolean,
  ) {}

  /** An `Audits.issueAdded` of `target`. */
  onIssue(target: Target, cdp: CdpIssue): void {
    const draft = issueDraft(cdp);
    if (!draft) return;
    const now = Date.now();
    if (draft.requestId) {
      this.byRequest.set(`${target.key}\u0000${draft.requestId}`, draft.issue);
      if (this.byRequest.size > REMEMBERED) this.byRequest.delete(this.byRequest.keys().next().value!);
    }
    if (draft.requestId && draft.level === 'error' && this.requestsCaptured()) {
      // The failed request's event takes it (Chromium sends the issue before the request fails).
      remember(this.issues, { target, atMs: now, value: draft.issue });
      return;
    }
    const earlier = this.lines.find((l) => l.target === target && now - l.atMs <= SAME_PROBLEM_MS && !l.value.event.issue && logLineOf(draft.issue, l.value.line));
    if (earlier) {
      // The browser's own words stay the message (they say more, e.g. which directive was the fallback); the issue adds the fields.
      const event = earlier.value.event;
      event.source = 'browser.issue';
      event.level = draft.level;
      event.issue = draft.issue;
      this.sink.recorder.changed();
    } else {
      add(this.sink, target, { type: 'console', level: draft.level, source: 'browser.issue', timeMs: now, message: draft.message, location: draft.location, issue: draft.issue });
    }
    remember(this.issues, { target, atMs: now, value: draft.issue });
  }

  /** Whether a browser line says what an issue of `target` said already. */
  covers(target: Target, line: LogLine): boolean {
    const now = Date.now();
    return this.issues.some((i) => i.target === target && now - i.atMs <= SAME_PROBLEM_MS && logLineOf(i.value, line));
  }

  /** A browser line that was stored: an issue about the same problem may follow and take it over. */
  noteLine(target: Target, line: LogLine, event: StoredEvent): void {
    if (line.source !== 'security' && line.category !== 'cors') return;
    remember(this.lines, { target, atMs: Date.now(), value: { line, event } });
  }

  /** Whether a CSP issue of `target` said it blocked `url`. */
  blocked(target: Target, url: string): boolean {
    const now = Date.now();
    return this.issues.some((i) => i.target === target && now - i.atMs <= SAME_PROBLEM_MS && i.value.kind === 'csp' && !i.value.reportOnly && i.value.blockedUrl === url);
  }

  /** The issue about a request (a CORS block, blocked mixed content), for the failed request's own event. */
  ofRequest(target: Target, requestId: string | undefined): BrowserIssue | undefined {
    return requestId === undefined ? undefined : this.byRequest.get(`${target.key}\u0000${requestId}`);
  }
}

function remember<T>(list: Remembered<T>[], item: Remembered<T>): void {
  list.push(item);
  if (list.length > REMEMBERED) list.shift();
}
