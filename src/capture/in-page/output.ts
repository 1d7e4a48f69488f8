/**
 * The output buffer: collects pieces of text up to a budget, counts what it did not keep, and cuts the
 * final text to maxLength with the truncation marker.
 */
import { truncatedMarker } from './limits';

export interface OutputMark {
  pieces: number;
  used: number;
}

export interface Finished {
  text: string;
  /** chars kept plus chars counted but not kept */
  total: number;
  cut: boolean;
}

export interface Output {
  /** Appends a short piece; only the exhaustion flag bounds it. */
  put(s: string): void;
  /** Appends text of any size: copies at most what the budget allows, counts the rest. */
  putRaw(s: string): void;
  /** Counts chars that were never copied. */
  addExtra(n: number): void;
  mark(): OutputMark;
  /** Drops everything put since the mark (chars counted with addExtra stay counted). */
  rollback(m: OutputMark): void;
  /** true once the budget is passed: callers stop adding. */
  exhausted(): boolean;
  reset(): void;
  finish(): Finished;
}

export function createOutput(budget: number, maxLength: number): Output {
  let out: string[] = [];
  let used = 0;
  let extra = 0;
  let exhausted = false;

  function put(s: string): void {
    out.push(s);
    used += s.length;
    if (used > budget) exhausted = true;
  }
  function putRaw(s: string): void {
    const room = budget - used;
    if (s.length > room) {
      const part = room > 0 ? s.slice(0, room) : '';
      out.push(part);
      used += part.length;
      extra += s.length - part.length;
      exhausted = true;
    } else {
      put(s);
    }
  }
  return {
    put,
    putRaw,
    addExtra(n: number): void {
      extra += n;
    },
    mark(): OutputMark {
      return { pieces: out.length, used };
    },
    rollback(m: OutputMark): void {
      out.length = m.pieces;
      used = m.used;
      exhausted = used > budget;
    },
    exhausted: () => exhausted,
    reset(): void {
      out = [];
      used = 0;
      extra = 0;
      exhausted = false;
    },
    finish(): Finished {
      const full = out.join('');
      const total = used + extra;
      if (total <= maxLength) return { text: full, total, cut: false };
      return { text: full.slice(0, maxLength) + truncatedMarker(total), total, cut: true };
    },
  };
}
