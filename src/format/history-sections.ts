/**
 * The history across runs as text: `npx daebug flaky` and `npx daebug history` for a terminal or an MCP answer, and
 * the "Flaky in the last N runs" and "Failing since" sections of index.md and the GitHub step summary. Pure: it
 * formats what src/history/flaky.ts and timeline.ts decided, in the words the legend explains.
 */
import type { FailingTest, FlakyReport, FlakyTest, RunPoint } from '../history/flaky';
import type { TestTimeline } from '../history/timeline';
import type { HistorySummary } from '../model/history-summary';
import { code, inline, plainLine } from './fence';

interface Style {
  text(text: string, max: number): string;
  code(text: string): string;
  strong(text: string): string;
}

const MARKDOWN: Style = { text: inline, code, strong: (text) => `**${text}**` };
const PLAIN: Style = { text: plainLine, code: (text) => plainLine(text, Infinity), strong: (text) => text };

/** What a flaky test's failing attempts have and its passing ones have not. */
type Evidence = FlakyTest['evidence'][number];
type Subject = Evidence['subject'];

export const NO_EVIDENCE = "no browser evidence: look at timing, test order or the test's own waits";

const NO_NEW_EVIDENCE = 'no new browser evidence in that run: look at what changed in the code or the test';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `2026-11-27 13:25:40` */
function timeText(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ');
}

/** `run 4 of 6 (2026-11-27 13:25:40, commit abc1234 on main)` */
export function runPointText(point: Pick<RunPoint, 'run' | 'endedAt' | 'commit' | 'branch'>, runs: number): string {
  const commit = point.commit ? `, commit ${point.commit.slice(0, 7)}${point.branch ? ` on ${point.branch}` : ''}` : point.branch ? `, ${point.branch}` : '';
  return `run ${point.run} of ${runs} (${timeText(point.endedAt)}${commit})`;
}

/** `GET http://127.0.0.1/api/stock → 502`, or `[window.onerror] Error: total is NaN at src/cart.ts:3`. */
export function subjectText(subject: Subject, style: Style = PLAIN): string {
  if (subject.kind === 'request') return `request ${style.code(`${subject.method} ${subject.url} → ${subject.status ?? subject.error ?? 'failed'}`)}`;
  return `[${style.text(subject.source, 40)}] ${style.text(subject.message, 160)}${subject.where ? ` at ${style.code(subject.where)}` : ''}`;
}

/** `3 of 3 failing, 0 of 37 passing (p = 0.0001)` */
export function countsText(e: Evidence): string {
  const p = e.p < 0.0001 ? '< 0.0001' : `= ${e.p.toPrecision(2)}`;
  const cause = e.namedCause ? `; the browser cause in ${e.namedCause} of them` : '';
  return `${e.failing.present} of ${e.failing.of} failing, ${e.passing.present} of ${e.passing.of} passing (p ${p}${cause})`;
}

function flakyLines(t: FlakyTest, runs: number, style: Style, indent: string): string[] {
  const lines = [
    `${indent}flaky in ${t.unstableRuns} of ${plural(t.runs, 'run')}: ${plural(t.attempts, 'attempt')}, ${t.failures} failed, ${plural(t.retriesPassed, 'retry', 'retries')} passed; first flaked in ${runPointText(t.firstFlaked, runs)}`,
  ];
  if (!t.evidence.length) lines.push(`${indent}${NO_EVIDENCE}`);
  else {
    lines.push(`${indent}what separates its failing attempts from its passing ones:`);
    for (const e of t.evidence) lines.push(`${indent}- ${subjectText(e.subject, style)}: ${countsText(e)}`);
  }
  return lines;
}

function failingLines(t: FailingTest, runs: number, style: Style, indent: string): string[] {
  const head = t.passedBefore ? `failing since ${runPointText(t.since, runs)}` : `failing in every kept run since ${runPointText(t.since, runs)}`;
  const lines = [`${indent}${head}: every attempt of the last ${plural(t.runs, 'run')} failed; not flaky`];
  if (t.appeared.length) {
    lines.push(`${indent}appeared in that run:`);
    for (const s of t.appeared) lines.push(`${indent}- ${subjectText(s, style)}`);
  } else lines.push(`${indent}${NO_NEW_EVIDENCE}`);
  return lines;
}

/** `npx daebug flaky`: flaky tests, then failing ones, then fixed ones, then the legend. */
export function formatFlakyText(report: FlakyReport, historyDir: string): string {
  const lines: string[] = [];
  const span = report.firstRun && report.lastRun ? ` (${timeText(report.firstRun.endedAt)} to ${timeText(report.lastRun.endedAt)})` : '';
  lines.push(`History: ${plural(report.runs, 'run')} in ${historyDir}${span}.`, '');
  if (!report.flaky.length) lines.push(`No flaky test in the last ${plural(report.runs, 'run')}.`);
  else {
    lines.push(`Flaky in the last ${plural(report.runs, 'run')} (${report.flaky.length}), most unstable first:`, '');
    for (const t of report.flaky) lines.push(t.test.title, ...flakyLines(t, report.runs, PLAIN, '  '), '');
  }
  if (report.failingSince.length) {
    if (lines[lines.length - 1] !== '') lines.push('');
    lines.push(`Failing since (${report.failingSince.length}), newest breakage first:`, '');
    for (const t of report.failingSince) lines.push(t.test.title, ...failingLines(t, report.runs, PLAIN, '  '), '');
  }
  if (report.fixed.length) {
    if (lines[lines.length - 1] !== '') lines.push('');
    lines.push(`Fixed (${report.fixed.length}): failed in every attempt, then passed in every run since:`, '');
    for (const t of report.fixed) lines.push(`${t.test.title}: passing since ${runPointText(t.since, report.runs)}`);
    lines.push('');
  }
  if (lines[lines.length - 1] !== '') lines.push('');
  lines.push(
    'Legend: flaky = a retry passed after a failed attempt in some run, or the outcome changed between runs more than once;',
    'failing since run N = every attempt failed in every run from N on (not flaky); fixed = failing, then passing ever since.',
    `Evidence: an error group or failed request counted in the test's own failing and passing attempts, kept when ${report.rule}.`,
  );
  for (const s of report.skipped) lines.push(`(skipped ${s.file}: ${s.reason})`);
  return lines.join('\n') + '\n';
}

/** `npx daebug history <test>`: one line per run. */
export function formatTimelineText(timeline: TestTimeline): string {
  const verdict =
    timeline.verdict === 'failing'
      ? `failing since ${runPointText(timeline.since!, timeline.of)}`
      : timeline.verdict === 'flaky'
        ? `flaky, first in ${runPointText(timeline.since!, timeline.of)}`
        : timeline.verdict === 'fixed'
          ? `fixed since ${runPointText(timeline.since!, timeline.of)}`
          : 'stable';
  const lines = [`${timeline.test.title}`, `${plural(timeline.runs, 'run')} of ${timeline.of} kept: ${verdict}`, ''];
  for (const entry of timeline.entries) {
    const attempts = entry.attempts.map((a) => `${a.ok ? 'passed' : a.status === 'passed' ? 'passed (expected to fail)' : a.status}${a.repeat ? ` (repeat ${a.repeat})` : ''}`).join(', ') || 'no attempt';
    const head = `${runPointText(entry.run, timeline.of)}: ${entry.verdict === 'K' ? 'FLAKY' : entry.verdict === 'F' ? 'FAILED' : entry.verdict === 'P' ? 'passed' : 'skipped'} [${attempts}] ${(entry.duration / 1000).toFixed(1)} s`;
    lines.push(head);
    for (const e of entry.evidence) lines.push(`  ${e.new ? 'new ' : '    '}${subjectText(e.subject)}${e.cause ? ' (the browser cause)' : ''}`);
  }
  lines.push('', 'Legend: FLAKY = an attempt failed and a later one passed; FAILED = every attempt failed; new = this test had it in no earlier kept run.');
  return lines.join('\n') + '\n';
}

/** index.md's and the step summary's sections; nothing when no test is flaky or failing. */
export function formatHistorySections(summary: HistorySummary, headingLevel = 2): string[] {
  const h = '#'.repeat(headingLevel);
  const lines: string[] = [];
  // Each test is a list item: its first line after the title, the rest as a nested list.
  const item = (title: string, detail: string[]) => {
    const [head, ...rest] = detail.map((line) => line.replace(/^- /, ''));
    lines.push(`- ${MARKDOWN.strong(MARKDOWN.text(title, 200))}: ${head}`);
    for (const line of rest) lines.push(`  - ${line.replace(/:$/, '')}`);
  };
  if (summary.flaky.length) {
    lines.push(`${h} Flaky in the last ${plural(summary.runs, 'run')}`, '');
    const more = summary.flakyCount > summary.flaky.length ? ` (the ${summary.flaky.length} most unstable of ${summary.flakyCount}: ${code('npx daebug flaky')})` : '';
    lines.push(`${plural(summary.flakyCount, 'flaky test')}${more}, most unstable first:`, '');
    for (const t of summary.flaky) item(t.test.title, flakyLines(t, summary.runs, MARKDOWN, '').filter((line) => !line.startsWith('what separates')));
    lines.push('', `Evidence: an error group or failed request the test's failing attempts had more often than its passing ones, kept by ${MARKDOWN.text(summary.rule, 200)}.`, '');
  }
  if (summary.failingSince.length) {
    lines.push(`${h} Failing since`, '');
    const more = summary.failingCount > summary.failingSince.length ? ` (${summary.failingSince.length} of ${summary.failingCount}: ${code('npx daebug flaky')})` : '';
    lines.push(`${plural(summary.failingCount, 'test')} failing in every attempt${more}, not flaky:`, '');
    for (const t of summary.failingSince) {
      const head = failingLines(t, summary.runs, MARKDOWN, '')[0]!;
      const appeared = t.appeared.map((subject) => `appeared in that run: ${subjectText(subject, MARKDOWN)}`);
      item(t.test.title, [head, ...(appeared.length ? appeared : [NO_NEW_EVIDENCE])]);
    }
    lines.push('');
  }
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
