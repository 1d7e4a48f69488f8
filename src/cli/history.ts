import { formatTimelineText } from '../format/history-sections';
import { testName } from '../history/flaky';
import { timelineOf, type TestTimeline } from '../history/timeline';
import type { HistoryTest } from '../history/run-file';
import { foldHistory, historyDirOf, skippedLines } from './history-dir';
import { diagnosticText, EXIT_NO_MATCH, EXIT_OK, jsonText, type CommandOutput } from './output';
import { parseTestQuery } from './test-query';

export interface HistoryCommandOptions {
  dir: string;
  history?: string | undefined;
  /** Matched like `daebug errors --test`: text in the title path or file, or /regex/flags. */
  query: string;
  json?: boolean;
}

/** `daebug history <test> --json`: the test's timeline, or the tests the query matched when it is not one. */
export type HistoryOutput = { history: string; timeline: TestTimeline } | { history: string; matches: string[] };

/** `daebug history <test>`: one line per kept run of one test. Several matches: listed, exit 1. */
export function historyCommand(options: HistoryCommandOptions): CommandOutput {
  const dir = historyDirOf(options.history, options.dir);
  const query = parseTestQuery(options.query, 'history');
  // As `--test` matches a run's tests: the title path (with its project) or the spec file, as text or /regex/.
  const matches = (test: HistoryTest) => {
    const haystacks = [testName(test).title, test.file];
    return query.kind === 'regex' ? haystacks.some((text) => query.regex.test(text)) : haystacks.some((text) => text.toLowerCase().includes(query.text));
  };
  const fold = foldHistory(dir, { detail: matches });
  const stderr = diagnosticText(skippedLines(fold));
  const found = [...fold.tests.values()].filter((t) => t.timeline);
  // An exact title or title path wins over longer titles that contain it.
  const exact = found.filter((t) => testName(t).title === options.query || t.titlePath[t.titlePath.length - 1] === options.query);
  const chosen = exact.length ? exact : found;
  if (chosen.length === 1) {
    const timeline = timelineOf(fold, chosen[0]!);
    return { stdout: options.json ? jsonText({ history: dir, timeline } satisfies HistoryOutput) : formatTimelineText(timeline), stderr, exitCode: EXIT_OK };
  }
  const names = chosen.map((t) => testName(t).title);
  if (options.json) return { stdout: jsonText({ history: dir, matches: names } satisfies HistoryOutput), stderr, exitCode: EXIT_NO_MATCH };
  const text = names.length ? `${names.length} tests in the history match ${JSON.stringify(options.query)}; name one:\n${names.map((n) => `  ${n}`).join('\n')}\n` : `No test in the history of ${dir} matches ${JSON.stringify(options.query)}.\n`;
  return { stdout: text, stderr, exitCode: EXIT_NO_MATCH };
}
