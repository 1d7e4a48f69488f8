import type { CaptureRecord } from '../model/record';
import { executingLine, formatMarkdown } from '../format/markdown';
import type { TestMeta } from '../model/attempt';
import { buildAttempt } from '../diagnosis/build-attempt';

const FOOTER = '\n_The test is still running: this live report is rewritten when something new happens, at most every 2 s._\n';

/** What a worker knows of its running test, for the live report's header. */
export type RunningTest = Omit<TestMeta, 'status' | 'duration'> & { startMs: number };

/**
 * The live report of a running test: the final report's layout over the record so far, with the running job's
 * background events ending in `executing (Ns)`; between jobs, the test's own `executing (Ns)` closes the transcript.
 * Pure: same record, test and time, same text.
 */
export function formatLiveReport(record: CaptureRecord, test: RunningTest, atMs: number, maxBytes: number): string {
  const { startMs, ...meta } = test;
  // Spread: the reporter reads a loose record (an index signature), which the CaptureRecord interface lacks.
  const attempt = buildAttempt({ ...record }, { ...meta, status: 'running', duration: Math.max(0, atMs - startMs) }, []);
  const closing = record.jobs.some((job) => !job.finished) ? '' : `\n${executingLine(startMs, atMs)}\n`;
  const text = formatMarkdown(attempt, { maxBytes: maxBytes - FOOTER.length - closing.length, liveAtMs: atMs });
  // The transcript's last entry already ends in a blank line; the tail sections (dropped, diagnostics) do not.
  return `${text}${text.endsWith('\n\n') ? closing.slice(1) : closing}${FOOTER}`;
}
