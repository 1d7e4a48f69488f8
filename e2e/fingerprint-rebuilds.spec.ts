import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { runInlineTest } from './helpers/run-playwright';
import { buildViteChunks, type BuildName } from './helpers/build-vite-chunks';
import { startServer, staticFiles, type LocalServer } from './helpers/local-server';

// The same errors, thrown by two production builds of almost the same source whose every chunk hash differs,
// with source maps and without, each build served at its own random port: one group per error and mode.
const spec = `
import { test, expect } from 'daebug';

for (const [name, url] of Object.entries(JSON.parse(process.env.APPS))) {
  test(name, async ({ page, daebug }) => {
    await page.goto(url + '/');
    await page.evaluate(() => Promise.all([window.openA(), window.openB()]).then(() => window.reportEntry()));
    // Two throws of the shared chunk (one per lazy page) and the entry's console.error.
    await expect.poll(async () => { await daebug.settle(); return daebug.events().filter((e) => e.unexpected).length; }).toBe(3);
  });
}
`;

const modes = { maps: true, plain: false } as const;
type Mode = keyof typeof modes;

test('an error in a hash-named chunk has one fingerprint across rebuilds that change every hash, with maps and without', async () => {
  test.setTimeout(180_000);
  const dir = path.join(__dirname, '..', '.e2e-tmp', `vite-${randomUUID().slice(0, 8)}`);
  const servers: LocalServer[] = [];
  try {
    const apps: Record<string, string> = {};
    for (const mode of Object.keys(modes) as Mode[]) {
      const files: Record<BuildName, string[]> = { one: [], two: [] };
      for (const build of ['one', 'two'] as const) {
        const root = path.join(dir, `${mode}-${build}`);
        files[build] = await buildViteChunks(root, path.join(root, 'dist'), build, modes[mode]);
        // Each build is served alone at its root, as a deployment is, at a port of its own.
        const server = await startServer(staticFiles(path.join(root, 'dist')));
        servers.push(server);
        apps[`${mode} build ${build}`] = server.origin;
      }
      // The rebuild renamed every script, and the chunks are named by their hash alone.
      expect(files.one.filter((name) => files.two.includes(name)), `${files.one} / ${files.two}`).toEqual([]);
      expect(files.one.filter((name) => /^chunks\/[\w-]{8}\.js$/.test(name)).length).toBeGreaterThanOrEqual(3);
      expect(files.one.filter((name) => /^assets\/index-[\w-]{8}\.js$/.test(name))).toHaveLength(1);
    }

    const result = await runInlineTest({ 'rebuilds.spec.ts': spec }, { env: { APPS: JSON.stringify(apps) } });
    expect(result.exitCode, result.output).toBe(0);
    const titleOf = new Map<string, string>(Object.entries(result.reports).map(([name, report]: [string, any]) => [name.replace(/\.json$/, '.md'), report.test.title]));
    const groups = (result.index.groups as any[]).map((g) => ({ ...g, titles: (g.reports as string[]).map((r) => titleOf.get(r)).sort() }));
    const described = JSON.stringify(groups, null, 2);

    for (const mode of Object.keys(modes) as Mode[]) {
      const titles = [`${mode} build one`, `${mode} build two`];
      const ofMode = groups.filter((g) => g.titles.some((t: string) => t.startsWith(mode)));
      // Two errors, each one group that both builds of the mode are in.
      expect(ofMode, described).toHaveLength(2);
      for (const group of ofMode) expect(group.titles, described).toEqual(titles);
      const shared = ofMode.find((g) => /total is not a number/.test(g.message));
      const entry = ofMode.find((g) => /entry broke in checkout/.test(g.message));
      expect(shared, described).toMatchObject({ tests: 2, count: 4 });
      expect(entry, described).toMatchObject({ tests: 2, count: 2 });
    }

    // With maps the place is the original module; without, the chunk's folder.
    const eventOf = (title: string, pattern: RegExp) => {
      const report = Object.values(result.reports).find((r: any) => r.test.title === title) as any;
      return report.events.find((e: any) => pattern.test(e.message));
    };
    const mapped = eventOf('maps build two', /total is not a number/);
    expect(mapped.frames.find((f: any) => f.userCode)?.original?.source, JSON.stringify(mapped.frames, null, 2)).toMatch(/src\/shared\.js$/);
    const plain = eventOf('plain build two', /total is not a number/);
    expect(plain.frames[0].url).toMatch(/\/chunks\/[\w-]{8}\.js$/);
    expect(plain.frames[0].original).toBeUndefined();
    // The rebuild renamed the throwing function too (Vite 8.3: `t`, then `n`): the group held without its name.
    const plainOne = eventOf('plain build one', /total is not a number/);
    expect(plainOne.frames[0].functionName, 'the minifier gave the same name in both builds').not.toBe(plain.frames[0].functionName);

    // The baseline written from this run names the places without hash or port.
    const baseline = runBaseline(result.dir);
    expect(baseline).not.toMatch(/127\.0\.0\.1:\d/);
    expect(baseline).toMatch(/"where": "http:\/\/127\.0\.0\.1\/chunks\/<hash>\.js"/);
    expect(baseline).toMatch(/"where": "src\/shared\.js in formatTotal"/);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});

function runBaseline(dir: string): string {
  execFileSync(process.execPath, [path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js'), 'baseline'], { cwd: dir, stdio: 'pipe' });
  return fs.readFileSync(path.join(dir, 'daebug-baseline.json'), 'utf8');
}
