/** Circular references: the containers currently being rendered, innermost last. */

export interface Ancestors {
  has(o: object): boolean;
  push(o: object): void;
  /** the current depth, to restore later */
  size(): number;
  restore(size: number): void;
}

export function createAncestors(): Ancestors {
  const stack: object[] = [];
  return {
    has: (o) => stack.indexOf(o) !== -1,
    push(o) {
      stack.push(o);
    },
    size: () => stack.length,
    restore(size) {
      stack.length = size;
    },
  };
}
