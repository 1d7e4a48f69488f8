import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cleanStaleTemps, writeAtomic, writeAtomicAsync } from '../../src/io/atomic-write';
import { DaebugReportWriteError } from '../../src/errors';
import { tempDir as makeTempDir } from './helpers/temp-dir';
import { deadPid } from './helpers/dead-pid';

const TEMP_MARK = '.daebug-tmp-';

const tempDir = (): string => makeTempDir('write');


describe('writeAtomic', () => {
  it('replaces a file whole and leaves no temp file', () => {
    const dir = tempDir();
    const file = path.join(dir, 'r.json');
    writeAtomic(file, '{"a":1}');
    writeAtomic(file, '{"a":2}');
    assert.equal(fs.readFileSync(file, 'utf8'), '{"a":2}');
    assert.deepEqual(fs.readdirSync(dir), ['r.json']);
  });

  it('a failed write keeps the old file, removes its temp file and says what failed, where, and what to try', () => {
    const dir = tempDir();
    const file = path.join(dir, 'r.json');
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'keep'), 'x');
    assert.throws(
      () => writeAtomic(file, '{}'),
      (error: unknown) =>
        error instanceof DaebugReportWriteError &&
        error.code === 'DAEBUG_REPORT_WRITE_FAILED' &&
        error.message.includes(file) &&
        /Hint: .*writable/.test(error.message) &&
        error.context['path'] === file,
    );
    assert.deepEqual(fs.readdirSync(dir), ['r.json']);
  });

  it('a process killed in the middle of writing never leaves a truncated report', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'big.json');
    const writer = path.join(__dirname, '..', '..', 'src', 'io', 'atomic-write.ts');
    // Alternates two 4 MB JSON documents as fast as it can, saying "ready" once it wrote one; the test kills it
    // at random moments after that (a slow start on a loaded machine must not read as "never wrote").
    const script = `
      const { writeAtomic } = require(${JSON.stringify(writer)});
      const docs = ['a', 'b'].map((c) => JSON.stringify({ c, body: c.repeat(4 * 1024 * 1024) }));
      writeAtomic(${JSON.stringify(file)}, docs[1]);
      process.stdout.write('ready\\n');
      for (let i = 0; ; i++) writeAtomic(${JSON.stringify(file)}, docs[i % 2]);
    `;
    for (let round = 0; round < 8; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
      await new Promise<void>((resolve, reject) => {
        child.stdout!.once('data', () => resolve());
        child.once('exit', () => reject(new Error('the writer exited before its first write')));
      });
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('close', resolve));
      if (!fs.existsSync(file)) continue;
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { c: string; body: string };
      assert.equal(parsed.body.length, 4 * 1024 * 1024);
      assert.equal(parsed.body[0], parsed.c);
    }
    assert.ok(fs.existsSync(file), 'the writer never completed a write');
    // What a killed writer leaves is only its temp files, which the next run removes.
    const left = fs.readdirSync(dir).filter((n) => n.includes(TEMP_MARK));
    assert.equal(cleanStaleTemps(dir), left.length);
    assert.deepEqual(fs.readdirSync(dir), ['big.json']);
  });
});

describe('cleanStaleTemps', () => {
  it('removes temp files of dead processes, keeps those of live ones and every other file', () => {
    const dir = tempDir();
    const dead = `a.json${TEMP_MARK}${deadPid()}-3`;
    const live = `b.json${TEMP_MARK}${process.ppid}-1`;
    const own = `c.json${TEMP_MARK}${process.pid}-1`;
    for (const name of [dead, live, own, 'report.json', 'index.md']) fs.writeFileSync(path.join(dir, name), '');
    assert.equal(cleanStaleTemps(dir), 1);
    assert.deepEqual(fs.readdirSync(dir).sort(), [live, own, 'index.md', 'report.json'].sort());
  });

  it('reads a missing folder as empty', () => {
    assert.equal(cleanStaleTemps(path.join(tempDir(), 'missing')), 0);
  });
});

describe('writeAtomicAsync', () => {
  it('leaves no temp file when the process exits while a write is under way', () => {
    const dir = tempDir();
    const script = `
      const { writeAtomicAsync } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'src', 'io', 'atomic-write.ts'))});
      const file = require('node:path').join(${JSON.stringify(dir)}, 'report.json');
      // The temp file is written on the thread pool; the process exits before the write can end.
      void writeAtomicAsync(file, 'x'.repeat(8 * 1024 * 1024));
      setTimeout(() => process.exit(0), 1);
    `;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(fs.readdirSync(dir).filter((name) => name.includes(TEMP_MARK)), []);
  });

  it('writes nothing when the write is no longer wanted before it starts', async () => {
    const dir = tempDir();
    await writeAtomicAsync(path.join(dir, 'a.json'), '{}', () => false);
    assert.deepEqual(fs.readdirSync(dir), []);
  });
});
