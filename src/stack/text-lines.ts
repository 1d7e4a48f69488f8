/** Random access to the lines of a (possibly multi-megabyte) text without splitting it up front. */
export class TextLines {
  private starts: number[] | undefined;

  constructor(readonly text: string) {}

  get count(): number {
    return this.lineStarts().length;
  }

  /** The 1-based line `n` without its line break; undefined past the end. */
  line(n: number): string | undefined {
    const starts = this.lineStarts();
    const start = starts[n - 1];
    if (start === undefined) return undefined;
    const next = starts[n];
    const end = next === undefined ? this.text.length : next - 1;
    return this.text.slice(start, end).replace(/\r$/, '');
  }

  private lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    for (let at = this.text.indexOf('\n'); at !== -1; at = this.text.indexOf('\n', at + 1)) starts.push(at + 1);
    this.starts = starts;
    return starts;
  }
}
