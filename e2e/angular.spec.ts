import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { buildAngularApp } from './helpers/build-angular-app';
import { askTool, daebugBin } from './helpers/mcp-client';
import { parseSeedErrors } from './helpers/seed-error-blocks';
import { structureProblems } from './helpers/markdown-structure';
import { markdownSection, runForReport } from './helpers/report-by-title';
import type { InlineRunResult } from './helpers/run-playwright';

// fixtures/angular/src is an Angular 22 app (JIT, development mode, zoneless, HttpClient on fetch), bundled by
// e2e/global-setup.ts and again in beforeAll (a no-op when unchanged). None of its three problems has a frame in the
// app's code: HttpClient's request starts after an `await` inside @angular/common, and NG0100 and the sanitizer
// warning come from the template's `ng:///StockTicker.js` function. Each must still be located at its line.
const appSrc = path.resolve(__dirname, '..', 'fixtures', 'angular', 'src');

/** The 1-based line of `text` in a fixture source. */
function lineOf(file: string, text: string): number {
  const index = fs.readFileSync(path.join(appSrc, file), 'utf8').split('\n').findIndex((l) => l.includes(text));
  if (index === -1) throw new Error(`${text} is not in ${file}`);
  return index + 1;
}

const request = { source: 'src/prices.service.ts', line: lineOf('prices.service.ts', "this.http.get<Price[]>('/api/prices.json')") };
const assignment = { source: 'src/stock-ticker.ts', line: lineOf('stock-ticker.ts', "this.status = 'live';") };
const binding = { source: 'src/stock-ticker.ts', line: lineOf('stock-ticker.ts', '[innerHTML]="news"') };

const spec = `
import { test, expect } from 'daebug';

test('an Angular page with three problems', async ({ page, daebug }) => {
  await page.goto('/angular/index.html');
  await expect(page.locator('.status')).toHaveText('Feed: loading');
  await expect.poll(() => daebug.events().filter((e) => e.source === 'console.error').length).toBe(2);
  await daebug.settle();
});

test('an Angular page whose price list stays empty', async ({ page }) => {
  await page.goto('/angular/index.html');
  await expect(page.locator('.prices li')).toHaveCount(3, { timeout: 2000 });
});
`;

test.describe.configure({ mode: 'default' });

let run: InlineRunResult, json: any, md: string;
test.beforeAll(async () => {
  test.setTimeout(240_000);
  buildAngularApp();
  // Its own output folder: inline runs that share the repository's test-results/ empty it for each other.
  ({ run, json, md } = await runForReport({ 'angular.spec.ts': spec }, 'an Angular page with three problems', { configExtra: "outputDir: './test-results'," }));
});

const section = (title: string) => markdownSection(md, title);
/** A found line's stored code (issue 37): the lines around it, that line marked with `>` and holding `text`. */
const codeAt = (line: number, text: string) => expect.stringMatching(new RegExp(`^> +${line} \\| .*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
const eventOf = (source: string, text: string) => {
  const found = json.events.filter((e: any) => e.source === source && e.message.includes(text));
  expect(found, JSON.stringify(json.events.map((e: any) => `${e.source}: ${e.message.slice(0, 80)}`))).toHaveLength(1);
  return found[0];
};

test("Angular's own frames are a library's, though its shipped maps name a Bazel folder and no node_modules", () => {
  expect(json.test.status, run.output).toBe('passed');
  const frames = json.events.flatMap((e: any) => e.frames ?? []);
  const bazel = frames.filter((f: any) => /k8-fastbuild/.test(f.original?.source ?? ''));
  expect(bazel.length).toBeGreaterThan(5);
  for (const frame of bazel) expect(frame, JSON.stringify(frame)).toMatchObject({ userCode: false, library: expect.stringMatching(/^@angular\//) });
  expect(md).not.toContain('logged by your code');
  expect(md).not.toMatch(/Where: `k8-fastbuild/);
});

test("a failed HttpClient request is located at the app's http.get line, and so is the HttpErrorResponse Angular's ErrorHandler logged", () => {
  const failed = eventOf('network', '/api/prices.json');
  expect(failed.foundInSource).toEqual([{ ...request, by: 'url', snippet: codeAt(request.line, "this.http.get<Price[]>('/api/prices.json')") }]);
  const logged = eventOf('console.error', 'HttpErrorResponse');
  expect(logged.unexpected).toBe(true);
  expect(logged.foundInSource).toEqual([{ ...request, by: 'url', snippet: codeAt(request.line, "this.http.get<Price[]>('/api/prices.json')") }]);
  expect(logged.causedBy).toBe(json.events.indexOf(failed));
  const entry = section('Unexpected errors').split(/\n(?=\d+\. `)/).find((e) => e.includes('HttpErrorResponse'));
  expect(entry).toContain(`found in your source by its URL: \`${request.source}:${request.line}\``);
  expect(entry).toContain("logged by Angular's ErrorHandler");
  expect(entry).toContain('caused by the failed request `GET /api/prices.json` (404)');
});

test('NG0100 is located where the component assigns the new value, and the Root cause says to open that line', () => {
  const ng0100 = eventOf('console.error', 'NG0100');
  expect(ng0100.unexpected).toBe(true);
  expect(ng0100.component).toMatchObject({ name: 'StockTicker', framework: 'Angular', source: 'src/stock-ticker.ts', foundBy: 'name' });
  expect(ng0100.foundInSource).toEqual([{ ...assignment, by: 'assignment', snippet: codeAt(assignment.line, "this.status = 'live';") }]);
  const rootCause = section('Root cause');
  // The sanitizer warning (a console.warn, not an unexpected error) is a problem too (issue 37): counted and listed.
  expect(rootCause).toContain('- 3 independent problems, fix each');
  expect(rootCause).toMatch(/^ {2}3\. warning 1 below: an Angular warning about your component `StockTicker`; component `<StockTicker>` at `src\/stock-ticker\.ts:\d+` \(found by name\); found in your source: the `\[innerHTML\]` binding in `StockTicker`: `src\/stock-ticker\.ts:\d+`$/m);
  const place = `${assignment.source}:${assignment.line}`;
  const request = /^  \d\. unexpected error \d below: error logged by Angular's ErrorHandler \(no frame in your code\); no frame of its stack is in your code; found in your source by its URL: `src\/prices\.service\.ts:\d+`$/m;
  expect(rootCause).toMatch(request);
  if (rootCause.includes('NG0100')) {
    expect(rootCause).toContain(`Try first: No frame of its stack is in your code; open \`${place}\`, where \`StockTicker\` sets the new value`);
  }
  expect(rootCause).toContain(`found in your source: where \`StockTicker\` sets the new value: \`${place}\``);
});

test("the sanitizer warning is located at the component's [innerHTML] binding", () => {
  const warning = eventOf('console.warn', 'sanitizing HTML stripped some content');
  expect(warning.component).toMatchObject({ name: 'StockTicker', framework: 'Angular' });
  expect(warning.foundInSource).toEqual([{ ...binding, by: 'inner-html', snippet: codeAt(binding.line, '[innerHTML]="news"') }]);
  expect(section('Warnings')).toContain(`found in your source: the \`[innerHTML]\` binding in \`StockTicker\`: \`${binding.source}:${binding.line}\``);
});

test('no problem is listed twice: the two logged errors are unexpected errors only, the warning is a warning only', () => {
  expect(structureProblems(md)).toEqual([]);
  const unexpected = section('Unexpected errors');
  const warnings = section('Warnings');
  expect(unexpected.match(/^\d+\. `/gm)).toHaveLength(2);
  expect(warnings.match(/^\d+\. `/gm)).toHaveLength(1);
  expect(warnings).not.toMatch(/HttpErrorResponse|NG0100/);
  expect(unexpected).not.toContain('sanitizing HTML');
});

test("a failing test's error-context.md names the line to fix for each problem", () => {
  const failing = Object.values(run.reports).find((r: any) => r.test.title === 'an Angular page whose price list stays empty') as any;
  expect(failing?.test.status, run.output).toBe('failed');
  const contextPath = /Error Context: (\S+error-context\.md)/.exec(run.output)?.[1];
  expect(contextPath, run.output).toBeTruthy();
  const context = fs.readFileSync(path.resolve(run.dir, contextPath!), 'utf8');
  // Playwright's own file for an agent ("Copy prompt"), with daebug's cause among the test's errors.
  expect(context).toContain('daebug: the browser had 2 unexpected errors');
  expect(context).toContain(`${request.source}:${request.line} (found in your source by its URL; no frame of its stack is in your code)`);
  expect(context).toContain(`${assignment.source}:${assignment.line} (found in your source: where StockTicker sets the new value; no frame of its stack is in your code)`);
  expect(context).not.toMatch(/k8-fastbuild|dist\/app\.js:\d+/);
});

test("daebug errors and daebug_get_errors name the report's lines: the assignment behind NG0100, the app's http.get behind the 404", async () => {
  const args = ['errors', '--limit', '100', '--test', 'three problems'];
  const cli = spawnSync(process.execPath, [daebugBin, ...args], { cwd: run.dir, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: 30_000 });
  expect(cli.status, cli.stderr).toBe(0);
  const { blocks } = parseSeedErrors(cli.stdout);
  // The two logged errors, and the sanitizer warning daebug placed at the component's binding.
  expect(blocks, cli.stdout).toHaveLength(3);
  const sanitizer = blocks.find((b) => b.message.includes('sanitizing HTML stripped some content'))!;
  expect(sanitizer.location, cli.stdout).toMatchObject({ file: binding.source, line: binding.line });
  expect(sanitizer.fields['kind']).toBe('console.warn');
  const ng0100 = blocks.find((b) => b.message.includes('NG0100'))!;
  expect(ng0100.location, cli.stdout).toMatchObject({ file: assignment.source, line: assignment.line });
  expect(ng0100.fields['found']).toMatch(/^found in your source: where StockTicker sets the new value; no frame of the stack is in your code$/);
  const http = blocks.find((b) => b.message.includes('HttpErrorResponse'))!;
  expect(http.location, cli.stdout).toMatchObject({ file: request.source, line: request.line });
  expect(http.fields['found']).toMatch(/by its URL/);
  // The true stack follows, Angular's frames folded; no Bazel folder and no bundle position stands for the line.
  for (const block of [ng0100, http]) {
    expect(block.stack.some((line) => line.kind === 'folded' && /@angular/.test(line.where)), cli.stdout).toBe(true);
    expect(block.fields['note'], cli.stdout).toBeUndefined();
  }
  expect(cli.stdout).not.toMatch(/k8-fastbuild/);
  // The Markdown names the same two lines.
  expect(section('Unexpected errors')).toContain(`\`${request.source}:${request.line}\``);
  expect(section('Root cause')).toContain(`\`${assignment.source}:${assignment.line}\``);

  const answer = await askTool(run.dir, 'reports', 'daebug_get_errors', { limit: 100, test: 'three problems' });
  expect(answer.isError).toBe(false);
  expect(answer.text).toBe(cli.stdout.trimEnd());
});
