import type { z } from 'zod';
import type { DaebugErrorCode } from '../errors';
import type { DaebugEvent, Diagnostic, Dropped, Job, StaleAllowList, UnmappedScript } from './schema';
import { RECORD_VERSION } from './record-version';
import { isThisRunsRecord } from './record-key';

export { RECORD_VERSION };

/** The schema, loaded on first use: this run's own records do not need it (see `validateRecord`). */
type RecordSchema = typeof import('./record-schema').recordSchema;
let schema: RecordSchema | undefined;
function recordSchema(): RecordSchema {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (schema ??= (require('./record-schema') as typeof import('./record-schema')).recordSchema);
}

export type RecordData = z.infer<RecordSchema>;

/** Everything the fixture hands to the reporter for one test, as a JSON attachment. */
export interface CaptureRecord {
  version: 1;
  capture: boolean;
  strict: boolean;
  realms: string[];
  jobs: Job[];
  steps: Job[];
  events: DaebugEvent[];
  dropped: Dropped;
  diagnostics: Diagnostic[];
  /** Scripts whose map cannot be had (src/stack/enrich.ts), for the run's index. */
  unmappedScripts?: UnmappedScript[];
  /** daebugLimits.maxReportBytes, when the test set it. */
  maxReportBytes?: number;
  staleAllowList?: StaleAllowList;
  /** The baseline file (`daebugBaseline`), absolute; set by the fixture with the events' `known` marks. */
  baseline?: string;
  /** This run's key (src/model/record-key.ts), set by the fixture when daebug's reporter runs: the reporter trusts the record. */
  key?: string;
}


export const RECORD_INVALID: DaebugErrorCode = 'DAEBUG_RECORD_INVALID';

export type RecordResult = { ok: true; record: RecordData } | { ok: false; diagnostic: Diagnostic };

const MAX_ISSUES = 3;

function issuePath(path: readonly PropertyKey[]): string {
  if (!path.length) return '(the record itself)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function describe(value: unknown): string {
  if (value === undefined) return 'none';
  try {
    return clip(JSON.stringify(value) ?? String(value), 60);
  } catch {
    return String(value);
  }
}

function invalid(what: string, hint: string): RecordResult {
  return {
    ok: false,
    diagnostic: { code: RECORD_INVALID, message: `daebug could not use this test's record (the \`daebug\` attachment): ${what}.`, hint, time: new Date().toISOString() },
  };
}

const HINT_MISMATCH =
  "The fixture and the reporter must come from the same daebug version: check `npm ls daebug` (one copy), and that the test imports `test` from 'daebug' and the config uses 'daebug/reporter'.";
const HINT_FOREIGN = "If the test (or another fixture) attaches something named 'daebug' itself, give that attachment another name; otherwise this is a daebug bug worth reporting with this report.";

/**
 * Validates the text of a `daebug` attachment. Never throws: anything wrong (not JSON, unknown version,
 * a field of the wrong shape) becomes a `DAEBUG_RECORD_INVALID` diagnostic naming what was wrong.
 * A valid record is returned as parsed from JSON, unknown fields included.
 */
export function parseRecord(text: string): RecordResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return invalid(`it is not JSON (${clip((error as Error).message)}; it starts with ${describe(text.slice(0, 40))})`, HINT_FOREIGN);
  }
  return validateRecord(data);
}

/**
 * Like `parseRecord`, for a value already parsed from JSON. A record that carries this run's key was built by this
 * run's fixture, from typed code, and is used as it is; any other (a merged shard's, another version's, a test's own
 * `daebug` attachment) goes through the schema. Issue 25: the runner's check of every record was a second check of
 * what TypeScript checked where the record was built, and it loaded zod into every runner.
 */
export function validateRecord(data: unknown): RecordResult {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return invalid(`it is ${Array.isArray(data) ? 'an array' : `${describe(data)}`}, not a record object (expected version ${RECORD_VERSION})`, HINT_FOREIGN);
  }
  const version = (data as Record<string, unknown>)['version'];
  if (version !== RECORD_VERSION) {
    return invalid(`its version is ${describe(version)}, this reporter reads version ${RECORD_VERSION}`, version === undefined ? HINT_FOREIGN : HINT_MISMATCH);
  }
  if (isThisRunsRecord(data)) return { ok: true, record: data as RecordData };
  const parsed = recordSchema().safeParse(data);
  if (parsed.success) return { ok: true, record: data as RecordData };
  const issues = parsed.error.issues;
  const listed = issues
    .slice(0, MAX_ISSUES)
    .map((issue) => `${issuePath(issue.path)}: ${clip(issue.message, 120)}`)
    .join('; ');
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more issues)` : '';
  return invalid(`version ${RECORD_VERSION} as expected, but it does not match the record schema: ${listed}${more}`, `${HINT_MISMATCH} ${HINT_FOREIGN}`);
}
