import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMarkdown } from '../../src/format/markdown';
import { reportSchema, type Attempt, type DaebugEvent, type Job, type Report } from '../../src/model/schema';
import { headingOutline, structureProblems } from '../../e2e/helpers/markdown-structure';

// The Markdown report's byte budget against reports that hold far more than it: whatever a page did (and
// whatever limits a user chose), the report stays under its budget, keeps its structure and counts what it left out.

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const iso = (ms: number) => new Date(T0 + ms).toISOString();

function event(ms: number, fields: Partial<DaebugEvent>): DaebugEvent {
  return { type: 'console', source: 'console.log', level: 'log', realm: 'page', ts: '10:00:00', time: iso(ms), message: 'm', expected: false, ...fields };
}

function hostileAttempt(retry: number): Attempt {
  const bigStack = `Error: ${'é'.repeat(2000)}\n${'    at f (http://x/a.js:1:2)\n'.repeat(20_000)}`;
  const events: DaebugEvent[] = [];
  for (let i = 0; i < 60; i++) events.push(event(i, { type: 'error', source: 'window.onerror', level: 'error', message: `Error ${i}: ${'é'.repeat(2000)}`, stack: bigStack, unexpected: true, snippet: '> 1 | x'.repeat(500), hint: 'h'.repeat(2000) }));
  for (let i = 0; i < 2000; i++) events.push(event(100 + i, { realm: i % 2 ? 'page' : 'worker:w.js', message: `line ${i} ${'🔥'.repeat(500)}` }));
  const jobs: Job[] = Array.from({ length: 300 }, (_, i) => ({
    id: `job-${i}`,
    kind: 'eval' as const,
    realm: 'page',
    code: 'x'.repeat(20_000),
    startedAt: iso(5000 + i),
    finishedAt: iso(5000 + i),
    durationMs: 1,
    ok: true,
    finished: true,
    value: 'v'.repeat(20_000),
    events: [],
  }));
  return {
    schemaVersion: 1,
    test: { title: 'ü'.repeat(300), titlePath: ['a.spec.ts', 'ü'.repeat(300)], file: 'a.spec.ts', line: 1, project: '', status: 'failed', expectedStatus: 'passed', retry, duration: 1, strict: true },
    capture: true,
    realms: ['page', 'worker:w.js'],
    jobs,
    steps: [],
    events,
    summary: { errors: 60, unexpected: 60, console: 2000, dropped: 5 },
    dropped: { total: 5, bySource: { 'console.log': 5 }, firstAt: iso(0), lastAt: iso(1) },
    diagnostics: Array.from({ length: 50 }, () => ({ code: 'DAEBUG_CAPTURE_FAILED', message: 'd'.repeat(5000), hint: 'x', time: iso(0) })),
  };
}

function hostileReport(retries: number): Report {
  const attempts = Array.from({ length: retries }, (_, i) => hostileAttempt(i));
  return reportSchema.parse({ ...hostileAttempt(retries), ...(retries ? { attempts } : {}), markdownFile: 'r.md' });
}

describe('the Markdown byte budget', () => {
  for (const maxBytes of [4096, 16 * 1024, 256 * 1024]) {
    for (const retries of [0, 1, 40]) {
      it(`holds ${maxBytes} bytes with ${retries} earlier attempts`, () => {
        const md = formatMarkdown(hostileReport(retries), { maxBytes, jsonFile: 'r.json' });
        assert.ok(Buffer.byteLength(md) <= maxBytes, `${Buffer.byteLength(md)} > ${maxBytes}`);
        assert.deepEqual(structureProblems(md), []);
        assert.match(md, /^# /);
        assert.match(md, /left out|did not fit|more unexpected errors in the JSON report/);
      });
    }
  }

  it('a roomy budget still lists errors and transcript entries, and counts the rest', () => {
    const md = formatMarkdown(hostileReport(0), { maxBytes: 256 * 1024, jsonFile: 'r.json' });
    // The attempt failed: "Where the test failed" opens the body (issue 37 item 5.4).
    assert.deepEqual(headingOutline(md).slice(1), ['## Where the test failed', '## Root cause', '## Unexpected errors', '## Transcript', '## Dropped events', "## daebug's own diagnostics", '## If an error is expected']);
    assert.match(md, /^1\. `window\.onerror` in `page`/m);
    // Its stack is larger than the whole budget: its first lines are shown, with a note.
    assert.match(md, /\n {4}at f \(http:\/\/x\/a\.js:1:2\)\n… cut to fit this report; the JSON report has all of it\n`{3,}\n/);
    assert.match(md, /… \d+ more unexpected errors in the JSON report …/);
    assert.match(md, /… \d+ more transcript entries left out to keep this report under 256 KiB; the JSON report `r\.json` has every event …/);
    assert.match(md, /… \d+ more diagnostics in the JSON report …/);
  });

  it('earlier attempts that do not fit are counted', () => {
    const md = formatMarkdown(hostileReport(40), { maxBytes: 16 * 1024, jsonFile: 'r.json' });
    assert.match(md, /## Earlier attempts\n\n40 earlier attempts/);
    assert.match(md, /… \d+ earlier attempts left out to keep this report under 16 KiB …/);
  });
});
