/**
 * The short daebug section a failing test's own failure output carries (the terminal, the HTML report,
 * Playwright's `error-context.md` and its "Copy prompt"): the browser error that most likely explains the failure,
 * where it is in the source, when it happened, and the report. Pure; the fixture adds it as an error after the test
 * has already failed, which does not change the test's outcome.
 */
import { headline } from '../model/headline';
import { rankRootCause } from '../diagnosis/rank';
import type { Attempt, DaebugEvent, Job } from '../model/schema';
import { firstLine } from '../text/first-line';
import { frameworkContext } from './root-cause';
import { failurePlace, notAFrame } from './strict-message';

const OTHERS_LISTED = 3;

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function spanOf(event: DaebugEvent, attempt: Attempt): Job | undefined {
  if (event.jobId) return attempt.jobs.find((j) => j.id === event.jobId);
  if (event.stepId) return attempt.steps?.find((s) => s.id === event.stepId);
  return undefined;
}

/**
 * The lines of the section, or undefined when the attempt had no unexpected error. `failedAtMs` is when the test
 * body ended (its failure), so the reader learns how long before it the error happened.
 */
export function failureCauseLines(attempt: Attempt, reportFile: string, failedAtMs: number): string[] | undefined {
  const cause = rankRootCause(attempt, { failedAtMs });
  if (!cause) return undefined;
  const unexpected = attempt.events.filter((e) => e.unexpected);
  const event = cause.event;
  const count = unexpected.length;
  const independent = cause.independent > 1 ? ` (${cause.independent} independent errors)` : '';
  const lines = [`daebug: the browser had ${count} unexpected ${count === 1 ? 'error' : 'errors'}${independent} in this test; the likeliest cause of the failure:`];
  lines.push(`  [${event.source}] in ${event.realm}: ${firstLine(headline(event.message), { max: 300 })}${event.known ? ' (known, in baseline)' : ''}`);
  const where = failurePlace(event, attempt.events);
  const component = frameworkContext(event, attempt.events)?.component;
  if (where || component) lines.push(`    ↳ ${where ?? 'no frame in your code'}${component ? ` (component <${component}>)` : ''}`);
  const before = failedAtMs - Date.parse(event.time);
  const span = spanOf(event, attempt);
  const during = span ? `, during ${span.kind === 'step' ? 'step' : span.kind === 'eval' ? 'daebug.eval' : 'job'} "${firstLine(span.title ?? span.code ?? span.id, { max: 80, trim: true })}"` : '';
  lines.push(`    ${before >= 0 ? `${seconds(before)} before the test failed` : `${seconds(-before)} after the test failed`}${during}`);
  lines.push(`    why this one: ${cause.reason}`);
  const others = unexpected.filter((e) => e !== event && e.fingerprint !== event.fingerprint);
  const seen = new Set<string>();
  const distinct = others.filter((e) => {
    const key = e.fingerprint ?? `${e.source}\u0000${firstLine(e.message, { max: 300, trim: true })}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  for (const other of distinct.slice(0, OTHERS_LISTED)) {
    const place = failurePlace(other, attempt.events);
    lines.push(`  also: [${other.source}] ${firstLine(headline(other.message), { max: 160 })}${place ? ` — at ${place}` : ''}`);
  }
  if (distinct.length > OTHERS_LISTED) lines.push(`  … and ${distinct.length - OTHERS_LISTED} more in the report`);
  lines.push(`Report: ${reportFile}`);
  return lines.flatMap((line) => line.split('\n')).map(notAFrame);
}

/** The section as one message, for the error the fixture adds to a failed test. */
export function failureCauseMessage(attempt: Attempt, reportFile: string, failedAtMs: number): string | undefined {
  return failureCauseLines(attempt, reportFile, failedAtMs)?.join('\n');
}
