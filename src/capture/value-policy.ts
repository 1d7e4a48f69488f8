/**
 * Which logged values daebug reads in full at a test's end (`daebugValues: 'auto'`, issue 25). A read runs on the
 * page's main thread, so a test that ends while its page is busy waits for it; a value is read only where it can
 * matter, and every other event keeps V8's preview (`preview: true`):
 * - every value of an event that counts: an unexpected error, a warning, `console.error`;
 * - every value in a test that failed, or that strict mode fails;
 * - every value the test asked for (`events()`, `errors()`; `settle()`, `daebug.eval` and a job's end read at once).
 * A known error (its fingerprint is in the baseline) and an expected one (daebugIgnore, expectError) are previews too.
 * Both are told from the text the event has so far: when the preview's text matches no pattern, no fingerprint and
 * no baseline group's shape (src/run/message-shape.ts), the event is read, and the full text decides again in the
 * report.
 */
import { isUnexpectedIn, matchesIgnore, type Classifiable } from '../model/classify';
import type { IgnorePattern, NetworkMode } from '../options';

/** `daebugValues`: read logged values where they can matter (`auto`), or every one of them (`full`). */
export type ValuesMode = 'auto' | 'full';

/** Read now; leave V8's preview (the page lets go of the objects); or wait until the baseline can tell. */
export type ValueVerdict = 'read' | 'preview' | 'later';

/** What a test's end knows about one event whose values wait in the page. */
export interface WaitingValue {
  /** The test asked for the event (`events()`, `errors()`). */
  asked: boolean;
  /** An unexpected error, `console.error` or a warning: its kind counts. */
  counts: boolean;
  /** A daebugIgnore or expectError pattern matches it. */
  expected: boolean;
  /** Its fingerprint is in the baseline; undefined until the fingerprint can be told (its stack is mapped). */
  known: boolean | undefined;
}

/** What a test's end knows about the test. */
export interface TestSoFar {
  /** The test failed already (its status is not the expected one). */
  failed: boolean;
  /** Strict mode fails the test; undefined until the baseline can tell. */
  strictFails: boolean | undefined;
}

/** The one decision: whether one event's values are read in full at the test's end. */
export function valueVerdict(value: WaitingValue, test: TestSoFar): ValueVerdict {
  if (test.failed || test.strictFails === true || value.asked) return 'read';
  if (value.counts && !value.expected) {
    if (value.known === undefined) return 'later';
    if (!value.known) return 'read';
  }
  // Nothing of its own makes it matter; a strict failure still to be told would.
  return test.strictFails === undefined ? 'later' : 'preview';
}

/** Whether strict mode fails the test: an unexpected event that is not known. Undefined while one may be known. */
export function strictFails(strict: boolean, unexpected: readonly { known: boolean | undefined }[]): boolean | undefined {
  if (!strict) return false;
  if (unexpected.some((e) => e.known === false)) return true;
  return unexpected.some((e) => e.known === undefined) ? undefined : false;
}

const WARNING_SOURCES: ReadonlySet<string> = new Set(['console.warn', 'console.assert']);

/** The end of a test, as the fixture knows it. */
export interface TestEnd<E extends Classifiable> {
  strict: boolean;
  network: NetworkMode | undefined;
  ignore: readonly IgnorePattern[];
  failed: boolean;
  /** Whether an event is in the baseline: false without one, undefined while its fingerprint cannot be told. */
  known(event: E): boolean | undefined;
}

/**
 * The verdict for each waiting event at a test's end, given every event the test kept so far (a strict failure
 * can come from an event with no value to read: a string thrown, a failed request).
 */
export function endOfTestVerdicts<E extends Classifiable>(end: TestEnd<E>, events: readonly E[]): (event: E, asked: boolean) => ValueVerdict {
  const unexpected = (event: E) => isUnexpectedIn(event, end.network) && !matchesIgnore(event, end.ignore);
  const test: TestSoFar = { failed: end.failed, strictFails: end.strict ? strictFails(true, events.filter(unexpected).map((e) => ({ known: end.known(e) }))) : false };
  return (event, asked) => {
    const counts = isUnexpectedIn(event, end.network) || WARNING_SOURCES.has(event.source);
    const expected = matchesIgnore(event, end.ignore);
    return valueVerdict({ asked, counts, expected, known: counts && !expected ? end.known(event) : false }, test);
  };
}
