/**
 * The tap drops every event of Playwright's sessions that capture does not read (TAPPED_METHODS). An event capture
 * compares a method with, in any file it reads Playwright's sessions through, must be in that set: a method missing
 * there would be dropped silently, and its events lost.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { TAPPED_METHODS } from '../../src/capture/cdp/tapped-target';

const CAPTURE = path.join(__dirname, '..', '..', 'src', 'capture');

// Read on daebug's own sessions only (own-session-target.ts parses its own messages; browser-connection.ts's browser
// session and the tap's attach and detach, which are handled before the filter).
const OWN_SESSION_ONLY = new Set(['Target.attachedToTarget', 'Target.detachedFromTarget', 'Target.receivedMessageFromTarget', 'Target.targetCreated', 'Target.targetInfoChanged']);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'in-page' ? [] : sources(file);
    return entry.name.endsWith('.ts') && entry.name !== 'own-session-target.ts' ? [file] : [];
  });
}

describe('the methods the tap lets through', () => {
  it('hold every event capture compares a method with', () => {
    const read = new Set<string>();
    const compared = /(?:case|===|!==)\s*'((?:Runtime|Network|Page|Log|Audits|Target|Inspector|Debugger|ServiceWorker)\.[A-Za-z]+)'/g;
    for (const file of sources(CAPTURE)) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(compared)) read.add(match[1]!);
    }
    // The checker sees what it must: the events of runtime.ts, network.ts and the crash.
    for (const known of ['Runtime.consoleAPICalled', 'Network.loadingFailed', 'Inspector.targetCrashed']) assert.ok(read.has(known), `${known} not found in the sources`);
    const missing = [...read].filter((method) => !OWN_SESSION_ONLY.has(method) && !TAPPED_METHODS.has(method));
    assert.deepEqual(missing, []);
  });
});
