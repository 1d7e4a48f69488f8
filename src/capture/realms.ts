import type { Page } from '@playwright/test';

/** Gives every page and worker of a test a stable, readable realm name: `page`, `page-2`, `worker:w.js`. */
export class RealmNames {
  private readonly pages = new WeakMap<Page, string>();
  private pageCount = 0;
  private readonly workersByUrl = new Map<string, string>();
  private readonly usedWorkerNames = new Set<string>();

  page(page: Page): string {
    let name = this.pages.get(page);
    if (!name) {
      name = ++this.pageCount === 1 ? 'page' : `page-${this.pageCount}`;
      this.pages.set(page, name);
    }
    return name;
  }

  worker(url: string): string {
    const known = this.workersByUrl.get(url);
    if (known) return known;
    const base = `worker:${scriptName(url)}`;
    let name = base;
    for (let n = 2; this.usedWorkerNames.has(name); n++) name = `${base}#${n}`;
    this.usedWorkerNames.add(name);
    this.workersByUrl.set(url, name);
    return name;
  }
}

export function scriptName(url: string): string {
  if (url.startsWith('blob:')) return 'blob';
  if (url.startsWith('data:')) return 'data';
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : 'worker';
  } catch {
    return url.slice(0, 40) || 'worker';
  }
}
