/** What a command prints and how the process ends; the MCP tools answer with the same text. */
export interface CommandOutput {
  stdout: string;
  /** Diagnostics (one line each) and error messages. */
  stderr: string;
  /** 0 done, 1 nothing (or more than one thing) matched / could not start, 2 bad usage or no reports. */
  exitCode: 0 | 1 | 2;
}

export const EXIT_OK = 0;
export const EXIT_NO_MATCH = 1;
export const EXIT_USAGE = 2;

export function lines(diagnostics: readonly string[]): string {
  return diagnostics.map((line) => `${line}\n`).join('');
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
