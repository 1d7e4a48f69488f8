import fs from 'node:fs';

/** Writes a built fixture file only when its content changed, by rename, so concurrent runs never read half a file. */
export function writeIfChanged(file: string, text: string): void {
  try {
    if (fs.readFileSync(file, 'utf8') === text) return;
  } catch {
    // Not built yet.
  }
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}
