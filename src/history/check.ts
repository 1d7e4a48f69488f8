/**
 * A quick structural check of a parsed history file, equal to src/history/schema.ts (a unit test feeds both the same
 * files): `daebug flaky` reads 100 runs of 5,000 tests in well under a second with it, and the runner's end of run
 * reads history without loading zod. It answers with the first thing wrong, for the warning that names the file.
 */
import { HISTORY_VERSION } from './run-file';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min = Number.MIN_SAFE_INTEGER): boolean => typeof v === 'number' && Number.isInteger(v) && v >= min;
const optString = (v: unknown): boolean => v === undefined || typeof v === 'string';
const strings = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');
const optStrings = (v: unknown): boolean => v === undefined || strings(v);

function attemptProblem(a: unknown): string | undefined {
  if (!isObj(a)) return 'not an object';
  if (!isInt(a['retry'], 0)) return 'retry';
  if (a['repeat'] !== undefined && !isInt(a['repeat'], 1)) return 'repeat';
  if (typeof a['status'] !== 'string') return 'status';
  if (typeof a['ok'] !== 'boolean') return 'ok';
  if (typeof a['duration'] !== 'number' || Number.isNaN(a['duration'])) return 'duration';
  if (!optStrings(a['errors'])) return 'errors';
  if (!optStrings(a['known'])) return 'known';
  if (!optStrings(a['other'])) return 'other';
  if (!optString(a['cause'])) return 'cause';
  const requests = a['requests'];
  if (requests !== undefined) {
    if (!Array.isArray(requests)) return 'requests';
    for (const r of requests) {
      if (!isObj(r) || typeof r['method'] !== 'string' || typeof r['url'] !== 'string' || !optString(r['error']) || (r['status'] !== undefined && !isInt(r['status']))) return 'requests';
    }
  }
  return undefined;
}

/** Where the run's data breaks version 1's shape (`tests.3.attempts.0.ok`), or undefined when it is a valid run. */
export function historyRunProblem(value: unknown): string | undefined {
  if (!isObj(value)) return 'not an object';
  if (value['version'] !== HISTORY_VERSION) return 'version';
  for (const key of ['id', 'startedAt', 'endedAt', 'status']) if (typeof value[key] !== 'string') return key;
  for (const key of ['commit', 'branch', 'ci']) if (!optString(value[key])) return key;
  const shard = value['shard'];
  if (shard !== undefined && (!isObj(shard) || !isInt(shard['current']) || !isInt(shard['total']))) return 'shard';
  if (value['merged'] !== undefined && typeof value['merged'] !== 'boolean') return 'merged';
  const groups = value['groups'];
  if (!Array.isArray(groups)) return 'groups';
  for (let i = 0; i < groups.length; i++) {
    const g: unknown = groups[i];
    if (!isObj(g) || typeof g['fingerprint'] !== 'string' || typeof g['source'] !== 'string' || typeof g['message'] !== 'string' || !optString(g['where']) || !optStrings(g['aka'])) return `groups.${i}`;
  }
  const tests = value['tests'];
  if (!Array.isArray(tests)) return 'tests';
  for (let i = 0; i < tests.length; i++) {
    const t: unknown = tests[i];
    if (!isObj(t)) return `tests.${i}`;
    if (typeof t['project'] !== 'string') return `tests.${i}.project`;
    if (typeof t['file'] !== 'string') return `tests.${i}.file`;
    if (!strings(t['titlePath'])) return `tests.${i}.titlePath`;
    const attempts = t['attempts'];
    if (!Array.isArray(attempts)) return `tests.${i}.attempts`;
    for (let j = 0; j < attempts.length; j++) {
      const problem = attemptProblem(attempts[j]);
      if (problem) return `tests.${i}.attempts.${j}${problem === 'not an object' ? '' : `.${problem}`}`;
    }
  }
  return undefined;
}
