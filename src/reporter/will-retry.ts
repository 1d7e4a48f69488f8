/** Whether a result is final for its test, which the reporter needs to know before it writes the test's report. */
import type { TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Whether Playwright will run this test again after this result, as its own reporters decide it: a result
 * other than the expected one (an unexpected pass of `test.fail()` too) with retries left.
 */
export function playwrightWillRetry(test: Pick<TestCase, 'expectedStatus' | 'retries'>, result: Pick<TestResult, 'status' | 'retry'>): boolean {
  if (result.status === 'skipped' || result.status === 'interrupted') return false;
  return result.status !== test.expectedStatus && result.retry < test.retries;
}
