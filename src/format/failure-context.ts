/**
 * Where a failed or timed-out test stopped, and what its pages were doing just before: the report of a test that
 * failed with no browser error would otherwise say "Unexpected errors: None." and nothing of the failure. Pure: from
 * the attempt's `failedAt`, `failedStep` and `failure` (Playwright's steps and error) and its events.
 */
import { firstLine } from '../text/first-line';
import { code, inline } from './fence';
import { formatClock as clock } from '../model/classify';
import type { Attempt, DaebugEvent } from '../model/schema';

/** Events listed before the failure: the last few say what the page was doing. */
const LAST_EVENTS = 5;

/** Whether the attempt did not end as expected because the test failed, timed out or was interrupted. */
export function testFailed(attempt: Attempt): boolean {
  const { status, expectedStatus } = attempt.test;
  return status !== expectedStatus && (status === 'failed' || status === 'timedOut' || status === 'interrupted');
}

/** The section's lines, or [] when the test did not fail. */
export function failureContextLines(attempt: Attempt, h: string): string[] {
  if (!testFailed(attempt)) return [];
  const t = attempt.test;
  const failedAtMs = t.failedAt === undefined ? Number.NaN : Date.parse(t.failedAt);
  const lines = ['', `${h}# Where the test failed`, ''];
  const what = t.status === 'timedOut' ? 'Timed out' : t.status === 'interrupted' ? 'Interrupted' : 'Failed';
  const when = Number.isNaN(failedAtMs) ? '' : ` at ${clock(failedAtMs)}`;
  const step = `${t.failedStep ? `, in ${code(firstLine(t.failedStep, { max: 200 }))}` : ''}${t.failedLocation ? ` at ${code(t.failedLocation)}` : ''}`;
  lines.push(`- ${what}${when}${step}${t.failure ? `: ${inline(firstLine(t.failure, { max: 300 }))}` : ''}`);
  const open = openJob(attempt, failedAtMs);
  if (open) lines.push(`- Still running then: ${open}`);
  const before = Number.isNaN(failedAtMs) ? attempt.events : attempt.events.filter((e) => Date.parse(e.time) <= failedAtMs);
  if (!before.length) {
    lines.push(`- The page before${when ? ' it' : ''}: no event was captured`);
    return lines;
  }
  const last = before.slice(-LAST_EVENTS);
  const gap = Number.isNaN(failedAtMs) ? '' : `, the last ${seconds(failedAtMs - Date.parse(last.at(-1)!.time))} before`;
  lines.push(`- What the page${new Set(last.map((e) => e.realm)).size > 1 ? 's were' : ' was'} doing (the last ${last.length === 1 ? 'event' : `${last.length} events`}${gap}${before.length > last.length ? `; ${before.length - last.length} earlier in the transcript` : ''}):`);
  for (const event of last) lines.push(`  - ${event.ts} ${code(event.source)} in ${code(event.realm)}: ${eventText(event)}`);
  return lines;
}

/** A `daebug.eval` or job of the test that had not finished when the test failed. */
function openJob(attempt: Attempt, failedAtMs: number): string | undefined {
  const job = [...attempt.jobs].reverse().find((j) => j.finishedAt === undefined && (Number.isNaN(failedAtMs) || Date.parse(j.startedAt) <= failedAtMs));
  if (!job) return undefined;
  return `${job.kind === 'job' ? `job ${code(job.title ?? job.id)}` : `${code('daebug.eval')} in ${code(job.realm)}`}, started at ${clock(Date.parse(job.startedAt))}`;
}

function eventText(event: DaebugEvent): string {
  const request = event.network;
  if (request) return inline(`${request.method} ${request.url} ${request.status ?? request.errorText ?? 'failed'}`, 160);
  return inline(firstLine(event.message, { max: 160 }) || '(no message)', 160);
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}
