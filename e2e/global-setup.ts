import fs from 'node:fs';
import path from 'node:path';
import { buildAngularApp } from './helpers/build-angular-app';
import { buildFixtureApp } from './helpers/build-fixture-app';
import { buildReactApp } from './helpers/build-react-app';
import { buildVueApp } from './helpers/build-vue-app';

/** Inline projects of earlier runs older than this are removed; a run going on at the same time keeps its own. */
const KEEP_MS = 6 * 60 * 60 * 1000;

/** Runs once per `playwright test`: bundles the fixture apps (their dist/ folders are git-ignored). */
export default function globalSetup(): void {
  pruneInlineProjects(path.join(__dirname, '..', '.e2e-tmp'));
  buildFixtureApp();
  buildReactApp();
  buildVueApp();
  buildAngularApp();
}

/** Each inline run writes a project to .e2e-tmp/ and leaves it for debugging; without pruning the folder only grows. */
function pruneInlineProjects(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const before = Date.now() - KEEP_MS;
  for (const name of names) {
    const entry = path.join(dir, name);
    try {
      if (fs.statSync(entry).mtimeMs < before) fs.rmSync(entry, { recursive: true, force: true });
    } catch {
      // Gone meanwhile, or not removable: neither stops the run.
    }
  }
}
