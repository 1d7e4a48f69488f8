/**
 * Runs a Playwright API call as an internal one, the way Playwright's own fixtures do: it is neither reported to the
 * test's steps nor recorded among the actions of its trace. Without the private hook (another Playwright), the call
 * runs as it is.
 */
export function internalCall<T>(owner: object, call: () => Promise<T>): Promise<T> {
  const wrap = (owner as { _wrapApiCall?: (fn: () => Promise<T>, options: { internal: boolean }) => Promise<T> })._wrapApiCall;
  return typeof wrap === 'function' ? wrap.call(owner, call, { internal: true }) : call();
}
