import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DaebugError } from '../../src/errors';
import { resolveOptions } from '../../src/options';

const base = { strict: false, capture: true, ignore: [], limits: {} };

describe('daebugValues', () => {
  it("is 'auto' unless set", () => {
    assert.equal(resolveOptions(base).values, 'auto');
    assert.equal(resolveOptions({ ...base, values: 'full' }).values, 'full');
  });
  it("accepts only 'auto' or 'full', naming the option and the accepted values", () => {
    assert.throws(
      () => resolveOptions({ ...base, values: 'preview' }),
      (error: unknown) => error instanceof DaebugError && error.code === 'DAEBUG_OPTIONS_INVALID' && /"daebugValues"/.test(error.message) && /Got "preview"\. Accepted: 'auto' or 'full'/.test(error.message),
    );
  });
});
