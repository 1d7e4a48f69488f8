import { z } from 'zod';
import { DaebugOptionsError } from './errors';
import { makeRedactor, redactSchema, type RedactOption, type Redactor } from './redact';

/** Bounds on what daebug keeps for one test. Every field is optional in `daebugLimits`. */
export interface DaebugLimits {
  /** Events kept per realm per second, counted apart for uncaught errors, console.error, other output and expected events; over it a second keeps its first quarter and its newest, dropping from the middle, so a burst keeps its first errors (usually the cause) and its last. @default 100 */
  eventsPerSecond: number;
  /** Events kept per test and kind (uncaught errors, console.error, other output, expected): the first quarter and the most recent rest, dropping from the middle. @default 1000 */
  maxEvents: number;
  /** Characters kept of one message. @default 1000 */
  maxMessageLength: number;
  /** Characters kept of one stack. @default 8000 */
  maxStackLength: number;
  /** Bytes of one Markdown report; when set, it wins over the reporter's `maxReportBytes` for this test. @default 262144 */
  maxReportBytes: number;
  /** Nesting depth of serialized console arguments. @default 3 */
  maxDepth: number;
  /** Keys or items shown per object, array, Map or Set. @default 50 */
  maxBreadth: number;
}

export const defaultLimits: DaebugLimits = {
  eventsPerSecond: 100,
  maxEvents: 1000,
  maxMessageLength: 1000,
  maxStackLength: 8000,
  maxReportBytes: 256 * 1024,
  maxDepth: 3,
  maxBreadth: 50,
};

const positiveInt = z.number().int().positive();
export const limitsSchema = z
  .object({
    eventsPerSecond: positiveInt,
    maxEvents: positiveInt.min(10),
    maxMessageLength: positiveInt.min(20),
    maxStackLength: positiveInt.min(20),
    maxReportBytes: positiveInt.min(4096),
    maxDepth: positiveInt.max(20),
    maxBreadth: positiveInt.max(10_000),
  })
  .partial()
  .strict();

export const ignoreSchema = z.array(z.union([z.string(), z.instanceof(RegExp)]));

export type IgnorePattern = string | RegExp;

/** What daebug does with failed requests and responses of 400 or more: `daebugNetwork`. */
export type NetworkMode = 'off' | 'report' | 'strict';
export const networkModeSchema = z.enum(['off', 'report', 'strict']);

/** `daebugValues`: read logged values in full where they can matter (`auto`), or every one of them (`full`). */
export type ValuesMode = 'auto' | 'full';
export const valuesModeSchema = z.enum(['auto', 'full']);

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join('.') : '';
  return `${where ? where + ': ' : ''}${issue.message}`;
}

/** Parses a value with a schema, or throws DAEBUG_OPTIONS_INVALID naming the option and what it accepts. */
export function parseOption<T>(name: string, schema: z.ZodType<T>, value: unknown, accepted: string, hint?: (value: unknown) => string | undefined): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map(describeIssue).join('; ');
  throw new DaebugOptionsError(`Invalid daebug option "${name}": ${details}. Got ${safeShow(value)}. Accepted: ${accepted}.`, {
    context: { option: name, value: safeShow(value) },
    hint: hint?.(value) ?? `Fix "${name}" in test.use() or the config's use block.`,
  });
}

/**
 * Playwright's test.use() reads an array whose second item is an object as `[value, fixture options]`, and a RegExp
 * is an object: `daebugIgnore: ['a', /b/]` arrives as just 'a'.
 */
function tupleHint(value: unknown): string | undefined {
  if (typeof value !== 'string' && !(value instanceof RegExp)) return undefined;
  return 'Playwright\'s test.use() reads an array whose second item is an object (a RegExp is one) as [value, fixture options], so only the first item arrived. Keep a RegExp out of the second place: put a string there, join the RegExps into one with |, or call daebug.expectError() in the test.';
}

function safeShow(value: unknown): string {
  try {
    if (value instanceof RegExp) return String(value);
    const text = JSON.stringify(value, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v));
    return text === undefined ? String(value) : text.length > 200 ? text.slice(0, 200) + '…' : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

export interface ResolvedOptions {
  strict: boolean;
  capture: boolean;
  /** Keep `<slug>.md` up to date while the test runs. */
  live?: boolean;
  ignore: IgnorePattern[];
  limits: DaebugLimits;
  /** The limits the user set, before defaults. */
  limitsSet?: Partial<DaebugLimits>;
  /** Applied to everything a test's record holds; none when absent. */
  redact?: Redactor;
  /** Failed requests: not captured (`off`), reported (`report`, also when absent), or unexpected errors (`strict`). */
  network?: NetworkMode;
  /** daebugAsyncStacks: CDP's async stack traces are on for the test's targets. */
  asyncStacks?: boolean;
  /** daebugBaseline as given (relative to the config's folder); the fixture resolves and reads it. */
  baseline?: string;
  /** daebugValues: logged values read in full where they can matter (`auto`, also when absent), or all (`full`). */
  values?: ValuesMode;
}

export function resolveOptions(raw: { strict: unknown; capture: unknown; ignore: unknown; limits: unknown; redact?: unknown; network?: unknown; asyncStacks?: unknown; live?: unknown; baseline?: unknown; values?: unknown }): ResolvedOptions {
  const strict = parseOption('daebugStrict', z.boolean(), raw.strict, 'true or false');
  const capture = parseOption('daebugCapture', z.boolean(), raw.capture, 'true or false');
  const ignore = parseOption('daebugIgnore', ignoreSchema, raw.ignore, 'an array of strings (substrings) and RegExps', tupleHint);
  const limits = parseOption(
    'daebugLimits',
    limitsSchema,
    raw.limits ?? {},
    `an object with any of ${Object.keys(defaultLimits).join(', ')} (positive integers)`,
  );
  const redact = parseOption('daebugRedact', redactSchema, raw.redact ?? true, 'true, false, or { patterns?: RegExp[], builtIn?: boolean }') as RedactOption;
  const network = parseOption('daebugNetwork', networkModeSchema, raw.network ?? 'report', "'off', 'report' or 'strict'");
  const asyncStacks = parseOption('daebugAsyncStacks', z.boolean(), raw.asyncStacks ?? false, 'true or false');
  const live = parseOption('daebugLive', z.boolean(), raw.live ?? true, 'true or false');
  const baseline = parseOption('daebugBaseline', z.string().min(1).optional(), raw.baseline ?? undefined, "a path to a baseline file written by `npx daebug baseline`, relative to the Playwright config's folder, e.g. 'daebug-baseline.json'");
  const values = parseOption('daebugValues', valuesModeSchema, raw.values ?? 'auto', "'auto' or 'full'");
  const limitsSet = stripUndefined(limits) as Partial<DaebugLimits>;
  return { strict, capture, live, ignore, limits: { ...defaultLimits, ...limitsSet }, limitsSet, redact: makeRedactor(redact), network, asyncStacks, values, ...(baseline ? { baseline } : {}) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
