import type { Frame } from '../model/schema';

const SHOWN = 10;

/** `src/cart.ts:12:5 in checkout`: the original position when the frame was mapped, else the generated one. */
export function frameWhere(frame: Frame): string {
  const at = frame.original ? `${frame.original.source}:${frame.original.line}:${frame.original.column}` : `${frame.url}:${frame.line}:${frame.column}`;
  const name = frame.original?.functionName ?? frame.functionName;
  return name ? `${at} in ${name}` : at;
}

/** The frame Playwright's `location` would name: the first in user code, else the top one. */
export function firstUserFrame(frames: readonly Frame[] | undefined): Frame | undefined {
  return frames?.find((f) => f.userCode) ?? frames?.[0];
}

/**
 * The frames a reader can act on, listed under the raw stack: original file, line, column and function, the
 * first user frame marked `>`, and why a frame stayed unmapped. Undefined when nothing was mapped and nothing
 * failed to map: then the raw stack already is the source.
 */
export function mappedFrames(frames: readonly Frame[] | undefined): string | undefined {
  if (!frames?.some((f) => f.original || f.unmappedReason)) return undefined;
  const first = frames.find((f) => f.userCode);
  const shown = frames.filter((f) => f.original || f.unmappedReason || f.userCode);
  const lines = ['Original source (> first user frame):'];
  const explained = new Set<string>();
  for (const frame of shown.slice(0, SHOWN)) {
    let reason = '';
    if (!frame.original && frame.unmappedReason) {
      // Frames of one script fail for one reason: say it once.
      reason = explained.has(frame.unmappedReason) ? ' (not mapped)' : ` (not mapped: ${frame.unmappedReason})`;
      explained.add(frame.unmappedReason);
    }
    lines.push(`${frame === first ? '  > ' : '    '}${frameWhere(frame)}${reason}`);
  }
  if (shown.length > SHOWN) lines.push(`    … ${shown.length - SHOWN} more frames in the JSON report`);
  return lines.join('\n');
}
