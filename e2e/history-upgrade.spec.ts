import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runInlineTest } from './helpers/run-playwright';
import { fingerprintOf } from '../src/run/fingerprint';
import { withNamingEra } from '../src/model/naming-era';
import { historyRunSchema } from '../src/history/schema';

// An upgrade of daebug that reads a file name otherwise (a chunk named `LukiYOIK.js` was a name before the camelCase
// rules, a hash now) must not make the history take an old error for a new one. The first run's history file is
// rewritten as the earlier daebug wrote it (the earlier fingerprint, no `aka`); the second run still finds the error.

const spec = `
import { test } from 'daebug';
test('loads the vendor chunk', async ({ page }) => {
  await page.goto('/index.html');
  await page.evaluate(() => new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = '/assets/LukiYOIK.js';
    script.onerror = resolve;
    document.head.append(script);
  }));
});
`;

test('an error the history had under an earlier fingerprint is not new after the upgrade', async () => {
  test.setTimeout(120_000);
  const first = await runInlineTest({ 'vendor.spec.ts': spec });
  expect(first.exitCode, first.output).toBe(0);
  const event = (Object.values(first.reports)[0] as any).events.find((e: any) => e.source === 'network' && e.message.includes('LukiYOIK'));
  expect(event, first.output).toBeTruthy();
  const now = event.fingerprint as string;
  const before = withNamingEra('before-camel-rules', () => fingerprintOf(event));
  expect(fingerprintOf(event)).toBe(now);
  expect(before).not.toBe(now);

  const historyDir = path.join(first.dir, '.daebug', 'history');
  const [file] = fs.readdirSync(historyDir).filter((f) => f.endsWith('.json'));
  const written = historyRunSchema.parse(JSON.parse(fs.readFileSync(path.join(historyDir, file!), 'utf8')));
  const group = written.groups.find((g) => g.fingerprint === now);
  expect(group?.aka).toEqual([before]);
  expect(written.groups.filter((g) => g.aka).length, 'only the group whose file name reads otherwise has one').toBe(1);

  // As the earlier daebug wrote it: its fingerprint, no aka.
  const old = JSON.parse(JSON.stringify(written).split(now).join(before));
  for (const g of old.groups) delete g.aka;
  fs.writeFileSync(path.join(historyDir, file!), JSON.stringify(old));

  const second = await runInlineTest({ 'vendor.spec.ts': spec }, { dir: first.dir });
  expect(second.exitCode, second.output).toBe(0);
  const row = second.index.groups.find((g: any) => g.fingerprint === now);
  expect(row, JSON.stringify(second.index.groups)).toBeTruthy();
  expect(row.firstSeen?.runsAgo, 'first seen in the run before, not new in this one').toBe(1);
});
