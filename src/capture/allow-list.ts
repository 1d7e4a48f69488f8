import { matchesPattern, type Classifiable } from '../model/classify';
import type { StaleAllowList } from '../model/schema';
import type { IgnorePattern } from '../options';

/**
 * Which `daebugIgnore` and `expectError` entries allowed something in this test, so the ones that matched
 * nothing can be listed: an allow-list entry that no longer matches anything is a leftover to remove.
 */
export class AllowListUse {
  private readonly used = new Set<IgnorePattern>();

  constructor(
    private readonly ignore: readonly IgnorePattern[],
    private readonly expected: readonly IgnorePattern[],
  ) {}

  /** Notes the entries an event matched: called for every event an entry allowed, dropped ones included. */
  note(event: Classifiable): void {
    for (const pattern of this.ignore) if (!this.used.has(pattern) && matchesPattern(event, pattern)) this.used.add(pattern);
    for (const pattern of this.expected) if (!this.used.has(pattern) && matchesPattern(event, pattern)) this.used.add(pattern);
  }

  /** The entries that matched none of the noted events nor any of `events`; undefined when every entry matched. */
  stale(events: readonly Classifiable[]): StaleAllowList | undefined {
    const unused = (patterns: readonly IgnorePattern[]) => patterns.filter((p) => !this.used.has(p) && !events.some((e) => matchesPattern(e, p))).map(showPattern);
    const daebugIgnore = unused(this.ignore);
    const expectError = unused(this.expected);
    return daebugIgnore.length || expectError.length ? { daebugIgnore, expectError } : undefined;
  }
}

/** A pattern as the user wrote it: a RegExp literal, or a quoted string. */
export function showPattern(pattern: IgnorePattern): string {
  return typeof pattern === 'string' ? JSON.stringify(pattern) : String(pattern);
}
