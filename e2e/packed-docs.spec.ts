import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { deadLinkReason, relativeLinks, type MarkdownLink } from './helpers/markdown-links';
import { npm } from './helpers/npm';

const repoRoot = path.resolve(__dirname, '..');

/** Every Markdown file under `dir`, relative to it; the package's own dependencies are not its pages. */
function markdownFiles(dir: string, under = ''): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, under), { withFileTypes: true })) {
    const relative = path.join(under, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') files.push(...markdownFiles(dir, relative));
    else if (entry.isFile() && entry.name.endsWith('.md')) files.push(relative);
  }
  return files.sort();
}

/**
 * Issue 49: the README and the pages under docs/ are read where a user or an agent finds them, in
 * node_modules/daebug/. The package as npm packs it is installed into a fresh project, and every relative link of
 * every Markdown file it ships (and the heading a `#fragment` names) must lead to something inside it.
 */
test('the installed package ships its documentation, and no relative link in its Markdown is dead', async () => {
  test.setTimeout(120_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'daebug-docs-'));
  try {
    // The build is `npm test`'s (clean-install.spec.ts packs from a checkout, with the build prepack runs); what is
    // checked here is which files `files` lets into the tarball.
    await npm(['pack', '--ignore-scripts', '--pack-destination', tmp], repoRoot);
    const tarball = fs.readdirSync(tmp).find((name) => name.endsWith('.tgz'));
    expect(tarball, 'npm pack wrote a tarball').toBeTruthy();
    const app = path.join(tmp, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(tmp, tarball!), path.join(repoRoot, 'node_modules', '@playwright', 'test')], app);
    const installed = path.join(app, 'node_modules', 'daebug');

    const shipped = markdownFiles(installed);
    // Every page of the repository's docs/ ships, beside the README.
    const pages = fs.readdirSync(path.join(repoRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => path.join('docs', name));
    expect(shipped).toEqual(expect.arrayContaining(['README.md', ...pages]));

    const links: MarkdownLink[] = shipped.flatMap((file) => relativeLinks(fs.readFileSync(path.join(installed, file), 'utf8'), file));
    // The README alone links about ten pages; fewer found would mean the links were not read.
    expect(links.filter((link) => link.file === 'README.md' && link.target.startsWith('docs/')).length).toBeGreaterThanOrEqual(10);
    const dead = links.flatMap((link) => {
      const reason = deadLinkReason(link, installed);
      return reason ? [`${link.file}:${link.line} (${link.target}): ${reason}`] : [];
    });
    expect(dead).toEqual([]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
