import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DaebugError } from '../../src/errors';
import { resolveOptions } from '../../src/options';

const base = { strict: false, capture: true, ignore: [], limits: {} };

describe('daebugAsyncStacks', () => {
  it('is off unless set', () => {
    assert.equal(resolveOptions(base).asyncStacks, false);
    assert.equal(resolveOptions({ ...base, asyncStacks: true }).asyncStacks, true);
  });
  it('accepts only a boolean, naming the option and the accepted values', () => {
    assert.throws(
      () => resolveOptions({ ...base, asyncStacks: 'yes' }),
      (error: unknown) => error instanceof DaebugError && error.code === 'DAEBUG_OPTIONS_INVALID' && /"daebugAsyncStacks"/.test(error.message) && /Got "yes"\. Accepted: true or false/.test(error.message),
    );
  });
});
