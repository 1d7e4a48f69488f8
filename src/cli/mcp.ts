import { z } from 'zod';
import { DaebugMcpSdkMissingError } from '../errors';
import { DEFAULT_ERRORS_LIMIT, errorsCommand } from './errors';
import { errorOutput, type CommandOutput } from './output';
import { groupsCommand } from './groups';
import { flakyCommand } from './flaky';
import { historyCommand } from './history';
import { showCommand } from './show';
import { summaryCommand } from './summary';
import { packageVersion } from './version';

const SDK = '@modelcontextprotocol/sdk';

/** The optional peer dependency, loaded only here so that the other commands never need it. */
async function loadSdk() {
  try {
    const [{ McpServer }, { StdioServerTransport }] = await Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
    return { McpServer, StdioServerTransport };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(SDK)) throw new DaebugMcpSdkMissingError(error);
    throw error;
  }
}

/** A tool's answer: the command's text, its diagnostics after it; `isError` for what the CLI exits non-zero on. */
function toolResult(run: () => CommandOutput) {
  let output: CommandOutput;
  try {
    output = run();
  } catch (error) {
    output = errorOutput(error);
  }
  const text = [output.stdout, output.stderr].filter(Boolean).join('\n').trimEnd();
  return { content: [{ type: 'text' as const, text }], isError: output.exitCode !== 0 };
}

/** `daebug mcp`: serves daebug_get_errors, daebug_get_error_groups, daebug_list_tests, daebug_get_report, daebug_get_flaky and daebug_get_history over stdio until stdin closes. */
export async function runMcpServer(dir: string): Promise<void> {
  const { McpServer, StdioServerTransport } = await loadSdk();
  const server = new McpServer({ name: 'daebug', version: packageVersion() });
  server.registerTool(
    'daebug_get_errors',
    {
      title: 'Browser errors of the last Playwright run',
      description: `The most recent JavaScript errors the browser had during the Playwright tests (uncaught errors, unhandled rejections, console.error, crashes, and anything else a test counted as unexpected: a script its CSP blocked, a failed request under daebugNetwork: 'strict'; and framework warnings daebug placed in the app's code, such as a wrong prop), oldest first, each as a block: \`Error: <message>\`, \`  at <file>:<line>:<column>\` (its original source location: the first frame of the app's code), its stack as \`  at <function> (<file>:<line>:<column>)\` lines with library frames folded, then \`  kind:\` (for what is not a thrown Error: a rejected object, a console.error call, a failed request), root cause, hint, test, time and report lines, and \`---\`. Same text as \`npx daebug errors\`. Says "No JavaScript errors captured" when there are none. Reads ${dir}/.`,
      inputSchema: {
        limit: z.number().int().min(1).default(DEFAULT_ERRORS_LIMIT).describe(`Maximum number of recent errors to return (default ${DEFAULT_ERRORS_LIMIT})`),
        test: z.string().optional().describe('Only tests whose title path, spec file or report name contains this text, or matches /regex/flags'),
        expected: z.boolean().optional().describe('Also list errors the tests declared expected (daebugIgnore, daebug.expectError); by default they are only counted'),
        new: z.boolean().optional().describe('Only unexpected errors that are not in the run\'s baseline (daebugBaseline)'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ limit, test, expected, new: onlyNew }) => toolResult(() => errorsCommand({ dir, limit, expected: expected ?? false, new: onlyNew ?? false, ...(test === undefined ? {} : { test }) })),
  );
  server.registerTool(
    'daebug_get_error_groups',
    {
      title: 'Distinct browser errors of the last Playwright run',
      description:
        'The run\'s distinct browser errors, one per fingerprint (same kind, message with data replaced, same first user frame): how many tests and times, where (original file:line and function), first report, and with a baseline whether it is new or known; also intermittent ones and fixed baseline groups. Most widespread first, new first. Same text as `npx daebug groups`. Start here to see what a run broke.',
      inputSchema: {
        new: z.boolean().optional().describe('Only groups that are not in the run\'s baseline (daebugBaseline): what is new since main'),
        json: z.boolean().optional().describe('Answer with JSON ({ groups: [...], fixed }) instead of text'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ new: onlyNew, json }) => toolResult(() => groupsCommand({ dir, new: onlyNew ?? false, json: json ?? false })),
  );
  server.registerTool(
    'daebug_list_tests',
    {
      title: 'Tests of the last Playwright run',
      description: "Every test of the last run with its status, counts of unexpected errors, errors and console events, and its report file, tests with unexpected errors first; under each test with unexpected errors, the root cause its report names and where it is. Same text as `npx daebug summary`.",
      annotations: { readOnlyHint: true },
    },
    async () => toolResult(() => summaryCommand({ dir })),
  );
  server.registerTool(
    'daebug_get_report',
    {
      title: "One test's daebug report",
      description: "One test's Markdown report: header, unexpected errors with original source and hints, and the transcript of jobs, steps and background events. When several tests match, lists them. Same text as `npx daebug show`.",
      inputSchema: { test: z.string().min(1).describe('Test title, title path, report name (slug), spec file, or text or /regex/ matched in the title path') },
      annotations: { readOnlyHint: true },
    },
    async ({ test }) => toolResult(() => showCommand({ dir, query: test })),
  );
  server.registerTool(
    'daebug_get_flaky',
    {
      title: 'Flaky and failing tests across the kept runs',
      description:
        "Reads the run history (one file per run, the reporter's history option). The flaky tests, most unstable first, each with its runs, attempts, failures and retries that passed, the first run it flaked in, and the browser evidence that separates its failing attempts from its passing ones (an error group or failed request with counts on both sides, kept by a one-sided Fisher's exact test, p <= 0.05), or \"no browser evidence\"; then tests failing in every attempt since some run (not flaky) with what appeared in that run. Same text as `npx daebug flaky`. Start here for \"is this test flaky, or did my change break it?\".",
      inputSchema: {
        history: z.string().optional().describe('The history folder (default: the one the last run\'s index.json names, else .daebug/history)'),
        json: z.boolean().optional().describe('Answer with JSON instead of text'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ history, json }) => toolResult(() => flakyCommand({ dir, history, json: json ?? false })),
  );
  server.registerTool(
    'daebug_get_history',
    {
      title: "One test's timeline across the kept runs",
      description: "One line per kept run of one test: FLAKY, FAILED or passed, each attempt's outcome, duration, and its error groups and failed requests (new ones marked). Same text as `npx daebug history <test>`. When several tests match, lists them.",
      inputSchema: {
        test: z.string().min(1).describe('Test title, title path, spec file, or text or /regex/ matched in the title path'),
        history: z.string().optional().describe('The history folder (default: the one the last run\'s index.json names, else .daebug/history)'),
        json: z.boolean().optional().describe('Answer with JSON instead of text'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ test, history, json }) => toolResult(() => historyCommand({ dir, query: test, history, json: json ?? false })),
  );
  await server.connect(new StdioServerTransport());
}
