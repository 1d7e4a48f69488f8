/**
 * The history folder on disk, the one place of src/history/ that touches it: one file per run, named by its end time
 * and a random part (shards, parallel jobs and machines that share a cache never write the same file, and two runs
 * that end in the same millisecond both land), written whole or not at all, the oldest pruned past `keep`.
 * Reading goes one file at a time, so memory follows what the caller keeps, not the folder's size.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DaebugHistoryVersionError, debugLog } from '../errors';
import { cleanStaleTemps, writeAtomic } from '../io/atomic-write';
import { historyRunProblem } from './check';
import { HISTORY_VERSION, type HistoryRun } from './run-file';

/** `20261127T132501123Z-3f9a2c1b.json`: sorted by name is sorted by end time. */
const RUN_FILE = /^\d{8}T\d{9}Z-[0-9a-f]{8}\.json$/;

/** A new run's id: its end time to the millisecond, then 32 random bits. */
export function newRunId(endedAt: Date, random: string = randomBytes(4).toString('hex')): string {
  return `${endedAt.toISOString().replace(/[-:.]/g, '')}-${random}`;
}

export function isRunFile(name: string): boolean {
  return RUN_FILE.test(name);
}

/** The run files of `dir`, oldest first; none when the folder does not exist. */
export function listRunFiles(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter(isRunFile).sort();
}

/** Writes the run as `<dir>/<id>.json` (temp file and rename) and returns its path. */
export function writeRun(dir: string, run: HistoryRun): string {
  fs.mkdirSync(dir, { recursive: true });
  // A run killed while it wrote (SIGKILL, a cancelled CI job) left a temp file: its process is gone now.
  cleanStaleTemps(dir);
  const file = path.join(dir, `${run.id}.json`);
  writeAtomic(file, JSON.stringify(run) + '\n');
  return file;
}

/** Removes all but the newest `keep` run files; returns the names removed. Another run's prune may race: both end the same. */
export function pruneRuns(dir: string, keep: number): string[] {
  const files = listRunFiles(dir);
  const removed = files.slice(0, Math.max(0, files.length - keep));
  for (const name of removed) {
    try {
      fs.rmSync(path.join(dir, name), { force: true });
    } catch (error) {
      debugLog(error);
    }
  }
  return removed;
}

/** A run as read from its file, with the file's name. */
export interface ReadRun {
  file: string;
  run: HistoryRun;
}

export interface ReadOptions {
  /** Only the newest this many runs. */
  last?: number;
  /** A file that cannot be read or is not a run: the reader goes on without it. */
  onSkip?: (file: string, reason: string) => void;
}

/**
 * Calls `onRun` with each run of `dir`, oldest first, one at a time. A truncated or malformed file is skipped through
 * `onSkip`; a file of a newer format version throws DaebugHistoryVersionError, since skipping it would hide runs.
 */
export function readRuns(dir: string, onRun: (read: ReadRun) => void, options: ReadOptions = {}): number {
  let files = listRunFiles(dir);
  if (options.last !== undefined) files = files.slice(-options.last);
  let read = 0;
  for (const name of files) {
    const file = path.join(dir, name);
    const run = readRunFile(file, options.onSkip);
    if (!run) continue;
    read++;
    onRun({ file, run });
  }
  return read;
}

/** One run file, or undefined (through onSkip) when it is not one. */
export function readRunFile(file: string, onSkip?: (file: string, reason: string) => void): HistoryRun | undefined {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Pruned by a run that ended meanwhile: not a problem of the file.
    if (code === 'ENOENT') return undefined;
    onSkip?.(file, code ? `it cannot be read (${code})` : `it is not valid JSON (${(error as Error).message}), a truncated or corrupted file`);
    return undefined;
  }
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > HISTORY_VERSION) throw new DaebugHistoryVersionError(file, version, HISTORY_VERSION);
  const problem = historyRunProblem(value);
  if (problem) {
    onSkip?.(file, `it is not a daebug history run of version ${HISTORY_VERSION} (at ${problem})`);
    return undefined;
  }
  return value as HistoryRun;
}
