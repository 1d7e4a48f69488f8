import fs from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..');

/**
 * Makes generated projects inside this repository load 'daebug' and 'daebug/reporter' the way an installed
 * package is loaded, through node_modules: Playwright resolves reporter names from node_modules folders only.
 */
export function linkPackage(): void {
  const link = path.join(repoRoot, 'node_modules', 'daebug');
  try {
    fs.lstatSync(link);
  } catch {
    try {
      fs.symlinkSync(repoRoot, link, 'dir');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

if (require.main === module) linkPackage();
