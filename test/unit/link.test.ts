import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { causalLinks, linkCauses } from '../../src/diagnosis/link';
import { explainsNote } from '../../src/format/causal-links';
import { formatMarkdown } from '../../src/format/markdown';
import { eventIdentity } from '../../src/format/repeats';
import { reportSchema, type DaebugEvent, type Report } from '../../src/model/schema';
import { structureProblems } from '../../e2e/helpers/markdown-structure';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const event = (ms: number, fields: Partial<DaebugEvent>): DaebugEvent => ({ type: 'console', source: 'console.error', level: 'error', realm: 'page', ts: '10:00:00', time: new Date(T0 + ms).toISOString(), message: 'm', expected: false, ...fields });

const request = event(100, { type: 'error', source: 'network', level: 'error', message: 'GET http://h/api/missing 404', network: { method: 'GET', url: 'http://h/api/missing', status: 404, resourceType: 'fetch' } });
const parse = event(120, { type: 'error', source: 'unhandledrejection', message: 'SyntaxError: Unexpected token \'o\', "not found" is not valid JSON', unexpected: true });
const thrown = event(200, { type: 'error', source: 'window.onerror', message: 'Error: cart broke', unexpected: true, stack: 'Error: cart broke\n    at f (http://h/app.js:1:2)' });
const boundary = event(201, { message: 'The above error occurred in the <Cart> component:\n\n    at Cart\n    at App', unexpected: true });
const unrelated = event(300, { type: 'error', source: 'window.onerror', message: 'TypeError: x is undefined', unexpected: true });

function report(events: DaebugEvent[]): Report {
  return reportSchema.parse({
    schemaVersion: 1,
    test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: false },
    jobs: [],
    events,
    summary: { errors: events.length, unexpected: events.filter((e) => e.unexpected).length, console: 0, dropped: 0 },
  });
}

describe('causal links', () => {
  it('pairs a failed request with the parse error of its body, and a React error with its boundary log', () => {
    assert.deepEqual(causalLinks([request, parse, thrown, boundary, unrelated]), [
      [0, 1],
      [2, 3],
    ]);
  });

  it("pairs an HTTP client's error with the failed request whose whole URL it names, not with a longer or a shorter URL", () => {
    const prices = event(100, { type: 'error', source: 'network', level: 'error', message: 'GET http://h/api/prices.json 404', network: { method: 'GET', url: 'http://h/api/prices.json', status: 404, resourceType: 'fetch' } });
    const angular = event(150, { message: 'ERROR HttpErrorResponse: Http failure response for http://h/api/prices.json: 404 Not Found', unexpected: true });
    const longer = event(160, { message: 'ERROR HttpErrorResponse: Http failure response for http://h/api/prices.json.gz: 404 Not Found', unexpected: true });
    const sentence = event(170, { message: 'Error: could not load http://h/api/prices.json.', unexpected: true });
    const elsewhere = event(180, { message: 'ERROR Http failure response for http://h/api/prices.json: 404', realm: 'iframe', unexpected: true });
    assert.deepEqual(causalLinks([prices, angular, longer, sentence, elsewhere]), [
      [0, 1],
      [0, 3],
    ]);
  });

  it('links both ways by index into the attempt\'s events, and replaces links that were there', () => {
    const events = [request, parse, thrown, boundary, unrelated].map((e) => ({ ...e }));
    events[4]!.causedBy = 0;
    const linked = linkCauses(events);
    assert.equal(linked, events);
    assert.deepEqual(
      events.map((e) => [e.causedBy, e.causes]),
      [
        [undefined, [1]],
        [0, undefined],
        [undefined, [3]],
        [2, undefined],
        [undefined, undefined],
      ],
    );
    // The fields are part of the report's schema.
    assert.equal(reportSchema.parse({ ...report(events) }).events[1]?.causedBy, 0);
  });

  it("links Vue's warning about an error of a hook to the error it rethrows or logs right after", () => {
    const warning = event(400, { source: 'console.warn', level: 'warn', message: '[Vue warn]: Unhandled error during execution of mounted hook \n  at <BrokenList>\n  at <App>' });
    const rethrown = event(401, { type: 'error', source: 'window.onerror', message: "TypeError: Cannot read properties of undefined (reading 'label')", unexpected: true });
    const logged = event(401, { message: 'Error: save failed', loggedAt: { url: 'http://h/app.js', line: 1, column: 1 }, unexpected: true });
    assert.deepEqual(causalLinks([warning, rethrown]), [[1, 0]]);
    assert.deepEqual(causalLinks([warning, logged]), [[1, 0]]);
    // Another warning, another realm, or an error long after is not it.
    assert.deepEqual(causalLinks([warning, event(401, { source: 'console.warn', level: 'warn', message: '[Vue warn]: Missing required prop: "amount"' }), rethrown]), []);
    assert.deepEqual(causalLinks([warning, { ...rethrown, realm: 'worker' }]), []);
    assert.deepEqual(causalLinks([warning, { ...rethrown, time: new Date(T0 + 5000).toISOString() }]), []);
  });

  it('links nothing by mere nearness', () => {
    assert.deepEqual(causalLinks([thrown, unrelated, { ...boundary, realm: 'worker' }]), []);
    // A request that failed after the error cannot have caused it.
    assert.deepEqual(causalLinks([parse, { ...request, time: new Date(T0 + 500).toISOString() }]), []);
  });
});

describe('causal links in the Markdown', () => {
  it('says "caused by" on the effect and "→ explains" on the cause, in the errors and the transcript', () => {
    const md = formatMarkdown(report(linkCauses([request, parse, thrown, boundary, unrelated].map((e) => ({ ...e })))), { maxBytes: 65536 });
    assert.deepEqual(structureProblems(md), []);
    assert.match(md, /^1\. `unhandledrejection` in `page` at 10:00:00 .*· caused by the failed request `GET \/api\/missing` \(404\) at 10:00:00/m);
    // Numbered in the order to fix them (issue 37): the error another one explains comes after the independent ones,
    // and the transcript, in time order, refers to them by those numbers.
    assert.match(md, /^2\. `window\.onerror` in `page` at 10:00:00.* · → explains unexpected error 4/m);
    assert.match(md, /^4\. `console\.error` in `page` at 10:00:00.* · caused by unexpected error 2/m);
    assert.match(md, /^↑ unexpected error 2 \(`window\.onerror`\), written in full above\n↑ unexpected error 4 \(`console\.error`\), written in full above\n↑ unexpected error 3 /m);
    // The failed request (not an unexpected error by default) says what it explains above its fence.
    assert.match(md, /^→ explains unexpected error 1\n```Error network\nGET http:\/\/h\/api\/missing 404/m);
  });

  it('names the cause in the Root cause block', () => {
    const md = formatMarkdown(report(linkCauses([request, parse].map((e) => ({ ...e })))), { maxBytes: 65536 });
    const rootCause = md.slice(md.indexOf('## Root cause'), md.indexOf('## Unexpected errors'));
    assert.match(rootCause, /^- Caused by: the failed request `GET \/api\/missing` \(404\) at 10:00:00$/m);
  });

  it('works the links out for a report written without them', () => {
    const md = formatMarkdown(report([request, parse]), { maxBytes: 65536 });
    assert.match(md, /· caused by the failed request `GET \/api\/missing` \(404\)/);
  });
});

describe('naming an event by its time', () => {
  it('tells a `console.warn` from the others of its second by its message, or by its place when the messages are the same', () => {
    const warn = (ms: number, message: string) => event(ms, { source: 'console.warn', level: 'warning', ts: '12:06:43', message });
    const a = warn(10, 'Warning: first');
    const b = warn(20, 'Warning: second');
    const c = warn(30, 'Warning: second');
    const lone = event(5000, { source: 'console.warn', level: 'warning', ts: '12:06:48', message: 'alone' });
    const events = [request, a, b, c, lone];
    const links = { causedBy: new Map<string, DaebugEvent>(), causes: new Map([[eventIdentity(request), [a, c, lone]]]), events };
    assert.equal(
      explainsNote(request, links, () => undefined),
      '→ explains the `console.warn` at 12:06:43 (`Warning: first`) and the `console.warn` at 12:06:43 (`Warning: second`, the 2nd of 2 at that time) and the `console.warn` at 12:06:48',
    );
  });
});
