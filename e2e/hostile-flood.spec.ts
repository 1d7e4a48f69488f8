import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { expectSound, hostileSpecs, reported, sharedRun } from './helpers/hostile';

test('a flood of 1,000,000 console calls ends with bounded memory and a bounded, valid report', async ({}, testInfo) => {
  test.setTimeout(300_000);
  const run = await sharedRun('flood', hostileSpecs('flood'), { args: ['--workers=1'], configExtra: "outputDir: './test-results',", timeoutMs: 290_000 });
  expect(run.exitCode, run.output.slice(-3000)).toBe(0);
  const r = reported(run, 'flood: 1,000,000 console calls');
  expectSound(run, r);

  const metrics = JSON.parse(fs.readFileSync(path.join(run.dir, 'test-results', 'flood-metrics.json'), 'utf8'));
  await testInfo.attach('flood-metrics.json', { body: JSON.stringify(metrics, null, 2), contentType: 'application/json' });
  process.stdout.write(`flood: ${JSON.stringify(metrics)}\n`);
  expect(metrics.calls).toBe(1_000_000);

  // Every console.log is kept or counted: 999,990 of the 1,000,000 calls are console.log, 10 are console.error.
  const kept = (r.json.events as any[]).filter((e) => e.source === 'console.log').length;
  expect(kept + r.json.dropped.bySource['console.log']).toBe(999_990);
  expect(r.json.summary.dropped).toBe(r.json.dropped.total);
  expect(r.json.events.length).toBeLessThanOrEqual(2000);
  expect((r.json.events as any[]).filter((e) => e.source === 'window.onerror')).toHaveLength(10);
  expect(Buffer.byteLength(r.md)).toBeLessThanOrEqual(256 * 1024);
  expect(fs.statSync(path.join(run.reportsDir, r.name)).size).toBeLessThan(2 * 1024 * 1024);

  // Bounded memory: the worker's peak grows by far less than a million stored events would take (~400 MB),
  // and the page's heap keeps no console arguments for daebug's session.
  const growthMiB = (metrics.worker.hwmAfterKiB - metrics.worker.hwmBeforeKiB) / 1024;
  expect(growthMiB).toBeLessThan(256);
  expect(metrics.renderer.jsHeapUsedBytes).toBeLessThan(64 * 1024 * 1024);
});
