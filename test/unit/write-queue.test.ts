import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { MAX_WAITING, WriteQueue } from '../../src/reporter/write-queue';
import { DaebugReportWriteError } from '../../src/errors';
import { tempDir as makeTempDir } from './helpers/temp-dir';

const tempDir = (): string => makeTempDir('queue');

describe('WriteQueue', () => {
  it('writes every file whole, and drain() resolves once they are on disk', async () => {
    const dir = tempDir();
    const queue = new WriteQueue((error) => assert.fail(String(error)));
    for (let i = 0; i < 20; i++) queue.write([[path.join(dir, `r${i}.json`), JSON.stringify({ i, pad: 'x'.repeat(10_000) })]]);
    await queue.drain();
    const names = fs.readdirSync(dir).sort();
    assert.equal(names.length, 20, `no temp files left: ${names.join(', ')}`);
    for (let i = 0; i < 20; i++) assert.equal(JSON.parse(fs.readFileSync(path.join(dir, `r${i}.json`), 'utf8')).i, i);
  });

  it('lets a newer write of a file replace one still waiting, so the last content wins', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'index.json');
    const queue = new WriteQueue((error) => assert.fail(String(error)));
    queue.write([[path.join(dir, 'first.json'), '1']]);
    for (let i = 0; i <= 50; i++) queue.write([[file, String(i)]]);
    await queue.drain();
    assert.equal(fs.readFileSync(file, 'utf8'), '50');
  });

  it('past MAX_WAITING writes waiting, writes the next at once: memory stays bounded, nothing is lost', async () => {
    const dir = tempDir();
    const queue = new WriteQueue((error) => assert.fail(String(error)));
    const index = path.join(dir, 'index.json');
    queue.write([[index, 'old']]);
    for (let i = 0; i < 300; i++) queue.write([[path.join(dir, `r${i}.json`), String(i)]]);
    const onDisk = fs.readdirSync(dir).filter((n) => /^r\d+\.json$/.test(n)).length;
    assert.ok(onDisk >= 300 - MAX_WAITING, `${onDisk} reports on disk at once: the backlog grew past ${MAX_WAITING}`);
    // The index is being written: a newer one waits its turn rather than land before the older content.
    queue.write([[index, 'new']]);
    await queue.drain();
    assert.equal(fs.readFileSync(index, 'utf8'), 'new');
    for (let i = 0; i < 300; i++) assert.equal(fs.readFileSync(path.join(dir, `r${i}.json`), 'utf8'), String(i));
    assert.deepEqual(fs.readdirSync(dir).filter((n) => !n.endsWith('.json')), [], 'no temp files left');
  });

  it('does not block the event loop: a timer runs while the writes are under way', async () => {
    const dir = tempDir();
    const queue = new WriteQueue((error) => assert.fail(String(error)));
    for (let i = 0; i < 200; i++) queue.write([[path.join(dir, `f${i}.md`), 'y'.repeat(50_000)]]);
    let ticked = false;
    setImmediate(() => (ticked = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(ticked);
    assert.ok(fs.readdirSync(dir).filter((n) => n.endsWith('.md')).length < 200, 'writes continue after the caller went on');
    await queue.drain();
    assert.equal(fs.readdirSync(dir).filter((n) => n.endsWith('.md')).length, 200);
  });

  it('flushSync() writes what is waiting at once, and later writes go straight to disk', () => {
    const dir = tempDir();
    const queue = new WriteQueue((error) => assert.fail(String(error)));
    for (let i = 0; i < 10; i++) queue.write([[path.join(dir, `s${i}.json`), String(i)]]);
    queue.flushSync();
    for (let i = 0; i < 10; i++) assert.equal(fs.readFileSync(path.join(dir, `s${i}.json`), 'utf8'), String(i));
    queue.write([[path.join(dir, 'after.json'), 'now']]);
    assert.equal(fs.readFileSync(path.join(dir, 'after.json'), 'utf8'), 'now');
  });

  it('reports a write that fails as a DaebugReportWriteError, skips the files after it, runs its onFail and goes on', async () => {
    const dir = tempDir();
    const errors: unknown[] = [];
    const queue = new WriteQueue((error) => errors.push(error));
    // A report's Markdown is not written when its JSON could not be: no .md without its .json.
    fs.writeFileSync(path.join(dir, 'a.md'), 'live');
    queue.write([[path.join(dir, 'missing-folder', 'a.json'), 'a'], [path.join(dir, 'a.md'), 'a']], () => fs.rmSync(path.join(dir, 'a.md')));
    queue.write([[path.join(dir, 'b.json'), 'b'], [path.join(dir, 'b.md'), 'b']]);
    await queue.drain();
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof DaebugReportWriteError);
    assert.equal(fs.readFileSync(path.join(dir, 'b.md'), 'utf8'), 'b');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['b.json', 'b.md']);
  });
});
