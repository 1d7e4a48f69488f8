/**
 * Which of the test's Playwright calls can make the page run its own handlers: input (a click, a key, a fill, a
 * dispatched event) and the test's own scripts (`evaluate`). A handler may queue work for later, a `setTimeout(fn, 0)`
 * that throws, and the barrier after such a call waits for those timers (TestCapture.settle). Navigation is not among
 * them: a page's load has run its first timers by the time `goto()` returns, and waiting for a page still busy after
 * its load would cost every test that ends there (bench/README.md). Names are the protocol's channel methods, the same
 * from Playwright 1.57 to 1.65.
 */
const METHODS = ['click', 'dblclick', 'tap', 'fill', 'press', 'type', 'check', 'uncheck', 'selectOption', 'setInputFiles', 'hover', 'dispatchEvent', 'focus', 'evaluateExpression', 'evaluateExpressionHandle', 'evalOnSelector', 'evalOnSelectorAll'];
const INPUT_METHODS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['Frame', new Set([...METHODS, 'dragAndDrop', 'drop', 'blur', 'addScriptTag'])],
  ['ElementHandle', new Set([...METHODS, 'selectText'])],
  ['JSHandle', new Set(['evaluateExpression', 'evaluateExpressionHandle'])],
  ['Page', new Set(['keyboardDown', 'keyboardUp', 'keyboardInsertText', 'keyboardType', 'keyboardPress', 'mouseMove', 'mouseDown', 'mouseUp', 'mouseClick', 'mouseWheel', 'touchscreenTap'])],
]);

/** Whether a client call (`{ type, method }` as Playwright's instrumentation gives it) can make the page run its handlers. */
export function runsPageHandlers(channel: unknown): boolean {
  const call = channel as { type?: unknown; method?: unknown } | undefined;
  return typeof call?.type === 'string' && typeof call.method === 'string' && (INPUT_METHODS.get(call.type)?.has(call.method) ?? false);
}
