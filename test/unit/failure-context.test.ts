import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMarkdown } from '../../src/format/markdown';
import { formatClock } from '../../src/model/classify';
import { reportSchema, type DaebugEvent, type Report } from '../../src/model/schema';
import { structureProblems } from '../../e2e/helpers/markdown-structure';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const event = (ms: number, fields: Partial<DaebugEvent>): DaebugEvent => ({ type: 'console', source: 'console.log', level: 'log', realm: 'page', ts: formatClock(T0 + ms), time: new Date(T0 + ms).toISOString(), message: 'm', expected: false, ...fields });

function report(status: string, events: DaebugEvent[], test: Record<string, unknown> = {}): Report {
  return reportSchema.parse({
    schemaVersion: 1,
    test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status, expectedStatus: 'passed', retry: 0, duration: 30000, strict: false, ...test },
    jobs: [],
    events,
    summary: { errors: 0, unexpected: 0, console: events.length, dropped: 0 },
  });
}

describe('where the test failed', () => {
  const events = [
    event(0, { source: 'navigation', level: 'debug', message: 'http://h/' }),
    event(1000, { message: 'loading cart' }),
    event(2000, { type: 'error', source: 'network', level: 'error', message: 'GET http://h/api/cart failed: net::ERR_ABORTED', network: { method: 'GET', url: 'http://h/api/cart', errorText: 'net::ERR_ABORTED', resourceType: 'fetch' } }),
    event(40000, { message: 'after the timeout' }),
  ];

  it("says where a timed-out test stopped, Playwright's error, and the page's last events before it", () => {
    const md = formatMarkdown(report('timedOut', events, { failedAt: new Date(T0 + 30000).toISOString(), failedStep: "Click locator('#save')", failedLocation: 'a.spec.ts:9', failure: 'Test timeout of 30000ms exceeded.' }), { maxBytes: 65536 });
    assert.match(md, new RegExp(`^## Where the test failed\\n\\n- Timed out at ${formatClock(T0 + 30000)}, in \`Click locator\\('#save'\\)\` at \`a\\.spec\\.ts:9\`: Test timeout of 30000ms exceeded\\.$`, 'm'));
    assert.match(md, /^- What the page was doing \(the last 3 events, the last 28\.0 s before\):$/m);
    assert.match(md, /^ {2}- \d\d:\d\d:\d\d `network` in `page`: GET http:\/\/h\/api\/cart net::ERR\\?_ABORTED$/m);
    assert.doesNotMatch(md.slice(0, md.indexOf('## Transcript')), /after the timeout/);
    assert.match(md, /^None\. The browser had no error that counts; the test failed for its own reason/m);
    assert.deepEqual(structureProblems(md), []);
  });

  it('says nothing of a failure for a test that passed', () => {
    const md = formatMarkdown(report('passed', events), { maxBytes: 65536 });
    assert.doesNotMatch(md, /Where the test failed/);
    assert.match(md, /^## Unexpected errors\n\nNone\.$/m);
  });
});
