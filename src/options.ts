import type { z } from 'zod';
import { DaebugOptionsError } from './errors';
import { makeRedactor, type RedactOption, type Redactor } from './redact';

/** Bounds on what daebug keeps for one test. Every field is optional in `daebugLimits`. */
export interface DaebugLimits {
  /** The rate over which daebug drops events, per realm per second, counted apart for uncaught errors, console.error, other output and expected events; over it a second keeps its first quarter of this number and its newest this number, dropping from the middle, so a burst keeps its first errors (usually the cause) and its last, and `daebug.errors({ limit })` up to this number is the burst's newest. @default 100 */
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

export type IgnorePattern = string | RegExp;

/** What daebug does with failed requests and responses of 400 or more: `daebugNetwork`. */
export type NetworkMode = 'off' | 'report' | 'strict';

/** The schemas, loaded on first use: see src/option-schemas.ts. */
type Schemas = typeof import('./option-schemas');
let schemas: Schemas | undefined;
export function optionSchemas(): Schemas {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (schemas ??= require('./option-schemas') as Schemas);
}

/**
 * A quick check of an option's value and the schema that names what is wrong with it. The check accepts only values
 * the schema accepts unchanged, so passing it is the same as parsing; it is what keeps zod out of most workers.
 */
export interface OptionCheck<T> {
  accepts(value: unknown): boolean;
  schema(): z.ZodType<T>;
}

const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const isIgnoreList = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === 'string' || item instanceof RegExp);
const isEmptyObject = (value: unknown): boolean => typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0;

export const booleanCheck: OptionCheck<boolean> = { accepts: isBoolean, schema: () => optionSchemas().booleanSchema };
export const ignoreCheck: OptionCheck<IgnorePattern[]> = { accepts: isIgnoreList, schema: () => optionSchemas().ignoreSchema };
// Only `{}` (no limits set) skips the schema: bounds are the schema's to check.
const limitsCheck: OptionCheck<{ [K in keyof DaebugLimits]?: number | undefined }> = { accepts: isEmptyObject, schema: () => optionSchemas().limitsSchema };
const redactCheck: OptionCheck<RedactOption> = { accepts: isBoolean, schema: () => optionSchemas().redactSchema as z.ZodType<RedactOption> };
const networkCheck: OptionCheck<NetworkMode> = { accepts: (value) => value === 'off' || value === 'report' || value === 'strict', schema: () => optionSchemas().networkModeSchema };
const baselineCheck: OptionCheck<string | undefined> = {
  accepts: (value) => value === undefined || (typeof value === 'string' && value.length > 0),
  schema: () => optionSchemas().baselineSchema,
};

/** `daebugValues`: read logged values in full where they can matter (`auto`), or every one of them (`full`). */
export type ValuesMode = 'auto' | 'full';
const valuesCheck: OptionCheck<ValuesMode> = { accepts: (value) => value === 'auto' || value === 'full', schema: () => optionSchemas().valuesModeSchema };

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join('.') : '';
  return `${where ? where + ': ' : ''}${issue.message}`;
}

/**
 * Parses a value with a schema (or an option check, whose schema is loaded only when the quick check fails), or
 * throws DAEBUG_OPTIONS_INVALID naming the option and what it accepts.
 */
export function parseOption<T>(name: string, schema: z.ZodType<T> | OptionCheck<T>, value: unknown, accepted: string, hint?: (value: unknown) => string | undefined): T {
  if ('accepts' in schema && schema.accepts(value)) return (Array.isArray(value) ? [...value] : value) as T;
  const result = ('accepts' in schema ? schema.schema() : schema).safeParse(value);
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
  const strict = parseOption('daebugStrict', booleanCheck, raw.strict, 'true or false');
  const capture = parseOption('daebugCapture', booleanCheck, raw.capture, 'true or false');
  const ignore = parseOption('daebugIgnore', ignoreCheck, raw.ignore, 'an array of strings (substrings) and RegExps', tupleHint);
  const limits = parseOption(
    'daebugLimits',
    limitsCheck,
    raw.limits ?? {},
    `an object with any of ${Object.keys(defaultLimits).join(', ')} (positive integers)`,
  );
  const redact = parseOption('daebugRedact', redactCheck, raw.redact ?? true, 'true, false, or { patterns?: RegExp[], builtIn?: boolean }') as RedactOption;
  const network = parseOption('daebugNetwork', networkCheck, raw.network ?? 'report', "'off', 'report' or 'strict'");
  const asyncStacks = parseOption('daebugAsyncStacks', booleanCheck, raw.asyncStacks ?? false, 'true or false');
  const live = parseOption('daebugLive', booleanCheck, raw.live ?? true, 'true or false');
  const baseline = parseOption('daebugBaseline', baselineCheck, raw.baseline ?? undefined, "a path to a baseline file written by `npx daebug baseline`, relative to the Playwright config's folder, e.g. 'daebug-baseline.json'");
  const values = parseOption('daebugValues', valuesCheck, raw.values ?? 'auto', "'auto' or 'full'");
  const limitsSet = stripUndefined(limits) as Partial<DaebugLimits>;
  return { strict, capture, live, ignore, limits: { ...defaultLimits, ...limitsSet }, limitsSet, redact: makeRedactor(redact), network, asyncStacks, values, ...(baseline ? { baseline } : {}) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
