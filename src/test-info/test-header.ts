/** The report header of the running test, read from its TestInfo, for what the worker formats itself. */
import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { TestMeta } from '../model/attempt';

/** What a test is, as the worker knows it: the header fields the reporter gives the final report (writeTest). */
export type TestHeader = Omit<TestMeta, 'status' | 'duration'>;

/** The report header of the running test, for the worker's own Markdown (live report, the trace's copy). */
export function testHeader(testInfo: TestInfo): TestHeader {
  const file = path.relative(testInfo.config.rootDir, testInfo.file).split(path.sep).join('/');
  const header: TestHeader = {
    title: testInfo.title,
    titlePath: [file, ...testInfo.titlePath.slice(1)],
    file,
    line: testInfo.line,
    project: testInfo.project.name,
    expectedStatus: testInfo.expectedStatus,
    retry: testInfo.retry,
  };
  if (testInfo.repeatEachIndex > 0) header.repeatEachIndex = testInfo.repeatEachIndex;
  return header;
}
