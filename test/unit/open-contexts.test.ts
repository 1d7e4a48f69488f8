import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext } from '@playwright/test';
import { openContexts } from '../../src/capture/open-contexts';

describe('openContexts', () => {
  it("returns a copy of what Playwright's _allContexts() lists, called on the Playwright object", () => {
    const contexts = [{ name: 'default' }, { name: 'beforeAll' }] as unknown as BrowserContext[];
    const playwright = {
      contexts,
      _allContexts(this: { contexts: BrowserContext[] }) {
        return this.contexts;
      },
    };
    const open = openContexts(playwright);
    assert.deepEqual(open, contexts);
    assert.notEqual(open, contexts);
  });

  it('returns none from a Playwright without _allContexts or whose _allContexts throws', () => {
    assert.deepEqual(openContexts({}), []);
    assert.deepEqual(
      openContexts({
        _allContexts() {
          throw new Error('gone');
        },
      }),
      [],
    );
  });
});
