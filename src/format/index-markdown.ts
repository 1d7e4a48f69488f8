import type { ErrorGroup, FixedGroup } from '../model/error-group';
import type { Summary } from '../model/schema';
import { formatGroupsSection } from './error-groups';
import { code, inline } from './fence';
import type { UnmappedNote } from '../model/unmapped-note';
import { formatUnmappedSection } from './unmapped-scripts';
import type { HistorySummary } from '../model/history-summary';
import { formatHistorySections } from './history-sections';
import { count } from './count';

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
  groups?: ErrorGroup[];
  baseline?: string;
  fixed?: FixedGroup[];
  unmappedByCause?: UnmappedNote[];
  history?: HistorySummary;
}

export interface IndexMarkdownOptions {
  /** Test rows listed before the rest is counted in one line. @default 200 */
  maxTests?: number;
  /** The baseline path as shown (relative to the working folder). */
  baselineShown?: string;
  /** Runs of at most this many tests list every test; larger ones only those that need a look. @default 100 */
  listAllUpTo?: number;
}

/**
 * `index.md`: the run in one line, its error groups, then the tests that need a look (running, failed, with
 * unexpected errors) first; past 100 tests, only those, and one line counting the rest. Bounded whatever the run's size.
 */
export function formatIndexMarkdown(index: RunIndex, options: IndexMarkdownOptions = {}): string {
  const maxTests = options.maxTests ?? 200;
  const unexpected = index.tests.reduce((n, t) => n + t.summary.unexpected, 0);
  const running = index.tests.filter((t) => t.status === RUNNING_STATUS).length;
  const failed = index.tests.filter((t) => t.status !== t.expectedStatus && t.status !== RUNNING_STATUS).length;
  const groups = index.groups?.filter((g) => g.unexpected).length;
  const lines = [
    '# daebug reports',
    '',
    `- Run: **${inline(index.status)}**${index.interrupted ? ' (interrupted: tests that did not finish have no report)' : ''}`,
    `- Tests: ${index.tests.length}${running ? ` (${running} running, with live reports)` : ''}, ${failed} not as expected, ${count(unexpected, 'unexpected browser error')}${groups !== undefined ? ` in ${groups} distinct ${groups === 1 ? 'group' : 'groups'}` : ''}`,
    ...(index.baseline !== undefined ? [`- Baseline: ${code(options.baselineShown ?? index.baseline)}`] : []),
    `- Updated: ${index.updatedAt}`,
    '',
  ];
  if (index.groups) lines.push(...formatGroupsSection({ groups: index.groups, fixed: index.fixed, baseline: index.baseline === undefined ? undefined : (options.baselineShown ?? index.baseline) }), '');
  if (index.unmappedByCause?.length) lines.push(...formatUnmappedSection(index.unmappedByCause), '');
  if (index.history) lines.push(...formatHistorySections(index.history), '');
  const needsLook = (t: IndexEntry) => t.status === RUNNING_STATUS || t.status !== t.expectedStatus || t.summary.unexpected > 0;
  const isRunning = (t: IndexEntry) => Number(t.status === RUNNING_STATUS);
  const newErrors = (t: IndexEntry) => t.summary.unexpected - (t.summary.known ?? 0);
  const order = [...index.tests].sort(
    (a, b) => isRunning(b) - isRunning(a) || Number(b.status !== b.expectedStatus) - Number(a.status !== a.expectedStatus) || newErrors(b) - newErrors(a) || b.summary.unexpected - a.summary.unexpected,
  );
  // A small run lists every test; a large one only those that need a look, and counts the rest in one line.
  const small = index.tests.length <= (options.listAllUpTo ?? 100);
  const listed = small ? order : order.filter(needsLook);
  const rest = index.tests.length - listed.length;
  lines.push('## Tests', '');
  if (!index.tests.length) lines.push('No test has finished yet.');
  else if (!listed.length) lines.push(`${index.tests.length === 1 ? 'The 1 test' : `All ${index.tests.length} tests`} ended as expected with no unexpected browser errors.`);
  else {
    if (!small) lines.push('Running, failed, and with unexpected browser errors:', '');
    lines.push('| Status | Test | Errors | Unexpected | Console | Dropped | Report |', '| --- | --- | ---: | ---: | ---: | ---: | --- |');
    const cell = (text: string) => inline(text, 160).replace(/\|/g, '\\|');
    for (const t of listed.slice(0, maxTests)) {
      const status = t.status === t.expectedStatus || t.status === RUNNING_STATUS ? t.status : `**${t.status}**`;
      const known = t.summary.known ? ` (${t.summary.known} known)` : '';
      lines.push(`| ${status} | ${cell(t.titlePath.join(' › '))}${t.project ? ` (${cell(t.project)})` : ''} | ${t.summary.errors} | ${t.summary.unexpected}${known} | ${t.summary.console} | ${t.summary.dropped} | [${t.markdown}](${encodeURI(t.markdown)}) |`);
    }
    if (listed.length > maxTests) lines.push('', `… and ${listed.length - maxTests} more such tests: \`npx daebug summary\` or index.json.`);
    if (rest) lines.push('', `${rest} other ${rest === 1 ? 'test' : 'tests'} ended as expected with no unexpected browser errors.`);
  }
  return lines.join('\n') + '\n';
}
