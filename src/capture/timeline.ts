/** What the timeline needs of an event: its own clock, where it came from, and the order it arrived in. */
export interface TimelineItem {
  /** The realm's own clock (CDP's timestamp), or Node's when the browser gives none (navigation, worker start). */
  timeMs: number;
  /** Arrival order over the whole test. */
  seq: number;
  /** The target (CDP session) it arrived on; items of one stream keep their arrival order. */
  stream?: string | undefined;
  /** A worker's start names the stream it opens: nothing in that stream comes before it. */
  opens?: string | undefined;
}

/**
 * Orders a test's events on one timeline and gives each the time it is shown and grouped at. CDP delivers a
 * target's events in the order they happened, but some are stamped late by Node (a navigation, a worker's start):
 * within a stream an event never comes after the next one, and a stream's opener never after its first event.
 * Across streams the realms' clocks decide. Pure: same items, same order.
 */
export function orderTimeline<T extends TimelineItem>(items: readonly T[]): Array<{ item: T; atMs: number }> {
  const streams = new Map<string, T[]>();
  for (const item of items) {
    if (item.stream === undefined) continue;
    const list = streams.get(item.stream);
    if (list) list.push(item);
    else streams.set(item.stream, [item]);
  }
  const at = new Map<T, number>();
  const firstAt = new Map<string, number>();
  // A child stream starts after its opener arrived, so streams whose first item came later are done first.
  const order = [...streams.entries()].map(([key, list]) => ({ key, list: list.sort((a, b) => a.seq - b.seq) }));
  order.sort((a, b) => b.list[0]!.seq - a.list[0]!.seq);
  for (const { key, list } of order) {
    let next = Number.POSITIVE_INFINITY;
    for (let i = list.length - 1; i >= 0; i--) {
      const item = list[i]!;
      let time = Math.min(item.timeMs, next);
      if (item.opens !== undefined) time = Math.min(time, firstAt.get(item.opens) ?? time);
      at.set(item, time);
      next = time;
    }
    firstAt.set(key, next);
  }
  return items
    .map((item) => ({ item, atMs: at.get(item) ?? item.timeMs }))
    .sort((a, b) => a.atMs - b.atMs || a.item.seq - b.item.seq);
}
