/**
 * What a realm's name says (capture names realms in src/capture/realms.ts): `page`, `worker:w.js`,
 * `service-worker:sw.js#2`, and `context-2:` in front for a browser context other than the test's first. Pure.
 */

const CONTEXT_PREFIX = /^context-\d+:/;

/** The browser context part of a realm's name: `context-2:`, or '' for the test's first context. */
export function realmContext(realm: string): string {
  return CONTEXT_PREFIX.exec(realm)?.[0] ?? '';
}

/** Whether a realm is a service worker's. */
export function isServiceWorkerRealm(realm: string): boolean {
  return realm.slice(realmContext(realm).length).startsWith('service-worker:');
}
