import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DaebugCliUsageError } from '../errors';
import { baselineCommand } from './baseline';
import { errorsCommand, parseLimit } from './errors';
import { groupsCommand } from './groups';
import { flakyCommand } from './flaky';
import { historyCommand } from './history';
import { runMcpServer } from './mcp';
import { errorOutput, EXIT_OK, EXIT_USAGE, type CommandOutput } from './output';
import { showCommand } from './show';
import { summaryCommand } from './summary';
import { COMMAND_USAGE, PROGRAM_USAGE } from './usage';
import { packageVersion } from './version';

export const DEFAULT_DIR = 'reports';

type Options = NonNullable<ParseArgsConfig['options']>;

const GLOBAL_OPTIONS: Options = {
  dir: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
};

const COMMAND_OPTIONS: Record<string, Options> = {
  errors: { ...GLOBAL_OPTIONS, limit: { type: 'string' }, test: { type: 'string' }, expected: { type: 'boolean' }, json: { type: 'boolean' }, new: { type: 'boolean' }, baseline: { type: 'string' } },
  groups: { ...GLOBAL_OPTIONS, json: { type: 'boolean' }, new: { type: 'boolean' }, baseline: { type: 'string' } },
  baseline: { ...GLOBAL_OPTIONS, out: { type: 'string' }, prune: { type: 'boolean' } },
  summary: { ...GLOBAL_OPTIONS, json: { type: 'boolean' } },
  show: { ...GLOBAL_OPTIONS, json: { type: 'boolean' } },
  flaky: { ...GLOBAL_OPTIONS, history: { type: 'string' }, json: { type: 'boolean' } },
  history: { ...GLOBAL_OPTIONS, history: { type: 'string' }, json: { type: 'boolean' } },
  mcp: { ...GLOBAL_OPTIONS },
};

/** The commands that read the history folder rather than one run's reports. */
const ACROSS_RUNS = ['flaky', 'history'];

const ALL_OPTIONS: Options = Object.assign({}, ...Object.values(COMMAND_OPTIONS)) as Options;

/** Node's parseArgs messages, made to name the command and what it accepts. */
function usageError(command: string | undefined, error: unknown): DaebugCliUsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error as Error).message;
  const flag = /'(-[^']*)'/.exec(message)?.[1];
  const prefix = command ? `daebug ${command}` : 'daebug';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) {
    const accepted = Object.keys(COMMAND_OPTIONS[command ?? ''] ?? GLOBAL_OPTIONS).map((name) => `--${name}`).join(', ');
    return new DaebugCliUsageError(`${prefix}: unknown flag ${flag.split('=')[0]} (accepted: ${accepted}).`);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return new DaebugCliUsageError(`${prefix}: ${message.replace(/\. To specify.*$/s, '')}.`);
  return new DaebugCliUsageError(`${prefix}: ${message}`);
}

function usageOf(command: string | undefined): string {
  return (command && COMMAND_USAGE[command]) || PROGRAM_USAGE;
}

interface Parsed {
  command: string | undefined;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** The command word, wherever global flags stand: a loose pass that knows every flag that takes a value. */
function commandOf(argv: readonly string[]): string | undefined {
  return parseArgs({ args: [...argv], options: ALL_OPTIONS, strict: false, allowPositionals: true }).positionals[0];
}

function parse(argv: readonly string[]): Parsed {
  const command = commandOf(argv);
  if (command !== undefined && !COMMAND_OPTIONS[command]) {
    const ofTheRun = Object.keys(COMMAND_OPTIONS).filter((name) => !ACROSS_RUNS.includes(name));
    throw new DaebugCliUsageError(`Unknown command ${JSON.stringify(command)} (accepted: ${ofTheRun.join(', ')}). Across runs: ${ACROSS_RUNS.join(', ')}.`);
  }
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: (command && COMMAND_OPTIONS[command]) || GLOBAL_OPTIONS, strict: true, allowPositionals: true });
    return { command, values: values as Parsed['values'], positionals: positionals.slice(1) };
  } catch (error) {
    throw usageError(command, error);
  }
}

async function dispatch(parsed: Parsed): Promise<CommandOutput> {
  const { command, values, positionals } = parsed;
  const dir = typeof values['dir'] === 'string' ? values['dir'] : DEFAULT_DIR;
  const asJson = values['json'] === true;
  if (values['version']) return { stdout: `${packageVersion()}\n`, stderr: '', exitCode: EXIT_OK };
  if (values['help']) return { stdout: usageOf(command), stderr: '', exitCode: EXIT_OK };
  if (command === undefined) return { stdout: '', stderr: PROGRAM_USAGE, exitCode: EXIT_USAGE };
  if (command !== 'show' && command !== 'history' && positionals.length) throw new DaebugCliUsageError(`daebug ${command} takes no argument, got ${JSON.stringify(positionals.join(' '))}.`);
  switch (command) {
    case 'errors': {
      const limit = values['limit'];
      const test = values['test'];
      return errorsCommand({ dir, json: asJson, expected: values['expected'] === true, new: values['new'] === true, baseline: stringFlag(values['baseline']), ...(typeof limit === 'string' ? { limit: parseLimit(limit) } : {}), ...(typeof test === 'string' ? { test } : {}) });
    }
    case 'groups':
      return groupsCommand({ dir, json: asJson, new: values['new'] === true, baseline: stringFlag(values['baseline']) });
    case 'baseline':
      return baselineCommand({ dir, prune: values['prune'] === true, ...(typeof values['out'] === 'string' ? { out: values['out'] } : {}) });
    case 'summary':
      return summaryCommand({ dir, json: asJson });
    case 'show':
      return showCommand({ dir, json: asJson, query: positionals.join(' ') });
    case 'flaky':
      return flakyCommand({ dir, json: asJson, history: stringFlag(values['history']) });
    case 'history':
      if (!positionals.length) throw new DaebugCliUsageError('daebug history needs a test: its title, title path, spec file, or /regex/.');
      return historyCommand({ dir, json: asJson, history: stringFlag(values['history']), query: positionals.join(' ') });
    case 'mcp':
      await runMcpServer(dir);
      return { stdout: '', stderr: '', exitCode: EXIT_OK };
    default:
      throw new DaebugCliUsageError(`Unknown command ${JSON.stringify(command)}.`);
  }
}

function stringFlag(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The first line of a usage text, printed under a usage error (the whole text is one --help away). */
function usageLine(command: string | undefined): string {
  return usageOf(command).split('\n')[0]!;
}

/** Runs one command line and returns what to print and the exit code; never throws. */
export async function runCli(argv: readonly string[]): Promise<CommandOutput> {
  const word = commandOf(argv);
  const command = word !== undefined && COMMAND_OPTIONS[word] ? word : undefined;
  try {
    return await dispatch(parse(argv));
  } catch (error) {
    const output = errorOutput(error);
    if (error instanceof DaebugCliUsageError) output.stderr += `${usageLine(command)}\n`;
    return output;
  }
}

/** The `daebug` program: prints and sets the exit code (without process.exit, so piped output is not cut). */
export async function main(argv: readonly string[]): Promise<void> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // `npx daebug errors | head` closes the pipe early: that is not an error of daebug's.
    if (error.code !== 'EPIPE') throw error;
  });
  const output = await runCli(argv);
  if (output.stdout) process.stdout.write(output.stdout);
  if (output.stderr) process.stderr.write(output.stderr);
  process.exitCode = output.exitCode;
}
