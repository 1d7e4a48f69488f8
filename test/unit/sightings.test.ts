// One throw seen by several reporters is one error: React's log, React Router's log and the uncaught report fold
// into the first that stands for it; a loop's repeats stay repeats; a framework's consequence links to its cause.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findSightings, sightingBy } from '../../src/run/sightings';
import { markEvents } from '../../src/run/mark-events';
import { explainedBy } from '../../src/diagnosis/explains';
import { headline } from '../../src/model/headline';
import { normalizeMessage } from '../../src/run/normalize';
import { sightingsNote } from '../../src/format/sightings-note';
import { collectErrors } from '../../src/cli/collect-errors';
import { formatMarkdown } from '../../src/format/markdown';
import { reportSchema, type DaebugEvent, type Frame, type Report } from '../../src/model/schema';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const event = (ms: number, fields: Partial<DaebugEvent>): DaebugEvent => ({ type: 'console', source: 'console.error', level: 'error', realm: 'page', ts: '10:00:00', time: new Date(T0 + ms).toISOString(), message: 'm', expected: false, unexpected: true, ...fields });

const appFrame: Frame = { functionName: 'i', url: 'http://h/assets/render.throw-r4Qy-R6t.js', line: 1, column: 108, userCode: true, original: { source: 'app/lib/gauge.ts', line: 9, column: 11, functionName: 'readGauge' } };
const reactFrame = (name: string, column: number): Frame => ({ functionName: name, url: 'http://h/assets/entry.client-B_LRRdWc.js', line: 8, column, library: 'react-dom', original: { source: 'node_modules/react-dom/cjs/react-dom-client.production.js', line: column, column: 1 } });
const stack = 'Error: Kaboom!\n    at i (http://h/assets/render.throw-r4Qy-R6t.js:1:108)\n    at os (http://h/assets/entry.client-B_LRRdWc.js:8:49197)';
const loggedFrom = (source: string) => ({ url: 'http://h/assets/x.js', line: 1, column: 1, original: { source, line: 1, column: 1 } });

// React's production boundary log, then React Router's: the same Error object, two loggers.
const reactLog = () => event(100, { message: 'Error: Kaboom!', stack, frames: [appFrame, reactFrame('os', 49197)], loggedAt: loggedFrom('node_modules/react-dom/cjs/react-dom-client.production.js') });
const routerLog = () => event(101, { message: 'React Router caught the following error during render Error: Kaboom!', stack, frames: [appFrame, reactFrame('os', 49197)], loggedAt: loggedFrom('node_modules/react-router/dist/development/chunk-OB3PAWPO.mjs') });

function report(events: DaebugEvent[]): Report {
  return reportSchema.parse({
    schemaVersion: 1,
    test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: false },
    jobs: [],
    events,
    summary: { errors: events.length, unexpected: events.filter((e) => e.unexpected).length, console: 0, dropped: 0 },
  });
}

describe('sightings of one throw', () => {
  it("folds React's log and React Router's log of one error into one error with both loggers named", () => {
    const events = [reactLog(), routerLog()];
    markEvents([events]);
    const [react, router] = events;
    assert.equal(react!.unexpected, true);
    assert.equal(router!.unexpected, undefined, 'a sighting is no unexpected error of its own');
    assert.equal(router!.sightingOf, 0);
    assert.equal(router!.fingerprint, react!.fingerprint);
    assert.deepEqual(react!.sightings?.map((s) => s.by), ['React', 'React Router']);
    assert.equal(sightingsNote(react!.sightings), 'logged 2 times: by React, by React Router');
  });

  it('folds the same Error rethrown after a framework logged it', () => {
    const rethrown = event(300, { source: 'window.onerror', type: 'error', message: 'Uncaught Error: Kaboom!', stack, frames: [appFrame, reactFrame('os', 49197)] });
    const events = [reactLog(), routerLog(), rethrown];
    const groups = findSightings(events);
    assert.deepEqual(groups, [{ primary: 2, members: [0, 1, 2] }], 'the uncaught report stands for the error');
    markEvents([events]);
    assert.equal(sightingsNote(events[2]!.sightings), 'logged 3 times: by React, by React Router, uncaught');
  });

  it('counts a retry of the render (a new Error whose library frames differ) as a repeat: one Markdown entry with a count', () => {
    const retried = 'Error: Kaboom!\n    at i (http://h/assets/render.throw-r4Qy-R6t.js:1:108)\n    at ag (http://h/assets/entry.client-B_LRRdWc.js:8:1)';
    const retry = { stack: retried, frames: [appFrame, reactFrame('ag', 1)] };
    const events = [reactLog(), routerLog(), { ...reactLog(), ...retry, time: new Date(T0 + 400).toISOString() }, { ...routerLog(), ...retry, time: new Date(T0 + 401).toISOString() }];
    assert.deepEqual(findSightings(events), [{ primary: 0, members: [0, 1] }, { primary: 2, members: [2, 3] }]);
    markEvents([events]);
    assert.equal(events[2]!.fingerprint, events[0]!.fingerprint);
    const markdown = formatMarkdown(report(events), { maxBytes: 65536 });
    assert.equal((markdown.match(/^\d+\. `/gm) ?? []).length, 1, markdown);
    assert.match(markdown, /× 2 \(/);
  });

  it('keeps apart: a loop that throws from one reporter, two calls that reach one bad line, another realm, a later throw', () => {
    const loop = [0, 10, 20].map((ms) => event(ms, { source: 'window.onerror', type: 'error', message: 'Error: x', stack: 'Error: x\n    at f (http://h/app.js:1:2)', frames: [{ url: 'http://h/app.js', line: 1, column: 2, userCode: true }] }));
    assert.deepEqual(findSightings(loop), []);
    // The click's uncaught TypeError and the save's logged one: two calls, two Errors, one line.
    const uncaught = event(0, { source: 'window.onerror', type: 'error', message: 'TypeError: no price', stack: 'TypeError: no price\n    at priceOf (http://h/app.js:1:2)\n    at checkout (http://h/app.js:3:1)' });
    const logged = event(5, { message: 'save failed TypeError: no price', stack: 'TypeError: no price\n    at priceOf (http://h/app.js:1:2)\n    at save (http://h/app.js:7:1)', loggedAt: loggedFrom('src/save.ts') });
    assert.deepEqual(findSightings([uncaught, logged]), []);
    const worker = { ...routerLog(), realm: 'worker:w.js' };
    assert.deepEqual(findSightings([reactLog(), worker]), []);
    const later = { ...routerLog(), time: new Date(T0 + 5000).toISOString() };
    assert.deepEqual(findSightings([reactLog(), later]), []);
    const ignored = { ...routerLog(), expected: true, unexpected: false };
    assert.deepEqual(findSightings([reactLog(), ignored]), []);
  });

  it('names each reporter as a reader knows it', () => {
    assert.equal(sightingBy(reactLog()), 'React');
    assert.equal(sightingBy(routerLog()), 'React Router');
    assert.equal(sightingBy(event(0, { source: 'unhandledrejection', type: 'error' })), 'unhandled rejection');
    assert.equal(sightingBy(event(0, { message: 'ERROR Error: x', loggedAt: loggedFrom('node_modules/@angular/core/fesm2022/core.mjs') })), "Angular's ErrorHandler");
    assert.equal(sightingBy(event(0, { message: 'Error: x', loggedAt: loggedFrom('src/cart.ts') })), 'your code');
    assert.equal(sightingBy(event(0, { message: 'Error: x', loggedAt: loggedFrom('node_modules/vue/dist/vue.runtime.esm-bundler.js') })), 'Vue');
    // A bundle without a map: who logged cannot be told.
    assert.equal(sightingBy(event(0, { message: 'Error: x', loggedAt: { url: 'http://h/assets/entry.client-B_LRRdWc.js', line: 8, column: 1 } })), 'console.error');
  });

  it('one entry in the Markdown and one block in `daebug errors`, counting the sightings', () => {
    const events = [reactLog(), routerLog()];
    markEvents([events]);
    const attempt = report(events);
    const markdown = formatMarkdown(attempt, { maxBytes: 65536 });
    assert.match(markdown, /1 unexpected error \(/);
    assert.match(markdown, /logged 2 times: by React, by React Router/);
    const errors = collectErrors([{ row: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', markdown: 't.md', json: 't.json' } as never, report: attempt }], { dir: 'reports', limit: 5 });
    assert.equal(errors.total, 1);
    assert.deepEqual(errors.errors[0]!.sightings?.map((s) => s.by), ['React', 'React Router']);
  });

  it('counts repeats of one error in one test in one Markdown entry', () => {
    const at = (ms: number) => event(ms, { source: 'window.onerror', type: 'error', message: 'Error: x', stack: 'Error: x\n    at f (http://h/app.js:1:2)', frames: [{ url: 'http://h/app.js', line: 1, column: 2, userCode: true }] });
    const other = event(50, { source: 'window.onerror', type: 'error', message: 'Error: y', stack: 'Error: y\n    at g (http://h/app.js:2:2)', frames: [{ url: 'http://h/app.js', line: 2, column: 2, userCode: true }] });
    const events = [at(0), other, at(5000), at(9000)];
    markEvents([events]);
    const markdown = formatMarkdown(report(events), { maxBytes: 65536 });
    assert.equal((markdown.match(/^\d+\. `window\.onerror`/gm) ?? []).length, 2, markdown);
    assert.match(markdown, /× 3 \(/);
  });
});

describe("a framework's consequence of an error", () => {
  it("links React's client-rendering fallback to the error the browser threw at the same render, whose whole sentence it keeps", () => {
    const fallback = event(0, { source: 'window.onerror', type: 'error', message: 'Uncaught Error: Switched to client rendering because the server rendering errored:\n\nRoot render broke', stack: 'Error: Switched to client rendering because the server rendering errored:\n\nRoot render broke' });
    const thrown = event(40, { message: 'Error: Root render broke', stack: 'Error: Root render broke\n    at children (http://h/app/root.tsx:14:27)', frames: [{ url: 'http://h/app/root.tsx', line: 14, column: 27, userCode: true }] });
    assert.equal(explainedBy(fallback, [fallback, thrown]), thrown);
    assert.equal(headline(fallback.message), 'Uncaught Error: Switched to client rendering because the server rendering errored: Root render broke');
    assert.match(normalizeMessage(fallback.message), /errored: Root render broke$/);
  });

  it("links an error from the server (React Router's stand-in, or a stack of server files) to the route request that failed just before", () => {
    const data = event(0, { type: 'error', source: 'network', message: 'POST http://h/action-bad.data 500', network: { method: 'POST', url: 'http://h/action-bad.data', status: 500, resourceType: 'fetch' } });
    const standIn = event(50, { message: 'Error: Unexpected Server Error', stack: 'Error: Unexpected Server Error' });
    const serverStack = event(60, { message: 'Error: stock is empty', stack: 'Error: stock is empty\n    at action (/srv/app/routes/action.bad.tsx:5:9)', frames: [{ url: '/srv/app/routes/action.bad.tsx', line: 5, column: 9 }] });
    const inBrowser = event(70, { message: 'Error: Kaboom!', stack, frames: [appFrame] });
    const events = [data, standIn, serverStack, inBrowser];
    assert.equal(explainedBy(standIn, events), data);
    assert.equal(explainedBy(serverStack, events), data);
    assert.equal(explainedBy(inBrowser, events), undefined, 'an error the browser threw itself is its own');
    const api = { ...data, network: { ...data.network!, url: 'http://h/api/stock' } };
    assert.equal(explainedBy(serverStack, [api, serverStack]), undefined, 'only a route request');
  });
});

describe("React's Suspense fallback", () => {
  it('links production\'s error #419 to the document the server answered with an error, and to nothing without one', () => {
    const document = event(0, { type: 'error', source: 'network', message: 'GET http://h/suspense-throw 500', network: { method: 'GET', url: 'http://h/suspense-throw', status: 500, resourceType: 'document' } });
    const fallback = event(300, { source: 'window.onerror', type: 'error', message: 'Error: Minified React error #419; visit https://react.dev/errors/419 for the full message' });
    assert.equal(explainedBy(fallback, [document, fallback]), document);
    assert.equal(explainedBy(fallback, [fallback]), undefined);
  });
});

describe('headline', () => {
  it('is the first line, or the whole sentence when the line ends at a colon', () => {
    assert.equal(headline('Error: a\n    at f (x.js:1:1)'), 'Error: a');
    assert.equal(headline('\nFailed to load data:\n\nTypeError: x'), 'Failed to load data: TypeError: x');
    assert.equal(headline('Error: broke:\n    at f (x.js:1:1)'), 'Error: broke:');
  });
});
