// Issue 37, 5.6: how a service worker ends. Chromium says `Inspector.targetCrashed` on the worker's own session
// whether it stopped the worker or the worker's process died (seen on Chromium 150); the ServiceWorker domain of a
// page tells them apart (e2e/service-worker-stop.spec.ts runs both for real).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceWorkerWatch } from '../../src/capture/cdp/service-worker-watch';
import { Target, type TargetListener } from '../../src/capture/cdp/target';

const ORIGIN = 'http://127.0.0.1:5173';

class FakeTarget extends Target {
  readonly tapped = false;
  readonly sent: string[] = [];
  answer: ((value: unknown) => void) | undefined;
  send(method: string): Promise<unknown> {
    this.sent.push(method);
    return new Promise((resolve) => (this.answer = resolve));
  }
  enable(): Promise<unknown> {
    return Promise.resolve();
  }
  setNetwork(): void {}
}

const listener: TargetListener = { onEvent() {}, onAttached() {}, onDetached() {} };

describe('a service worker Chromium stopped', () => {
  it("stops on its own Inspector.targetCrashed: what waits for it is let go, and nothing is asked of it until it starts again", async () => {
    const worker = new FakeTarget('service_worker', `${ORIGIN}/sw.js`, 'W', 'C', undefined, listener);
    const pending = worker.request('Runtime.evaluate');
    worker.noteLife('Inspector.targetCrashed');
    await assert.rejects(pending, /stopped/);
    assert.equal(worker.stopped, true);
    // A round trip to a stopped worker ends at once instead of never.
    assert.equal(await worker.roundTrip(), undefined);
    assert.deepEqual(worker.sent, ['Runtime.evaluate']);
    worker.noteLife('Inspector.targetReloadedAfterCrash');
    assert.equal(worker.stopped, false);
    // A page's Inspector.targetCrashed is its crash: the page is not "stopped".
    const page = new FakeTarget('page', `${ORIGIN}/`, 'P', 'C', undefined, listener);
    page.noteLife('Inspector.targetCrashed');
    assert.equal(page.stopped, false);
  });

  it('is a crash only when its version went from running to stopped without stopping', () => {
    const watch = new ServiceWorkerWatch();
    const page = new FakeTarget('page', `${ORIGIN}/`, 'P', 'C', undefined, listener);
    const enabled: string[] = [];
    watch.watch('C', [page], async (p) => enabled.push(p.targetId));
    watch.watch('C', [page], async (p) => enabled.push(p.targetId));
    assert.deepEqual(enabled, ['P']);
    const version = (runningStatus: string, targetId?: string) => [{ versionId: '0', runningStatus, ...(targetId ? { targetId } : {}) }];
    assert.deepEqual(watch.onVersions(page, version('running', 'W')), []);
    // A stop (idle, stopAllWorkers, a new version): stopping first.
    assert.deepEqual(watch.onVersions(page, version('stopping', 'W')), []);
    assert.deepEqual(watch.onVersions(page, version('stopped')), []);
    // Started again, then its process died: straight from running to stopped.
    assert.deepEqual(watch.onVersions(page, version('starting', 'W')), []);
    assert.deepEqual(watch.onVersions(page, version('running', 'W')), []);
    assert.deepEqual(watch.onVersions(page, version('stopped')), ['W']);
    // A script that failed to start never ran: no crash.
    assert.deepEqual(watch.onVersions(page, [{ versionId: '1', runningStatus: 'starting', targetId: 'X' }]), []);
    assert.deepEqual(watch.onVersions(page, [{ versionId: '1', runningStatus: 'stopped' }]), []);
    // Another page's session is not the watcher's: what it says is not read twice.
    const other = new FakeTarget('page', `${ORIGIN}/2`, 'P2', 'C', undefined, listener);
    assert.deepEqual(watch.onVersions(other, version('stopped')), []);
  });
});
