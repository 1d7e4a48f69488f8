// A resource the browser could not load (an <img src>) has no initiator stack: it is located by its URL in the app's
// sources, and the Markdown, `daebug errors` and the MCP tool name that line alike (issue 37, found by a blind read).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors } from '../../src/cli/collect-errors';
import { formatErrors } from '../../src/cli/format-errors';
import type { ReportFile } from '../../src/cli/read-reports';
import type { StoredEvent } from '../../src/capture/recorder';
import { formatMarkdown } from '../../src/format/markdown';
import { failedLoadOf, isPlacedLoad } from '../../src/model/failed-load';
import { reportSchema, type DaebugEvent } from '../../src/model/schema';
import { locateByEvidence } from '../../src/stack/locate-by-evidence';
import { linesNamingUrl } from '../../src/stack/locate-evidence';
import { parseSeedErrors } from '../../e2e/helpers/seed-error-blocks';

const LINE_404 = 'Failed to load resource: the server responded with a status of 404 (Not Found)';
const avatar = { source: 'src/Avatar.tsx', text: 'export function Avatar() {\n  return <img className="avatar" src="/react/missing-avatar.png" alt="avatar" />;\n}\n' };
const app = { source: 'src/App.tsx', text: "import { Avatar } from './Avatar';\nexport function App() {\n  return <Avatar />;\n}\n" };

describe('failedLoadOf', () => {
  it("reads the browser's line about a resource: its URL (the line's location), the status or the network error", () => {
    assert.deepEqual(failedLoadOf({ source: 'browser.network', message: LINE_404, location: { url: 'http://h/react/missing-avatar.png' } }), { url: 'http://h/react/missing-avatar.png', status: 404 });
    assert.deepEqual(failedLoadOf({ source: 'browser.log', message: 'Failed to load resource: net::ERR_CONNECTION_REFUSED', location: { url: 'http://h/font.woff2' } }), { url: 'http://h/font.woff2', errorText: 'net::ERR_CONNECTION_REFUSED' });
    assert.equal(failedLoadOf({ source: 'browser.network', message: LINE_404 }), undefined);
    assert.equal(failedLoadOf({ source: 'console.error', message: LINE_404, location: { url: 'http://h/a.png' } }), undefined);
    assert.equal(failedLoadOf({ source: 'browser.network', message: 'Something else', location: { url: 'http://h/a.png' } }), undefined);
  });

  it('counts as placed in the app only when a line of the app names it, and not when the test expected it', () => {
    const line = { source: 'browser.network', message: LINE_404, location: { url: 'http://h/a.png' } };
    assert.equal(isPlacedLoad(line), false);
    assert.equal(isPlacedLoad({ ...line, foundInSource: [{}] }), true);
    assert.equal(isPlacedLoad({ ...line, foundInSource: [{}], expected: true }), false);
  });
});

describe('linesNamingUrl for a resource', () => {
  it('finds the literal that is the whole path first', () => {
    assert.deepEqual(linesNamingUrl('http://127.0.0.1:4650/react/missing-avatar.png', [app, avatar]), [{ source: 'src/Avatar.tsx', line: 2 }]);
  });

  it("without one, finds its file named relative to the code or by its name alone, the bundler's hash left out", () => {
    const relative = { source: 'src/Card.tsx', text: "import logo from './img/logo.svg';\nconst other = './logo.svg';\nconst icon = 'icon.png';\n" };
    assert.deepEqual(linesNamingUrl('http://h/assets/img/logo.svg', [relative]), [{ source: 'src/Card.tsx', line: 1 }, { source: 'src/Card.tsx', line: 2 }]);
    assert.deepEqual(linesNamingUrl('http://h/static/icon.png?v=2', [relative]), [{ source: 'src/Card.tsx', line: 3 }]);
    assert.deepEqual(linesNamingUrl('http://h/assets/icon-B3kq9XzA.png', [relative]), [{ source: 'src/Card.tsx', line: 3 }]);
    // Another folder's file of that name, a name too short to tell, and a file that no literal names: nothing.
    assert.deepEqual(linesNamingUrl('http://h/assets/other/logo.svg', [{ source: 'src/x.ts', text: "const a = './img/logo.svg';\n" }]), []);
    assert.deepEqual(linesNamingUrl('http://h/a.js', [{ source: 'src/x.ts', text: "const a = 'a.js';\n" }]), []);
    assert.deepEqual(linesNamingUrl('http://h/assets/banner.png', [relative]), []);
  });
});

const stored = (fields: Partial<StoredEvent>): StoredEvent => ({ type: 'console', source: 'browser.network', level: 'error', realm: 'page', timeMs: 0, seq: 1, message: LINE_404, location: { url: 'http://h/react/missing-avatar.png', line: 1, column: 1 }, ...fields }) as StoredEvent;

describe('locateByEvidence for a resource the browser could not load', () => {
  it('stores the line naming its URL, with its code, as found by its URL', async () => {
    const event = stored({});
    await locateByEvidence([event], async () => [app, avatar], Date.now() + 5000, { loads: true });
    assert.deepEqual(event.foundInSource?.map(({ source, line, by }) => ({ source, line, by })), [{ source: 'src/Avatar.tsx', line: 2, by: 'url' }]);
    assert.match(event.foundInSource?.[0]?.snippet ?? '', /^> 2 \| {3}return <img className="avatar" src="\/react\/missing-avatar\.png" alt="avatar" \/>;$/m);
  });

  it("leaves it alone under daebugNetwork: 'off' (loads: false), where such lines stand for every failed request", async () => {
    const event = stored({});
    await locateByEvidence([event], async () => [app, avatar], Date.now() + 5000);
    assert.equal(event.foundInSource, undefined);
  });
});

const snippet = '  1 | export function Avatar() {\n> 2 |   return <img className="avatar" src="/react/missing-avatar.png" alt="avatar" />;\n  3 | }';
const imageLine: DaebugEvent = {
  type: 'console', source: 'browser.network', level: 'error', realm: 'page', ts: '10:00:02', time: '2026-01-02T10:00:02.000Z', expected: false,
  message: LINE_404, location: { url: 'http://h/react/missing-avatar.png', line: 1, column: 1 },
  foundInSource: [{ source: 'src/Avatar.tsx', line: 2, by: 'url', snippet }],
};
const thrown: DaebugEvent = {
  type: 'error', source: 'window.onerror', level: 'error', realm: 'page', ts: '10:00:01', time: '2026-01-02T10:00:01.000Z', expected: false, unexpected: true,
  message: "TypeError: Cannot read properties of undefined (reading 'name')",
  frames: [{ url: 'http://h/app.js', line: 1, column: 5, original: { source: 'src/App.tsx', line: 3, column: 9 }, userCode: true }],
};
const test = { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: true };
const report = (events: DaebugEvent[]) => reportSchema.parse({ schemaVersion: 1, test, jobs: [], events, summary: { errors: 1, unexpected: 1, console: 1, dropped: 0 } });

describe('a resource the app names that could not be loaded, in the report', () => {
  it('is a problem of its own in the Root cause, never an unexpected error, and its transcript entry names and shows the line', () => {
    const md = formatMarkdown(report([thrown, imageLine]), { maxBytes: 65536 });
    assert.match(md, /^- 2 independent problems, fix each: /m);
    assert.match(md, /^ {2}2\. failed load in the transcript: `\/react\/missing-avatar\.png 404`; found in your source by its URL: `src\/Avatar\.tsx:2`$/m);
    assert.match(md, /^1 unexpected error \(strict mode: the test fails on it\)\.$/m);
    const transcript = md.slice(md.indexOf('## Transcript'));
    assert.ok(transcript.includes(`\`\`\`Text browser.network\n${LINE_404}\nurl: http://h/react/missing-avatar.png\nfound in your source by its URL: src/Avatar.tsx:2\n\n${snippet}\n\`\`\``), transcript);
  });

  it('is not counted when no line of the app names it: it stays a line of the transcript', () => {
    const { foundInSource: _found, ...unplaced } = imageLine;
    const md = formatMarkdown(report([thrown, unplaced]), { maxBytes: 65536 });
    assert.doesNotMatch(md, /independent problems|failed load in/);
    assert.ok(md.includes(`\`\`\`Text browser.network\n${LINE_404}\nurl: http://h/react/missing-avatar.png\n\`\`\``), md);
  });

  it('is listed by daebug errors at the line found, with how it was found, its code, its kind and its URL', () => {
    const file: ReportFile = {
      row: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, attempts: 1, duration: 5, summary: { errors: 1, unexpected: 1, console: 1, dropped: 0 }, markdown: 'a-t.md', json: 'a-t.json' },
      report: report([thrown, imageLine]),
    };
    const output = collectErrors([file], { dir: 'reports', limit: 20 });
    const load = output.errors.find((e) => e.source === 'browser.network')!;
    assert.deepEqual(load.location, { file: 'src/Avatar.tsx', line: 2, column: 1, mapped: true });
    assert.equal(load.url, 'http://h/react/missing-avatar.png');
    assert.equal(load.unexpected, false);
    const { blocks } = parseSeedErrors(formatErrors(output));
    const block = blocks.find((b) => b.message === LINE_404)!;
    assert.deepEqual(block.location, { file: 'src/Avatar.tsx', line: 2, column: 1 });
    assert.equal(block.fields['found'], 'found in your source by its URL; no frame of the stack is in your code');
    assert.equal(block.fields['code'], `src/Avatar.tsx:2\n${snippet}`);
    assert.equal(block.fields['kind'], 'browser.network (a resource the page could not load)');
    assert.equal(block.fields['url'], 'http://h/react/missing-avatar.png');
    // Unplaced, it is no error of the app's to list.
    const { foundInSource: _found, ...unplaced } = imageLine;
    assert.equal(collectErrors([{ ...file, report: report([thrown, unplaced]) }], { dir: 'reports', limit: 20 }).errors.length, 1);
  });
});
