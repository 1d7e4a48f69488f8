import fs from 'node:fs';
import path from 'node:path';
import { debugLog } from '../errors';
import { processAlive } from '../io/process-alive';

// A runner stopped by SIGTERM lives on for a moment while its workers still run: this marker in outputDir tells
// them the run is over, so no live report is written after the reporter settled the test's files.
const PREFIX = '.daebug-run-';
const SUFFIX = '.ended';

function markerFile(dir: string, runnerPid: number): string {
  return path.join(dir, `${PREFIX}${runnerPid}${SUFFIX}`);
}

/** Written by the reporter when its run stops before its tests end. */
export function markRunEnded(dir: string, runnerPid: number): void {
  try {
    fs.writeFileSync(markerFile(dir, runnerPid), '');
  } catch (error) {
    debugLog(error);
  }
}

/** Asked by a worker before it writes a live report. */
export function runEnded(dir: string, runnerPid: number): boolean {
  return fs.existsSync(markerFile(dir, runnerPid));
}

/** Markers of runners that are gone: removed when the next run begins. */
export function removeEndedMarkers(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) continue;
    const pid = Number(name.slice(PREFIX.length, -SUFFIX.length));
    if (Number.isSafeInteger(pid) && processAlive(pid)) continue;
    fs.rmSync(path.join(dir, name), { force: true });
  }
}
