/** The message of an Error from its stack's text, for capture and the `daebug` handle alike, without a stack parser. */

/** The message part of an Error's stack: everything before the first "    at " frame line. */
export function messageFromStack(stack: string): string {
  const lines = stack.split('\n');
  const firstFrame = lines.findIndex((line) => /^\s+at\s/.test(line));
  return (firstFrame === -1 ? lines.slice(0, 1) : lines.slice(0, firstFrame)).join('\n') || stack;
}
