import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { resolveReporterOptions } from '../../src/reporter/options';

const zodLoaded = (): boolean => Object.keys(require.cache).some((file) => file.includes(`${path.sep}zod${path.sep}`));

describe('reporter options (src/reporter/options.ts)', () => {
  it('resolves well-formed options without loading zod (issue 25: the runner loads what a run uses)', () => {
    assert.equal(zodLoaded(), false, 'nothing before this test loads zod');
    const options = resolveReporterOptions({ outputDir: 'out', maxReportBytes: 4096, githubAnnotations: 'new', githubSummary: false, maxAnnotations: 0, configDir: '/cfg', _internal: 1 }, '/x');
    assert.deepEqual(options, { outputDir: path.resolve('/cfg', 'out'), maxReportBytes: 4096, githubAnnotations: 'new', githubSummary: false, maxAnnotations: 0 });
    assert.deepEqual(resolveReporterOptions(undefined, '/x'), { outputDir: path.resolve('/x', 'reports'), maxReportBytes: 256 * 1024, githubAnnotations: true, githubSummary: true, maxAnnotations: 10 });
    assert.equal(zodLoaded(), false);
  });

  it("accepts what Playwright adds to every reporter's options, `--list`'s onlyFailures included (Playwright 1.65)", () => {
    const listed = { outputDir: 'out', configDir: '/cfg', _mode: 'list', _commandHash: 'abc', onlyFailures: false };
    assert.equal(resolveReporterOptions(listed, '/x').outputDir, path.resolve('/cfg', 'out'));
    // Outside list mode it is the user's key, and daebug has no such option.
    assert.throws(() => resolveReporterOptions({ onlyFailures: true, _mode: 'test' }, '/x'), /Unknown daebug\/reporter option "onlyFailures"/);
  });

  it("refuses what the schema refuses, and names the option: the quick checks' edges", () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ outputDir: '' }, /outputDir/],
      [{ outputDir: 3 }, /outputDir/],
      [{ maxReportBytes: 4095 }, /maxReportBytes[\s\S]*at least 4096/],
      [{ maxReportBytes: 5000.5 }, /maxReportBytes/],
      [{ maxReportBytes: '8192' }, /maxReportBytes/],
      [{ githubAnnotations: 'yes' }, /githubAnnotations/],
      [{ githubSummary: 1 }, /githubSummary/],
      [{ maxAnnotations: 1.5 }, /maxAnnotations/],
      [{ maxAnnotations: Number.NaN }, /maxAnnotations/],
    ];
    for (const [options, message] of bad) {
      assert.throws(() => resolveReporterOptions(options, '/x'), (e: Error & { code?: string }) => e.code === 'DAEBUG_OPTIONS_INVALID' && message.test(e.message), JSON.stringify(options));
    }
  });
});
