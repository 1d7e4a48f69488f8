/** A least-recently-used cache bounded by entry count and by the summed size its values report. */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private totalBytes = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map keeps insertion order: re-inserting marks the entry as the most recent.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The entry's value without marking it as used. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V, bytes = 0): void {
    const old = this.entries.get(key);
    if (old) {
      this.totalBytes -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, bytes });
    this.totalBytes += bytes;
    this.evict();
  }

  /** Updates an entry's size once it is known (e.g. when a fetch resolves); a no-op if it was evicted meanwhile. */
  resize(key: string, value: V, bytes: number): void {
    const entry = this.entries.get(key);
    if (!entry || entry.value !== value) return;
    this.totalBytes += bytes - entry.bytes;
    entry.bytes = bytes;
    this.evict();
  }

  /** Removes an entry if it still holds `value`. */
  delete(key: string, value: V): void {
    const entry = this.entries.get(key);
    if (!entry || entry.value !== value) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.totalBytes <= this.maxBytes) return;
      this.entries.delete(key);
      this.totalBytes -= entry.bytes;
    }
  }
}
