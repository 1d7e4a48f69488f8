import type { Summary } from '../model/schema';
import { inline } from './fence';

/** An entry's status while its test runs: its report is the live one. */
export const RUNNING_STATUS = 'running';

export interface IndexEntry {
  title: string;
  titlePath: string[];
  file: string;
  line: number;
  project: string;
  status: string;
  expectedStatus: string;
  retry: number;
  attempts: number;
  duration: number;
  summary: Summary;
  markdown: string;
  json: string;
}

export interface RunIndex {
  schemaVersion: 1;
  /** Playwright's run status, `running` while tests are still being written. */
  status: string;
  interrupted: boolean;
  startedAt: string;
  updatedAt: string;
  outputDir: string;
  tests: IndexEntry[];
}

export function formatIndexMarkdown(index: RunIndex): string {
  const unexpected = index.tests.reduce((n, t) => n + t.summary.unexpected, 0);
  const running = index.tests.filter((t) => t.status === RUNNING_STATUS).length;
  const failed = index.tests.filter((t) => t.status !== t.expectedStatus && t.status !== RUNNING_STATUS).length;
  const lines = [
    '# daebug reports',
    '',
    `- Run: **${inline(index.status)}**${index.interrupted ? ' (interrupted: tests that did not finish have no report)' : ''}`,
    `- Tests: ${index.tests.length}${running ? ` (${running} running, with live reports)` : ''}, ${failed} not as expected, ${unexpected} unexpected browser errors`,
    `- Updated: ${index.updatedAt}`,
    '',
    '| Status | Test | Errors | Unexpected | Console | Dropped | Report |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
  ];
  const cell = (text: string) => inline(text, 160).replace(/\|/g, '\\|');
  const isRunning = (t: IndexEntry) => Number(t.status === RUNNING_STATUS);
  const order = [...index.tests].sort((a, b) => isRunning(b) - isRunning(a) || Number(b.status !== b.expectedStatus) - Number(a.status !== a.expectedStatus) || b.summary.unexpected - a.summary.unexpected);
  for (const t of order) {
    const status = t.status === t.expectedStatus || t.status === RUNNING_STATUS ? t.status : `**${t.status}**`;
    lines.push(`| ${status} | ${cell(t.titlePath.join(' › '))}${t.project ? ` (${cell(t.project)})` : ''} | ${t.summary.errors} | ${t.summary.unexpected} | ${t.summary.console} | ${t.summary.dropped} | [${t.markdown}](${encodeURI(t.markdown)}) |`);
  }
  if (!index.tests.length) lines.push('', 'No test has finished yet.');
  return lines.join('\n') + '\n';
}
