/**
 * The reporter's entry (`['daebug/reporter']`, `require('daebug/reporter')`): src/reporter/reporter.ts and every
 * module it reaches, loaded from one bundle with its compiled code cached (src/io/bundle-loader.ts), as the fixtures'
 * entry is (src/entry.ts). The runner loaded some 85 modules of the reporter one by one and compiled them every run,
 * 25-35 ms of CPU (issue 36). The bundle is dist/bundle/reporter.js, two folders down like every module it holds.
 *
 * The exports are assigned one by one, as TypeScript writes them, so that Node finds their names statically for
 * `import { DaebugReporter } from 'daebug/reporter'` in an ES module; the class is a type as well as a value.
 */
import path from 'node:path';
import { loadBundle } from '../io/bundle-loader';
import type { DaebugReporter as Reporter } from './reporter';

const loaded = loadBundle<typeof import('./reporter')>(path.join(__dirname, '..', 'bundle', 'reporter.js'), () => require('./reporter') as typeof import('./reporter'));

/** Writes `<slug>.md` and `<slug>.json` per test, plus `index.md` and `index.json`, into `outputDir`. */
export const DaebugReporter: typeof Reporter = loaded.DaebugReporter;
export type DaebugReporter = Reporter;
export default DaebugReporter;
