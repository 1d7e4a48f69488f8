import type { StoredEvent } from '../recorder';
import { serializerFunctionSource } from '../serialize';
import type { Target } from './target';

/** Serializes several console calls' arguments and thrown values in one call: `layout` is [kind, count, kind, count, …]. */
export const READ_FN = `function (limits, layout, ...values) {
  const serialize = (${serializerFunctionSource()});
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
}

/**
 * Values of console arguments and thrown objects, read from the page later than they were logged: at a job's end,
 * at `settle()`, at the test's end, or at once in a flood. Nothing of this runs during the user's actions, and events
 * a budget dropped meanwhile are never read. After a read, the page lets go of the objects.
 */
export class ValueReads {
  private readonly pending = new Map<Target, ValueRead[]>();
  private readonly inflight = new Set<Promise<void>>();
  /** Set at the test's end when Playwright closes the contexts next. */
  contextsClosing = false;

  constructor(
    private readonly limits: () => ReadLimits,
    private readonly onRead: (event: StoredEvent) => void,
  ) {}

  add(target: Target, read: ValueRead): void {
    let list = this.pending.get(target);
    if (!list) {
      list = [];
      this.pending.set(target, list);
    }
    list.push(read);
    if (list.length >= FLOOD_READS) void this.flushTarget(target);
  }

  /** Whether values of `target` wait to be read. */
  hasPending(target: Target): boolean {
    return (this.pending.get(target)?.length ?? 0) > 0;
  }

  /** Reads every value still waiting, in every target; resolves when all are back. */
  async flush(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((target) => this.flushTarget(target)));
    await Promise.all([...this.inflight]);
  }

  /** Reads the values waiting in `target`: one round trip on the target's own thread. */
  flushTarget(target: Target): Promise<void> {
    const reads = this.pending.get(target) ?? [];
    this.pending.delete(target);
    const live = reads.filter((read) => !read.event.dropped);
    if (target.closed) {
      for (const read of live) read.event.preview = true;
      return Promise.resolve();
    }
    const byContext = new Map<number | string, ValueRead[]>();
    for (const read of live) {
      const key = 'objectId' in read.on ? read.on.objectId : read.on.executionContextId;
      const list = byContext.get(key);
      if (list) list.push(read);
      else byContext.set(key, [read]);
    }
    const done = Promise.all([...byContext.values()].map((batch) => this.read(target, batch))).then(() => {
      // Console arguments stay alive in the page for daebug's session until released; nothing waits for that, and
      // at the test's end the context's close releases them anyway. Released one by one: the page may have logged
      // more since (their notifications on the way), and releasing the whole 'console' group would take those too,
      // so their read would fail and keep V8's preview.
      // On Playwright's own session (tapped) the objects are Playwright's console handles too: they stay.
      if (this.contextsClosing || target.tapped) return;
      for (const read of reads) for (const value of read.values) if ('objectId' in value) void target.send('Runtime.releaseObject', { objectId: value.objectId }).catch(() => undefined);
    });
    this.inflight.add(done);
    void done.finally(() => this.inflight.delete(done));
    return done;
  }

  private read(target: Target, reads: ValueRead[]): Promise<void> {
    const layout = reads.flatMap((read) => [read.kind, read.values.length]);
    const args = [{ value: this.limits() }, { value: layout }, ...reads.flatMap((read) => read.values)];
    return target
      .send('Runtime.callFunctionOn', { ...reads[0]!.on, functionDeclaration: READ_FN, arguments: args, returnByValue: true, silent: true })
      .then((response: { result?: { value?: unknown } }) => {
        const values = response?.result?.value;
        if (!Array.isArray(values)) throw new Error('no values');
        reads.forEach((read, i) => {
          if (values[i] === undefined || values[i] === null) return;
          read.apply(values[i]);
          this.onRead(read.event);
        });
      })
      // The document navigated or closed before its values could be read: V8's preview stays, and says so.
      .catch(() => {
        for (const read of reads) read.event.preview = true;
      });
  }
}
