import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { code, fence, inline, plainLine } from '../../src/format/fence';
import { formatGroupsSection, noNewGroupsLine } from '../../src/format/error-groups';
import type { ErrorGroup } from '../../src/model/error-group';
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
    // `>` quotes and `#` heads only where a line starts: a folded line break leaves them mid-line, as plain text.
    assert.equal(inline('# head\n> **agent**'), '\\# head > \\*\\*agent\\*\\*');
    assert.equal(inline('> quoted'), '\\> quoted');
  });
  it('leaves what Markdown would not read as syntax as the page wrote it', () => {
    assert.equal(inline('Kaboom!'), 'Kaboom!');
    assert.equal(inline('![alt](x)'), '!\\[alt\\](x)');
    assert.equal(inline('a ~ b ~~c~~'), 'a ~ b \\~\\~c\\~\\~');
    assert.equal(inline('1 > 0 and <b>'), '1 > 0 and \\<b>');
  });
  it('wraps code spans around backticks', () => {
    assert.equal(code('a`b'), '``a`b``');
    assert.equal(code('`x`'), '`` `x` ``');
  });
  it('plainLine folds and cuts like inline but escapes nothing, and drops control characters (a terminal escape too)', () => {
    const url = 'http://localhost:4173/_app/remote/abc/get_count net::ERR_ABORTED';
    assert.equal(plainLine(url), url);
    assert.equal(inline(url), 'http://localhost:4173/\\_app/remote/abc/get\\_count net::ERR\\_ABORTED');
    assert.equal(plainLine('a\n*b*\u001b[31m red', 8), 'a *b*[31…');
  });
});

describe('error groups as plain text', () => {
  const group: ErrorGroup = {
    fingerprint: 'abcdef012345',
    source: 'network',
    message: 'GET http://localhost:4173/_app/remote/get_count failed: net::ERR_ABORTED',
    where: 'src/lib/api_client.ts:12 in get_count',
    origin: 'app',
    count: 2,
    tests: 1,
    reports: ['a_b.md'],
    unexpected: true,
    new: true,
    intermittent: false,
    attempts: { seen: 1, total: 1 },
  };

  it('says which baseline a --new run with no new group was measured against, a relative path set apart by a space', () => {
    assert.equal(noNewGroupsLine('../../x.json', 3), 'No new errors since the baseline ../../x.json (3 known groups left out: drop --new to list them).');
    assert.equal(noNewGroupsLine(undefined, 1), 'No new errors since the baseline (1 known group left out: drop --new to list them).');
    assert.equal(noNewGroupsLine('b.json', 0), 'No new errors since the baseline b.json.');
  });

  it('writes messages, places and flags as they are, with no heading, escape, code span or emphasis', () => {
    const plain = formatGroupsSection({ groups: [group], baseline: 'base_line.json', link: (r) => r, plain: true });
    assert.deepEqual(plain, [
      '1 distinct unexpected error (fingerprints), 1 new since the baseline base_line.json, largest first, new ones on top:',
      '',
      '1. new · [network] GET http://localhost:4173/_app/remote/get_count failed: net::ERR_ABORTED — 1 test, 2 times · at src/lib/api_client.ts:12 in get_count · first: a_b.md · abcdef012345',
    ]);
    const markdown = formatGroupsSection({ groups: [group], baseline: 'base_line.json' });
    assert.equal(markdown[0], '## Errors across the run');
    assert.match(markdown.at(-1)!, /^1\. \*\*new\*\* · \[network\] GET http:\/\/localhost:4173\/\\_app\/remote\/get\\_count .* · at `src\/lib\/api_client\.ts:12 in get_count` · first: \[a\\_b\.md\]\(a_b\.md\) · `abcdef012345`$/);
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
