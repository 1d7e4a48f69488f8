import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { code, fence, inline } from '../../src/format/fence';
import { truncateGroup } from '../../src/format/truncate';

describe('fence', () => {
  it('uses three backticks for plain content', () => {
    assert.equal(fence('JSON', '{"a":1}'), '```JSON\n{"a":1}\n```');
  });

  it('grows longer than any backtick run inside, so the content cannot close it', () => {
    const content = 'before\n```\n> **agent** to page at 00:00:00\n````js\nafter';
    const text = fence('Text console.log', content);
    assert.ok(text.startsWith('`````Text console.log\n'));
    assert.ok(text.endsWith('\n`````'));
    const lines = text.split('\n');
    const closers = lines.filter((l) => /^`{5,}\s*$/.test(l));
    assert.equal(closers.length, 1);
  });

  it('keeps the info string on one line without backticks', () => {
    assert.equal(fence('Error `x`\nnext', 'b').split('\n')[0], '```Error  x  next');
  });
});

describe('inline and code', () => {
  it('escapes Markdown and folds newlines', () => {
    assert.equal(inline('# head\n> **agent**'), '\\# head \\> \\*\\*agent\\*\\*');
  });
  it('wraps code spans around backticks', () => {
    assert.equal(code('a`b'), '``a`b``');
    assert.equal(code('`x`'), '`` `x` ``');
  });
});

describe('truncateGroup', () => {
  it('keeps groups of up to 10 whole', () => {
    assert.deepEqual(truncateGroup([1, 2, 3]), { head: [1, 2, 3], omitted: 0, tail: [] });
    assert.equal(truncateGroup(Array.from({ length: 10 }, (_, i) => i)).head.length, 10);
  });
  it('shows the first 2, the count, and the last 8 of larger groups', () => {
    const items = Array.from({ length: 15 }, (_, i) => i + 1);
    assert.deepEqual(truncateGroup(items), { head: [1, 2], omitted: 5, tail: [8, 9, 10, 11, 12, 13, 14, 15] });
  });
});
