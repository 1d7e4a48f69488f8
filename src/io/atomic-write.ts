/**
 * Files written whole or not at all (a temp file, then a rename), for the reporter's reports, the worker's live
 * reports and the run history alike; and the cleaning of temp files a crashed run left behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DaebugReportWriteError, debugLog } from '../errors';
import { processAlive } from './process-alive';

const TEMP_MARK = '.daebug-tmp-';
let counter = 0;

/** A temp file next to `file`, named so that cleanStaleTemps knows whose it is. */
const tempFor = (file: string): string => `${file}${TEMP_MARK}${process.pid}-${++counter}`;

/**
 * Writes a file whole or not at all: a temp file next to it, then a rename. `stillWanted`, asked just before the
 * rename, can call the write off (the temp file goes, the file stays as it was): false is returned then.
 */
export function writeAtomic(file: string, content: string, stillWanted?: () => boolean): boolean {
  const temp = tempFor(file);
  try {
    fs.writeFileSync(temp, content);
    if (stillWanted && !stillWanted()) {
      fs.rmSync(temp, { force: true });
      return false;
    }
    fs.renameSync(temp, file);
    return true;
  } catch (error) {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // Nothing more to clean; the write error below says what went wrong.
    }
    throw new DaebugReportWriteError(file, error);
  }
}

/** Temp files of async writes under way in this process: a process that ends meanwhile removes them on its way out. */
const inflight = new Set<string>();
let exitHook = false;

/**
 * Removes, at once, the temp files of this process's async writes still under way: the runner's SIGTERM handler
 * calls it before the process ends, and any process that exits normally does so on 'exit'.
 */
export function removeInflightTemps(): void {
  for (const temp of inflight) {
    try {
      fs.rmSync(temp, { force: true });
    } catch (error) {
      debugLog(error);
    }
  }
  inflight.clear();
}

/** `writeAtomic` on libuv's thread pool: the caller's event loop goes on while the file system works. */
export async function writeAtomicAsync(file: string, content: string, stillWanted?: () => boolean): Promise<void> {
  if (stillWanted && !stillWanted()) return;
  const temp = tempFor(file);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', removeInflightTemps);
  }
  inflight.add(temp);
  try {
    await writeNew(temp, content);
    if (stillWanted && !stillWanted()) {
      await fs.promises.rm(temp, { force: true });
      return;
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true }).catch(() => undefined);
    throw new DaebugReportWriteError(file, error);
  } finally {
    inflight.delete(temp);
  }
}

/**
 * Writes `content` to a new file. The file is created synchronously, the content written on libuv's thread pool: a
 * process that exits meanwhile (a worker told to stop) runs its exit hook after the file exists, so the hook removes
 * it. Created on the thread pool, the file could appear after the hook ran, and outlive the run.
 */
async function writeNew(file: string, content: string): Promise<void> {
  const fd = fs.openSync(file, 'w');
  try {
    await new Promise<void>((resolve, reject) => fs.writeFile(fd, content, (error) => (error ? reject(error) : resolve())));
  } finally {
    await new Promise<void>((resolve) => fs.close(fd, () => resolve()));
  }
}

/** Removes temp files that a crashed run left behind; temp files of live processes stay. */
export function cleanStaleTemps(dir: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const at = name.indexOf(TEMP_MARK);
    if (at === -1) continue;
    const pid = Number.parseInt(name.slice(at + TEMP_MARK.length), 10);
    if (Number.isFinite(pid) && pid !== process.pid && processAlive(pid)) continue;
    if (pid === process.pid) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
      removed++;
    } catch (error) {
      debugLog(error);
    }
  }
  return removed;
}
