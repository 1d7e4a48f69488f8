// An error keeps one identity in the history across a daebug upgrade that reads some file names otherwise
// (src/model/naming-era.ts): the group's `aka` names its other fingerprints, and the fold joins them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fold } from './history-fold-of';
import { firstSeen } from '../../src/history/first-seen';
import { flakyReport } from '../../src/history/flaky';
import { HISTORY_VERSION, type HistoryAttempt, type HistoryGroup, type HistoryRun } from '../../src/history/run-file';
import { newRunId } from '../../src/history/store';
import { otherFingerprints } from '../../src/run/earlier-fingerprints';
import { fingerprintOf } from '../../src/run/fingerprint';
import { withNamingEra } from '../../src/model/naming-era';
import type { DaebugEvent } from '../../src/model/schema';

/** A third-party chunk that fails to load: `LukiYOIK` read as a name before the camelCase rules, as a hash now. */
const url = 'https://cdn.example.com/assets/LukiYOIK.js';
const failedChunk = (): DaebugEvent => ({
  type: 'console', source: 'network', level: 'error', realm: 'page', ts: '10:00:00', time: '2026-11-28T10:00:00.000Z',
  message: `GET ${url} → 404 Not Found`, expected: false, unexpected: true,
  network: { method: 'GET', url, resourceType: 'script', status: 404, statusText: 'Not Found' },
});
const now = fingerprintOf(failedChunk());
const before = withNamingEra('before-camel-rules', () => fingerprintOf(failedChunk()));

function run(n: number, groups: HistoryGroup[], attempts: HistoryAttempt[]): HistoryRun {
  const endedAt = new Date(Date.UTC(2026, 10, 1, 12, 0, n)).toISOString();
  return {
    version: HISTORY_VERSION, id: newRunId(new Date(endedAt), n.toString(16).padStart(8, '0')), startedAt: endedAt, endedAt, status: 'passed', groups,
    tests: [{ project: '', file: 'a.spec.ts', titlePath: ['a.spec.ts', 'checkout'], attempts }],
  };
}
const group = (fingerprint: string, aka?: string[]): HistoryGroup => ({ fingerprint, source: 'network', message: `GET ${url} → 404 Not Found`, ...(aka ? { aka } : {}) });
const failing = (fingerprint: string): HistoryAttempt[] => [{ retry: 0, status: 'failed', ok: false, duration: 5, errors: [fingerprint], cause: fingerprint }, { retry: 1, status: 'passed', ok: true, duration: 5 }];
const passing: HistoryAttempt[] = [{ retry: 0, status: 'passed', ok: true, duration: 5 }];


describe("an error's identity across a daebug upgrade", () => {
  it('the writer names the fingerprints earlier versions gave the group, and none for a group whose fingerprint never moved', () => {
    assert.notEqual(now, before);
    assert.deepEqual(otherFingerprints(failedChunk(), now), [before]);
    // A baseline that held the earlier fingerprint made the event keep it: this version's is then the other one.
    assert.deepEqual(otherFingerprints(failedChunk(), before), [now]);
    const plain: DaebugEvent = { ...failedChunk(), message: 'GET https://cdn.example.com/assets/checkout.js → 404 Not Found', network: { ...failedChunk().network!, url: 'https://cdn.example.com/assets/checkout.js' } };
    assert.deepEqual(otherFingerprints(plain, fingerprintOf(plain)), []);
  });

  it('runs written before and after the upgrade hold one group: first seen in the first run, one piece of evidence', () => {
    const runs = [run(1, [group(before)], failing(before)), run(2, [], passing), run(3, [group(before)], failing(before)), run(4, [group(now, [before])], failing(now)), run(5, [group(now, [before])], failing(now))];
    const f = fold(runs);
    assert.equal(firstSeen(f, now)?.runsAgo, 4, 'first seen four runs before the newest, not new in run 4');
    const test = [...f.tests.values()][0]!;
    assert.deepEqual([...test.evidence.keys()], [`g:${before}`]);
    assert.deepEqual(test.evidence.get(`g:${before}`), { failing: 4, passing: 0, cause: 4, firstRun: 1 });
    // What the evidence names: the newest run's fingerprint, the one this run's reports carry.
    const report = flakyReport(f);
    const evidence = report.flaky.flatMap((t) => t.evidence);
    assert.ok(evidence.length > 0, JSON.stringify(report));
    for (const e of evidence) if (e.subject.kind === 'group') assert.equal(e.subject.fingerprint, now);
  });

  it('an older run read after a newer one (another branch) joins the same group', () => {
    const f = fold([run(1, [group(now, [before])], failing(now)), run(2, [group(before)], failing(before))]);
    const test = [...f.tests.values()][0]!;
    assert.deepEqual([...test.evidence.keys()], [`g:${now}`]);
    assert.equal(test.evidence.get(`g:${now}`)?.failing, 2);
    assert.equal(firstSeen(f, before)?.runsAgo, 1);
  });

  it('without aka, two fingerprints stay two groups (a history of two different errors is not merged)', () => {
    const f = fold([run(1, [group(before)], failing(before)), run(2, [group(now)], failing(now))]);
    assert.equal(f.groups.size, 2);
    assert.equal(firstSeen(f, now)?.runsAgo, 0);
  });
});
