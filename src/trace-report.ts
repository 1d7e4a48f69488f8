import type { TestInfo } from '@playwright/test';
import { formatMarkdown } from './format/markdown';
import { buildAttempt, type RecordParts, type TestMeta } from './reporter/build-report';
import { slugForTestInfo } from './report-path';
import { testHeader } from './test-header';

const DEFAULT_MAX_REPORT_BYTES = 256 * 1024;

/**
 * The Markdown report as the worker knows it at the test's end, attached so the trace viewer shows it (only what
 * the worker attaches is in the trace). The reporter replaces this attachment with the final report, which
 * also groups events by `test.step` and lists earlier attempts.
 */
export function traceMarkdown(record: RecordParts & { maxReportBytes?: number }, testInfo: TestInfo, failedByDaebug: boolean, durationMs: number): string {
  const status = failedByDaebug && testInfo.status === 'passed' ? 'failed' : (testInfo.status ?? 'passed');
  const meta: TestMeta = { ...testHeader(testInfo), status, duration: durationMs };
  const slug = slugForTestInfo(testInfo);
  return formatMarkdown({ ...buildAttempt(record, meta, []), markdownFile: `${slug}.md` }, { maxBytes: record.maxReportBytes ?? DEFAULT_MAX_REPORT_BYTES, jsonFile: `${slug}.json` });
}
