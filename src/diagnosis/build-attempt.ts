/**
 * The attempt as every report shows it: joined from the record in model (src/model/attempt.ts), then each event that
 * explains another linked to it (src/diagnosis/link.ts). The live report, the trace's copy, the strict message and the
 * final report all build their attempt here, so they agree.
 */
import type { Attempt } from '../model/schema';
import { attemptFromRecord, type RecordParts, type StepSpan, type TestMeta } from '../model/attempt';
import { linkCauses } from './link';

export function buildAttempt(record: RecordParts | undefined, meta: TestMeta, steps: readonly StepSpan[]): Attempt {
  const attempt = attemptFromRecord(record, meta, steps);
  // Where one event explains another (a failed request and the parse error after it, a React error and its boundary log).
  // Linked after the join, on the same copies: neither the steps nor the summary read the links.
  linkCauses(attempt.events);
  return attempt;
}
