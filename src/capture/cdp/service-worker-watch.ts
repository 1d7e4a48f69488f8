import type { Target } from './target';

/** The parts of CDP's `ServiceWorker.ServiceWorkerVersion` read here. */
export interface ServiceWorkerVersion {
  versionId: string;
  runningStatus: string;
  /** The worker's target while it runs. */
  targetId?: string;
}

/**
 * Tells a service worker that crashed from one that Chromium stopped. On the worker's own session both end the same
 * way: `Inspector.targetCrashed`, and nothing on the browser's session (Chromium 150), whether its context closed,
 * it idled, a new version replaced it, `ServiceWorker.stopAllWorkers` ran, or its process was killed. The
 * ServiceWorker domain of a page in its context tells them apart: a stop goes running, stopping, stopped; a crash
 * goes from running to stopped. So one page per browser context that has service workers has that domain on, and a
 * version that goes from running straight to stopped is a crash of the worker target it ran in. A context that
 * closes ends its pages' sessions before its workers: their stops are not heard, and none of them is a crash.
 */
export class ServiceWorkerWatch {
  /** Per browser context, the page whose session reports its service workers' versions. */
  private readonly watchers = new Map<string, Target>();
  /** Per browser context and version: its last running status and the target it ran in. */
  private readonly versions = new Map<string, { status: string; targetId?: string }>();

  /**
   * Makes sure the context of `contextId` has a page that reports its service workers, choosing one of `pages` (its
   * live top-level pages) when it has none; `enable` turns the domain on in the chosen page's session.
   */
  watch(contextId: string | undefined, pages: readonly Target[], enable: (page: Target) => Promise<unknown>): void {
    if (contextId === undefined) return;
    const current = this.watchers.get(contextId);
    if (current && !current.closed) return;
    const page = pages.find((p) => p.type === 'page' && !p.parent && !p.closed && p.browserContextId === contextId);
    if (!page) return void this.watchers.delete(contextId);
    this.watchers.set(contextId, page);
    enable(page).catch(() => {
      if (this.watchers.get(contextId) === page) this.watchers.delete(contextId);
    });
  }

  /** A context whose test ended: what its workers do from now on is no test's. */
  forget(contextId: string): void {
    this.watchers.delete(contextId);
    const prefix = `${contextId}\u0000`;
    for (const key of this.versions.keys()) if (key.startsWith(prefix)) this.versions.delete(key);
  }

  /** Whether `page` is the one reporting its context's service workers. */
  isWatcher(page: Target): boolean {
    return page.browserContextId !== undefined && this.watchers.get(page.browserContextId) === page;
  }

  /** A `ServiceWorker.workerVersionUpdated` heard on a watching page: the target ids of workers that crashed. */
  onVersions(page: Target, versions: readonly ServiceWorkerVersion[]): string[] {
    const contextId = page.browserContextId;
    if (contextId === undefined || !this.isWatcher(page)) return [];
    const crashed: string[] = [];
    for (const version of versions) {
      const key = `${contextId}\u0000${version.versionId}`;
      const before = this.versions.get(key);
      const targetId = version.targetId || before?.targetId;
      if (before?.status === 'running' && version.runningStatus === 'stopped' && targetId) crashed.push(targetId);
      this.versions.set(key, { status: version.runningStatus, ...(targetId ? { targetId } : {}) });
    }
    return crashed;
  }
}
