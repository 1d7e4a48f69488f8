import { DaebugCliUsageError, DaebugError } from '../errors';

export const EXIT_OK = 0;
export const EXIT_NO_MATCH = 1;
export const EXIT_USAGE = 2;

/** What a command prints and how the process ends; the MCP tools answer with the same text. */
export interface CommandOutput {
  stdout: string;
  /** Diagnostics (one line each) and error messages. */
  stderr: string;
  /** 0 the command ran, 1 no single test matched or the MCP server could not start, 2 bad usage or no reports. */
  exitCode: typeof EXIT_OK | typeof EXIT_NO_MATCH | typeof EXIT_USAGE;
}

export function diagnosticText(diagnostics: readonly string[]): string {
  return diagnostics.map((line) => `${line}\n`).join('');
}

export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** A failure as output: daebug's own errors by their message (and code), anything else with its stack. */
export function errorOutput(error: unknown): CommandOutput {
  if (error instanceof DaebugCliUsageError) return { stdout: '', stderr: `${error.message}\n`, exitCode: EXIT_USAGE };
  // No reports is the normal state before a first run: said plainly, without an error code.
  if (error instanceof DaebugError && error.code === 'DAEBUG_NO_REPORTS') return { stdout: '', stderr: `${error.message}\n`, exitCode: EXIT_USAGE };
  if (error instanceof DaebugError) return { stdout: '', stderr: `${error.code}: ${error.message}\n`, exitCode: EXIT_NO_MATCH };
  return { stdout: '', stderr: `daebug: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`, exitCode: EXIT_NO_MATCH };
}
