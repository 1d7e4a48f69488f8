import { DaebugCliUsageError } from '../errors';
import type { IndexEntryData } from '../model/run-index';

/** `--test` text: `/regex/flags`, or a case-insensitive substring. */
export type TestQuery = { kind: 'regex'; regex: RegExp } | { kind: 'text'; text: string };

export function parseTestQuery(raw: string, flag = '--test'): TestQuery {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(raw);
  if (!literal) return { kind: 'text', text: raw.toLowerCase() };
  try {
    return { kind: 'regex', regex: new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, '')) };
  } catch (error) {
    throw new DaebugCliUsageError(`${flag} ${JSON.stringify(raw)} is not a valid regular expression: ${(error as Error).message}`, `${flag} accepts text (matched as a case-insensitive substring of the test's title path or report name) or /regex/flags.`);
  }
}

/** `file › describe › title`, the way reports and the index show a test; an anonymous describe adds nothing. */
export function titlePathText(row: Pick<IndexEntryData, 'titlePath' | 'title'>): string {
  const titles = row.titlePath.filter(Boolean);
  return titles.length ? titles.join(' › ') : row.title;
}

/** Whether the test's title path, file or report name matches. */
export function matchesTest(query: TestQuery, row: IndexEntryData): boolean {
  const haystacks = [titlePathText(row), row.file, row.markdown];
  if (query.kind === 'regex') return haystacks.some((text) => query.regex.test(text));
  return haystacks.some((text) => text.toLowerCase().includes(query.text));
}

/**
 * The tests `daebug show <query>` names, most precise first: a report name (slug, with or without `.md` or
 * `.json`, or the report's path), an exact title or title path, a spec file (or `file:line`), then `matchesTest`. The first kind
 * that matches anything wins, so an exact title is not ambiguous with longer titles that contain it.
 */
export function findTests(rows: readonly IndexEntryData[], raw: string): IndexEntryData[] {
  // The `report:` line of `daebug errors` names the file with its folder: that works as a query too.
  const slug = /\.(md|json)$/.test(raw) ? raw.replace(/^.*[\\/]/, '').replace(/\.(md|json)$/, '') : raw;
  const byKind: ((row: IndexEntryData) => boolean)[] = [
    (row) => row.markdown.replace(/\.md$/, '') === slug || row.json.replace(/\.json$/, '') === slug,
    (row) => row.title === raw || titlePathText(row) === raw,
    (row) => row.file === raw || `${row.file}:${row.line}` === raw,
  ];
  for (const matches of byKind) {
    const found = rows.filter(matches);
    if (found.length) return found;
  }
  const query = parseTestQuery(raw, 'show');
  return rows.filter((row) => matchesTest(query, row));
}
