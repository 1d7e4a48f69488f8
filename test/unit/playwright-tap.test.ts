// The fast path's version gate: peerDependencies leave @playwright/test open above the newest tested version, so a
// newer Playwright must reach the internals check and, when its internals are not the known ones, fall back to
// daebug's own sessions with a DAEBUG_DEBUG line saying why.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { NEWEST_TESTED, tapPlaywright, versionGate } from '../../src/capture/cdp/playwright-tap';

/** What `run` wrote to stderr with DAEBUG_DEBUG=1. */
async function debugLines(run: () => Promise<unknown>): Promise<{ value: unknown; lines: string[] }> {
  const before = process.env['DAEBUG_DEBUG'];
  const write = process.stderr.write;
  let text = '';
  process.env['DAEBUG_DEBUG'] = '1';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    const value = await run();
    return { value, lines: text.split('\n').filter(Boolean) };
  } finally {
    process.stderr.write = write;
    if (before === undefined) delete process.env['DAEBUG_DEBUG'];
    else process.env['DAEBUG_DEBUG'] = before;
  }
}

/** A client Browser whose server-side object is `server`, as `connection.toImpl` hands it out in the runner's process. */
function browserWith(server: unknown): Browser {
  return { _connection: { toImpl: () => server } } as unknown as Browser;
}

describe('playwright-tap: the version gate', () => {
  it('refuses versions older than the fast path and unknown versions, lets the tested ones try without a word', () => {
    assert.match(versionGate('1.57.0').refusal ?? '', /^@playwright\/test 1\.57\.0 is older than 1\.65$/);
    assert.match(versionGate(undefined).refusal ?? '', /\(version unknown\)/);
    assert.deepEqual(versionGate('1.65.1'), {});
    assert.deepEqual(versionGate(`${NEWEST_TESTED.join('.')}.0`), {});
  });

  it('lets a version above the newest tested try, with a note that its internals are checked', () => {
    for (const version of ['1.66.0', '1.70.2', '2.0.0', '1.66.0-beta-1']) {
      const gate = versionGate(version);
      assert.equal(gate.refusal, undefined, version);
      assert.match(gate.note ?? '', new RegExp(`^@playwright/test ${version.replace(/\./g, '\\.')} is newer than 1\\.65, the newest daebug was tested on`), version);
    }
  });

  it('NEWEST_TESTED is the devDependency that the e2e tests run', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const [major, minor] = /(\d+)\.(\d+)/.exec(manifest.devDependencies['@playwright/test'] ?? '')!.slice(1).map(Number);
    assert.deepEqual(NEWEST_TESTED, [major, minor]);
  });
});

describe('playwright-tap: a newer Playwright with unknown internals falls back to daebug\'s own sessions', () => {
  const cases: { name: string; server: unknown; reason: RegExp }[] = [
    { name: 'no server-side Browser', server: undefined, reason: /no server-side Browser in this process/ },
    { name: 'a connection without the fields read', server: { _connection: { _sessions: new Map(), _transport: {} } }, reason: /its connection has no root session in _sessions/ },
    { name: 'sessions renamed', server: { _connection: { sessions: new Map() } }, reason: /its connection has no _sessions Map/ },
    {
      name: "fields there, Chromium's answers elsewhere",
      server: { _connection: { _sessions: new Map([['', { send: async () => ({}) }]]), _transport: { onmessage() {} } } },
      reason: /an answer on Playwright's session did not pass through _transport\.onmessage/,
    },
  ];
  for (const [i, { name, server, reason }] of cases.entries()) {
    it(name, async () => {
      // A version of its own per case: the gate's note is said once per version and process.
      const version = `1.${70 + i}.0`;
      const { value, lines } = await debugLines(() => tapPlaywright(browserWith(server), version));
      assert.equal(value, undefined);
      assert.equal(lines.length, 2, lines.join('\n'));
      assert.match(lines[0]!, new RegExp(`^\\[daebug\\] @playwright/test ${version.replace(/\./g, '\\.')} is newer than 1\\.65`));
      assert.match(lines[1]!, /^\[daebug\] Playwright's own CDP sessions are not read \(.*\): capture uses daebug's own sessions$/);
      assert.match(lines[1]!, reason);
    });
  }

  it('an old version is refused before any internal is read', async () => {
    let read = false;
    const browser = { get _connection() { read = true; return undefined; } } as unknown as Browser;
    const { value, lines } = await debugLines(() => tapPlaywright(browser, '1.60.0'));
    assert.equal(value, undefined);
    assert.equal(read, false);
    assert.deepEqual(lines, ["[daebug] Playwright's own CDP sessions are not read (@playwright/test 1.60.0 is older than 1.65): capture uses daebug's own sessions"]);
  });
});
