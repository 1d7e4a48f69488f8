// The line an agent opens: a frame of the app, else the line found by evidence (the app's call behind a failed
// request, the `.map(` a key warning is about), said the same way in `daebug errors` (seed 003's block) and the Markdown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lineToFix } from '../../src/diagnosis/line-to-fix';
import { collectErrors } from '../../src/cli/collect-errors';
import { formatErrors } from '../../src/cli/format-errors';
import type { ReportFile } from '../../src/cli/read-reports';
import { parseSeedErrors } from '../../e2e/helpers/seed-error-blocks';
import { formatMarkdown } from '../../src/format/markdown';
import { reportSchema, type DaebugEvent } from '../../src/model/schema';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const event = (ms: number, fields: Partial<DaebugEvent>): DaebugEvent => ({ type: 'error', source: 'unhandledrejection', realm: 'page', ts: '10:00:00', time: new Date(T0 + ms).toISOString(), message: 'm', expected: false, ...fields });
const reactFrames = [{ url: 'http://h/node_modules/.vite/deps/react-dom.js', line: 10, column: 3, library: 'react-dom' }];

const request = event(0, { type: 'console', level: 'error', source: 'network', message: 'GET http://h/api/prices.json 404 (Not Found)', network: { method: 'GET', url: 'http://h/api/prices.json', status: 404, resourceType: 'fetch', initiator: { type: 'script', url: 'http://h/assets/app.js', line: 1, column: 900, original: { source: 'react/App.tsx', line: 30, column: 5, functionName: 'loadPrices' } } } });
const rejection = event(20, { message: "SyntaxError: Unexpected token '<', \"<!doctype \"... is not valid JSON", unexpected: true, causedBy: 0 });
const keyWarning = event(30, { type: 'console', source: 'console.error', level: 'error', message: 'Each child in a list should have a unique "key" prop.', unexpected: true, frames: reactFrames, component: { name: 'PriceList', framework: 'React', source: 'react/App.tsx', line: 5 }, foundInSource: [{ source: 'react/App.tsx', line: 6, by: 'key-map' }] });
const nowhere = event(40, { source: 'window.onerror', message: 'Error: deep in a library', unexpected: true, frames: reactFrames });

function file(events: DaebugEvent[]): ReportFile {
  const test = { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 1, strict: false };
  const summary = { errors: 0, unexpected: 0, console: 0, dropped: 0 };
  return { row: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, attempts: 1, duration: 1, summary, markdown: 't.md', json: 't.json' }, report: { schemaVersion: 1, test, jobs: [], events, summary } };
}

describe('lineToFix', () => {
  it("names the app's call behind the failed request that caused an error, and the .map( of a key warning", () => {
    const events = [request, rejection, keyWarning, nowhere];
    assert.deepEqual(lineToFix(rejection, events), { file: 'react/App.tsx', line: 30, column: 5, mapped: true, functionName: 'loadPrices', found: { by: 'initiator', request: 'GET http://h/api/prices.json 404 (Not Found)', places: ['react/App.tsx:30'] } });
    assert.deepEqual(lineToFix(keyWarning, events), { file: 'react/App.tsx', line: 6, column: 1, mapped: true, found: { by: 'key-map', places: ['react/App.tsx:6'] } });
    assert.equal(lineToFix(nowhere, events), undefined);
  });

  it("names where a component is used for a warning about its props, over the app's one frame (the bootstrap); a thrown error in a component keeps its frame", () => {
    const mountFrame = { url: 'http://h/app.js', line: 1, column: 40, userCode: true, original: { source: 'src/main.ts', line: 4, column: 16, functionName: 'mount' } };
    const propWarning = event(50, { type: 'console', source: 'console.warn', level: 'warning', message: '[Vue warn]: Missing required prop: "amount"', frames: [...reactFrames, mountFrame], component: { name: 'OrderTotal', framework: 'Vue', source: 'src/OrderTotal.ts', line: 3 }, foundInSource: [{ source: 'src/App.ts', line: 18, by: 'component-use' }] });
    assert.deepEqual(lineToFix(propWarning), { file: 'src/App.ts', line: 18, column: 1, mapped: true, found: { by: 'component-use', places: ['src/App.ts:18'] } });
    const thrown = event(60, { source: 'window.onerror', message: 'TypeError: x', unexpected: true, frames: [mountFrame], component: { name: 'BrokenList', framework: 'Vue', source: 'src/BrokenList.ts', line: 4 } });
    assert.deepEqual(lineToFix(thrown), { file: 'src/main.ts', line: 4, column: 16, mapped: true, functionName: 'mount' });
    // `daebug errors` lists the placed warning, at that line, and says how it was found.
    const [block] = parseSeedErrors(formatErrors(collectErrors([file([propWarning])], { dir: 'reports', limit: 20 }))).blocks;
    assert.deepEqual(block!.location, { file: 'src/App.ts', line: 18, column: 1 });
    assert.equal(block!.fields['kind'], 'console.warn');
  });

  it('is the location line of `daebug errors`, with a `found:` line, in seed 003\'s block; an error it cannot place keeps its note', () => {
    const text = formatErrors(collectErrors([file([request, rejection, keyWarning, nowhere])], { dir: 'reports', limit: 20 }));
    const { blocks } = parseSeedErrors(text);
    const [rejected, key, deep] = blocks;
    assert.deepEqual(rejected!.location, { file: 'react/App.tsx', line: 30, column: 5 });
    assert.match(rejected!.fields['found']!, /^the app's call that made the request behind it \(GET http:\/\/h\/api\/prices\.json 404 \(Not Found\)\); no frame of the stack is in your code$/);
    assert.equal(rejected!.fields['note'], undefined);
    assert.deepEqual(key!.location, { file: 'react/App.tsx', line: 6, column: 1 });
    assert.match(key!.fields['found']!, /the \.map\( in PriceList/);
    // The true stack follows, library runs folded.
    assert.deepEqual(key!.stack, [{ kind: 'folded', count: 1, where: 'react-dom' }]);
    assert.equal(deep!.fields['found'], undefined);
    assert.match(deep!.fields['note']!, /no frame of the stack is in your code; it is located where it surfaced/);
  });

  it('carries the code stored for the line, and `daebug errors` prints it under the found line (issue 37)', () => {
    const snippet = '  29 | export function loadPrices() {\n> 30 |   return fetch("/api/prices.json").then((r) => r.json());\n     |   ^';
    const withCode = { ...request, network: { ...request.network!, initiator: { ...request.network!.initiator!, snippet } } };
    const keyCode = { ...keyWarning, foundInSource: [{ ...keyWarning.foundInSource![0]!, snippet: '> 6 |   {items.map((p) => <li>{p}</li>)}' }] };
    assert.equal(lineToFix(rejection, [withCode, rejection])?.snippet, snippet);
    assert.equal(lineToFix(keyCode, [keyCode])?.snippet, '> 6 |   {items.map((p) => <li>{p}</li>)}');
    const text = formatErrors(collectErrors([file([withCode, rejection, keyCode])], { dir: 'reports', limit: 20 }));
    const { blocks } = parseSeedErrors(text);
    assert.equal(blocks[0]!.fields['code'], `react/App.tsx:30\n${snippet}`);
    assert.equal(blocks[1]!.fields['code'], 'react/App.tsx:6\n> 6 |   {items.map((p) => <li>{p}</li>)}');
    const markdown = formatMarkdown(reportSchema.parse({ ...file([withCode, rejection]).report, summary: { errors: 2, unexpected: 1, console: 0, dropped: 0 } }), { maxBytes: 65536 });
    const section = markdown.slice(markdown.indexOf('## Unexpected errors'), markdown.indexOf('## Transcript'));
    assert.ok(section.includes(`\n\nreact/App.tsx:30\n${snippet}\n\`\`\``), section);
    // The request's own fence in the transcript names the call and points up, without that code a second time.
    const transcript = markdown.slice(markdown.indexOf('## Transcript'));
    assert.match(transcript, /^→ explains unexpected error 1\n```Error network\nGET http:\/\/h\/api\/prices\.json 404 \(Not Found\)\n/m);
    assert.ok(!transcript.includes(snippet), transcript);
  });

  it("is the line the Markdown names for the error a failed request caused", () => {
    const events = [request, rejection].map((e) => ({ ...e }));
    const report = reportSchema.parse({ schemaVersion: 1, test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: false }, jobs: [], events, summary: { errors: 2, unexpected: 1, console: 0, dropped: 0 } });
    const markdown = formatMarkdown(report, { maxBytes: 65536 });
    assert.match(markdown, /the app's call that made the request behind it \(`GET http:\/\/h\/api\/prices\.json 404 \(Not Found\)`\): `react\/App\.tsx:30:5`/);
  });
});
