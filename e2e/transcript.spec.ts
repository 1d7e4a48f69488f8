import { test, expect } from '@playwright/test';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';
import { reportSchema } from '../src/model/schema';

// One inline run holds every scenario; each test below reads the report of one scenario.
const spec = `
import { test, expect } from 'daebug';

// Waits until daebug heard each message, whenever the page's timers or the worker send them: no fixed sleep.
const heard = (daebug: any, ...messages: string[]) =>
  expect.poll(() => { const seen = daebug.events().map((e: any) => e.message); return messages.filter((m) => !seen.includes(m)); }).toEqual([]);

test('side-effect error', async ({ page, daebug }) => {
  await page.goto('/index.html');
  const value = await daebug.eval(page, async () => {
    setTimeout(() => { throw new Error('background error'); }, 10);
    await new Promise((r) => setTimeout(r, 100));
    return 'success';
  });
  expect(value).toBe('success');
});

test('forgotten rejection', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, async () => {
    Promise.reject(new Error('forgotten rejection'));
    await new Promise((r) => setTimeout(r, 50));
    return 'completed';
  });
});

test('multiple concurrent errors', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, async () => {
    for (let i = 0; i < 3; i++) setTimeout(() => { throw new Error('error ' + i); }, i * 30);
    await new Promise((r) => setTimeout(r, 200));
    return 'done';
  });
});

test('special values', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, () => function myFunc() {});
  await daebug.eval(page, () => undefined);
  await daebug.eval(page, () => ({ a: [1, 'two'], b: null }));
  await daebug.eval(page, '1 + 2');
});

test('eval error is not duplicated', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await expect(daebug.eval(page, () => { throw new TypeError('eval itself failed'); })).rejects.toThrow('eval itself failed');
  await daebug.eval(page, () => new Promise((_, reject) => setTimeout(() => reject(new Error('async eval failure')), 10))).catch(() => {});
  // A barrier: a duplicate background event, had the page sent one, is in by now.
  await daebug.settle();
});

test('errors do not leak into the next job', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, async () => { setTimeout(() => { throw new Error('first job error'); }); await new Promise((r) => setTimeout(r, 50)); });
  await daebug.eval(page, () => 'clean second job');
});

test('console fences', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, () => {
    console.log('plain text');
    console.log('structured', { answer: 42, list: [1, 2] });
    console.info('an info');
    console.warn('a warning');
    console.error('an error from a library');
    console.debug('a debug line');
  });
});

// Seed 002's serialization of a passing test's background log: read in full only with daebugValues 'full'.
test.describe(() => {
  test.use({ daebugValues: 'full' });
  test('background only', async ({ page, daebug }) => {
    await page.goto('/background.html');
    await heard(daebug, 'Error: background timer error', 'Error: forgotten rejection');
    await daebug.settle();
  });
});

test('truncation', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, () => { for (let i = 1; i <= 15; i++) console.log('tick ' + i); });
});

test('worker realm', async ({ page, daebug }) => {
  await page.goto('/worker.html');
  await daebug.eval(page, () => (window as any).send('log'));
  await daebug.eval(page, () => (window as any).send('throw'));
  await daebug.eval(page, () => (window as any).send('reject'));
  await daebug.eval(page, () => (window as any).send('error'));
  await heard(daebug, 'Error: worker uncaught', 'Error: worker rejection', 'worker console error');
  const worker = page.workers()[0]!;
  expect(await daebug.eval(worker, () => typeof (self as any).importScripts)).toBe('function');
});

// Each phase waits until its error has arrived, so the page's own 10 ms timer error is in before the job starts.

test('action block job and steps', async ({ page, daebug }) => {
  await page.goto('/background.html');
  await heard(daebug, 'Error: background timer error');
  await daebug.job('click the boom button', async () => {
    await page.click('#boom');
    await heard(daebug, 'Error: clicked boom');
  });
  await test.step('reject from a step', async () => {
    await page.click('#reject');
    await heard(daebug, 'Error: clicked rejection');
  });
});

test('popup realm', async ({ page, daebug }) => {
  await page.goto('/index.html');
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.evaluate(() => { window.open('/index.html'); }),
  ]);
  await popup.waitForLoadState();
  await popup.evaluate(() => { setTimeout(() => { throw new Error('popup error'); }); });
  await heard(daebug, 'Error: popup error');
});

test('non-error throws', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => {
    setTimeout(() => { throw 'a plain string'; });
    Promise.reject(undefined);
    Promise.reject({ code: 1 });
  });
  // Their messages are read from the values later: count them.
  await expect.poll(() => daebug.errors().length).toBe(3);
});

test('errors api', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => { for (let i = 0; i < 25; i++) setTimeout(() => { throw new Error('numbered ' + i); }); });
  await heard(daebug, 'Error: numbered 24');
  const recent = daebug.errors();
  expect(recent).toHaveLength(20);
  expect(recent[0]!.message).toContain('numbered 5');
  expect(recent[19]!.message).toContain('numbered 24');
  expect(daebug.errors({ limit: 3 }).map((e) => e.message)).toEqual(['Error: numbered 22', 'Error: numbered 23', 'Error: numbered 24']);
  expect(daebug.events().filter((e) => e.type === 'error')).toHaveLength(25);
});

test('other console types', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, () => {
    console.table([{ a: 1 }]);
    console.dir({ dir: true });
    console.trace('traced here');
    console.count('clicks');
    console.assert(false, 'assertion text');
    console.group('a group');
    console.groupEnd();
  });
});

test('serialization rules', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await daebug.eval(page, () => {
    const circular: any = { name: 'loop' };
    circular.self = circular;
    console.log('circular', circular);
    console.log('deep', { l1: { l2: { l3: { l4: 'too deep' } } } });
    console.log('fn', { handler: function onClick() {} });
    console.log('x'.repeat(5000));
  });
});

test('worker lifecycle', async ({ page, daebug }) => {
  await page.goto('/worker.html');
  await daebug.eval(page, () => (window as any).send('log'));
  await daebug.eval(page, () => (window as any).worker.terminate());
  await expect.poll(() => daebug.events().map((e: any) => e.source)).toContain('worker.close');
});

test('chromium log lines', async ({ page, daebug }) => {
  await page.goto('/index.html');
  await page.evaluate(() => fetch('/status?code=404').then(() => {}));
  // Chromium's "Failed to load resource" line comes before the response: after the barrier it is in, merged or not.
  await expect.poll(() => daebug.events().filter((e: any) => e.source === 'network').length).toBe(1);
  await daebug.settle();
});
`;

test.describe.configure({ mode: 'default' });

let run: InlineRunResult;
const report = (title: string) => {
  const found = Object.values(run.reports).find((r: any) => r.test.title === title);
  if (!found) throw new Error(`no report for ${title}\n${run.output}`);
  return found as any;
};
const markdown = (title: string) => run.markdown[report(title).markdownFile] as string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  run = await runInlineTest({ 'transcript.spec.ts': spec }, { configExtra: 'workers: 2, fullyParallel: true,' });
});

test('every scenario ran and passed', () => {
  expect(run.exitCode, run.output).toBe(0);
  expect(Object.keys(run.reports)).toHaveLength(18);
  expect(run.index.tests).toHaveLength(18);
  for (const r of Object.values(run.reports)) reportSchema.parse(r);
});

test('seed 000: a side-effect error travels with the successful result', () => {
  const r = report('side-effect error');
  expect(r.jobs).toHaveLength(1);
  expect(r.jobs[0].ok).toBe(true);
  expect(r.jobs[0].value).toBe('success');
  expect(r.jobs[0].events.map((e: any) => [e.source, e.message])).toEqual([['window.onerror', 'Error: background error']]);
  const md = markdown('side-effect error');
  // The error is written in full once, under "Unexpected errors"; the job's reply refers to it at its place. The
  // job's duration is "340ms", or "1.1s" on a loaded machine (formatDuration): a run beside a CPU hog printed that.
  expect(md).toMatch(/> \*\*page\*\* to agent at \d\d:\d\d:\d\d \((?:\d+ms|\d+\.\ds)\)\n```JSON\n"success"\n```\n↑ unexpected error 1 \(`window\.onerror`\), written in full above\n/);
  expect(md).toMatch(/## Unexpected errors\n[\s\S]*```Error window.onerror\nError: background error\n[\s\S]*## Transcript/);
});

test('seed 000: a forgotten rejection is an unhandledrejection of the job', () => {
  const r = report('forgotten rejection');
  expect(r.jobs[0].value).toBe('completed');
  expect(r.jobs[0].events.map((e: any) => e.source)).toEqual(['unhandledrejection']);
  expect(markdown('forgotten rejection')).toContain('```Error unhandledrejection\nError: forgotten rejection');
});

test('seed 000: multiple errors are all kept, in order', () => {
  const r = report('multiple concurrent errors');
  expect(r.jobs[0].events.filter((e: any) => e.type === 'error').map((e: any) => e.message)).toEqual(['Error: error 0', 'Error: error 1', 'Error: error 2']);
});

test('seed 000: functions and undefined have readable values', () => {
  const values = report('special values').jobs.map((j: any) => j.value);
  expect(values).toEqual(['function myFunc() {}', 'undefined', { a: [1, 'two'], b: null }, 3]);
  expect(markdown('special values')).toContain('```JSON\n"function myFunc() {}"\n```');
  expect(report('special values').jobs[3].code).toBe('1 + 2');
});

test('seed 002: eval errors are the job error, never also a background event', () => {
  const r = report('eval error is not duplicated');
  expect(r.jobs.map((j: any) => j.ok)).toEqual([false, false]);
  expect(r.jobs[0].error.message).toContain('TypeError: eval itself failed');
  expect(r.jobs[1].error.message).toContain('async eval failure');
  expect(r.events.filter((e: any) => e.type === 'error')).toEqual([]);
  expect(markdown('eval error is not duplicated')).toMatch(/```Error\nTypeError: eval itself failed/);
});

test('seed 000: the buffer is per job', () => {
  const r = report('errors do not leak into the next job');
  expect(r.jobs[0].events).toHaveLength(1);
  expect(r.jobs[1].events).toEqual([]);
  expect(r.jobs[1].value).toBe('clean second job');
});

test('seed 002: console output gets fences named by source alone', () => {
  const md = markdown('console fences');
  for (const fence of ['```JSON console.log\nplain text', '```JSON console.log\nstructured {"answer":42,"list":[1,2]}', '```Text console.info\nan info', '```Text console.warn\na warning', '```Error console.error\nan error from a library', '```Text console.debug\na debug line']) {
    expect(md).toContain(fence);
  }
  const r = report('console fences');
  expect(r.summary).toMatchObject({ console: 6, unexpected: 1 });
  expect(r.events.find((e: any) => e.source === 'console.error').unexpected).toBe(true);
});

test('seed 002: events outside jobs are background blocks of their realm', () => {
  const md = markdown('background only');
  expect(md).toMatch(/> \*\*page\*\* background at \d\d:\d\d:\d\d\n```Text navigation\n/);
  expect(md).toContain('```Error window.onerror\nError: background timer error');
  expect(md).toContain('```Error unhandledrejection\nError: forgotten rejection');
  expect(md).toContain('```JSON console.log\npage loaded {"items":[1,2,3],"nested":{"deep":true}}');
  const r = report('background only');
  expect(r.jobs).toEqual([]);
  expect(r.events.every((e: any) => e.jobId === undefined)).toBe(true);
});

test('seed 002: more than 10 events show the first 2, a count, and the last 8', () => {
  const md = markdown('truncation');
  const block = md.slice(md.indexOf('> **page** to agent'), md.indexOf('-'.repeat(70), md.indexOf('> **page** to agent')));
  const events = report('truncation').jobs[0].events;
  // Under load Chromium may add a line of its own; the rule is about positions, so derive them from the JSON.
  expect(events.filter((e: any) => e.source === 'console.log')).toHaveLength(15);
  const shown = [...block.matchAll(/```\w+ [\w.]+\n([^\n]*)\n```/g)].map((m) => m[1]);
  const expected = [...events.slice(0, 2), ...events.slice(-8)].map((e: any) => e.message);
  expect(shown).toEqual(expected);
  expect(block).toContain(`… ${events.length - 10} more events …`);
  expect(shown[0]).toBe('tick 1');
  expect(shown[9]).toBe('tick 15');
});

test('seed 002: worker events carry the worker realm and self.onerror', () => {
  const r = report('worker realm');
  const worker = r.events.filter((e: any) => e.realm === 'worker:worker.js');
  expect(worker.map((e: any) => e.source)).toEqual(expect.arrayContaining(['worker.start', 'console.info', 'console.log', 'self.onerror', 'unhandledrejection', 'console.error']));
  expect(r.realms).toEqual(expect.arrayContaining(['page', 'worker:worker.js']));
  const evalInWorker = r.jobs[r.jobs.length - 1];
  expect(evalInWorker.realm).toBe('worker:worker.js');
  expect(evalInWorker.value).toBe('function');
  const md = markdown('worker realm');
  expect(md).toContain('```Error self.onerror\nError: worker uncaught');
  expect(md).toContain('> **agent** to worker:worker.js at');
  expect(md).toContain('> **worker:worker.js** to agent at');
});

test('action blocks are jobs and step events sit under the step', () => {
  const r = report('action block job and steps');
  const job = r.jobs.find((j: any) => j.title === 'click the boom button');
  expect(job.events.map((e: any) => e.message)).toEqual(['Error: clicked boom']);
  const rejection = r.events.find((e: any) => e.message === 'Error: clicked rejection');
  expect(rejection.step).toBe('reject from a step');
  expect(rejection.jobId).toBeUndefined();
  const md = markdown('action block job and steps');
  expect(md).toContain('> **agent** job `click the boom button` at');
  expect(md).toContain('#### Step: reject from a step');
});

test('popups are captured as page-2', () => {
  const r = report('popup realm');
  expect(r.events.find((e: any) => e.message === 'Error: popup error').realm).toBe('page-2');
});

test('non-Error throws and rejections still have useful messages', () => {
  const errors = report('non-error throws').events.filter((e: any) => e.type === 'error');
  expect(errors.map((e: any) => [e.source, e.message])).toEqual(
    expect.arrayContaining([
      ['window.onerror', 'a plain string'],
      ['unhandledrejection', 'undefined'],
      ['unhandledrejection', '{"code":1}'],
    ]),
  );
});

test('errors() returns the most recent, oldest first', () => {
  expect(report('errors api').test.status).toBe('passed');
});

test("a failed request is one network event (Chromium's log line merged into it), not unexpected", () => {
  const r = report('chromium log lines');
  // With daebugNetwork's default ('report') Chromium's "Failed to load resource" line is the request's network event.
  expect(r.events.filter((e: any) => e.source.startsWith('browser.'))).toEqual([]);
  const log = r.events.find((e: any) => e.source === 'network');
  expect(log.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/status\?code=404 404 \(Not Found\)$/);
  expect(log.unexpected).toBeUndefined();
  expect(r.summary.unexpected).toBe(0);
});

test('other console types are captured with their own sources', () => {
  const events = report('other console types').events;
  const bySource = (source: string) => events.find((e: any) => e.source === source);
  expect(bySource('console.table')).toBeTruthy();
  expect(bySource('console.dir').message).toContain('"dir":true');
  expect(bySource('console.trace').stack).toMatch(/\n\s+at /);
  expect(bySource('console.count').message).toBe('clicks: 1');
  expect(bySource('console.assert').message).toBe('Assertion failed: assertion text');
  expect(bySource('console.startGroup').message).toBe('a group');
});

test('console arguments follow the seed 002 serialization rules', () => {
  const messages = report('serialization rules').events.filter((e: any) => e.source === 'console.log').map((e: any) => e.message);
  expect(messages[0]).toBe('circular {"name":"loop","self":"[Circular]"}');
  expect(messages[1]).toBe('deep {"l1":{"l2":{"l3":"[Object]"}}}');
  expect(messages[2]).toBe('fn {"handler":"[Function: onClick]"}');
  expect(messages[3]).toBe(`${'x'.repeat(1000)} …[truncated, 5000 chars]`);
});

test('workers starting and closing are on the timeline', () => {
  const sources = report('worker lifecycle').events.filter((e: any) => e.realm === 'worker:worker.js').map((e: any) => e.source);
  expect(sources[0]).toBe('worker.start');
  expect(sources[sources.length - 1]).toBe('worker.close');
});
