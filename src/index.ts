import { lazyExports } from './lazy-exports';
export { test, daebugFixtures } from './fixture/fixtures';
export type { DaebugFixtures } from './fixture/fixtures';
export type { DaebugOptions } from './fixture/daebug-options';
export { Daebug } from './fixture/daebug';
export type { EvalTarget, ErrorsOptions } from './fixture/daebug';
export { defaultLimits } from './options';
export type { DaebugLimits, IgnorePattern, NetworkMode, ValuesMode } from './options';
export type { RedactOption, RedactOptions } from './redact';
export { SCHEMA_VERSION } from './model/schema-version';
// The report's Frame and Location are exported as StackFrame and EventLocation: at the root, Frame and Location are
// Playwright's (page frames, test locations), as in '@playwright/test'.
export type { Report, Attempt, DaebugEvent, Job, Summary, Frame as StackFrame, Location as EventLocation, Diagnostic, Dropped, NetworkFailure } from './model/schema';
export { reportSlug } from './model/slug';
export { DaebugError, DaebugOptionsError, DaebugReportWriteError, DaebugSourceMapError, DaebugCaptureError, DaebugBrowserNotFoundError } from './errors';
export type { DaebugErrorCode } from './errors';
export type { ErrorsOutput, SummaryOutput, ShowMatchesOutput, CliError } from './cli/schema';
// The zod schemas are exported as getters that load them on first use: a test file imports 'daebug', and zod with the
// schemas is about half of what a worker would otherwise load for nothing (issue 25). ES modules read them at import.
// `module.exports`, not `exports`: esbuild's CommonJS output (tsx) replaces the object `exports` names.
export declare const reportSchema: typeof import('./model/schema').reportSchema;
export declare const eventSchema: typeof import('./model/schema').eventSchema;
export declare const jobSchema: typeof import('./model/schema').jobSchema;
export declare const summarySchema: typeof import('./model/schema').summarySchema;
export declare const errorsOutputSchema: typeof import('./cli/schema').errorsOutputSchema;
export declare const summaryOutputSchema: typeof import('./cli/schema').summaryOutputSchema;
export declare const showMatchesOutputSchema: typeof import('./cli/schema').showMatchesOutputSchema;
export declare const cliErrorSchema: typeof import('./cli/schema').cliErrorSchema;
lazyExports(module.exports, () => require('./model/schema') as Record<string, unknown>, ['reportSchema', 'eventSchema', 'jobSchema', 'summarySchema']);
lazyExports(module.exports, () => require('./cli/schema') as Record<string, unknown>, ['errorsOutputSchema', 'summaryOutputSchema', 'showMatchesOutputSchema', 'cliErrorSchema']);
// A drop-in for '@playwright/test': every value and type it exports (Page, devices, defineConfig, mergeTests, …), with
// daebug's own exports above taking precedence (an explicit export shadows a star export, in the types and in the CJS output).
export * from '@playwright/test';
export { test as default } from './fixture/fixtures';
