import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runInlineTest } from './helpers/run-playwright';

const config = (reporterOptions: Record<string, unknown>) => `import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from 'daebug/browser';
export default defineConfig({
  workers: 1,
  outputDir: './test-results',
  // The dot reporter leaves its line open: workflow commands must still start a line of their own.
  reporter: [['dot'], ['daebug/reporter', ${JSON.stringify({ outputDir: 'reports', ...reporterOptions })}]],
  use: { launchOptions: chromiumLaunchOptions() },
});
`;

const files = {
  'app/app.html': `<script src="app.js"></script>`,
  'app/app.js': `setTimeout(function fail() {\n  throw new Error('cart total: NaN, 100% wrong');\n}, 0);\n`,
  'checkout.spec.ts': `import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect } from 'daebug';

test.describe('checkout', () => {
  test('loads the app', async ({ page, daebug }) => {
    await page.goto(pathToFileURL(path.join(__dirname, 'app', 'app.html')).href);
    await expect.poll(() => daebug.errors().length).toBe(1);
  });

  test('strict inline', async ({ page, daebug }) => {
    await page.setContent('<p>x</p>');
    await page.evaluate(() => { console.error('first line\\nsecond line'); console.error('two'); console.error('three'); });
    await daebug.settle();
    expect(daebug.events().filter((e) => e.source === 'console.error')).toHaveLength(3);
  });

  test('clean', async ({ page }) => {
    await page.setContent('<p>ok</p>');
  });
});
`,
};

function workflowCommands(output: string): string[] {
  return output.split('\n').filter((line) => /^::(error|warning|notice)\b/.test(line));
}

test('in GitHub Actions: one workflow command per unexpected error, capped, and a job summary', async () => {
  const dir = path.join(__dirname, '..', '.e2e-tmp', `gha-${Date.now().toString(36)}`);
  const summaryFile = path.join(dir, 'step-summary.md');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(summaryFile, '# earlier step output\n');
  const result = await runInlineTest(
    { 'playwright.config.ts': config({ maxAnnotations: 3 }), ...files, 'checkout.spec.ts': files['checkout.spec.ts'].replace("test('strict inline'", "test.describe(() => { test.use({ daebugStrict: true }); test('strict inline'").replace("toHaveLength(3);\n  });", "toHaveLength(3);\n  }); });") },
    { dir, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: dir } },
  );
  expect(result.exitCode, result.output).toBe(1);
  const commands = workflowCommands(result.output);
  expect(commands, result.output).toEqual([
    "::warning file=app/app.js,line=2,col=9,title=daebug%3A checkout.spec.ts › checkout › loads the app::Error: cart total: NaN, 100%25 wrong",
    '::error file=checkout.spec.ts,line=11,title=daebug%3A checkout.spec.ts › checkout › strict inline::first line',
    '::error file=checkout.spec.ts,line=11,title=daebug%3A checkout.spec.ts › checkout › strict inline::two',
    '::notice title=daebug%3A more unexpected errors::1 more unexpected browser error in 1 test not annotated (maxAnnotations: 3); see reports/index.md',
  ]);

  const summary = fs.readFileSync(summaryFile, 'utf8');
  expect(summary.startsWith('# earlier step output\n### daebug: unexpected browser errors\n'), summary).toBe(true);
  expect(summary).toContain('2 of 3 tests had 4 unexpected browser errors. Index: `reports/index.md`');
  const rows = summary.split('\n').filter((line) => line.startsWith('| checkout.spec.ts'));
  expect(rows).toHaveLength(2);
  const reports = Object.values(result.reports) as any[];
  const strictReport = reports.find((r) => r.test.title === 'strict inline');
  expect(rows[1]).toBe(`| checkout.spec.ts › checkout › strict inline<br>\`checkout.spec.ts:11\` | failed (strict) | 3 | [console.error] first line | \`reports/${strictReport.markdownFile}\` |`);
  expect(rows[0]).toMatch(/^\| checkout\.spec\.ts › checkout › loads the app<br>`checkout\.spec\.ts:6` \| passed \| 1 \| \[window\.onerror\] Error: cart total: NaN, 100% wrong \| `reports\/checkout-.*\.md` \|$/);
});

test('in GitHub Actions with githubAnnotations and githubSummary off: no commands and no summary', async () => {
  const dir = path.join(__dirname, '..', '.e2e-tmp', `gha-off-${Date.now().toString(36)}`);
  const summaryFile = path.join(dir, 'step-summary.md');
  const result = await runInlineTest(
    { 'playwright.config.ts': config({ githubAnnotations: false, githubSummary: false }), ...files },
    { dir, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: dir } },
  );
  expect(result.exitCode, result.output).toBe(0);
  expect(Object.keys(result.reports)).toHaveLength(3);
  expect(workflowCommands(result.output)).toEqual([]);
  expect(fs.existsSync(summaryFile)).toBe(false);
});
