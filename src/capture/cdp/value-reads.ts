import type { StoredEvent } from '../recorder';
// The bundled source alone: ../serialize also evaluates it and loads the in-page modules, which Node never runs here.
import { SERIALIZER_SOURCE } from '../in-page/generated/serializer-source';
import type { ValueVerdict } from '../value-policy';
import type { Target } from './target';

/** Serializes several console calls' arguments and thrown values in one call: `layout` is [kind, count, kind, count, …]. */
export const READ_FN = `function (limits, layout, ...values) {
  const serialize = (${SERIALIZER_SOURCE});
  const out = [];
  for (let i = 0, at = 0; i < layout.length; i += 2) {
    const count = layout[i + 1];
    let input = values[at];
    if (layout[i] === 'console') { input = []; for (let j = 0; j < count; j++) input[j] = values[at + j]; }
    at += count;
    try { out[i / 2] = serialize(layout[i], input, limits); } catch (error) { out[i / 2] = null; }
  }
  return out;
}`;

/** Past this many unread values in one target (a flood), they are read and released at once. */
export const FLOOD_READS = 500;

export interface ReadLimits {
  maxDepth: number;
  maxBreadth: number;
  maxLength: number;
}

/** A console call's arguments or a thrown value, left in the page until daebug reads it. */
export interface ValueRead {
  kind: 'console' | 'thrown';
  /** Where the read runs: the call's execution context, or the thrown object itself. */
  on: { executionContextId: number } | { objectId: string };
  /** CDP call arguments: the console call's arguments, or the thrown value alone. */
  values: object[];
  event: StoredEvent;
  apply(value: any): void;
  /** The test asked for the event (`events()`, `errors()`): its values are read in full at the test's end. */
  asked?: boolean;
}

/** Which waiting values are read (src/capture/value-policy.ts); made afresh for each flush, as events keep coming. */
export type ReadPolicy = () => (read: ValueRead) => ValueVerdict;

/**
 * Values of console arguments and thrown objects, read from the page later than they were logged: at a job's end,
 * at `settle()`, at the test's end, or at once in a flood. Nothing of this runs during the user's actions, and events
 * a budget dropped meanwhile are never read. At the test's end a `policy` may leave some to V8's preview. After a read,
 * or when a value is left to its preview, the page lets go of the objects.
 */
export class ValueReads {
  private readonly pending = new Map<Target, ValueRead[]>();
  private readonly inflight = new Set<Promise<void>>();
  /** Set at the test's end when Playwright closes the contexts next. */
  contextsClosing = false;
  /** Set at the test's end (`daebugValues: 'auto'`): which values are read; unset, every value is. */
  policy: ReadPolicy | undefined;
  /** Values read so far, counted per event. */
  readCount = 0;
  /** Values asked of a page that has not answered yet. */
  private unanswered = 0;
  /** Events with values to read, and those whose values were read. */
  private readonly logged = new WeakSet<StoredEvent>();
  private readonly readIn = new WeakSet<StoredEvent>();

  constructor(
    private readonly limits: () => ReadLimits,
    private readonly onRead: (event: StoredEvent) => void,
  ) {}

  add(target: Target, read: ValueRead): void {
    this.logged.add(read.event);
    let list = this.pending.get(target);
    if (!list) {
      list = [];
      this.pending.set(target, list);
    }
    list.push(read);
    // Every FLOOD_READS: values a policy keeps waiting (at the test's end) do not make each later one a flood.
    if (list.length % FLOOD_READS === 0) void this.flushTarget(target);
  }

  /** The test asked for these events (`events()`, `errors()`): their values waiting now are read at its end. */
  ask(asked: (event: StoredEvent) => boolean): void {
    for (const list of this.pending.values()) for (const read of list) if (asked(read.event)) read.asked = true;
  }

  /** Whether `target` has values the policy reads now: reading them is then the target's round trip. */
  hasDue(target: Target): boolean {
    const list = this.pending.get(target);
    if (!list?.length) return false;
    const verdict = this.policy?.();
    return list.some((read) => !read.event.dropped && (!verdict || verdict(read) === 'read'));
  }

  /** Events whose values are not read yet: waiting, or asked for and not answered (a busy page). */
  unreadCount(): number {
    let count = this.unanswered;
    for (const list of this.pending.values()) for (const read of list) if (!read.event.dropped) count++;
    return count;
  }

  /** Whether `event` logged values that were not read in full (yet, or at all): its message is V8's preview. */
  unread(event: StoredEvent): boolean {
    return this.logged.has(event) && !this.readIn.has(event);
  }

  /** Whether values still wait in any target (at the test's end: for the verdict the baseline gives). */
  hasWaiting(): boolean {
    for (const list of this.pending.values()) if (list.length) return true;
    return false;
  }

  /**
   * Reads what the policy reads in every target, and with `final` leaves the values it does not read to V8's
   * preview; resolves when all are back.
   */
  async flush(final = true): Promise<void> {
    await Promise.all([...this.pending.keys()].map((target) => this.flushTarget(target, final)));
    await Promise.all([...this.inflight]);
  }

  /**
   * Reads the values of `target` that the policy reads: one round trip on the target's own thread. With `final`,
   * the ones it leaves to their preview get it and are let go of; without, they wait (the test may still fail).
   */
  flushTarget(target: Target, final = true): Promise<void> {
    const all = this.pending.get(target) ?? [];
    this.pending.delete(target);
    const verdict = this.policy?.();
    const reads: ValueRead[] = [];
    const kept: ValueRead[] = [];
    const done: ValueRead[] = [];
    for (const read of all) {
      const decided = read.event.dropped ? 'dropped' : verdict ? verdict(read) : 'read';
      if (decided === 'read') reads.push(read);
      else if (decided === 'later' || (decided === 'preview' && !final)) kept.push(read);
      else {
        if (decided === 'preview') read.event.preview = true;
        done.push(read);
      }
    }
    if (kept.length) this.pending.set(target, kept);
    // A stopped worker has let go of its objects and answers nothing.
    if (target.closed || target.stopped) {
      for (const read of reads) read.event.preview = true;
      return Promise.resolve();
    }
    if (!reads.length) {
      this.release(target, done);
      return Promise.resolve();
    }
    const byContext = new Map<number | string, ValueRead[]>();
    for (const read of reads) {
      const key = 'objectId' in read.on ? read.on.objectId : read.on.executionContextId;
      const list = byContext.get(key);
      if (list) list.push(read);
      else byContext.set(key, [read]);
    }
    const answered = Promise.all([...byContext.values()].map((batch) => this.read(target, batch))).then(() => this.release(target, [...reads, ...done]));
    this.inflight.add(answered);
    void answered.finally(() => this.inflight.delete(answered));
    return answered;
  }

  /** The test ended: values still waiting keep V8's preview, and the page lets go of them. */
  discardAll(): void {
    for (const [target, list] of this.pending) {
      for (const read of list) if (!read.event.dropped) read.event.preview = true;
      if (!target.closed) this.release(target, list);
    }
    this.pending.clear();
  }

  /**
   * Console arguments stay alive in the page for daebug's session until released; nothing waits for that, and at
   * the test's end the context's close releases them anyway. Released one by one: the page may have logged more
   * since (their notifications on the way), and releasing the whole 'console' group would take those too, so their
   * read would fail and keep V8's preview.
   * On Playwright's own session (tapped) the objects are Playwright's console handles too: they stay.
   */
  private release(target: Target, reads: readonly ValueRead[]): void {
    if (this.contextsClosing || target.tapped || target.stopped) return;
    for (const read of reads) for (const value of read.values) if ('objectId' in value) void target.send('Runtime.releaseObject', { objectId: value.objectId }).catch(() => undefined);
  }

  private read(target: Target, reads: ValueRead[]): Promise<void> {
    const layout = reads.flatMap((read) => [read.kind, read.values.length]);
    const args = [{ value: this.limits() }, { value: layout }, ...reads.flatMap((read) => read.values)];
    this.unanswered += reads.length;
    return target
      .request('Runtime.callFunctionOn', { ...reads[0]!.on, functionDeclaration: READ_FN, arguments: args, returnByValue: true, silent: true })
      .then((response: { result?: { value?: unknown } }) => {
        const values = response?.result?.value;
        if (!Array.isArray(values)) throw new Error('no values');
        reads.forEach((read, i) => {
          if (values[i] === undefined || values[i] === null) return;
          read.apply(values[i]);
          this.readIn.add(read.event);
          this.readCount++;
          this.onRead(read.event);
        });
      })
      // The document navigated or closed before its values could be read: V8's preview stays, and says so.
      .catch(() => {
        for (const read of reads) read.event.preview = true;
      })
      .finally(() => {
        this.unanswered -= reads.length;
      });
  }
}
