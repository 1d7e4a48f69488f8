/**
 * Defines module exports as getters that load their module on first read, for the package's zod schemas: what a
 * worker never reads, it should not load. The getters are enumerable, like the ones TypeScript emits for re-exports.
 */
export function lazyExports(target: object, load: () => Record<string, unknown>, names: readonly string[]): void {
  let loaded: Record<string, unknown> | undefined;
  for (const name of names) {
    Object.defineProperty(target, name, { enumerable: true, configurable: true, get: () => (loaded ??= load())[name] });
  }
}
