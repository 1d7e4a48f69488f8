import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { recordsTrace } from '../../src/fixture/trace-mode';

describe('recordsTrace', () => {
  it('reads each of Playwright’s trace modes, as a string or as { mode }', () => {
    const cases: Array<[Parameters<typeof recordsTrace>[0], number, boolean]> = [
      ['off', 0, false],
      [{ mode: 'off' }, 1, false],
      ['on', 0, true],
      [{ mode: 'on', snapshots: false }, 2, true],
      ['retain-on-failure', 0, true],
      ['on-first-retry', 0, false],
      ['on-first-retry', 1, true],
      ['on-first-retry', 2, false],
      ['retry-with-trace', 1, true],
      ['on-all-retries', 0, false],
      ['on-all-retries', 3, true],
      ['retain-on-first-failure', 0, true],
      ['retain-on-first-failure', 1, false],
      ['retain-on-failure-and-retries', 0, true],
    ];
    for (const [trace, retry, expected] of cases) assert.equal(recordsTrace(trace, retry), expected, `${JSON.stringify(trace)} retry ${retry}`);
  });

  it('says yes when it cannot tell', () => {
    assert.equal(recordsTrace(undefined, 0), true);
    assert.equal(recordsTrace('some-future-mode' as never, 0), true);
  });
});
