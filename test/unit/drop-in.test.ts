import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as playwright from '@playwright/test';
import * as daebug from '../../src/index';
import { test as daebugTest } from '../../src/fixture/fixtures';

test('every value @playwright/test exports is exported by daebug, the same object except test', () => {
  const names = Object.keys(playwright).filter((name) => name !== 'default' && name !== '__esModule');
  assert.ok(names.length > 10, `expected Playwright's exports, got ${names.join(', ')}`);
  const exported = daebug as unknown as Record<string, unknown>;
  const differing = names.filter((name) => name !== 'test' && exported[name] !== (playwright as unknown as Record<string, unknown>)[name]);
  assert.deepEqual(differing, []);
  for (const name of ['expect', 'devices', 'defineConfig', 'mergeTests', 'mergeExpects', 'chromium', 'request', 'selectors']) assert.ok(name in exported, name);
});

test("daebug's test replaces Playwright's, as the named and the default export", () => {
  assert.equal(daebug.test, daebugTest);
  assert.notEqual(daebug.test, playwright.test);
  assert.equal(daebug.default, daebugTest);
});
