import { DaebugCliUsageError, DaebugNoReportsError } from '../errors';
import type { IndexEntryData } from '../model/run-index';
import { cliTest } from './collect-errors';
import { diagnosticText, EXIT_NO_MATCH, EXIT_OK, jsonText, type CommandOutput } from './output';
import { readReport, readReportsFolder, readReportText } from './read-reports';
import type { ShowMatchesOutput } from './schema';
import { findTests, titlePathText } from './test-query';

export interface ShowCommandOptions {
  dir: string;
  /** A test title, title path, report name (slug), spec file, or text / `/regex/` matched like `--test`. */
  query: string;
  json?: boolean;
}

function formatMatches(query: string, matches: readonly IndexEntryData[], dir: string): string {
  if (!matches.length) return `No test matches ${JSON.stringify(query)} in ${dir}. List the tests with: npx daebug summary\n`;
  const list = matches.map((row) => `  ${titlePathText(row)}${row.project ? ` [${row.project}]` : ''}  →  ${row.markdown.replace(/\.md$/, '')}`);
  return [`${matches.length} tests match ${JSON.stringify(query)}; name one by its report:`, ...list, '', `For example: npx daebug show ${matches[0]!.markdown.replace(/\.md$/, '')}`].join('\n') + '\n';
}

/** `daebug show`: one test's Markdown report (or JSON report with `json`), or the tests that match when several do. */
export function showCommand(options: ShowCommandOptions): CommandOutput {
  if (!options.query.trim()) throw new DaebugCliUsageError('daebug show needs a test title, report name (slug) or spec file.');
  const folder = readReportsFolder(options.dir);
  if (!folder.rows.length) throw new DaebugNoReportsError(options.dir);
  const matches = findTests(folder.rows, options.query);
  const row = matches.length === 1 ? matches[0] : undefined;
  if (!row) {
    if (options.json) {
      const output: ShowMatchesOutput = { query: options.query, matches: matches.map((m) => cliTest(options.dir, m)) };
      return { stdout: jsonText(output), stderr: diagnosticText(folder.diagnostics), exitCode: EXIT_NO_MATCH };
    }
    const text = formatMatches(options.query, matches, options.dir);
    // Several matches are an answer to read (stdout); no match is an error message (stderr).
    return matches.length ? { stdout: text, stderr: diagnosticText(folder.diagnostics), exitCode: EXIT_NO_MATCH } : { stdout: '', stderr: diagnosticText(folder.diagnostics) + text, exitCode: EXIT_NO_MATCH };
  }
  // The JSON is checked against the schema, then printed as written: parsing would drop fields this version does not know.
  const valid = !options.json || readReport(options.dir, row.json, folder.diagnostics) !== undefined;
  const text = valid ? readReportText(folder, options.json ? row.json : row.markdown) : undefined;
  if (text === undefined) return { stdout: '', stderr: diagnosticText(folder.diagnostics), exitCode: EXIT_NO_MATCH };
  return { stdout: text, stderr: diagnosticText(folder.diagnostics), exitCode: EXIT_OK };
}
