import { expect } from '@playwright/test';
import { runInlineTest, type InlineRunOptions, type InlineRunResult } from './run-playwright';

/** The JSON and Markdown report of the test with this title in an inline run; throws with the run's output if none. */
export function reportByTitle(run: InlineRunResult, title: string): { json: any; md: string } {
  const entry = Object.entries(run.reports).find(([, r]) => r.test.title === title);
  if (!entry) throw new Error(`no report for "${title}":\n${run.output}`);
  return { json: entry[1], md: run.markdown[entry[0].replace(/\.json$/, '.md')] ?? '' };
}

/** One `## Title` section of a Markdown report, up to the next section; fails the test when it is missing. */
export function markdownSection(md: string, title: string): string {
  const start = md.indexOf(`\n## ${title}\n`);
  expect(start, md).toBeGreaterThan(-1);
  const end = md.indexOf('\n## ', start + 1);
  return md.slice(start, end === -1 ? undefined : end);
}

/** Runs an inline project and reads the reports of the test with this title. */
export async function runForReport(files: Record<string, string>, title: string, options: InlineRunOptions = {}): Promise<{ run: InlineRunResult; json: any; md: string }> {
  const run = await runInlineTest(files, options);
  return { run, ...reportByTitle(run, title) };
}
