import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Recorder } from '../../src/capture/recorder';
import { resolveOptions } from '../../src/options';
import { formatLiveReport, type RunningTest } from '../../src/live/live-view';
import { liveEnvValue, liveReportsTarget } from '../../src/live/live-env';
import { LIVE_IDLE_REFRESH_MS, LiveReport, startLiveReport } from '../../src/live/live-report';
import { tempDir } from './helpers/temp-dir';
import { markRunEnded, removeEndedMarkers } from '../../src/live/run-ended';
import { writeAtomic } from '../../src/io/atomic-write';
import { formatIndexMarkdown, type IndexEntry } from '../../src/format/index-markdown';
import { structureProblems } from '../../e2e/helpers/markdown-structure';
import { deadPid } from './helpers/dead-pid';

function recorder(): Recorder {
  return new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }));
}

function tick(rec: Recorder, timeMs: number, message: string): void {
  rec.add({ type: 'console', level: 'log', source: 'console.log', realm: 'page', timeMs, message });
}

const running: RunningTest = { title: 'ticks', titlePath: ['live.spec.ts', 'ticks'], file: 'live.spec.ts', line: 3, project: '', expectedStatus: 'passed', retry: 0, startMs: 0 };

describe('formatLiveReport (src/live/live-view.ts)', () => {
  it("shows finished jobs as the final report does, and the running job's events so far ending in executing (Ns)", () => {
    const rec = recorder();
    const done = rec.startSpan('eval', 'page', { code: '() => 1' });
    rec.finishSpan(done, { ok: true, value: 1 });
    const job = rec.startSpan('eval', 'page', { code: 'loop()' });
    tick(rec, job.startMs + 1, 'tick 1');
    tick(rec, job.startMs + 2, 'tick 2');
    const md = formatLiveReport(rec.record(), { ...running, startMs: done.startMs - 500 }, job.startMs + 12_400, 65536);

    assert.match(md, /^# live\.spec\.ts › ticks\n/);
    assert.match(md, /- Status: \*\*running\*\* \(live report written at \d\d:\d\d:\d\d; the final report replaces it when the test ends\)/);
    assert.ok(md.includes('- Duration: '), md);
    assert.ok(md.includes('```JSON\n1\n```'), 'the finished job has its value');
    assert.match(md, /> \*\*page\*\* to agent at \d\d:\d\d:\d\d \(executing\)\n```JSON console\.log\ntick 1\n```\n```JSON console\.log\ntick 2\n```\nexecuting \(12s\)\n/);
    assert.deepEqual(structureProblems(md), []);
    assert.ok(!md.includes('unfinished'), 'a running job is executing, not cut off');
    assert.ok(md.trimEnd().endsWith('at most every 2 s._'));
    assert.equal(md.match(/executing \(/g)?.length, 1);
  });

  it("says nothing happened so far when there is nothing, closes with the test's executing (Ns) between jobs, and stays within its byte budget", () => {
    const empty = formatLiveReport(recorder().record(), running, 3000, 65536);
    assert.ok(empty.includes('- Duration: 3.0s so far'), empty);

    const rec = recorder();
    const job = rec.startSpan('eval', 'page', { code: 'flood()' });
    // In one millisecond, so in one second of the budget (100 a second): spread over 200 ms, a flood that crossed a
    // second's boundary kept up to 125 on each side, dropped nothing, and the report had no "Dropped events" to check.
    for (let i = 0; i < 200; i++) tick(rec, job.startMs + 1, `line ${i} ${'x'.repeat(200)}`);
    const md = formatLiveReport(rec.record(), running, job.startMs + 5000, 8192);
    assert.ok(Buffer.byteLength(md) <= 8192, `${Buffer.byteLength(md)} bytes`);

    rec.finishSpan(job, { ok: true, value: 'done' });
    const between = formatLiveReport(rec.record(), { ...running, startMs: job.startMs - 1000 }, job.startMs + 7000, 65536);
    assert.equal(between.match(/executing \(/g)?.length, 1);
    assert.deepEqual(structureProblems(between), []);
    assert.ok(between.includes('between 2026') && between.includes('.\n\nexecuting (8s)\n\n_The test is still running'), between.slice(-400));
    assert.ok(formatLiveReport(recorder().record(), running, 3000, 65536).endsWith('so far.\n\nexecuting (3s)\n\n_The test is still running: this live report is rewritten when something new happens, at most every 2 s._\n'));
  });

  it('is pure: the same record, test and time give the same text', () => {
    const rec = recorder();
    const job = rec.startSpan('job', 'test', { title: 'wait', code: 'async () => {}' });
    tick(rec, job.startMs + 1, 'x');
    const record = rec.record();
    assert.equal(formatLiveReport(record, running, job.startMs + 2000, 65536), formatLiveReport(record, running, job.startMs + 2000, 65536));
  });
});

describe('liveReportsTarget (src/live/live-env.ts)', () => {
  const value = liveEnvValue({ dir: '/r', maxReportBytes: 4096 }, 1234);

  it('is the reporter folder for a worker of the runner that set it', () => {
    assert.deepEqual(liveReportsTarget(value, 1234), { dir: '/r', maxReportBytes: 4096, runner: 1234 });
  });

  it('is nothing for a process that inherited the setting from another run, or without it', () => {
    assert.equal(liveReportsTarget(value, 99), undefined);
    assert.equal(liveReportsTarget(undefined, 1234), undefined);
    assert.equal(liveReportsTarget('', 1234), undefined);
    assert.equal(liveReportsTarget('not json', 1234), undefined);
    assert.equal(liveReportsTarget('{"runner":1234}', 1234), undefined);
  });
});

describe('LiveReport (src/live/live-report.ts)', () => {
  it('writes only when the recorder changed, and never after stop()', async () => {
    const dir = tempDir('live');
    const file = path.join(dir, 'sub', 't.md');
    const rec = recorder();
    const live = new LiveReport(rec, { ...running, startMs: Date.now() }, file, 65536, process.ppid);
    try {
      await live.update();
      assert.ok(fs.readFileSync(file, 'utf8').includes('so far'), 'the first update writes (and makes the folder)');
      fs.rmSync(file);
      await live.update();
      assert.equal(fs.existsSync(file), false, 'nothing changed: no write');
      tick(rec, Date.now(), 'news');
      await live.update();
      assert.ok(fs.readFileSync(file, 'utf8').includes('news'));
      await live.stop();
      fs.rmSync(file);
      tick(rec, Date.now(), 'late');
      await live.update();
      assert.equal(fs.existsSync(file), false, 'stopped: the final report is the reporter’s');
    } finally {
      await live.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rewrites an idle report every LIVE_IDLE_REFRESH_MS, so its executing time does not stand still', async () => {
    const dir = tempDir('live');
    const file = path.join(dir, 't.md');
    let now = Date.now();
    const live = new LiveReport(recorder(), { ...running, startMs: now }, file, 65536, process.ppid, () => now);
    try {
      await live.update();
      assert.match(fs.readFileSync(file, 'utf8'), /executing \(0s\)/);
      fs.rmSync(file);
      now += LIVE_IDLE_REFRESH_MS - 1;
      await live.update();
      assert.equal(fs.existsSync(file), false, 'nothing changed and the shown time is recent: no write');
      now += 1;
      await live.update();
      assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`executing \\(${LIVE_IDLE_REFRESH_MS / 1000}s\\)`));
    } finally {
      await live.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes off the test thread, and a stop() during a write means that write renames nothing', async () => {
    const dir = tempDir('live');
    const file = path.join(dir, 't.md');
    const live = new LiveReport(recorder(), running, file, 65536, process.ppid);
    try {
      const writing = live.update();
      assert.equal(fs.existsSync(file), false, 'update() returns before the file is written');
      await live.stop();
      await writing;
      assert.deepEqual(fs.readdirSync(dir), [], 'no live file and no temp file after stop() resolved');
    } finally {
      await live.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops writing once the runner that forked this worker is gone', async () => {
    const dir = tempDir('live');
    const file = path.join(dir, 't.md');
    const live = new LiveReport(recorder(), running, file, 65536, process.ppid + 1);
    try {
      await live.update();
      assert.equal(fs.existsSync(file), false);
    } finally {
      await live.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stops writing once its runner marked the run ended (SIGTERM), even with a write already under way", async () => {
    const dir = tempDir('live');
    const file = path.join(dir, 't.md');
    const rec = recorder();
    const live = new LiveReport(rec, running, file, 65536, process.ppid);
    try {
      await live.update();
      assert.ok(fs.existsSync(file));
      fs.rmSync(file);
      markRunEnded(dir, process.ppid);
      tick(rec, Date.now(), 'after the end');
      await live.update();
      assert.deepEqual(fs.readdirSync(dir), [`.daebug-run-${process.ppid}.ended`]);
      // The check right before the rename: a write that began before the marker is called off.
      assert.equal(writeAtomic(file, 'x', () => false), false);
      assert.deepEqual(fs.readdirSync(dir), [`.daebug-run-${process.ppid}.ended`]);
      // The next run's reporter removes markers of runners that are gone, and keeps those of live ones.
      markRunEnded(dir, deadPid());
      removeEndedMarkers(dir);
      assert.deepEqual(fs.readdirSync(dir), [`.daebug-run-${process.ppid}.ended`]);
    } finally {
      await live.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts what changes a record: events, read values, jobs, realms, diagnostics', () => {
    const rec = recorder();
    const seen = [rec.changes];
    const step = (label: string, change: () => void) => {
      change();
      assert.ok(rec.changes > seen[seen.length - 1]!, label);
      seen.push(rec.changes);
    };
    step('event', () => tick(rec, Date.now(), 'a'));
    step('value read', () => rec.changed());
    const span = rec.startSpan('eval', 'page');
    assert.ok(rec.changes > seen[seen.length - 1]!, 'job start');
    seen.push(rec.changes);
    step('job end', () => rec.finishSpan(span, { ok: true }));
    step('realm', () => rec.addRealm('page-2'));
    step('diagnostic', () => rec.diagnose(new Error('x')));
    const before = rec.changes;
    rec.addRealm('page-2');
    rec.events();
    rec.record();
    assert.equal(rec.changes, before, 'reading and known realms change nothing');
  });

  it('a write that fails stops the live report and leaves one diagnostic for the final report', async () => {
    const dir = tempDir('live');
    const blocker = path.join(dir, 'file');
    fs.writeFileSync(blocker, '');
    const rec = recorder();
    const live = new LiveReport(rec, running, path.join(blocker, 'under-a-file', 't.md'), 65536, process.ppid);
    try {
      await live.update();
      tick(rec, Date.now(), 'again');
      await live.update();
      const diagnostics = rec.record().diagnostics;
      assert.equal(diagnostics.length, 1);
      assert.equal(diagnostics[0]!.code, 'DAEBUG_REPORT_WRITE_FAILED');
    } finally {
      await live.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('formatIndexMarkdown with running tests', () => {
  const entry = (title: string, status: string): IndexEntry => ({
    title,
    titlePath: ['a.spec.ts', title],
    file: 'a.spec.ts',
    line: 1,
    project: '',
    status,
    expectedStatus: 'passed',
    retry: 0,
    attempts: 1,
    duration: 0,
    summary: { errors: 0, unexpected: 0, console: 0, dropped: 0 },
    markdown: `${title}.md`,
    json: `${title}.json`,
  });

  it('lists running tests first, with their live report, and does not count them as failed', () => {
    const md = formatIndexMarkdown({ schemaVersion: 1, status: 'running', interrupted: false, startedAt: '', updatedAt: '', outputDir: '/r', tests: [entry('done', 'passed'), entry('bad', 'failed'), entry('slow', 'running')] });
    assert.ok(md.includes('- Tests: 3 (1 running, with live reports), 1 not as expected'), md);
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Status') && !l.startsWith('| ---'));
    assert.deepEqual(
      rows.map((r) => r.split(' | ')[0]),
      ['| running', '| **failed**', '| passed'],
    );
    assert.ok(rows[0]!.endsWith('[slow.md](slow.md) |'));
  });
});


describe('startLiveReport (src/live/live-report.ts)', () => {
  it('writes nothing when the test starts: the first write is at the first tick, so a test that ends sooner writes no live report', async () => {
    const dir = tempDir('live-start');
    const testInfo = {
      config: { rootDir: dir, projects: [{}] },
      file: path.join(dir, 'quick.spec.ts'),
      titlePath: ['quick.spec.ts', 'quick'],
      title: 'quick',
      line: 1,
      project: { name: '' },
      expectedStatus: 'passed',
      retry: 0,
      repeatEachIndex: 0,
    } as unknown as import('@playwright/test').TestInfo;
    const live = startLiveReport(recorder(), testInfo, { dir, maxReportBytes: 65536, runner: process.ppid });
    assert.ok(live);
    try {
      // update() marks what it wrote synchronously, before the file lands: no write was started.
      assert.equal((live as unknown as { written: number }).written, -1);
      assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.md')), []);
      await live.update();
      assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('.md')).length, 1, 'the tick writes it');
    } finally {
      await live.stop();
    }
  });
});
