import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';
import { buildReactRouterApp, serveReactRouterApp, type BuiltReactRouterApp, type ReactRouterApp } from './helpers/build-react-router-app';

// A React Router 7 app in framework mode (fixtures/react-router: SSR and hydration, loaders, actions, error
// boundaries), built for production in a fresh random folder with source maps and without, each served at a port of
// its own, throws the way real React Router apps do, in inline tests that use daebug. One throw must be one problem
// (one group, one entry, its loggers named), at the app's line, linked to the request that set it off; a rebuild in
// another folder with other chunk hashes must keep every identity, so strict mode with the first run's baseline
// passes. What daebug reported in the last run is saved to .e2e-tmp/rr-last-run/ for a look.

const modes = { maps: true, plain: false } as const;
type Mode = keyof typeof modes;

/** Each case's title (after `<mode>: `), and the boundary and text it ends on; undefined for the cases with none. */
const cases: Record<string, { boundary: string; text: string } | undefined> = {
  'root throws on the server and in the browser (document request)': { boundary: 'root', text: 'Unexpected Server Error' },
  'root throws in the browser only, while hydrating': { boundary: 'root', text: 'Root render broke in the browser' },
  'root throws after a client-side navigation': { boundary: 'root', text: 'Root render broke' },
  'render-throw after a client-side navigation': { boundary: 'render-throw', text: 'Kaboom!' },
  'render-throw on the server (document request)': { boundary: 'render-throw', text: 'Unexpected Server Error' },
  'loader-throw after a client-side navigation (.data answers 500)': { boundary: 'loader-throw', text: 'Unexpected Server Error' },
  'loader-throw on the server (document request)': { boundary: 'loader-throw', text: 'Unexpected Server Error' },
  'action-bad after a form submit (.data answers 500)': { boundary: 'action-bad', text: 'Unexpected Server Error' },
  'effect-throw from a timer after a click': undefined,
  'suspense-throw on the server only, rendered by the browser': undefined,
  'the home page without JavaScript': undefined,
};

/**
 * Per case: the problems the browser shows (unexpected errors, one each), who logged the one of them seen more than
 * once (`React`, `React Router`; the app's own log is `your code` with maps), and the request that caused it.
 */
const problems: Record<string, { count: number; loggers?: Record<Mode, string[]>; causedBy?: RegExp; at?: RegExp }> = {
  'root throws on the server and in the browser (document request)': { count: 1, causedBy: /^GET \S+\/\?root-throw=1 500/, at: /app\/lib\/monitoring\.ts/ },
  'root throws in the browser only, while hydrating': { count: 1, loggers: { maps: ['React', 'React Router', 'your code'], plain: ['console.error', 'React Router', 'console.error'] }, at: /app\/lib\/root-guard\.ts:11/ },
  'root throws after a client-side navigation': { count: 1, loggers: { maps: ['React', 'React Router', 'your code'], plain: ['console.error', 'React Router', 'console.error'] }, at: /app\/lib\/root-guard\.ts:8/ },
  'render-throw after a client-side navigation': { count: 1, loggers: { maps: ['React', 'React Router'], plain: ['console.error', 'React Router'] }, at: /app\/lib\/gauge\.ts:9/ },
  'render-throw on the server (document request)': { count: 0 },
  'loader-throw after a client-side navigation (.data answers 500)': { count: 1, causedBy: /^GET \S+\/loader-throw\.data 500/ },
  'loader-throw on the server (document request)': { count: 1, causedBy: /^GET \S+\/loader-throw 500/ },
  'action-bad after a form submit (.data answers 500)': { count: 1, causedBy: /^POST \S+\/action-bad\.data 500/ },
  'effect-throw from a timer after a click': { count: 1, at: /app\/lib\/cart-sync\.ts:9/ },
  'suspense-throw on the server only, rendered by the browser': { count: 1, causedBy: /^GET \S+\/suspense-throw 500/ },
  'the home page without JavaScript': { count: 0 },
};

const daebugCli = path.resolve(__dirname, '..', 'dist', 'cli', 'bin.js');

interface AppsRun {
  result: InlineRunResult;
  builds: Record<Mode, BuiltReactRouterApp>;
  outcomes: Array<{ title: string; boundary?: string; text?: string; status?: number }>;
}

/** Builds both modes anew (fresh random folders, this stamp), serves each at a port of its own, runs the inline suite. */
async function runApps(stamp: string, use = ''): Promise<AppsRun> {
  const servers: ReactRouterApp[] = [];
  const outDir = path.join(__dirname, '..', '.e2e-tmp', 'rr-last-run');
  fs.mkdirSync(outDir, { recursive: true });
  try {
    const apps: Record<string, string> = {};
    const builds = {} as Record<Mode, BuiltReactRouterApp>;
    for (const mode of Object.keys(modes) as Mode[]) {
      const built = await buildReactRouterApp({ sourcemap: modes[mode], stamp });
      builds[mode] = built;
      // Route modules with dots in their file names give chunks with dots in theirs, as in real React Router apps.
      expect(built.clientFiles, built.clientFiles.join('\n')).toContainEqual(expect.stringMatching(/^assets\/entry\.client-[\w-]{8}\.js$/));
      expect(built.clientFiles).toContainEqual(expect.stringMatching(/^assets\/render\.throw-[\w-]{8}\.js$/));
      const maps = built.clientFiles.filter((name) => name.endsWith('.map'));
      if (modes[mode]) expect(maps).toContainEqual(expect.stringMatching(/^assets\/render\.throw-[\w-]{8}\.js\.map$/));
      else expect(maps).toEqual([]);
      expect(fs.existsSync(path.join(built.dir, 'build', 'server', 'index.js.map'))).toBe(modes[mode]);
      const app = await serveReactRouterApp(built.dir);
      servers.push(app);
      apps[mode] = app.origin;
    }
    const outcomesFile = path.join(outDir, `outcomes-${stamp}.jsonl`);
    fs.rmSync(outcomesFile, { force: true });
    const result = await runInlineTest({ 'react-router.spec.ts': spec }, { env: { RR_APPS: JSON.stringify(apps), RR_OUTCOMES: outcomesFile }, use, timeoutMs: 240_000 });
    fs.writeFileSync(path.join(outDir, `output-${stamp}.txt`), result.output);
    fs.writeFileSync(path.join(outDir, `reports-${stamp}.json`), JSON.stringify(result.reports, null, 2));
    fs.writeFileSync(path.join(outDir, `index-${stamp}.json`), JSON.stringify(result.index, null, 2));
    expect(result.exitCode, result.output).toBe(0);
    const outcomes = fs.readFileSync(outcomesFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    return { result, builds, outcomes };
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

/** `npx daebug baseline` in the run's folder: the file's text. */
function writeBaseline(dir: string): string {
  execFileSync(process.execPath, [daebugCli, 'baseline'], { cwd: dir, stdio: 'pipe' });
  return fs.readFileSync(path.join(dir, 'daebug-baseline.json'), 'utf8');
}

const reportOf = (result: InlineRunResult, title: string): any => Object.values(result.reports).find((r: any) => r.test.title === title);
const markdownOf = (result: InlineRunResult, title: string): string => {
  const name = Object.keys(result.reports).find((file) => result.reports[file].test.title === title)!;
  return result.markdown[name.replace(/\.json$/, '.md')]!;
};

let first: AppsRun | undefined;

test.describe.configure({ mode: 'serial' });

const spec = `
import fs from 'node:fs';
import { test, expect } from 'daebug';

const apps = JSON.parse(process.env.RR_APPS);

/** Records what the test saw (the boundary's text, a .data response's status) for the outer spec. */
function record(fields) {
  fs.appendFileSync(process.env.RR_OUTCOMES, JSON.stringify({ title: test.info().title, ...fields }) + '\\n');
}

/** Until React hydrated the page: a click on a link before it would load a document instead of navigating. */
async function hydrated(page) {
  await expect(page.locator('body')).toHaveAttribute('data-hydrated', 'yes');
}

async function boundary(page, id, text) {
  const element = page.getByTestId('boundary');
  await expect(element).toHaveAttribute('data-boundary', id);
  await expect(element).toContainText(text);
  record({ boundary: id, text: (await element.innerText()).replace(/\\s+/g, ' ') });
}

async function navigate(page, origin, link) {
  await page.goto(origin + '/');
  await expect(page.getByTestId('page')).toHaveText('Home');
  await hydrated(page);
  await page.getByTestId(link).click();
}

function dataResponse(page, method, pathname) {
  return page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname === pathname);
}

async function eventMatching(daebug, pattern) {
  await expect.poll(async () => {
    await daebug.settle();
    return daebug.events().some((event) => pattern.test(event.message));
  }).toBe(true);
}

for (const [mode, origin] of Object.entries(apps)) {
  test(mode + ': root throws on the server and in the browser (document request)', async ({ page, daebug }) => {
    const response = await page.goto(origin + '/?root-throw=1');
    record({ status: response.status() });
    await boundary(page, 'root', 'Unexpected Server Error');
    await hydrated(page);
    await daebug.settle();
  });

  test(mode + ': root throws in the browser only, while hydrating', async ({ page, daebug }) => {
    await page.goto(origin + '/?root-throw=browser');
    await boundary(page, 'root', 'Root render broke in the browser');
    await hydrated(page);
    await daebug.settle();
  });

  test(mode + ': root throws after a client-side navigation', async ({ page, daebug }) => {
    await navigate(page, origin, 'link-root-throw');
    await boundary(page, 'root', 'Root render broke');
    await daebug.settle();
  });

  test(mode + ': render-throw after a client-side navigation', async ({ page, daebug }) => {
    await navigate(page, origin, 'link-render-throw');
    await boundary(page, 'render-throw', 'Kaboom!');
    await daebug.settle();
  });

  test(mode + ': render-throw on the server (document request)', async ({ page, daebug }) => {
    const response = await page.goto(origin + '/render-throw');
    record({ status: response.status() });
    await boundary(page, 'render-throw', 'Unexpected Server Error');
    await hydrated(page);
    await daebug.settle();
  });

  test(mode + ': loader-throw after a client-side navigation (.data answers 500)', async ({ page, daebug }) => {
    const data = dataResponse(page, 'GET', '/loader-throw.data');
    await navigate(page, origin, 'link-loader-throw');
    record({ status: (await data).status() });
    await boundary(page, 'loader-throw', 'Unexpected Server Error');
    await daebug.settle();
  });

  test(mode + ': loader-throw on the server (document request)', async ({ page, daebug }) => {
    const response = await page.goto(origin + '/loader-throw');
    record({ status: response.status() });
    await boundary(page, 'loader-throw', 'Unexpected Server Error');
    await hydrated(page);
    await daebug.settle();
  });

  test(mode + ': action-bad after a form submit (.data answers 500)', async ({ page, daebug }) => {
    await page.goto(origin + '/action-bad');
    await hydrated(page);
    const data = dataResponse(page, 'POST', '/action-bad.data');
    await page.getByTestId('submit').click();
    record({ status: (await data).status() });
    await boundary(page, 'action-bad', 'Unexpected Server Error');
    await daebug.settle();
  });

  test(mode + ': effect-throw from a timer after a click', async ({ page, daebug }) => {
    await page.goto(origin + '/effect-throw');
    await hydrated(page);
    await page.getByTestId('sync').click();
    await eventMatching(daebug, /Cart sync failed: no items/);
    await expect(page.getByTestId('page')).toHaveText('Cart');
    record({});
  });

  test(mode + ': suspense-throw on the server only, rendered by the browser', async ({ page, daebug }) => {
    const response = await page.goto(origin + '/suspense-throw');
    record({ status: response.status() });
    await expect(page.getByTestId('recently-viewed')).toContainText('Blue kettle');
    // Production React's "Switched to client rendering" error for the boundary the server could not finish.
    await eventMatching(daebug, /Minified React error #419/);
  });

  test.describe(() => {
    test.use({ javaScriptEnabled: false });
    test(mode + ': the home page without JavaScript', async ({ page, daebug }) => {
      await page.goto(origin + '/');
      await expect(page.getByTestId('page')).toHaveText('Home');
      // The server's modulepreload links load nothing: Chromium blocks them "for csp" when scripts are off.
      await page.waitForLoadState('load');
      await daebug.settle();
    });
  });
}
`;


test('each intentional throw of a React Router app is one problem, at the app\'s line, with the request that caused it', async () => {
  test.setTimeout(300_000);
  first = await runApps('one');
  const { result, outcomes } = first;
  for (const mode of Object.keys(modes) as Mode[]) {
    for (const [name, expected] of Object.entries(cases)) {
      const title = `${mode}: ${name}`;
      const report = reportOf(result, title);
      expect(report?.test.status, `${title}\n${result.output.slice(-3000)}`).toBe('passed');
      const seen = outcomes.filter((o) => o.title === title);
      if (expected) expect(seen.find((o) => o.boundary), title).toMatchObject({ boundary: expected.boundary, text: expect.stringContaining(expected.text) });
      // Errors of the server answer 500: the document, or the client navigation's or form's .data request.
      if (/server|\.data answers 500/.test(name)) expect(seen.find((o) => o.status !== undefined)?.status, title).toBe(500);

      const problem = problems[name]!;
      const events: any[] = report.events;
      const described = JSON.stringify(events.map((e) => ({ source: e.source, message: e.message.slice(0, 120), unexpected: e.unexpected, fingerprint: e.fingerprint, sightingOf: e.sightingOf, sightings: e.sightings, causedBy: e.causedBy })), null, 2);
      const unexpected = events.filter((e) => e.unexpected);
      // One problem per throw: one unexpected error, one group, one entry, whoever else logged it.
      expect(unexpected, `${title}\n${described}`).toHaveLength(problem.count);
      expect(report.summary.unexpected, title).toBe(problem.count);
      const markdown = markdownOf(result, title);
      expect(markdown.match(/^\d+\. `[\w.]+` in `page` at /gm) ?? [], `${title}\n${markdown}`).toHaveLength(problem.count);
      for (const event of events.filter((e) => e.sightingOf !== undefined)) {
        expect(events[event.sightingOf], title).toBe(unexpected[0]);
        expect(event.fingerprint, title).toBe(unexpected[0].fingerprint);
      }
      if (problem.loggers) {
        expect(unexpected[0].sightings.map((s: any) => s.by), `${title}\n${described}`).toEqual(problem.loggers[mode]);
        expect(markdown, title).toContain(`logged ${problem.loggers[mode].length} times: `);
      } else expect(events.filter((e) => e.sightingOf !== undefined), title).toEqual([]);
      // The request that set it off is linked to it.
      if (problem.causedBy) {
        const cause = events[unexpected[0].causedBy];
        expect(cause?.message, `${title}\n${described}`).toMatch(problem.causedBy);
        expect(markdown, title).toMatch(/caused by/);
      }
      // With maps, the app's line; without, nothing is "your code": a chunk without its map could be a library's.
      if (problem.at && mode === 'maps') expect(markdown.match(/^- Where: .*$/m)?.[0], `${title}\n${markdown}`).toMatch(problem.at);
      for (const event of events) {
        for (const frame of event.frames ?? []) {
          if (!frame.userCode) continue;
          if (mode === 'plain') expect(frame.url, `${title}: a chunk without a map is not your code`).not.toMatch(/\/assets\//);
          else expect(frame.original?.source, `${title}: only the app's own sources are your code`).toMatch(/^app\//);
        }
      }
      // Scripts off: the blocked modulepreloads are no failures, and no CSP blocked anything.
      if (name === 'the home page without JavaScript') expect(events.filter((e) => e.source === 'network' || e.source === 'browser.issue'), described).toEqual([]);
    }
  }
  // The run's index: one group per bug and mode, each test in the group of its own throw.
  const unexpectedGroups = (result.index.groups as any[]).filter((g) => g.unexpected);
  const messages = unexpectedGroups.map((g) => `${g.message.slice(0, 60)} (${g.tests} tests)`).sort();
  expect(unexpectedGroups, messages.join('\n')).toHaveLength(12);
  // A group counts throws, not log lines: each test threw once.
  for (const group of unexpectedGroups) expect(group.count, messages.join('\n')).toBe(group.tests);
  expect(fs.readFileSync(path.join(result.reportsDir, 'index.md'), 'utf8')).toContain('Kaboom!');
  // `daebug errors` counts problems: no two blocks of one test are the same error.
  const cli = JSON.parse(execFileSync(process.execPath, [daebugCli, 'errors', '--json', '--limit', '5'], { cwd: result.dir, encoding: 'utf8' }));
  const keys = cli.errors.map((e: any) => `${e.test.title}\u0000${e.fingerprint}`);
  expect(new Set(keys).size, JSON.stringify(keys)).toBe(5);
});

test('two builds in fresh folders with other chunk hashes write byte-identical baselines, and strict mode with the first passes the second', async () => {
  test.setTimeout(300_000);
  expect(first, 'the first run (the test above) ran').toBeDefined();
  const baseline = writeBaseline(first!.result.dir);
  const baselineFile = path.join(first!.result.dir, 'daebug-baseline.json');
  const second = await runApps('two', `daebugStrict: true, daebugBaseline: ${JSON.stringify(baselineFile)}`);
  // The rebuild renamed the chunk that holds the stamp, and built in another random folder.
  for (const mode of Object.keys(modes) as Mode[]) {
    const root = (files: string[]) => files.find((f) => /^assets\/root-[\w-]{8}\.js$/.test(f));
    expect(root(second.builds[mode].clientFiles)).not.toBe(root(first!.builds[mode].clientFiles));
    expect(second.builds[mode].dir).not.toBe(first!.builds[mode].dir);
  }
  const reports = Object.values(second.result.reports) as any[];
  for (const report of reports) {
    expect(report.test.status, report.test.title).toBe('passed');
    for (const event of report.events.filter((e: any) => e.unexpected)) expect(event.known, `${report.test.title}: ${event.message}`).toBe(true);
  }
  expect(writeBaseline(second.result.dir)).toBe(baseline);
});
