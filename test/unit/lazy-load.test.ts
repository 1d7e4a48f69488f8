import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { booleanCheck, ignoreCheck, optionSchemas, parseOption, resolveOptions } from '../../src/options';

const root = path.join(__dirname, '..', '..');

test('loading daebug the way a test file does loads no zod; reading an exported schema does', () => {
  const script = `
    require('@playwright/test');
    const before = Object.keys(require.cache).filter((f) => f.includes('node_modules/zod/')).length;
    const daebug = require('./src/index.ts');
    const { resolveOptions } = require('./src/options.ts');
    resolveOptions({ strict: true, capture: true, ignore: ['x', /y/], limits: {}, redact: true, network: 'report', asyncStacks: false, live: true, baseline: 'b.json' });
    const afterLoad = Object.keys(require.cache).filter((f) => f.includes('node_modules/zod/')).length;
    const parsed = daebug.reportSchema.safeParse({}).success;
    const afterRead = Object.keys(require.cache).filter((f) => f.includes('node_modules/zod/')).length;
    console.log(JSON.stringify({ before, afterLoad, afterRead, parsed }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { before: number; afterLoad: number; afterRead: number; parsed: boolean };
  assert.equal(out.before, 0);
  assert.equal(out.afterLoad, 0, 'the fixture and default options must not load zod');
  assert.ok(out.afterRead > 0, 'reportSchema loads zod when read');
  assert.equal(out.parsed, false);
});

test("importing daebug, as the runner does to list a spec file's tests, loads no capture; a worker's first fixture loads its work, and capture only when it captures", () => {
  const script = `
    require('@playwright/test');
    const loaded = (name) => Object.keys(require.cache).some((f) => f.split(require('node:path').sep).join('/').includes(name));
    const names = ['src/capture/test-capture', 'src/stack/enrich', 'src/live/live-report', 'src/fixture/finish', 'src/fixture/bodies'];
    const daebug = require('./src/index.ts');
    const afterImport = names.filter(loaded);
    // Set up the way Playwright would: the fixture function with its dependencies; capture off, so no browser is needed.
    const testInfo = {};
    const [captureFixture] = daebug.daebugFixtures._daebugCapture;
    let captured = 'unset';
    captureFixture({ _daebugRecorder: { options: { capture: false } }, playwright: {}, _reuseContext: false }, async (c) => { captured = c; }, testInfo)
      .then(() => console.log(JSON.stringify({ afterImport, afterSetup: names.filter(loaded), captured: captured === undefined })));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { afterImport: string[]; afterSetup: string[]; captured: boolean };
  assert.deepEqual(out.afterImport, [], 'the runner must not load what only a worker runs');
  assert.ok(out.afterSetup.includes('src/fixture/bodies'), `a fixture set up loads the fixtures' work: ${out.afterSetup.join(', ')}`);
  // Issue 36: with capture off the worker loads none of capture or source maps (it did before: this asserted it).
  assert.ok(!out.afterSetup.includes('src/capture/test-capture') && !out.afterSetup.includes('src/stack/enrich'), `capture off loads no capture: ${out.afterSetup.join(', ')}`);
  assert.equal(out.captured, true, 'capture off hands the test no capture');
});

test('the quick checks accept only what the schemas accept, and return what they would', () => {
  const booleans: unknown[] = [true, false, 0, 1, 'true', null, undefined, {}];
  for (const value of booleans) {
    const quick = booleanCheck.accepts(value);
    const full = optionSchemas().booleanSchema.safeParse(value);
    if (quick) assert.ok(full.success && full.data === value, `boolean ${String(value)}`);
  }
  const lists: unknown[] = [[], ['a'], [/b/], ['a', /b/], ['a', 1], [null], 'a', /x/, {}, [[]]];
  for (const value of lists) {
    const quick = ignoreCheck.accepts(value);
    const full = optionSchemas().ignoreSchema.safeParse(value);
    assert.equal(quick, full.success, `ignore ${String(value)}`);
    if (quick) assert.deepEqual(parseOption('daebugIgnore', ignoreCheck, value, ''), full.data);
  }
});

test('a value the quick check refuses still gets the schema\'s message', () => {
  assert.throws(() => resolveOptions({ strict: 'yes', capture: true, ignore: [], limits: {} }), /Invalid daebug option "daebugStrict".*Got "yes"/);
  assert.throws(() => resolveOptions({ strict: true, capture: true, ignore: [], limits: { maxDepth: 99 } }), /daebugLimits.*maxDepth/);
  assert.throws(() => resolveOptions({ strict: true, capture: true, ignore: [], limits: {}, network: 'loud' }), /daebugNetwork/);
  assert.throws(() => resolveOptions({ strict: true, capture: true, ignore: [], limits: {}, baseline: '' }), /daebugBaseline/);
  const set = resolveOptions({ strict: true, capture: true, ignore: [], limits: { maxDepth: 5 } });
  assert.equal(set.limits.maxDepth, 5);
});
