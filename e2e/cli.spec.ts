import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorsOutputSchema, showMatchesOutputSchema, summaryOutputSchema } from '../src/cli/schema';
import { reportSchema } from '../src/model/schema';
import { mcpClient } from './helpers/mcp-client';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';
import { parseSeedErrors, type SeedErrorBlock } from './helpers/seed-error-blocks';

// `npx daebug` runs dist/cli/bin.js through node: run `npm run build` after changing src/.
const bin = path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js');

const spec = `
import { test, expect } from 'daebug';

async function firstError(daebug: any) {
  await expect.poll(() => daebug.errors().length, { timeout: 5000 }).toBeGreaterThan(0);
}

test.describe('checkout', () => {
  test('throws in the background', async ({ page, daebug }) => {
    await page.goto('/app/app.html');
    await page.evaluate(() => (window as any).daebugApp.checkoutLater());
    await firstError(daebug);
  });

  test('logs a caught error', async ({ page, daebug }) => {
    await page.goto('/app/app.html');
    await page.evaluate(() => (window as any).daebugApp.saveCart());
    await daebug.settle();
  });
});

test('profile rejects', async ({ page, daebug }) => {
  await page.goto('/app/app.html');
  await page.evaluate(() => (window as any).daebugApp.loadProfileLater());
  await firstError(daebug);
});

test('clean page', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => console.log('all good'));
  await daebug.settle();
});

test.describe(() => {
  test.use({ daebugIgnore: ['known noise'] });
  test('known noise', async ({ page, daebug }) => {
    await page.goto('/index.html');
    await page.evaluate(() => console.error('known noise from a library'));
    await daebug.settle();
  });
});

test('noisy console', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => { for (let i = 1; i <= 25; i++) console.error('noise ' + i); });
  await daebug.settle();
});
`;

interface CliRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

function daebug(args: string[], cwd: string): CliRun {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: 30_000 });
  return { exitCode: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The error blocks of `daebug errors` text, in order, each as its text without its `---`. */
function errorBlocks(stdout: string): string[] {
  return stdout
    .replace(/^The \d+ most recent of \d+ errors.*\n\n/, '')
    .split(/^---$/m)
    .map((block) => block.replace(/^\n/, ''))
    .filter((block) => block.includes('\n  report: '));
}

/** The first line of each error block (`Error: <message>`), once a strict reader of seed 003's format read them all. */
function errorLines(stdout: string): string[] {
  parseSeedErrors(stdout);
  return errorBlocks(stdout).map((block) => block.split('\n', 1)[0]!);
}

/** A stack line of seed 003's block as the Markdown report writes the frame: `src/cart.ts:11:14 in cartTotal`. */
function markdownFrame(line: SeedErrorBlock['stack'][number]): string {
  if (line.kind === 'folded') return `… ${line.count} frames in ${line.where}`;
  return `${line.file}:${line.line}:${line.column}${line.functionName ? ` in ${line.functionName}` : ''}`;
}

test.describe.configure({ mode: 'default' });

let run: InlineRunResult;
const tempDirs: string[] = [];

test.afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

test.beforeAll(async () => {
  test.setTimeout(180_000);
  run = await runInlineTest({ 'shop.spec.ts': spec });
  expect(run.exitCode, run.output).toBe(0);
});

const reportOf = (title: string) => {
  const report = Object.values(run.reports).find((r: any) => r.test.title === title);
  if (!report) throw new Error(`no report for ${title}:\n${run.output}`);
  return report;
};

test('errors: the 20 most recent by default, oldest first, with original location, stack, test, time and report', () => {
  const result = daebug(['errors'], run.dir);
  expect(result.exitCode, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  // 1 uncaught + 1 logged + 1 rejection + 25 console.error = 28; the noisy test ran last.
  expect(result.stdout.split('\n')[0]).toBe('The 20 most recent of 28 errors, oldest first (--limit 20):');
  const errors = errorLines(result.stdout);
  expect(errors).toHaveLength(20);
  // Seed 003's block: "Error: " and the message, never "Error: Error: …"; a console call's kind on its own line.
  expect(errors.at(-1)).toBe('Error: noise 25');
  expect(errors[0]).toBe('Error: noise 6');
  expect(result.stdout.split('\n---\n')).toHaveLength(21);

  const all = daebug(['errors', '--limit', '100'], run.dir).stdout;
  const blocks = errorBlocks(all);
  expect(all.trimEnd().split('\n').at(-1)).toBe('(1 expected error, matching daebugIgnore or daebug.expectError, left out: --expected lists them)');
  expect(blocks).toHaveLength(28);
  expect(all).not.toMatch(/^Error: Error:/m);
  const parsed = parseSeedErrors(all).blocks;
  expect(parsed).toHaveLength(28);
  const uncaught = blocks.find((b) => b.includes('(window.onerror in page)'))!;
  const seed = parsed[blocks.indexOf(uncaught)]!;
  // The seed writes "Error: " before the message, its own type included ("Error: Uncaught ReferenceError: …").
  expect(uncaught.split('\n', 1)[0]).toBe("Error: TypeError: Cannot read properties of undefined (reading 'price')");
  // Where it is: the first frame of the app's code at its original position, as the report says it.
  expect(seed.location).toMatchObject({ file: 'src/pricing.ts' });
  const markdown = fs.readFileSync(path.join(run.reportsDir, reportOf('throws in the background').markdownFile), 'utf8');
  const where = `${seed.location!.file}:${seed.location!.line}:${seed.location!.column}`;
  expect(markdown).toContain(`at \`${where} in priceOf\``);
  // The stack as `at <function> (<file>:<line>:<column>)` lines: frames at their original position (the bundle is
  // minified, its map names the functions), the same frames as the Markdown's.
  expect(seed.stack.slice(0, 4).map((f) => (f.kind === 'frame' ? [f.functionName, f.file] : f))).toEqual([
    ['priceOf', 'src/pricing.ts'],
    ['cartTotal', 'src/cart.ts'],
    ['checkout', 'src/cart.ts'],
    ['checkoutNow', 'src/main.ts'],
  ]);
  expect(seed.stack[0]).toMatchObject({ line: seed.location!.line, column: seed.location!.column });
  for (const line of seed.stack.slice(0, 4)) expect(markdown).toContain(markdownFrame(line));
  // The report's root cause, chosen the same way (src/diagnosis/rank.ts); an Error thrown has no kind line.
  expect(seed.fields['root cause of this test']).toBe('uncaught error in your code, the only unexpected error');
  expect(seed.fields['kind']).toBeUndefined();
  expect(seed.fields['hint']).toMatch(/^Please check:\n- The value before `\.price` is undefined/);
  expect(seed.fields['test']).toBe('shop.spec.ts › checkout › throws in the background');
  expect(seed.fields['time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \(window\.onerror in page\)$/);
  const reportPath = seed.fields['report']!;
  expect(reportPath).toMatch(/^reports\/shop-checkout-throws-in-the-background-[0-9a-f]{8}\.md$/);
  expect(fs.existsSync(path.join(run.dir, reportPath))).toBe(true);

  const rejection = parsed[blocks.findIndex((b) => b.includes('(unhandledrejection in page)'))]!;
  expect(rejection.location).toMatchObject({ file: 'src/api.ts' });
  expect(rejection.stack[0]).toMatchObject({ functionName: 'parseProfile', file: 'src/api.ts' });
  expect(rejection.message).toBe('profile payload has no id');
  expect(rejection.fields['kind']).toBeUndefined();
  const logged = parsed[blocks.findIndex((b) => b.includes('(console.error in page)') && b.includes('save failed'))]!;
  expect(logged.message).toMatch(/^save failed TypeError: /);
  expect(logged.fields['kind']).toBe('console.error');
  expect(logged.location).toMatchObject({ file: 'src/pricing.ts' });

  // Every test's marked error is the one its Markdown report's "Root cause" names.
  for (const report of Object.values(run.reports) as any[]) {
    const md = fs.readFileSync(path.join(run.reportsDir, report.markdownFile), 'utf8');
    const section = md.split('\n## Root cause\n')[1];
    const marked = blocks.filter((b) => b.includes(`\n  report: reports/${report.markdownFile}`) && b.includes('\n  root cause of this test: '));
    if (!section) {
      expect(marked, report.markdownFile).toEqual([]);
      continue;
    }
    expect(marked, report.markdownFile).toHaveLength(1);
    // The first line inside the section's fence (`Error window.onerror`, `Text console.error`): the cause's message.
    const named = section.split('\n').find((_line, i, all) => /^`{3,}\w+ \S+$/.test(all[i - 1] ?? ''))!;
    expect(named, report.markdownFile).toBeTruthy();
    expect(marked[0]!.split('\n', 1)[0]!.endsWith(named), report.markdownFile).toBe(true);
  }

  // Oldest first across tests: the order of the tests in the run.
  const order = ['throws in the background', 'logs a caught error', 'profile rejects', 'noisy console'].map((title) => blocks.findIndex((b) => b.includes(`› ${title}\n`)));
  expect(order).toEqual([...order].sort((a, b) => a - b));
});

test('errors --limit, --test with text and /regex/, and the empty answer', () => {
  const five = daebug(['errors', '--limit', '5'], run.dir);
  expect(five.exitCode).toBe(0);
  expect(errorLines(five.stdout)).toEqual(['Error: noise 21', 'Error: noise 22', 'Error: noise 23', 'Error: noise 24', 'Error: noise 25']);

  const checkout = daebug(['errors', '--test', 'CHECKOUT'], run.dir);
  expect(checkout.exitCode).toBe(0);
  expect(errorLines(checkout.stdout)).toHaveLength(2);
  expect(checkout.stdout).not.toContain('noise');

  const regex = daebug(['errors', '--test', '/profile|caught error$/'], run.dir);
  expect(regex.stdout).toContain('profile payload has no id');
  expect(regex.stdout).toContain('save failed');
  expect(errorLines(regex.stdout)).toHaveLength(2);

  const clean = daebug(['errors', '--test', 'clean page'], run.dir);
  expect(clean.exitCode).toBe(0);
  expect(clean.stdout).toBe('No JavaScript errors captured in tests matching "clean page"\n');

  // A folder whose only report has no errors: the seed's exact answer.
  const onlyClean = copyReports(run.reportsDir, (index) => ({ ...index, tests: index.tests.filter((t: any) => t.title === 'clean page') }));
  const none = daebug(['errors', '--dir', onlyClean], run.dir);
  expect(none.exitCode).toBe(0);
  expect(none.stdout).toBe('No JavaScript errors captured\n');

  // Errors the test declared expected are counted, and listed only with --expected.
  const noise = daebug(['errors', '--test', 'known noise'], run.dir);
  expect(noise.stdout).toBe('No JavaScript errors captured in tests matching "known noise"\n(1 expected error, matching daebugIgnore or daebug.expectError, left out: --expected lists them)\n');
  const withExpected = daebug(['errors', '--test', 'known noise', '--expected'], run.dir);
  expect(errorLines(withExpected.stdout)).toEqual(['Error: known noise from a library']);
  expect(withExpected.stdout).toContain('(console.error in page, expected by the test)');

  const badRegex = daebug(['errors', '--test', '/(/'], run.dir);
  expect(badRegex.exitCode).toBe(2);
  expect(badRegex.stderr).toContain('--test "/(/" is not a valid regular expression');
  const badLimit = daebug(['errors', '--limit', 'many'], run.dir);
  expect(badLimit.exitCode).toBe(2);
  expect(badLimit.stderr).toContain('--limit "many" is not accepted: use a whole number from 1 (default 20).');
});

test('errors --json is described by errorsOutputSchema', () => {
  const result = daebug(['errors', '--json', '--limit', '3', '--test', '/checkout|profile/'], run.dir);
  expect(result.exitCode).toBe(0);
  const output = errorsOutputSchema.parse(JSON.parse(result.stdout));
  expect(output.total).toBe(3);
  expect(output.limit).toBe(3);
  expect(output.errors.map((e) => e.source)).toEqual(['window.onerror', 'console.error', 'unhandledrejection']);
  const uncaught = output.errors[0]!;
  expect(uncaught.location).toMatchObject({ file: 'src/pricing.ts', mapped: true, functionName: 'priceOf' });
  expect(uncaught.unexpected).toBe(true);
  // Each test's report names its only unexpected error as its root cause.
  expect(output.errors.map((e) => e.rootCause)).toEqual([true, true, true]);
  expect(uncaught.rootCauseReason).toBe('uncaught error in your code, the only unexpected error');
  expect(uncaught.frames?.[0]).toMatchObject({ userCode: true, original: { source: 'src/pricing.ts', functionName: 'priceOf' } });
  expect(uncaught.stack).toContain('/app/dist/app.js:1:');
  expect(uncaught.originalStack).toMatch(/^ {4}at priceOf \(src\/pricing\.ts:\d+:\d+\)\n {4}at cartTotal /);
  expect(uncaught.test.markdown).toBe(path.join('reports', reportOf('throws in the background').markdownFile));
  expect(Date.parse(output.errors[0]!.time)).toBeLessThanOrEqual(Date.parse(output.errors[2]!.time));
});

test('summary: a compact table, tests with unexpected errors first; --json by summaryOutputSchema', () => {
  const result = daebug(['summary'], run.dir);
  expect(result.exitCode, result.stderr).toBe(0);
  const lines = result.stdout.split('\n');
  expect(lines[0]).toMatch(/^Run passed \(updated .+\): 6 tests, 4 with unexpected errors, 0 not as expected\.$/);
  expect(lines[2]).toMatch(/^status\s+unexpected\s+errors\s+console\s+test\s+report$/);
  // Under each test with unexpected errors, the root cause its report names, and where the report says it is.
  const rows = lines.slice(3).filter((line) => !line.startsWith('  ↳ ')).slice(0, 6);
  const causeOf = (title: string) => lines[lines.findIndex((line) => line.includes(`› ${title} `)) + 1];
  expect(causeOf('noisy console')).toBe('  ↳ root cause: console.error: noise 1');
  expect(causeOf('throws in the background')).toMatch(/^ {2}↳ root cause: TypeError: Cannot read properties of undefined \(reading 'price'\) at src\/pricing\.ts:\d+:\d+ in priceOf$/);
  expect(causeOf('clean page')).not.toMatch(/root cause/);
  expect(rows[0]).toMatch(/^passed\s+25\s+25\s+25\s+shop\.spec\.ts › noisy console\s+shop-noisy-console-[0-9a-f]{8}\.md$/);
  expect(rows[4]).toMatch(/^passed\s+0\s+0\s+1\s+shop\.spec\.ts › clean page\s+shop-clean-page-[0-9a-f]{8}\.md$/);
  expect(rows[5]).toMatch(/^passed\s+0\s+1\s+1\s+shop\.spec\.ts › known noise\s+shop-known-noise-[0-9a-f]{8}\.md$/);
  // Columns line up: every row's report starts where the header's does.
  const reportColumn = lines[2]!.indexOf('report');
  for (const row of rows) expect(row.slice(reportColumn)).toMatch(/^shop-.*\.md$/);

  const json = summaryOutputSchema.parse(JSON.parse(daebug(['summary', '--json'], run.dir).stdout));
  expect(json.status).toBe('passed');
  expect(json.tests.map((t) => t.summary.unexpected)).toEqual([25, 1, 1, 1, 0, 0]);
  expect(json.tests.map((t) => t.rootCause)).toEqual(['console.error: noise 1', expect.any(String), expect.any(String), expect.any(String), undefined, undefined]);
  expect(json.tests.find((t) => t.title === 'profile rejects')).toMatchObject({ rootCause: 'Error: profile payload has no id', rootCauseWhere: expect.stringMatching(/^src\/api\.ts:\d+:\d+ in parseProfile$/) });
});

test('show: by title, slug or file; several matches are listed; --json prints the report', () => {
  const report = reportOf('profile rejects');
  const slug = report.markdownFile.replace(/\.md$/, '');
  const markdown = fs.readFileSync(path.join(run.reportsDir, report.markdownFile), 'utf8');
  for (const query of ['profile rejects', slug, report.markdownFile, `reports/${report.markdownFile}`, 'shop.spec.ts › profile rejects']) {
    const result = daebug(['show', query], run.dir);
    expect(result.exitCode, `${query}: ${result.stderr}`).toBe(0);
    expect(result.stdout).toBe(markdown);
  }

  const several = daebug(['show', 'checkout'], run.dir);
  expect(several.exitCode).toBe(1);
  expect(several.stdout.split('\n')[0]).toBe('2 tests match "checkout"; name one by its report:');
  expect(several.stdout).toMatch(/^ {2}shop\.spec\.ts › checkout › throws in the background {2}→ {2}shop-checkout-throws-in-the-background-[0-9a-f]{8}$/m);
  expect(several.stdout).toMatch(/^ {2}shop\.spec\.ts › checkout › logs a caught error {2}→ {2}shop-checkout-logs-a-caught-error-[0-9a-f]{8}$/m);
  const byFile = daebug(['show', 'shop.spec.ts'], run.dir);
  expect(byFile.exitCode).toBe(1);
  expect(byFile.stdout.split('\n')[0]).toBe('6 tests match "shop.spec.ts"; name one by its report:');

  const severalJson = showMatchesOutputSchema.parse(JSON.parse(daebug(['show', '--json', '/checkout/'], run.dir).stdout));
  expect(severalJson.matches.map((m) => m.title).sort()).toEqual(['logs a caught error', 'throws in the background']);

  const none = daebug(['show', 'no such test'], run.dir);
  expect(none.exitCode).toBe(1);
  expect(none.stderr).toBe(`No test matches "no such test" in reports. List the tests with: npx daebug summary\n`);

  const asJson = daebug(['show', slug, '--json'], run.dir);
  expect(asJson.exitCode).toBe(0);
  expect(asJson.stdout).toBe(fs.readFileSync(path.join(run.reportsDir, report.markdownFile.replace(/\.md$/, '.json')), 'utf8'));
  reportSchema.parse(JSON.parse(asJson.stdout));
});

test('no reports: the exact message and exit 2, in the default folder and with --dir', () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'daebug-cli-empty-'));
  try {
    for (const command of [['errors'], ['summary'], ['show', 'x']]) {
      const result = daebug(command, empty);
      expect(result.exitCode, command.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe('No daebug reports in reports: run npx playwright test first');
      expect(result.stdout).toBe('');
    }
    const withDir = daebug(['errors', '--dir', path.join(empty, 'out')], run.dir);
    expect(withDir.exitCode).toBe(2);
    expect(withDir.stderr.split('\n')[0]).toBe(`No daebug reports in ${path.join(empty, 'out')}: run npx playwright test first`);
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
});

test('an unreadable report is a one-line diagnostic on stderr, not a crash', () => {
  const victim = reportOf('noisy console');
  const dir = copyReports(run.reportsDir, (index) => index);
  const victimFile = path.join(dir, victim.markdownFile.replace(/\.md$/, '.json'));
  fs.writeFileSync(victimFile, '{ "schemaVersion": 1, "test": ');
  const result = daebug(['errors', '--dir', dir], run.dir);
  expect(result.exitCode).toBe(0);
  expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(new RegExp(`^daebug: skipped ${escape(victimFile)}: it is not valid JSON \\(.+\\)$`))]);
  expect(errorLines(result.stdout)).toHaveLength(3);

  fs.writeFileSync(victimFile, JSON.stringify({ ...victim, events: [{ ...victim.events[0], ts: 'noon' }] }));
  const invalid = daebug(['errors', '--dir', dir], run.dir);
  expect(invalid.stderr.trimEnd()).toMatch(new RegExp(`^daebug: skipped ${escape(victimFile)}: it is not a daebug report at events\\.0\\.ts: .+$`));

  fs.writeFileSync(path.join(dir, 'index.json'), 'not json');
  const noIndex = daebug(['summary', '--dir', dir], run.dir);
  expect(noIndex.exitCode).toBe(0);
  expect(noIndex.stderr).toContain(`daebug: ${path.join(dir, 'index.json')} is not valid JSON`);
  expect(noIndex.stdout.split('\n')[0]).toBe('Run status unknown (no valid index.json): 5 tests, 3 with unexpected errors, 0 not as expected.');
});

test('usage: --help and --version, unknown command or flag exit 2 naming it', () => {
  const help = daebug(['--help'], run.dir);
  expect(help.exitCode).toBe(0);
  expect(help.stdout).toContain('Exit codes:');
  for (const command of ['errors', 'summary', 'show', 'mcp']) {
    const commandHelp = daebug([command, '--help'], run.dir);
    expect(commandHelp.exitCode).toBe(0);
    expect(commandHelp.stdout.split('\n')[0]).toMatch(new RegExp(`^Usage: npx daebug ${command}`));
    expect(commandHelp.stdout).toContain('Exit codes:');
  }
  const version = daebug(['--version'], run.dir);
  expect(version.stdout).toBe(`${JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);

  const unknown = daebug(['explode'], run.dir);
  expect(unknown.exitCode).toBe(2);
  expect(unknown.stderr).toContain('Unknown command "explode" (accepted: errors, groups, baseline, summary, show, mcp).');
  expect(unknown.stderr).toContain('Usage: npx daebug <command> [flags]');
  const flag = daebug(['summary', '--limit', '3'], run.dir);
  expect(flag.exitCode).toBe(2);
  expect(flag.stderr).toContain('daebug summary: unknown flag --limit (accepted: --dir, --help, --version, --json).');
  expect(flag.stderr).toContain('Usage: npx daebug summary');
  const none = daebug([], run.dir);
  expect(none.exitCode).toBe(2);
  expect(none.stderr).toContain('Usage: npx daebug <command> [flags]');
});

function toolText(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  return content[0]!.text;
}

test('mcp: the SDK client lists the tools, and each answers with the same text as the CLI', async () => {
  const client = await mcpClient(run.reportsDir);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['daebug_get_error_groups', 'daebug_get_errors', 'daebug_get_flaky', 'daebug_get_history', 'daebug_get_report', 'daebug_list_tests']);
    const getErrors = tools.find((t) => t.name === 'daebug_get_errors')!;
    expect(getErrors.inputSchema.properties?.['limit']).toMatchObject({ type: 'integer', default: 20 });
    expect(getErrors.inputSchema.required ?? []).not.toContain('test');

    const cli = (args: string[]) => daebug([...args, '--dir', run.reportsDir], run.dir).stdout.trimEnd();
    const all = await client.callTool({ name: 'daebug_get_errors', arguments: {} });
    expect(all.isError).toBe(false);
    expect(toolText(all)).toBe(cli(['errors']));
    expect(errorLines(toolText(all))).toHaveLength(20);
    const some = await client.callTool({ name: 'daebug_get_errors', arguments: { limit: 2, test: '/checkout/' } });
    expect(toolText(some)).toBe(cli(['errors', '--limit', '2', '--test', '/checkout/']));
    expect(errorLines(toolText(some))).toHaveLength(2);
    const none = await client.callTool({ name: 'daebug_get_errors', arguments: { test: 'clean page' } });
    expect(toolText(none)).toBe('No JavaScript errors captured in tests matching "clean page"');

    expect(toolText(await client.callTool({ name: 'daebug_list_tests', arguments: {} }))).toBe(cli(['summary']));
    const groups = await client.callTool({ name: 'daebug_get_error_groups', arguments: {} });
    expect(groups.isError).toBe(false);
    expect(toolText(groups)).toBe(cli(['groups']));
    expect(toolText(groups)).toMatch(/distinct unexpected error/);
    // The run had no baseline: asking for what is new says so, instead of calling everything new.
    const fresh = await client.callTool({ name: 'daebug_get_error_groups', arguments: { new: true } });
    expect(fresh.isError).toBe(true);
    expect(toolText(fresh)).toContain('used no baseline');
    const report = await client.callTool({ name: 'daebug_get_report', arguments: { test: 'profile rejects' } });
    expect(report.isError).toBe(false);
    expect(toolText(report)).toBe(fs.readFileSync(path.join(run.reportsDir, reportOf('profile rejects').markdownFile), 'utf8').trimEnd());
    const several = await client.callTool({ name: 'daebug_get_report', arguments: { test: 'checkout' } });
    expect(several.isError).toBe(true);
    expect(toolText(several).split('\n')[0]).toBe('2 tests match "checkout"; name one by its report:');

    const badLimit = await client.callTool({ name: 'daebug_get_errors', arguments: { limit: 0 } });
    expect(badLimit.isError).toBe(true);
    expect(toolText(badLimit)).toContain('limit');
  } finally {
    await client.close();
  }
});

test('text is plain: a URL with underscores prints as the page had it in errors, groups and their MCP tools; index.md escapes it', async () => {
  test.setTimeout(120_000);
  // Like a SvelteKit remote function's request. 'strict' makes the failed request an unexpected error: `daebug errors` lists it.
  const remote = await runInlineTest({
    'remote.spec.ts': `
import { test, expect } from 'daebug';
test.use({ daebugNetwork: 'strict' });
test('remote call', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => fetch('/_app/remote/get_count').then((r) => r.status));
  await expect.poll(async () => { await daebug.settle(); return daebug.events().filter((e) => e.source === 'network').length; }).toBe(1);
  await page.evaluate(() => console.error('no __data__ for *get_count* <remote>'));
  await daebug.settle();
});
`,
  });
  expect(remote.exitCode, remote.output).toBe(0);
  const port = process.env['DAEBUG_FIXTURES_PORT'] ?? '4517';
  const request = `GET http://127.0.0.1:${port}/_app/remote/get_count 404 (Not Found)`;
  const logged = 'no __data__ for *get_count* <remote>';

  const errors = daebug(['errors', '--dir', remote.reportsDir], remote.dir);
  expect(errors.exitCode, errors.stderr).toBe(0);
  // Seed 003's block: the message on the `Error:` line, as the page had it.
  expect(errorLines(errors.stdout)).toEqual([`Error: ${request}`, `Error: ${logged}`]);
  const groups = daebug(['groups', '--dir', remote.reportsDir], remote.dir);
  expect(groups.exitCode, groups.stderr).toBe(0);
  expect(groups.stdout).toContain(`[network] ${request} — 1 test, 1 time`);
  expect(groups.stdout).toContain(`[console.error] ${logged} — 1 test, 1 time`);
  for (const text of [errors.stdout, groups.stdout]) expect(text).not.toContain('\\');
  // No Markdown left in the terminal's text: no heading marks, no code spans.
  expect(groups.stdout).not.toMatch(/^#|`/m);

  // The Markdown keeps its escapes.
  const indexMd = fs.readFileSync(path.join(remote.reportsDir, 'index.md'), 'utf8');
  expect(indexMd).toContain('/\\_app/remote/get\\_count 404 (Not Found)');

  const client = await mcpClient(remote.reportsDir);
  try {
    const cli = (args: string[]) => daebug([...args, '--dir', remote.reportsDir], remote.dir).stdout.trimEnd();
    const toolErrors = toolText(await client.callTool({ name: 'daebug_get_errors', arguments: {} }));
    expect(toolErrors).toBe(cli(['errors']));
    expect(toolErrors).toContain(request);
    const toolGroups = toolText(await client.callTool({ name: 'daebug_get_error_groups', arguments: {} }));
    expect(toolGroups).toBe(cli(['groups']));
    expect(toolGroups).toContain(request);
  } finally {
    await client.close();
  }
});

test('mcp: with no reports, the tools say so instead of failing', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'daebug-cli-empty-'));
  tempDirs.push(empty);
  const client = await mcpClient(path.join(empty, 'reports'));
  try {
    const result = await client.callTool({ name: 'daebug_get_errors', arguments: {} });
    expect(result.isError).toBe(true);
    expect(toolText(result).split('\n')[0]).toBe(`No daebug reports in ${path.join(empty, 'reports')}: run npx playwright test first`);
  } finally {
    await client.close();
  }
});

test('mcp without @modelcontextprotocol/sdk installed: DAEBUG_MCP_SDK_MISSING says what to install, exit 1', () => {
  // An installed copy of daebug outside this repository, whose node_modules has zod but not the SDK.
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'daebug-cli-nosdk-'));
  tempDirs.push(project);
  const installed = path.join(project, 'node_modules', 'daebug');
  fs.mkdirSync(installed, { recursive: true });
  fs.cpSync(path.join(__dirname, '..', 'dist'), path.join(installed, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(__dirname, '..', 'package.json'), path.join(installed, 'package.json'));
  fs.symlinkSync(path.dirname(require.resolve('zod/package.json')), path.join(project, 'node_modules', 'zod'), 'dir');
  const installedBin = path.join(installed, 'dist', 'cli', 'bin.js');

  const errors = spawnSync(process.execPath, [installedBin, 'errors', '--dir', run.reportsDir], { cwd: project, encoding: 'utf8' });
  expect(errors.status, errors.stderr).toBe(0);
  expect(errorLines(errors.stdout)).toHaveLength(20);

  const mcp = spawnSync(process.execPath, [installedBin, 'mcp'], { cwd: project, encoding: 'utf8', input: '' });
  expect(mcp.status).toBe(1);
  expect(mcp.stderr).toContain('DAEBUG_MCP_SDK_MISSING: npx daebug mcp needs @modelcontextprotocol/sdk, which is not installed.');
  expect(mcp.stderr).toContain('Hint: Run `npm install --save-dev @modelcontextprotocol/sdk`');
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A copy of a reports folder in a temp dir, its index.json rewritten by `edit`. */
function copyReports(from: string, edit: (index: any) => any): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'daebug-cli-reports-'));
  tempDirs.push(dir);
  const index = edit(JSON.parse(fs.readFileSync(path.join(from, 'index.json'), 'utf8')));
  for (const test of index.tests) {
    fs.copyFileSync(path.join(from, test.json), path.join(dir, test.json));
    fs.copyFileSync(path.join(from, test.markdown), path.join(dir, test.markdown));
  }
  fs.writeFileSync(path.join(dir, 'index.json'), JSON.stringify(index));
  return dir;
}
