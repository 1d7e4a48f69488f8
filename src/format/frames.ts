import type { Frame } from '../model/schema';
import { positionText } from '../model/position-text';
import { firstUserFrame } from '../stack/first-user-frame';

/** Frame lines shown per stack; the JSON report keeps them all. */
const SHOWN = 12;

/** `src/cart.ts:12:5 in checkout`: the original position when the frame was mapped, else the generated one. */
export function frameWhere(frame: Frame): string {
  const at = frame.original ? `${frame.original.source}:${frame.original.line}:${frame.original.column}` : positionText(frame.url || '<anonymous>', frame.line, frame.column);
  const name = frame.original?.functionName ?? frame.functionName;
  return name ? `${at} in ${name}` : at;
}

export { firstUserFrame } from '../stack/first-user-frame';

/**
 * One stack, user code first: each frame at its original position when it was mapped (the raw frames stay in
 * the JSON), the first user frame marked `>`, runs of library frames folded into `… 14 frames in react-dom`, and
 * why a frame stayed unmapped, said once per reason. User frames are always listed; other lines stop at `shown`.
 */
export function stackLines(frames: readonly Frame[], shown = SHOWN): string[] {
  const first = firstUserFrame(frames);
  const lines: string[] = [];
  const explained = new Set<string>();
  let skipped = 0;
  const flushSkipped = () => {
    if (skipped) lines.push(`    … ${skipped} more ${skipped === 1 ? 'frame' : 'frames'} in the JSON report`);
    skipped = 0;
  };
  for (let i = 0; i < frames.length; ) {
    const frame = frames[i]!;
    if (frame.library !== undefined && !frame.userCode) {
      const libraries: string[] = [];
      let count = 0;
      for (; i < frames.length && frames[i]!.library !== undefined && !frames[i]!.userCode; i++, count++) {
        if (!libraries.includes(frames[i]!.library!)) libraries.push(frames[i]!.library!);
      }
      if (lines.length >= shown) skipped += count;
      else lines.push(`    … ${count} ${count === 1 ? 'frame' : 'frames'} in ${libraries.slice(0, 3).join(', ')}${libraries.length > 3 ? ', …' : ''}`);
      continue;
    }
    i++;
    if (!frame.userCode && lines.length >= shown) {
      skipped++;
      continue;
    }
    flushSkipped();
    let reason = '';
    if (!frame.original && frame.unmappedReason) {
      reason = explained.has(frame.unmappedReason) ? ' (not mapped)' : ` (not mapped: ${frame.unmappedReason})`;
      explained.add(frame.unmappedReason);
    }
    lines.push(`${frame === first ? '  > ' : '    '}${frameWhere(frame)}${reason}`);
  }
  flushSkipped();
  return lines;
}
