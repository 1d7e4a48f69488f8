import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { test, expect, type Page } from '@playwright/test';
import { runInlineTest } from './helpers/run-playwright';

const spec = `import { test } from 'daebug';
test('cart shows a total', async ({ page }) => {
  await page.setContent('<p>cart</p>');
  await page.evaluate(() => console.error('total is NaN'));
});
`;

function config(order: 'html-first' | 'daebug-first'): string {
  const html = `['html', { open: 'never', outputFolder: 'html-report' }]`;
  const daebug = `['daebug/reporter', { outputDir: 'reports' }]`;
  return `import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from 'daebug/browser';
export default defineConfig({
  workers: 1,
  // Artifacts (traces) in this project's own folder: by default they go to the repository's test-results/.
  outputDir: './test-results',
  reporter: [${order === 'html-first' ? `${html}, ${daebug}` : `${daebug}, ${html}`}],
  use: { launchOptions: chromiumLaunchOptions(), trace: 'on' },
});
`;
}

/** Serves a folder on 127.0.0.1, the way `npx playwright show-report` would. */
async function serve(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.md': 'text/markdown', '.zip': 'application/zip' };
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(root, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Opens the HTML report in the test's Chromium, goes to the test and reads the Markdown attachment shown inline. */
async function expectMarkdownAttachment(page: Page, htmlDir: string, md: string): Promise<void> {
  const server = await serve(htmlDir);
  try {
    await page.goto(server.url);
    await page.getByRole('link', { name: 'cart shows a total' }).click();
    const attachment = page.locator('details').filter({ has: page.getByText('daebug-report.md', { exact: true }) });
    await expect(attachment).toHaveCount(1);
    await expect(attachment).toBeVisible();
    await attachment.getByText('daebug-report.md', { exact: true }).click();
    // Text attachments open inline: the whole Markdown report, as the reporter wrote it to reports/.
    const body = attachment.locator('.attachment-body');
    await expect(body).toContainText('## Unexpected errors');
    expect((await body.innerText()).trim()).toBe(md.trim());
  } finally {
    await server.close();
  }
}

for (const order of ['html-first', 'daebug-first'] as const) {
  test(`the HTML report shows each test's Markdown report as an attachment (${order})`, async ({ page }) => {
    const result = await runInlineTest({ 'playwright.config.ts': config(order), 'cart.spec.ts': spec });
    expect(result.exitCode, result.output).toBe(0);
    const md = Object.values(result.markdown)[0]!;
    expect(md).toContain('total is NaN');
    await expectMarkdownAttachment(page, path.join(result.dir, 'html-report'), md);
  });
}

test("the trace viewer shows the worker's Markdown report among the test's attachments", async ({ page }) => {
  const result = await runInlineTest({ 'playwright.config.ts': config('html-first'), 'cart.spec.ts': spec });
  expect(result.exitCode, result.output).toBe(0);
  const server = await serve(path.join(result.dir, 'html-report'));
  try {
    await page.goto(server.url);
    await page.getByRole('link', { name: 'cart shows a total' }).click();
    await page.getByRole('link', { name: 'View Trace' }).click();
    await page.getByRole('tab', { name: 'Attachments' }).click();
    await page.getByText('daebug-report.md', { exact: true }).click();
    // The worker's version: the same report before the reporter grouped events by step.
    await expect(page.getByText('# cart.spec.ts › cart shows a total', { exact: true })).toBeVisible();
    await expect(page.getByText('## Unexpected errors', { exact: true })).toBeVisible();
    await expect(page.getByText('total is NaN').first()).toBeVisible();
  } finally {
    await server.close();
  }
});

for (const reporters of ['blob,daebug/reporter', 'daebug/reporter,blob']) {
  test(`a blob merged by merge-reports into an HTML report carries the Markdown attachment once (${reporters})`, async ({ page }) => {
    // With blob first the blob has no Markdown attachment and merge-reports adds it; with daebug first it replaces it.
    const run = await runInlineTest({ 'cart.spec.ts': spec }, { args: [`--reporter=${reporters}`], env: { PLAYWRIGHT_BLOB_OUTPUT_DIR: 'blob-report' }, configExtra: "outputDir: './test-results'," });
    expect(run.exitCode, run.output).toBe(0);
    const merged = await runInlineTest({}, { dir: run.dir, command: ['merge-reports', '--reporter=html,daebug/reporter', 'blob-report'], env: { PLAYWRIGHT_HTML_OUTPUT_DIR: 'merged-html' } });
    expect(merged.exitCode, merged.output).toBe(0);
    const md = Object.values(merged.markdown)[0]!;
    expect(md).toContain('total is NaN');
    await expectMarkdownAttachment(page, path.join(run.dir, 'merged-html'), md);
  });
}
