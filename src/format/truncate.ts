/** Unexpected errors written in full in a report's Unexpected errors section; the JSON report has the rest. */
export const UNEXPECTED_LISTED = 20;

/** What a group of events shows: all of them up to `limit`, else the first 2, a gap, and the last 8. */
export interface Truncated<T> {
  head: T[];
  omitted: number;
  tail: T[];
}

export function truncateGroup<T>(items: readonly T[], limit = 10, first = 2, last = 8): Truncated<T> {
  if (items.length <= limit) return { head: [...items], omitted: 0, tail: [] };
  return { head: items.slice(0, first), omitted: items.length - first - last, tail: items.slice(items.length - last) };
}
