import fs from 'node:fs';
import path from 'node:path';

/** daebug's version from package.json: src/cli and dist/cli are both two folders below it. */
export function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
