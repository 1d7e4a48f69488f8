/** Where a running test's report will be written, read from its TestInfo: failure messages and live reports name it. */
import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import { reportSlug } from '../model/slug';

/** Set by the reporter (in the runner, inherited by workers) so failure messages can name the report file. */
export const OUTPUT_DIR_ENV = 'DAEBUG_OUTPUT_DIR';

export function slugForTestInfo(testInfo: TestInfo): string {
  const file = path.relative(testInfo.config.rootDir, testInfo.file).split(path.sep).join('/');
  const several = testInfo.config.projects.length > 1;
  // The reporter computes the same slug from the TestCase (src/reporter/reporter.ts slugOf): keep both in step.
  return reportSlug({ file, titles: testInfo.titlePath.slice(1), project: several ? testInfo.project.name : undefined, repeatEachIndex: testInfo.repeatEachIndex });
}

/** The Markdown report's path as the user would type it, relative to the working directory. */
export function reportPathFor(testInfo: TestInfo): string {
  const configDir = testInfo.config.configFile ? path.dirname(testInfo.config.configFile) : testInfo.config.rootDir;
  const outputDir = process.env[OUTPUT_DIR_ENV] ?? path.join(configDir, 'reports');
  const relative = path.relative(process.cwd(), path.join(outputDir, `${slugForTestInfo(testInfo)}.md`));
  return relative.split(path.sep).join('/');
}
