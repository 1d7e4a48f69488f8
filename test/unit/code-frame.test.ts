import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { codeFrame } from '../../src/stack/code-frame';
import { TextLines } from '../../src/stack/text-lines';

const source = new TextLines(['line one', 'line two', 'const unit = item.product!.price;', 'line four', 'line five', 'line six'].join('\n'));

describe('codeFrame', () => {
  it('shows two lines before and after, the line marked, a caret under the column', () => {
    assert.equal(
      codeFrame(source, 3, 28),
      ['  1 | line one', '  2 | line two', '> 3 | const unit = item.product!.price;', '    |                            ^', '  4 | line four', '  5 | line five'].join('\n'),
    );
  });

  it('marks a line found by text without a caret: it has no column', () => {
    assert.equal(codeFrame(source, 3, 1, { caret: false }), ['  1 | line one', '  2 | line two', '> 3 | const unit = item.product!.price;', '  4 | line four', '  5 | line five'].join('\n'));
  });

  it('stops at the start and end of the file', () => {
    assert.equal(codeFrame(source, 1, 1), ['> 1 | line one', '    | ^', '  2 | line two', '  3 | const unit = item.product!.price;'].join('\n'));
    assert.equal(codeFrame(source, 6, 6)?.split('\n').at(-2), '> 6 | line six');
  });

  it('shows no line after the line break that ends a file: an editor has none', () => {
    const file = new TextLines('export function Avatar() {\n  return <img src="/a.png" />;\n}\n');
    assert.equal(codeFrame(file, 2, 1, { caret: false }), ['  1 | export function Avatar() {', '> 2 |   return <img src="/a.png" />;', '  3 | }'].join('\n'));
    assert.equal(codeFrame(file, 3, 1, { caret: false })?.split('\n').at(-1), '> 3 | }');
  });

  it('pads line numbers to the widest one', () => {
    const long = new TextLines(Array.from({ length: 12 }, (_, i) => `l${i + 1}`).join('\n'));
    assert.deepEqual(codeFrame(long, 10, 1)?.split('\n').slice(0, 3), ['   8 | l8', '   9 | l9', '> 10 | l10']);
  });

  it('keeps tabs in the caret line so the caret lines up', () => {
    const tabbed = new TextLines('\tfoo(bar);');
    assert.equal(codeFrame(tabbed, 1, 6)?.split('\n')[1], '    | \t    ^');
  });

  it('shows a window around the column of a minified line', () => {
    const minified = new TextLines(`${'a'.repeat(5000)}THROW${'b'.repeat(5000)}`);
    const frame = codeFrame(minified, 1, 5001, { width: 40 })!;
    const [line, caret] = frame.split('\n');
    assert.ok(line!.length < 60, line);
    assert.ok(line!.includes('THROW'));
    assert.equal(caret!.indexOf('^'), line!.indexOf('THROW'));
  });

  it('is undefined for a line that is not in the source', () => {
    assert.equal(codeFrame(source, 99, 1), undefined);
    assert.equal(codeFrame(source, 0, 1), undefined);
  });
});
