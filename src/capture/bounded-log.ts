/**
 * Keeps the first `headSize` items and the most recent `tailSize` items; counts what falls between.
 * Memory stays O(headSize + tailSize) however many items are pushed.
 */
export class BoundedLog<T> {
  private readonly head: T[] = [];
  private readonly tail: (T | undefined)[];
  private tailStart = 0;
  private tailCount = 0;
  evicted = 0;
  onEvict: ((item: T) => void) | undefined;

  constructor(
    private readonly headSize: number,
    private readonly tailSize: number,
  ) {
    this.tail = new Array<T | undefined>(tailSize);
  }

  push(item: T): void {
    if (this.head.length < this.headSize) {
      this.head.push(item);
      return;
    }
    if (this.tailSize === 0) {
      this.evicted++;
      this.onEvict?.(item);
      return;
    }
    if (this.tailCount < this.tailSize) {
      this.tail[(this.tailStart + this.tailCount) % this.tailSize] = item;
      this.tailCount++;
      return;
    }
    const old = this.tail[this.tailStart] as T;
    this.tail[this.tailStart] = item;
    this.tailStart = (this.tailStart + 1) % this.tailSize;
    this.evicted++;
    this.onEvict?.(old);
  }

  get size(): number {
    return this.head.length + this.tailCount;
  }

  toArray(): T[] {
    const out = this.head.slice();
    for (let i = 0; i < this.tailCount; i++) out.push(this.tail[(this.tailStart + i) % this.tailSize] as T);
    return out;
  }
}
