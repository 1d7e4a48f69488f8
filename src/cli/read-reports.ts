import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { runIndexSchema, type IndexEntryData, type RunIndexData } from '../model/run-index';
import { reportSchema, type Report } from '../model/schema';

/** One test's JSON report as read from the folder, with the row that names it. */
export interface ReportFile {
  row: IndexEntryData;
  report: Report;
}

/** What `npx daebug` found in a reports folder. Paths in rows are relative to `dir`. */
export interface ReportsFolder {
  /** The folder as the user named it, kept relative so printed paths stay short. */
  dir: string;
  index: RunIndexData | undefined;
  /** One row per test: index.json's rows, or rows built from the reports when there is no valid index. */
  rows: IndexEntryData[];
  /** One line per file that could not be used. */
  diagnostics: string[];
}

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

function readJson<T>(file: string, parse: (value: unknown) => Parsed<T>): Parsed<T> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { ok: false, reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `is not valid JSON (${(error as Error).message})` };
  }
  return parse(value);
}

function schemaParser<T>(schema: z.ZodType<T>, what: string) {
  return (value: unknown): Parsed<T> => {
    const result = schema.safeParse(value);
    if (result.success) return { ok: true, value: result.data };
    const issue = result.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.map(String).join('.')}` : '';
    return { ok: false, reason: `is not a daebug ${what}${where}: ${issue?.message ?? 'invalid'}` };
  };
}

const parseIndex = schemaParser<RunIndexData>(runIndexSchema, 'index');
const parseReport = schemaParser<Report>(reportSchema, 'report');

function rowOf(json: string, report: Report): IndexEntryData {
  const t = report.test;
  const row: IndexEntryData = {
    title: t.title,
    titlePath: t.titlePath,
    file: t.file,
    line: t.line,
    project: t.project,
    status: t.status,
    expectedStatus: t.expectedStatus,
    retry: t.retry,
    attempts: (report.attempts?.length ?? 0) + 1,
    duration: t.duration,
    summary: report.summary,
    markdown: report.markdownFile ?? json.replace(/\.json$/, '.md'),
    json,
  };
  if (t.repeatEachIndex !== undefined) row.repeatEachIndex = t.repeatEachIndex;
  return row;
}

/**
 * Reads `index.json` of a reports folder. Without a valid index, every `<slug>.json` of the folder becomes a
 * row (an index from an interrupted run is still used: it lists the tests that finished).
 */
export function readReportsFolder(dir: string): ReportsFolder {
  const diagnostics: string[] = [];
  const indexFile = path.join(dir, 'index.json');
  let index: RunIndexData | undefined;
  if (fs.existsSync(indexFile)) {
    const parsed = readJson(indexFile, parseIndex);
    if (parsed.ok) index = parsed.value;
    else diagnostics.push(`daebug: ${indexFile} ${parsed.reason}; reading the reports without it`);
  }
  if (index) return { dir, index, rows: index.tests, diagnostics };
  const rows: IndexEntryData[] = [];
  for (const { json, report } of readAllReports(dir, diagnostics)) rows.push(rowOf(json, report));
  return { dir, index, rows, diagnostics };
}

function readAllReports(dir: string, diagnostics: string[]): { json: string; report: Report }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.json') && name !== 'index.json' && !name.startsWith('.'));
  } catch {
    return [];
  }
  const reports: { json: string; report: Report }[] = [];
  for (const json of names.sort()) {
    const report = readReport(dir, json, diagnostics);
    if (report) reports.push({ json, report });
  }
  return reports;
}

/** One `<slug>.json`, or undefined with a one-line diagnostic when it cannot be used. */
export function readReport(dir: string, json: string, diagnostics: string[]): Report | undefined {
  const file = path.join(dir, json);
  const parsed = readJson(file, parseReport);
  if (parsed.ok) return parsed.value;
  diagnostics.push(`daebug: skipped ${file}: it ${parsed.reason}`);
  return undefined;
}

/** The JSON reports of the given rows, skipping (with a diagnostic) those that cannot be used. */
export function readReportsOf(folder: ReportsFolder, rows: readonly IndexEntryData[]): ReportFile[] {
  const files: ReportFile[] = [];
  for (const row of rows) {
    const report = readReport(folder.dir, row.json, folder.diagnostics);
    if (report) files.push({ row, report });
  }
  return files;
}

/** A report file's text (`name` relative to the folder), or undefined with a diagnostic. */
export function readReportText(folder: ReportsFolder, name: string): string | undefined {
  const file = path.join(folder.dir, name);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    folder.diagnostics.push(`daebug: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    return undefined;
  }
}
