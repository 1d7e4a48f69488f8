import type { Frame } from '../../model/schema';

/** The parts of CDP's Runtime.CallFrame and Runtime.StackTrace that daebug reads. */
export interface CdpCallFrame {
  functionName?: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export interface CdpStackTrace {
  description?: string;
  callFrames: CdpCallFrame[];
  parent?: CdpStackTrace;
}

const MAX_FRAMES = 50;

/** CDP's 0-based call frames, async parents included, as 1-based frames, at most `max`. */
export function framesOf(stackTrace: CdpStackTrace | undefined, max = MAX_FRAMES): Frame[] {
  const frames: Frame[] = [];
  for (let trace = stackTrace; trace && frames.length < max; trace = trace.parent) {
    for (const [i, f] of trace.callFrames.entries()) {
      if (frames.length >= max) break;
      const frame: Frame = { url: f.url, line: f.lineNumber + 1, column: f.columnNumber + 1 };
      if (f.functionName) frame.functionName = f.functionName;
      if (i === 0 && trace !== stackTrace) frame.asyncParent = trace.description || 'async';
      frames.push(frame);
    }
  }
  return frames;
}

/** Stack text as V8 prints it, rendered from frames; an async parent starts with a `--- setTimeout ---` line, as in DevTools. */
export function stackText(headline: string, frames: readonly Frame[]): string {
  if (!frames.length) return headline;
  const lines = frames.map((f) => {
    const where = f.url ? `${f.url}:${f.line}:${f.column}` : `<anonymous>:${f.line}:${f.column}`;
    const line = `    at ${f.functionName ? `${f.functionName} (${where})` : where}`;
    return f.asyncParent ? `    --- ${f.asyncParent} ---\n${line}` : line;
  });
  return `${headline}\n${lines.join('\n')}`;
}
