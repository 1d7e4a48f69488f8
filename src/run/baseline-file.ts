/**
 * Reads and writes the baseline file (src/run/baseline.ts), the one place of src/run/ that touches the disk.
 * A missing or malformed file is a DaebugBaselineError naming its path: never a silent "everything is new".
 */
import fs from 'node:fs';
import path from 'node:path';
import { DaebugBaselineError } from '../errors';
import { formatBaseline, parseBaseline, type BaselineData } from './baseline';

interface Cached {
  mtimeMs: number;
  size: number;
  baseline: BaselineData;
}

// Every test of a worker reads the same file: parsed once, read again only when it changed.
const cache = new Map<string, Cached>();

/** The baseline at `file` (absolute). Throws DaebugBaselineError when it is missing or not a baseline. */
export function readBaseline(file: string): BaselineData {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DaebugBaselineError(file, code === 'ENOENT' ? 'the file does not exist' : `the file cannot be read (${code ?? (error as Error).message})`, error);
  }
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.baseline;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new DaebugBaselineError(file, `the file cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, error);
  }
  const parsed = parseBaseline(text);
  if (!parsed.ok) throw new DaebugBaselineError(file, parsed.reason);
  cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, baseline: parsed.baseline });
  return parsed.baseline;
}

/** Writes the baseline atomically (a temp file renamed over it), making its folder when needed. */
export function writeBaseline(file: string, baseline: BaselineData): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temp, formatBaseline(baseline));
  fs.renameSync(temp, file);
}
