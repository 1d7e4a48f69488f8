import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];
// Tests read what they wrote until they end: the folders go when the test process exits.
process.once('exit', () => {
  for (const dir of made) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // A folder a test made unwritable stays; the next run's temp names differ.
    }
  }
});

/** A new folder in the system's temp folder, removed when the test process exits. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `daebug-${prefix}-`));
  made.push(dir);
  return dir;
}
