import { randomUUID } from 'node:crypto';

/**
 * A key per run that tells the reporter a record was built by this run's own fixture. The reporter makes it in
 * `onBegin` and puts it in the environment its workers inherit; the fixture copies it into each record. A record
 * with the key skips the schema (src/model/record.ts): it is not a trust boundary, only a second check of typed
 * code. It proves nothing against a test that forges it on purpose, and does not need to: the schema guards against
 * mistakes (a test's own `daebug` attachment, a mismatched version), not against the suite's own code.
 */
export const RECORD_KEY_ENV = 'DAEBUG_RECORD_KEY';

/** Makes this run's key and puts it where the workers the runner forks from now on will find it. */
export function startRecordKey(): void {
  process.env[RECORD_KEY_ENV] = randomUUID();
}

/** The key a worker copies into its records, when daebug's reporter runs this run. */
export function recordKey(): string | undefined {
  return process.env[RECORD_KEY_ENV] || undefined;
}

/** Whether a parsed record carries this run's key. */
export function isThisRunsRecord(data: object): boolean {
  const key = recordKey();
  return key !== undefined && (data as { key?: unknown }).key === key;
}
