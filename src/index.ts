export { test, daebugFixtures } from './fixture';
export type { DaebugOptions, DaebugFixtures } from './fixture';
export { Daebug } from './daebug';
export type { EvalTarget, ErrorsOptions } from './daebug';
export { defaultLimits } from './options';
export type { DaebugLimits, IgnorePattern, NetworkMode, ValuesMode } from './options';
export type { RedactOption, RedactOptions } from './redact';
export { reportSchema, eventSchema, jobSchema, summarySchema, SCHEMA_VERSION } from './model/schema';
// The report's Frame and Location are exported as StackFrame and EventLocation: at the root, Frame and Location are
// Playwright's (page frames, test locations), as in '@playwright/test'.
export type { Report, Attempt, DaebugEvent, Job, Summary, Frame as StackFrame, Location as EventLocation, Diagnostic, Dropped, NetworkFailure } from './model/schema';
export { reportSlug } from './slug';
export { DaebugError, DaebugOptionsError, DaebugReportWriteError, DaebugSourceMapError, DaebugCaptureError, DaebugBrowserNotFoundError } from './errors';
export type { DaebugErrorCode } from './errors';
export { errorsOutputSchema, summaryOutputSchema, showMatchesOutputSchema, cliErrorSchema, type ErrorsOutput, type SummaryOutput, type ShowMatchesOutput, type CliError } from './cli/schema';
// A drop-in for '@playwright/test': every value and type it exports (Page, devices, defineConfig, mergeTests, …), with
// daebug's own exports above taking precedence (an explicit export shadows a star export, in the types and in the CJS output).
export * from '@playwright/test';
export { test as default } from './fixture';
