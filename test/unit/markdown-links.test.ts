import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deadLinkReason, headingAnchors, relativeLinks } from '../../e2e/helpers/markdown-links';

describe('markdown links (e2e/packed-docs.spec.ts)', () => {
  it('reads inline and reference links, not those in fences or code spans, nor absolute URLs', () => {
    const markdown = ['See [capture](docs/capture.md#budgets) and [home](https://example.com).', '', '```md', '[in a fence](nowhere.md)', '```', '', 'Code: `[in a span](nowhere.md)`; ![a picture](img/a.png "title")', '', '[ref]: ./docs/reports.md'].join('\n');
    assert.deepEqual(
      relativeLinks(markdown, 'README.md').map(({ line, target }) => [line, target]),
      [
        [1, 'docs/capture.md#budgets'],
        [7, 'img/a.png'],
        [9, './docs/reports.md'],
      ],
    );
  });

  it("names headings' anchors as GitHub does: code and links as text, punctuation gone, repeats numbered", () => {
    const anchors = headingAnchors(['# daebug', '## CLI: `--json` output', '## Root cause', '### Root cause', '## [Live](x.md) reports, in depth'].join('\n'));
    assert.deepEqual([...anchors], ['daebug', 'cli---json-output', 'root-cause', 'root-cause-1', 'live-reports-in-depth']);
  });

  it('a link resolves to a file inside the root and to a heading of it; anything else says why not', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'daebug-links-'));
    try {
      fs.mkdirSync(path.join(root, 'docs'));
      fs.writeFileSync(path.join(root, 'docs', 'capture.md'), '# Capture\n\n## Budgets keep the head\n');
      const reason = (target: string) => deadLinkReason({ file: 'README.md', line: 1, target }, root);
      assert.equal(reason('docs/capture.md'), undefined);
      assert.equal(reason('docs/capture.md#budgets-keep-the-head'), undefined);
      assert.match(reason('docs/capture.md#budgets') ?? '', /no heading with the anchor #budgets in docs\/capture\.md/);
      assert.match(reason('docs/json-format.md') ?? '', /no such file in the package: docs\/json-format\.md/);
      // Out of the root and back into it is inside.
      assert.equal(reason(`../${path.basename(root)}/docs/capture.md`), undefined);
      fs.writeFileSync(path.join(os.tmpdir(), 'daebug-links-outside.md'), '# outside\n');
      assert.match(reason('../daebug-links-outside.md') ?? '', /points outside the package/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(path.join(os.tmpdir(), 'daebug-links-outside.md'), { force: true });
    }
  });
});
