export type DaebugErrorCode =
  | 'DAEBUG_OPTIONS_INVALID'
  | 'DAEBUG_REPORT_WRITE_FAILED'
  | 'DAEBUG_SOURCE_MAP_FAILED'
  | 'DAEBUG_CAPTURE_FAILED'
  | 'DAEBUG_BROWSER_NOT_FOUND'
  | 'DAEBUG_UNEXPECTED_ERRORS'
  | 'DAEBUG_EVAL_TARGET_CLOSED'
  | 'DAEBUG_RECORD_INVALID'
  | 'DAEBUG_CLI_USAGE'
  | 'DAEBUG_NO_REPORTS'
  | 'DAEBUG_MCP_SDK_MISSING'
  | 'DAEBUG_BASELINE_INVALID'
  | 'DAEBUG_SETTLE_TIMEOUT'
  | 'DAEBUG_HISTORY_VERSION'
  | 'DAEBUG_NO_HISTORY'
  | 'DAEBUG_HISTORY_SKIPPED';

export interface DaebugErrorOptions {
  /** Whether the run can go on after this error. */
  recoverable?: boolean;
  /** Values that explain the error: the bad option, the path, the URL. */
  context?: Record<string, unknown>;
  /** What to try first. */
  hint?: string;
  cause?: unknown;
}

/** Base class of every error daebug raises itself. */
export class DaebugError extends Error {
  override name = 'DaebugError';
  readonly code: DaebugErrorCode;
  readonly recoverable: boolean;
  readonly context: Record<string, unknown>;
  readonly hint: string | undefined;

  constructor(code: DaebugErrorCode, message: string, options: DaebugErrorOptions = {}) {
    super(options.hint ? `${message}\nHint: ${options.hint}` : message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.recoverable = options.recoverable ?? true;
    this.context = options.context ?? {};
    this.hint = options.hint;
  }
}

export class DaebugOptionsError extends DaebugError {
  override name = 'DaebugOptionsError';
  constructor(message: string, options: DaebugErrorOptions = {}) {
    super('DAEBUG_OPTIONS_INVALID', message, { recoverable: false, ...options });
  }
}

export class DaebugReportWriteError extends DaebugError {
  override name = 'DaebugReportWriteError';
  constructor(path: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('DAEBUG_REPORT_WRITE_FAILED', `daebug could not write the report ${path}: ${reason}`, {
      recoverable: true,
      context: { path },
      hint: 'Check that the reporter outputDir exists, is writable and has free space; tests are not affected.',
      cause,
    });
  }
}

export class DaebugSourceMapError extends DaebugError {
  override name = 'DaebugSourceMapError';
  constructor(url: string, reason: string, cause?: unknown) {
    super('DAEBUG_SOURCE_MAP_FAILED', `daebug could not map ${url}: ${reason}`, {
      recoverable: true,
      context: { url },
      // What to change in the build or the server depends on the cause: index.md says it once for the run.
      hint: 'The frames stay unmapped; index.md says once for the run why and what to change.',
      cause,
    });
  }
}

export class DaebugCaptureError extends DaebugError {
  override name = 'DaebugCaptureError';
  constructor(what: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('DAEBUG_CAPTURE_FAILED', `daebug capture failed while ${what}: ${reason}`, {
      recoverable: true,
      context: { what },
      hint: 'Capture goes on for the rest of the test; this is a daebug diagnostic, not a test failure.',
      cause,
    });
  }
}

export class DaebugBrowserNotFoundError extends DaebugError {
  override name = 'DaebugBrowserNotFoundError';
  constructor(tried: string[]) {
    super('DAEBUG_BROWSER_NOT_FOUND', `No Chromium found (tried: ${tried.join(', ')}).`, {
      recoverable: false,
      context: { tried },
      hint: 'Run `npx playwright install chromium`, or install a system Chromium (Debian: `apt-get install -y chromium`) and set DAEBUG_CHROMIUM=/path/to/chromium.',
    });
  }
}

/** A bad command line of `npx daebug`: unknown command or flag, or a flag value it does not accept. */
export class DaebugCliUsageError extends DaebugError {
  override name = 'DaebugCliUsageError';
  constructor(message: string, hint = 'Run `npx daebug --help` (or `npx daebug <command> --help`) for the commands and their flags.') {
    super('DAEBUG_CLI_USAGE', message, { recoverable: false, hint });
  }
}

/** `npx daebug` found nothing to read: no index.json and no report in the folder. */
export class DaebugNoReportsError extends DaebugError {
  override name = 'DaebugNoReportsError';
  constructor(dir: string) {
    super('DAEBUG_NO_REPORTS', `No daebug reports in ${dir}: run npx playwright test first`, {
      recoverable: false,
      context: { dir },
      hint: "Add ['daebug/reporter'] to the config's reporters, or pass --dir with the reporter's outputDir.",
    });
  }
}

/** `npx daebug mcp` needs the MCP SDK, an optional peer dependency that is not installed. */
export class DaebugMcpSdkMissingError extends DaebugError {
  override name = 'DaebugMcpSdkMissingError';
  constructor(cause: unknown) {
    super('DAEBUG_MCP_SDK_MISSING', 'npx daebug mcp needs @modelcontextprotocol/sdk, which is not installed.', {
      recoverable: false,
      hint: 'Run `npm install --save-dev @modelcontextprotocol/sdk` in the project that runs the tests; the other daebug commands work without it.',
      cause,
    });
  }
}

/**
 * `daebug.settle()` did not finish in its time: a page or worker did not answer (its main thread busy with its own
 * work, or hung). Not thrown: kept as the test's diagnostic, so that a report says why a value may be V8's preview.
 */
export class DaebugSettleTimeoutError extends DaebugError {
  override name = 'DaebugSettleTimeoutError';
  constructor(timeoutMs: number, unread: number) {
    const values = unread === 0 ? '' : `; ${unread} event${unread === 1 ? '' : 's'} still had values to read`;
    super('DAEBUG_SETTLE_TIMEOUT', `daebug.settle() went on after ${timeoutMs} ms without every page's and worker's answer${values}.`, {
      recoverable: true,
      context: { timeoutMs, unread },
      hint: "Events the pages and workers emitted before the call are in; values not read yet are read at the test's end, or keep V8's preview there (`preview: true`). A page busy with a long task does this: wait for it first, or pass settle a longer timeout.",
    });
  }
}

/** The baseline file (`daebugBaseline`, `npx daebug baseline --prune`) is missing or is not a daebug baseline. */
export class DaebugBaselineError extends DaebugError {
  override name = 'DaebugBaselineError';
  constructor(file: string, reason: string, cause?: unknown) {
    super('DAEBUG_BASELINE_INVALID', `daebug baseline ${file}: ${reason}. daebug does not treat every error as new without it.`, {
      recoverable: false,
      context: { path: file },
      hint: 'Write it with `npx daebug baseline --out <file>` after a run on main, or fix the daebugBaseline path (it is relative to the Playwright config\'s folder).',
      cause,
    });
  }
}

/** A history file (src/history/run-file.ts) written by a newer daebug: its version is one this daebug cannot read. */
export class DaebugHistoryVersionError extends DaebugError {
  override name = 'DaebugHistoryVersionError';
  constructor(file: string, version: unknown, supported: number) {
    super('DAEBUG_HISTORY_VERSION', `daebug history ${file} is of format version ${JSON.stringify(version)}; this daebug reads version ${supported} and older.`, {
      recoverable: false,
      context: { path: file, version },
      hint: 'Update daebug (npm install --save-dev daebug@latest) where you read the history, or give that run\'s folder its own --history.',
    });
  }
}

/** A history file that is truncated, corrupted or not a run: left out, the rest of the history still answers. */
export class DaebugHistorySkippedError extends DaebugError {
  override name = 'DaebugHistorySkippedError';
  constructor(file: string, reason: string) {
    super('DAEBUG_HISTORY_SKIPPED', `daebug history skipped ${file}: ${reason}`, {
      recoverable: true,
      context: { path: file },
      hint: 'Delete the file if it stays: the other runs are read without it. A run cut off while writing never leaves one (it writes a temp file and renames it).',
    });
  }
}

/** `npx daebug flaky` or `history` found no run in the history folder. */
export class DaebugNoHistoryError extends DaebugError {
  override name = 'DaebugNoHistoryError';
  constructor(dir: string) {
    super('DAEBUG_NO_HISTORY', `No daebug history in ${dir}: each run with daebug/reporter adds one file there`, {
      recoverable: false,
      context: { dir },
      hint: "Run the tests with ['daebug/reporter'] (its history option names the folder, default .daebug/history next to the config), or pass --history <folder>; in CI, restore the folder from a cache before the run (README: History across runs).",
    });
  }
}

/** Prints a daebug error's details to stderr when `DEBUG` includes `daebug`, or `DAEBUG_DEBUG` is set (not `0`). */
export function debugLog(error: unknown): void {
  const debug = process.env['DEBUG'] ?? '';
  const own = process.env['DAEBUG_DEBUG'];
  if (!(own && own !== '0') && !/(^|,)\s*daebug(:|\*|,|$)/.test(debug) && !debug.split(',').includes('*')) return;
  if (error instanceof DaebugError) {
    process.stderr.write(`[daebug] ${error.name} ${error.code} recoverable=${error.recoverable} ${JSON.stringify(error.context)}\n${error.stack ?? error.message}\n`);
  } else {
    process.stderr.write(`[daebug] ${error instanceof Error ? error.stack : String(error)}\n`);
  }
}
