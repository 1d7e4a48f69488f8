import type { Frame } from '../model/schema';
import { positionText } from '../model/position-text';
import { firstUnmappedBuildFrame, firstUserFrame } from '../stack/first-user-frame';

/** Frame lines shown per stack; the JSON report keeps them all. */
const SHOWN = 12;

/** `src/cart.ts:12:5`: the original position when the frame was mapped, else the generated one. */
export function framePosition(frame: Frame): string {
  return frame.original ? `${frame.original.source}:${frame.original.line}:${frame.original.column}` : positionText(frame.url || '<anonymous>', frame.line, frame.column);
}

/** The frame's function: its original name when the source map had one. */
export function frameFunction(frame: Frame): string | undefined {
  return frame.original?.functionName ?? frame.functionName;
}

/** `src/cart.ts:12:5 in checkout`: the original position when the frame was mapped, else the generated one. */
export function frameWhere(frame: Frame): string {
  const name = frameFunction(frame);
  return name ? `${framePosition(frame)} in ${name}` : framePosition(frame);
}

export { firstUserFrame } from '../stack/first-user-frame';

/**
 * One line of a stack as daebug shows it: a frame (the first user frame marked; why it stayed unmapped, and whether
 * that reason was given on an earlier line), a run of library frames folded into one, or the frames the cap left out.
 */
export type StackItem =
  | { kind: 'frame'; frame: Frame; firstUser: boolean; unmappedReason?: string; reasonGiven?: boolean }
  | { kind: 'library'; count: number; libraries: string[] }
  | { kind: 'more'; count: number };

/**
 * One stack, user code first: each frame at its original position when it was mapped (the raw frames stay in the
 * JSON), runs of library frames folded, and why a frame stayed unmapped. User frames are always listed; other lines
 * stop at `shown`. The Markdown (`stackLines`) and `daebug errors` print the same items, each in its own form.
 */
export function stackItems(frames: readonly Frame[], shown = SHOWN): StackItem[] {
  // Without a frame in the app, the top of a bundle without its map is where to look.
  const first = firstUserFrame(frames) ?? firstUnmappedBuildFrame(frames);
  const items: StackItem[] = [];
  const explained = new Set<string>();
  let skipped = 0;
  const flushSkipped = () => {
    if (skipped) items.push({ kind: 'more', count: skipped });
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
      if (items.length >= shown) skipped += count;
      else items.push({ kind: 'library', count, libraries });
      continue;
    }
    i++;
    if (!frame.userCode && items.length >= shown) {
      skipped++;
      continue;
    }
    flushSkipped();
    const item: StackItem = { kind: 'frame', frame, firstUser: frame === first };
    if (!frame.original && frame.unmappedReason) {
      item.unmappedReason = frame.unmappedReason;
      if (explained.has(frame.unmappedReason)) item.reasonGiven = true;
      explained.add(frame.unmappedReason);
    }
    items.push(item);
  }
  flushSkipped();
  return items;
}

/** `react-dom, scheduler`: the libraries of a folded run, at most three named. */
export function libraryNames(libraries: readonly string[]): string {
  return `${libraries.slice(0, 3).join(', ')}${libraries.length > 3 ? ', …' : ''}`;
}

/**
 * One stack as the Markdown shows it: the first user frame marked `>`, runs of library frames folded into
 * `… 14 frames in react-dom`, and why a frame stayed unmapped, said once per reason.
 */
export function stackLines(frames: readonly Frame[], shown = SHOWN): string[] {
  return stackItems(frames, shown).map((item) => {
    if (item.kind === 'more') return `    … ${item.count} more ${item.count === 1 ? 'frame' : 'frames'} in the JSON report`;
    if (item.kind === 'library') return `    … ${item.count} ${item.count === 1 ? 'frame' : 'frames'} in ${libraryNames(item.libraries)}`;
    const reason = item.unmappedReason === undefined ? '' : item.reasonGiven ? ' (not mapped)' : ` (not mapped: ${item.unmappedReason})`;
    return `${item.firstUser ? '  > ' : '    '}${frameWhere(item.frame)}${reason}`;
  });
}
