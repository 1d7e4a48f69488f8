import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fisherOneSided } from '../../src/history/fisher';
import { classify, flakyReport } from '../../src/history/flaky';
import { HistoryFold, type RunVerdict } from '../../src/history/fold';
import { fold } from './history-fold-of';
import { testKeyOf } from '../../src/run/groups';
import { historyRunProblem } from '../../src/history/check';
import { historyRunSchema } from '../../src/history/schema';
import { HISTORY_VERSION, type HistoryAttempt, type HistoryRun } from '../../src/history/run-file';
import { listRunFiles, newRunId, pruneRuns, readRuns, writeRun } from '../../src/history/store';
import { ciSource } from '../../src/ci/commit';
import { resolveHistoryOptions } from '../../src/reporter/options';
import { formatFlakyText } from '../../src/format/history-sections';

const choose = (n: number, k: number): number => {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
};

function run(n: number, tests: Record<string, HistoryAttempt[]>, extra: Partial<HistoryRun> = {}): HistoryRun {
  const endedAt = new Date(Date.UTC(2026, 10, 1, 12, 0, n)).toISOString();
  return {
    version: HISTORY_VERSION,
    id: newRunId(new Date(endedAt), n.toString(16).padStart(8, '0')),
    startedAt: endedAt,
    endedAt,
    status: 'passed',
    commit: `${n}`.repeat(7),
    groups: [
      { fingerprint: 'aaaaaaaaaaaa', source: 'console.error', message: 'analytics: consent missing' },
      { fingerprint: 'bbbbbbbbbbbb', source: 'window.onerror', message: 'Error: cart total is NaN', where: 'src/cart.ts:3 in total' },
    ],
    tests: Object.entries(tests).map(([title, attempts]) => ({ project: '', file: 'a.spec.ts', titlePath: ['a.spec.ts', title], attempts })),
    ...extra,
  };
}

const pass = (retry = 0, extra: Partial<HistoryAttempt> = {}): HistoryAttempt => ({ retry, status: 'passed', ok: true, duration: 10, ...extra });
const fail = (retry = 0, extra: Partial<HistoryAttempt> = {}): HistoryAttempt => ({ retry, status: 'failed', ok: false, duration: 10, ...extra });
const stock502 = { requests: [{ method: 'GET', url: 'http://127.0.0.1/api/stock', status: 502 }] };

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'daebug-history-'));
}


describe("Fisher's exact test, one-sided (src/history/fisher.ts)", () => {
  it('gives the hypergeometric upper tail', () => {
    // 3 of 3 failing, 0 of 37 passing: only the table itself is as extreme.
    assert.ok(Math.abs(fisherOneSided(3, 0, 0, 37) - 1 / choose(40, 3)) < 1e-12);
    assert.ok(Math.abs(fisherOneSided(3, 0, 0, 6) - 1 / 84) < 1e-12);
    // One failing attempt can never be significant: 1 of 1 failing, 0 of 5 passing is p = 1/6.
    assert.ok(Math.abs(fisherOneSided(1, 0, 0, 5) - 1 / 6) < 1e-12);
    // Fisher's lady tasting tea: 3 of 4 right, one-sided p = 17/70.
    assert.ok(Math.abs(fisherOneSided(3, 1, 1, 3) - 17 / 70) < 1e-12);
    // Present everywhere: nothing to say.
    assert.equal(fisherOneSided(3, 37, 0, 0), 1);
    // Large counts stay finite and exact enough.
    const p = fisherOneSided(50, 10, 50, 4000);
    assert.ok(p > 0 && p < 1e-40, String(p));
    assert.throws(() => fisherOneSided(-1, 0, 0, 0), RangeError);
  });
});

describe('classification (src/history/flaky.ts)', () => {
  const of = (verdicts: string) => classify({ verdicts: [...verdicts] as RunVerdict[], runs: [...verdicts].map((_, i) => i + 1) });
  it('fails in every attempt from some run on: failing since, not flaky, whatever came before', () => {
    assert.deepEqual(of('PPPFFF'), { kind: 'failing', sinceRun: 4, passedBefore: true });
    assert.deepEqual(of('PKPKFF'), { kind: 'failing', sinceRun: 5, passedBefore: true });
    assert.deepEqual(of('FFF'), { kind: 'failing', sinceRun: 1, passedBefore: false });
  });
  it('a passing retry or an outcome that changes more than once is flaky; one change to passing is fixed', () => {
    assert.deepEqual(of('PKPPKP'), { kind: 'flaky', firstRun: 2 });
    assert.deepEqual(of('PFPPP'), { kind: 'flaky', firstRun: 2 });
    assert.deepEqual(of('FFPPP'), { kind: 'fixed', sinceRun: 3 });
    assert.deepEqual(of('PPPP'), { kind: 'stable' });
    assert.deepEqual(of(''), { kind: 'stable' });
  });
});

describe('the fold (src/history/fold.ts)', () => {
  it('follows each test by its key when runs list their tests in another order, add one or drop one', () => {
    const f = fold([
      run(1, { a: [pass()], b: [fail()], c: [pass()] }),
      run(2, { c: [fail()], a: [pass()], b: [pass()] }),
      run(3, { new: [pass()], a: [fail()], c: [pass()] }),
      run(4, { a: [pass()], c: [pass()], b: [fail(), pass(1)] }),
    ]);
    const verdicts = (title: string) => f.tests.get(testKeyOf({ project: '', file: 'a.spec.ts', titlePath: ['a.spec.ts', title] }))!;
    assert.equal(f.tests.size, 4);
    assert.deepEqual(verdicts('a').verdicts, ['P', 'P', 'F', 'P']);
    assert.deepEqual(verdicts('b').runs, [1, 2, 4]);
    assert.deepEqual(verdicts('b').verdicts, ['F', 'P', 'K']);
    assert.deepEqual(verdicts('c').verdicts, ['P', 'F', 'P', 'P']);
    assert.deepEqual(verdicts('new').runs, [3]);
  });
});

describe('flakyReport: evidence is the test’s own and separates failing from passing attempts', () => {
  const runs = [1, 2, 3, 4, 5, 6].map((n) =>
    run(n, {
      A: [2, 3, 5].includes(n) ? [fail(0, { ...stock502, other: ['aaaaaaaaaaaa'] }), pass(1, { other: ['aaaaaaaaaaaa'] })] : [pass(0, { other: ['aaaaaaaaaaaa'] })],
      B: n === 3 ? [fail(0), pass(1)] : [pass()],
      // Another test's evidence is never A's or B's: C has the 502 in every passing attempt.
      C: [pass(0, stock502)],
      D: n >= 4 ? [fail(0, { errors: ['bbbbbbbbbbbb'], cause: 'bbbbbbbbbbbb' }), fail(1, { errors: ['bbbbbbbbbbbb'], cause: 'bbbbbbbbbbbb' })] : [pass()],
    }),
  );
  const report = flakyReport(fold(runs));
  it('names the request with its counts on both sides, leaves out what passing attempts have as often', () => {
    assert.deepEqual(report.flaky.map((t) => t.test.titlePath[1]), ['A', 'B']);
    const a = report.flaky[0]!;
    assert.equal(a.evidence.length, 1);
    assert.deepEqual(a.evidence[0]!.subject, { kind: 'request', method: 'GET', url: 'http://127.0.0.1/api/stock', status: 502 });
    assert.deepEqual([a.evidence[0]!.failing, a.evidence[0]!.passing], [{ present: 3, of: 3 }, { present: 0, of: 6 }]);
    assert.deepEqual(report.flaky[1]!.evidence, []);
    assert.deepEqual(report.failingSince.map((t) => [t.test.titlePath[1], t.since.run, t.since.commit]), [['D', 4, '4444444']]);
    assert.deepEqual(report.failingSince[0]!.appeared, [{ kind: 'group', fingerprint: 'bbbbbbbbbbbb', source: 'window.onerror', message: 'Error: cart total is NaN', where: 'src/cart.ts:3 in total' }]);
    const text = formatFlakyText(report, '.daebug/history');
    assert.match(text, /- request GET http:\/\/127\.0\.0\.1\/api\/stock → 502: 3 of 3 failing, 0 of 6 passing \(p = 0\.012\)/);
    assert.match(text, /a\.spec\.ts › B\n {2}flaky in 1 of 6 runs[^\n]*\n {2}no browser evidence: look at timing, test order or the test's own waits/);
  });
  it('with too few failing attempts, nothing is evidence', () => {
    const two = flakyReport(fold(runs.slice(0, 2)));
    assert.deepEqual(two.flaky.map((t) => [t.test.titlePath[1], t.evidence.length]), [['A', 0]]);
  });
});

describe('the history folder (src/history/store.ts)', () => {
  it('keeps the newest historyRuns runs', () => {
    const dir = tmp();
    for (let n = 1; n <= 7; n++) writeRun(dir, run(n, { A: [pass()] }));
    assert.equal(listRunFiles(dir).length, 7);
    const removed = pruneRuns(dir, 5);
    assert.equal(removed.length, 2);
    const kept = listRunFiles(dir);
    assert.deepEqual(kept, kept.slice().sort());
    const commits: string[] = [];
    readRuns(dir, ({ run }) => commits.push(run.commit!));
    assert.deepEqual(commits, ['3333333', '4444444', '5555555', '6666666', '7777777']);
  });

  it('two runs that end in the same millisecond both land', () => {
    const dir = tmp();
    const at = new Date();
    writeRun(dir, { ...run(1, { A: [pass()] }), id: newRunId(at) });
    writeRun(dir, { ...run(2, { A: [pass()] }), id: newRunId(at) });
    assert.equal(listRunFiles(dir).length, 2);
  });

  it('skips a truncated or corrupted file with a warning naming it; the rest still answers', () => {
    const dir = tmp();
    for (let n = 1; n <= 3; n++) writeRun(dir, run(n, { A: [pass()] }));
    const [first, second] = listRunFiles(dir);
    const text = fs.readFileSync(path.join(dir, first!), 'utf8');
    fs.writeFileSync(path.join(dir, first!), text.slice(0, text.length / 2));
    fs.writeFileSync(path.join(dir, second!), JSON.stringify({ version: 1, id: 'x', tests: 3 }));
    const skipped: string[] = [];
    const f = new HistoryFold();
    const read = readRuns(dir, f.add, { onSkip: (file, reason) => skipped.push(`${path.basename(file)}: ${reason}`) });
    assert.equal(read, 1);
    assert.equal(skipped.length, 2);
    assert.match(skipped[0]!, new RegExp(`^${first!.replace('.', '\\.')}: it is not valid JSON .*truncated or corrupted`));
    assert.match(skipped[1]!, new RegExp(`^${second!.replace('.', '\\.')}: it is not a daebug history run of version 1 \\(at startedAt\\)`));
  });

  it('a file of a newer format version is DAEBUG_HISTORY_VERSION, naming the file', () => {
    const dir = tmp();
    writeRun(dir, run(1, { A: [pass()] }));
    const name = `${newRunId(new Date())}.json`;
    fs.writeFileSync(path.join(dir, name), JSON.stringify({ version: 2, id: 'future' }));
    assert.throws(
      () => readRuns(dir, () => undefined),
      (error: Error & { code?: string }) => error.code === 'DAEBUG_HISTORY_VERSION' && error.message.includes(path.join(dir, name)) && /version 2/.test(error.message),
    );
  });

  it('ignores temp files and other files in the folder', () => {
    const dir = tmp();
    writeRun(dir, run(1, { A: [pass()] }));
    fs.writeFileSync(path.join(dir, `${newRunId(new Date())}.json.daebug-tmp-999999-1`), '{');
    fs.writeFileSync(path.join(dir, 'notes.json'), '{}');
    assert.equal(listRunFiles(dir).length, 1);
  });
});

describe('the quick check accepts what the schema accepts (src/history/check.ts)', () => {
  const good = run(1, { A: [pass(0, stock502), fail(1, { errors: ['bbbbbbbbbbbb'], known: ['bbbbbbbbbbbb'], other: ['aaaaaaaaaaaa'], cause: 'bbbbbbbbbbbb', repeat: 2 })] }, { shard: { current: 1, total: 2 }, merged: true, branch: 'main', ci: 'git' });
  const variants: unknown[] = [
    good,
    { ...good, version: 2 },
    { ...good, id: 3 },
    { ...good, shard: { current: '1', total: 2 } },
    { ...good, groups: [{ fingerprint: 'x', source: 's' }] },
    { ...good, tests: [{ ...good.tests[0], titlePath: 'a' }] },
    { ...good, tests: [{ ...good.tests[0], attempts: [{ ...pass(), ok: 'yes' }] }] },
    { ...good, tests: [{ ...good.tests[0], attempts: [{ ...pass(), retry: -1 }] }] },
    { ...good, tests: [{ ...good.tests[0], attempts: [{ ...pass(), repeat: 0 }] }] },
    { ...good, tests: [{ ...good.tests[0], attempts: [{ ...pass(), requests: [{ method: 'GET', url: 'u', status: 1.5 }] }] }] },
    { ...good, tests: [{ ...good.tests[0], attempts: [{ ...pass(), errors: [1] }] }] },
    { ...good, commit: null },
    { ...good, groups: [{ ...good.groups[0], aka: ['cccccccccccc'] }] },
    { ...good, groups: [{ ...good.groups[0], aka: [1] }] },
    { ...good, groups: [{ ...good.groups[0], aka: 'cccccccccccc' }] },
    [],
    null,
  ];
  it('agrees with the zod schema on each variant', () => {
    for (const value of variants) assert.equal(historyRunProblem(value) === undefined, historyRunSchema.safeParse(value).success, JSON.stringify(value)?.slice(0, 200));
  });
});

describe('commit and branch from the CI (src/ci/commit.ts)', () => {
  it('reads each CI’s variables, a pull request’s head branch first', () => {
    assert.deepEqual(ciSource({ GITHUB_ACTIONS: 'true', GITHUB_SHA: 'abc', GITHUB_REF_NAME: '12/merge', GITHUB_HEAD_REF: 'feature' }), { ci: 'github', commit: 'abc', branch: 'feature' });
    assert.deepEqual(ciSource({ GITHUB_ACTIONS: 'true', GITHUB_SHA: 'abc', GITHUB_REF_NAME: 'main', GITHUB_HEAD_REF: '' }), { ci: 'github', commit: 'abc', branch: 'main' });
    assert.deepEqual(ciSource({ GITLAB_CI: 'true', CI_COMMIT_SHA: 'def', CI_COMMIT_REF_NAME: 'main' }), { ci: 'gitlab', commit: 'def', branch: 'main' });
    assert.deepEqual(ciSource({ CIRCLECI: 'true', CIRCLE_SHA1: 'c1', CIRCLE_BRANCH: 'dev' }), { ci: 'circleci', commit: 'c1', branch: 'dev' });
    assert.deepEqual(ciSource({ JENKINS_URL: 'http://j', GIT_COMMIT: 'j1', GIT_BRANCH: 'origin/main' }), { ci: 'jenkins', commit: 'j1', branch: 'main' });
    assert.deepEqual(ciSource({ BUILDKITE: 'true', BUILDKITE_COMMIT: 'b1', BUILDKITE_BRANCH: 'main' }), { ci: 'buildkite', commit: 'b1', branch: 'main' });
    assert.equal(ciSource({}), undefined);
  });
});

describe('history options (src/reporter/options.ts)', () => {
  it('defaults to .daebug/history next to the config, keeps 100 runs, and turns off with false', () => {
    assert.deepEqual(resolveHistoryOptions({}, '/cfg'), { dir: path.resolve('/cfg', '.daebug/history'), runs: 100 });
    assert.deepEqual(resolveHistoryOptions({ history: 'h', historyRuns: 5, configDir: '/c' }, '/x'), { dir: path.resolve('/c', 'h'), runs: 5 });
    assert.deepEqual(resolveHistoryOptions({ history: false }, '/cfg'), { dir: false, runs: 100 });
    assert.throws(() => resolveHistoryOptions({ history: '' }, '/x'), /history/);
    assert.throws(() => resolveHistoryOptions({ historyRuns: 0 }, '/x'), /historyRuns[\s\S]*at least 1/);
  });
});
