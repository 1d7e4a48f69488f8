/** An item a budget may drop after it was admitted: dropped items stay where they are and are skipped on read. */
export interface Droppable {
  dropped?: boolean | undefined;
  timeMs: number;
}

/**
 * The per-second rate limit of one realm and class of events. A second holds at most `perSecond` items; over that,
 * the oldest of the second is dropped and the newest kept, so a burst ends with its last items, not its first.
 */
export class RateWindow<T extends Droppable> {
  private second = Number.NaN;
  private readonly ring: (T | undefined)[];
  private start = 0;
  private count = 0;

  constructor(private readonly perSecond: number) {
    this.ring = new Array<T | undefined>(perSecond);
  }

  /** Admits `item`; returns the item it pushed out of this second, if any. */
  admit(item: T): T | undefined {
    const second = Math.floor(item.timeMs / 1000);
    if (second !== this.second) {
      this.second = second;
      this.start = 0;
      this.count = 0;
    }
    if (this.count < this.perSecond) {
      this.ring[(this.start + this.count++) % this.perSecond] = item;
      return undefined;
    }
    const out = this.ring[this.start];
    this.ring[this.start] = item;
    this.start = (this.start + 1) % this.perSecond;
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
