import type { TargetType } from './cdp/target';

/** What a realm's name is made of: its kind, its script or page, its browser context and, for frames, its page. */
export interface RealmSubject {
  type: TargetType;
  url: string;
  browserContextId?: string | undefined;
  /** The realm name of the page a frame belongs to. */
  parentRealm?: string | undefined;
}

/**
 * Gives every realm of a test a readable name that is unique in the test: `page`, `page-2` (popups),
 * `worker:w.js`, `worker:w.js#2` (a second worker of the same script), `service-worker:sw.js`,
 * `shared-worker:s.js`, `page:frame`; realms of another browser context than the test's first get
 * `context-2:` and so on in front.
 */
export class RealmNames {
  private readonly byKey = new Map<object, string>();
  private readonly used = new Set<string>();
  private readonly prefixes = new Map<string, string>();
  private readonly pagesPerPrefix = new Map<string, number>();
  private primary: string | undefined;

  /** Contexts that existed before the test: none of them is the test's own. */
  constructor(private readonly preexisting: ReadonlySet<string> = new Set()) {}

  /** The test's own context (the `context` fixture's): its realms carry no prefix. */
  claimPrimary(browserContextId: string): void {
    if (this.primary === undefined && !this.prefixes.has(browserContextId)) this.primary = browserContextId;
  }

  private prefix(browserContextId: string | undefined): string {
    if (browserContextId === undefined) return '';
    if (this.primary === undefined && !this.preexisting.has(browserContextId)) this.primary = browserContextId;
    if (browserContextId === this.primary) return '';
    let prefix = this.prefixes.get(browserContextId);
    if (!prefix) {
      prefix = `context-${this.prefixes.size + 2}:`;
      this.prefixes.set(browserContextId, prefix);
    }
    return prefix;
  }

  /** The name of `key`'s realm, made on first use. */
  name(key: object, subject: RealmSubject): string {
    const known = this.byKey.get(key);
    if (known) return known;
    const name = this.unique(this.baseName(subject));
    this.byKey.set(key, name);
    return name;
  }

  /** The name `key` already has, if any. */
  known(key: object): string | undefined {
    return this.byKey.get(key);
  }

  private baseName(subject: RealmSubject): string {
    const prefix = this.prefix(subject.browserContextId);
    switch (subject.type) {
      case 'page': {
        const n = (this.pagesPerPrefix.get(prefix) ?? 0) + 1;
        this.pagesPerPrefix.set(prefix, n);
        return `${prefix}${n === 1 ? 'page' : `page-${n}`}`;
      }
      case 'iframe':
        return `${subject.parentRealm ?? `${prefix}page`}:frame`;
      case 'service_worker':
        return `${prefix}service-worker:${scriptName(subject.url)}`;
      case 'shared_worker':
        return `${prefix}shared-worker:${scriptName(subject.url)}`;
      default:
        return `${prefix}worker:${scriptName(subject.url)}`;
    }
  }

  private unique(base: string): string {
    let name = base;
    for (let n = 2; this.used.has(name); n++) name = `${base}#${n}`;
    this.used.add(name);
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
