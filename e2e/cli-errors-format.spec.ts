import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';
import { parseSeedErrors, type SeedErrorBlock } from './helpers/seed-error-blocks';

// `daebug errors` and the MCP tool `daebug_get_errors` print seed 003's block per error (issue 26): a strict reader of
// that format reads what they print after a real Playwright run wrote the reports, for each kind of error the CLI
// lists: an Error, a rejection with an object, console.error with objects, a failed request. The mapped (source map)
// case is e2e/cli.spec.ts's. `npx daebug` runs dist/cli/bin.js: run `npm run build` after changing src/.
const bin = path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js');
const port = process.env['DAEBUG_FIXTURES_PORT'] ?? '4517';
const script = `http://127.0.0.1:${port}/error-kinds/kinds.js`;

const spec = `
import { test, expect } from 'daebug';

// Failed requests are listed by \`daebug errors\` when the test counts them as unexpected.
test.use({ daebugNetwork: 'strict' });

test('every kind of error', async ({ page, daebug }) => {
  await page.goto('/error-kinds/index.html');
  // One at a time, each after the one before arrived: the blocks' order is known.
  await page.evaluate(() => (window as any).errorKinds.thrown());
  await expect.poll(() => daebug.errors().length).toBe(1);
  await page.evaluate(() => (window as any).errorKinds.rejectObject());
  await expect.poll(() => daebug.errors().length).toBe(2);
  await page.evaluate(() => (window as any).errorKinds.logObjects());
  await expect.poll(() => daebug.events().filter((e) => e.source === 'console.error').length).toBe(2);
  await page.evaluate(() => (window as any).errorKinds.failRequest());
  await expect.poll(() => daebug.events().filter((e) => e.source === 'network').length).toBe(1);
  await daebug.settle();
});
`;

function daebug(args: string[]): { exitCode: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args, '--dir', run.reportsDir], { cwd: run.dir, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: 30_000 });
  return { exitCode: result.status, stdout: result.stdout, stderr: result.stderr };
}

test.describe.configure({ mode: 'default' });

let run: InlineRunResult;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  run = await runInlineTest({ 'error-kinds.spec.ts': spec });
  expect(run.exitCode, run.output).toBe(0);
});

/** What every block of this run has: a location in the page's script, the test, a time and the report it came from. */
function expectCommonFields(block: SeedErrorBlock, source: string): void {
  expect(block.location, block.message).toMatchObject({ file: script });
  expect(block.fields['test']).toBe('error-kinds.spec.ts › every kind of error');
  expect(block.fields['time']).toMatch(new RegExp(`^\\S+ \\(${source.replace('.', '\\.')} in page\\)$`));
  expect(block.fields['report']).toMatch(/^.*error-kinds-every-kind-of-error-[0-9a-f]{8}\.md$/);
  expect(fs.existsSync(path.resolve(run.dir, block.fields['report']!))).toBe(true);
  expect(block.fields['note'], 'every kind is thrown from the page\'s own script').toBeUndefined();
}

test("daebug errors: one seed 003 block per kind, read by a strict reader of that format", () => {
  const result = daebug(['errors']);
  expect(result.exitCode, result.stderr).toBe(0);
  const { header, blocks } = parseSeedErrors(result.stdout);
  expect(header).toBeUndefined();
  expect(blocks.map((b) => b.message)).toEqual(['price is not a number: ten', '{"code":7}', 'cart {"items":[1,2],"total":3}', 'Window', `GET http://127.0.0.1:${port}/status?code=503 503 (Service Unavailable)`]);
  const [thrown, rejection, logged, window, request] = blocks as [SeedErrorBlock, SeedErrorBlock, SeedErrorBlock, SeedErrorBlock, SeedErrorBlock];
  expect(result.stdout).not.toMatch(/^Error: Error:/m);

  // An Error: at the line that threw; the stack names the function chain, no kind line.
  expectCommonFields(thrown, 'window.onerror');
  expect(thrown.location).toMatchObject({ line: 4 });
  expect(thrown.stack.map((f) => (f.kind === 'frame' ? [f.functionName, f.file, f.line] : f))).toEqual([
    ['parsePrice', script, 4],
    ['loadCart', script, 8],
    ['onTimer', script, 14],
  ]);
  expect(thrown.fields['kind']).toBeUndefined();

  // A rejection with an object: the value's text on the Error line, its kind on a line of its own.
  expectCommonFields(rejection, 'unhandledrejection');
  expect(rejection.location).toMatchObject({ line: 18 });
  expect(rejection.fields['kind']).toBe('unhandledrejection with a value that is not an Error');
  expect(rejection.stack[0]).toMatchObject({ kind: 'frame', functionName: expect.stringMatching(/rejectObject$/), file: script, line: 18 });

  // console.error with objects, and with the window alone.
  expectCommonFields(logged, 'console.error');
  expect(logged.location).toMatchObject({ line: 21 });
  expect(logged.fields['kind']).toBe('console.error');
  expectCommonFields(window, 'console.error');
  expect(window.location).toMatchObject({ line: 22 });
  expect(window.fields['kind']).toBe('console.error');

  // A failed request: where the page's script asked for it.
  expectCommonFields(request, 'network');
  expect(request.location).toMatchObject({ line: 25 });
  expect(request.fields['kind']).toBe('network (a failed request)');
  // The hint's further lines are one field: "Please check:" and its items.
  expect(request.fields['hint']).toMatch(/^Please check:\n- GET \S+\/status\?code=503\b.*\n- /);
});

test('daebug errors --limit returns the newest, oldest first, and says how many were left out', () => {
  const all = parseSeedErrors(daebug(['errors']).stdout).blocks;
  const two = parseSeedErrors(daebug(['errors', '--limit', '2']).stdout);
  expect(two.header).toEqual({ shown: 2, total: 5, limit: 2 });
  expect(two.blocks).toEqual(all.slice(-2));
});

test('daebug_get_errors through the MCP server: the same blocks, read by the same reader', async () => {
  const client = new Client({ name: 'daebug-e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--dir', run.reportsDir], cwd: run.dir, stderr: 'pipe' }));
  try {
    const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { type: string; text: string }[])[0]!.text;
    const all = await client.callTool({ name: 'daebug_get_errors', arguments: {} });
    expect(all.isError).toBe(false);
    expect(parseSeedErrors(text(all))).toEqual(parseSeedErrors(daebug(['errors']).stdout));
    const two = await client.callTool({ name: 'daebug_get_errors', arguments: { limit: 2 } });
    const parsed = parseSeedErrors(text(two));
    expect(parsed.header).toEqual({ shown: 2, total: 5, limit: 2 });
    expect(parsed.blocks.map((b) => b.fields['kind'])).toEqual(['console.error', 'network (a failed request)']);
  } finally {
    await client.close();
  }
});
