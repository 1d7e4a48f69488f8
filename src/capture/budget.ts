/** An item a budget may drop after it was admitted: dropped items stay where they are and are skipped on read. */
export interface Droppable {
  dropped?: boolean | undefined;
  timeMs: number;
}

/**
 * The per-second rate limit of one realm and class of events. Over `perSecond` items in a second, the oldest of the
 * middle is dropped: the second keeps its head (a quarter of `perSecond`: the start of a cascade, usually its cause)
 * and its newest `perSecond` items, so at most 1.25 × `perSecond`. The newest are a whole `perSecond` because
 * `daebug.errors({ limit })` and `events()` read the newest of what is kept: a burst of 1,000 errors in a second at
 * 100 keeps #0–#24 and #900–#999, and `errors({ limit: 100 })` is #900–#999 (issue 19). A burst that spans two
 * seconds keeps its newest `perSecond` as well: a second of fewer than 1.25 × `perSecond` items drops none.
 */
export class RateWindow<T extends Droppable> {
  private second = Number.NaN;
  private readonly headSize: number;
  private readonly ring: (T | undefined)[];
  private readonly ringSize: number;
  private headCount = 0;
  private start = 0;
  private count = 0;

  constructor(perSecond: number) {
    this.headSize = perSecond >= 2 ? Math.max(1, Math.floor(perSecond / 4)) : 0;
    this.ringSize = perSecond;
    this.ring = new Array<T | undefined>(this.ringSize);
  }

  /** Admits `item`; returns the item it pushed out of this second, if any. */
  admit(item: T): T | undefined {
    const second = Math.floor(item.timeMs / 1000);
    if (second !== this.second) {
      this.second = second;
      this.headCount = 0;
      this.start = 0;
      this.count = 0;
    }
    if (this.headCount < this.headSize) {
      this.headCount++;
      return undefined;
    }
    if (this.count < this.ringSize) {
      this.ring[(this.start + this.count++) % this.ringSize] = item;
      return undefined;
    }
    const out = this.ring[this.start];
    this.ring[this.start] = item;
    this.start = (this.start + 1) % this.ringSize;
    return out;
  }
}

/**
 * Keeps the first `headSize` items and the most recent `tailSize`, dropping from the middle; memory stays
 * O(headSize + tailSize) however many items are pushed, and a push is O(1).
 */
export class KeepNewestLog<T extends Droppable> {
  private readonly head: T[] = [];
  private readonly tail: (T | undefined)[];
  private tailStart = 0;
  private tailCount = 0;

  constructor(
    private readonly headSize: number,
    private readonly tailSize: number,
  ) {
    this.tail = new Array<T | undefined>(tailSize);
  }

  /** Adds `item`; returns the item it pushed out when that one was still live (not dropped by another budget). */
  push(item: T): T | undefined {
    if (this.head.length < this.headSize) {
      this.head.push(item);
      return undefined;
    }
    if (this.tailSize === 0) return item;
    if (this.tailCount < this.tailSize) {
      this.tail[(this.tailStart + this.tailCount++) % this.tailSize] = item;
      return undefined;
    }
    const out = this.tail[this.tailStart] as T;
    this.tail[this.tailStart] = item;
    this.tailStart = (this.tailStart + 1) % this.tailSize;
    return out.dropped ? undefined : out;
  }

  /** Live items, oldest first. */
  toArray(): T[] {
    const out = this.head.filter((item) => !item.dropped);
    for (let i = 0; i < this.tailCount; i++) {
      const item = this.tail[(this.tailStart + i) % this.tailSize] as T;
      if (!item.dropped) out.push(item);
    }
    return out;
  }
}
