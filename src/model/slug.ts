/** A test's report file name (its slug), one rule for the worker and the reporter so both name the same file. */
import { createHash } from 'node:crypto';

const MAX_SLUG = 120;

export interface SlugParts {
  /** Spec file path relative to the config's rootDir, with forward slashes. */
  file: string;
  /** describe titles and the test title, without the file and project. */
  titles: readonly string[];
  /** Project name, given only when the config has several projects. */
  project?: string | undefined;
  /**
   * Playwright's repeatEachIndex (`--repeat-each`). 0 or absent leaves the slug as it always was; a repeat
   * N > 0 adds `-repeatN` before the hash and N to what is hashed, so every repeat has its own report.
   */
  repeatEachIndex?: number | undefined;
}

function clean(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}

/**
 * A file name (without extension) for a test's report: readable, only `[a-z0-9._-]`, at most 120 characters,
 * and unique through a hash of the exact file, titles and project (so titles that differ only by case or
 * by characters that clean away still get their own file). Repeats (`--repeat-each`) after the first end in
 * `-repeatN-<hash>`, with N hashed too; the first repeat's slug is the one a test without repeats has.
 */
export function reportSlug(parts: SlugParts): string {
  const repeat = parts.repeatEachIndex !== undefined && Number.isSafeInteger(parts.repeatEachIndex) && parts.repeatEachIndex > 0 ? parts.repeatEachIndex : 0;
  const key: unknown[] = [parts.file, parts.titles, parts.project ?? ''];
  if (repeat) key.push(repeat);
  const hash = createHash('sha1').update(JSON.stringify(key)).digest('hex').slice(0, 8);
  const suffix = repeat ? `repeat${repeat}` : '';
  const file = clean(parts.file.replace(/\.(spec|test)\.[cm]?[jt]sx?$/, '').replace(/\.[cm]?[jt]sx?$/, ''));
  const readable = [file, ...parts.titles.map(clean), parts.project ? clean(parts.project) : ''].filter(Boolean).join('-');
  // The repeat suffix is never cut: it comes out of the readable part's room.
  const room = MAX_SLUG - hash.length - 1 - (suffix ? suffix.length + 1 : 0);
  const head = readable.slice(0, room).replace(/[-.]+$/, '');
  return [head, suffix, hash].filter(Boolean).join('-');
}
