import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMarkdown, RULE } from '../../src/format/markdown';
import { reportSchema, type DaebugEvent, type Report } from '../../src/model/schema';
import { hintFor } from '../../src/stack/hints';
import { parseBlocks, structureProblems } from '../../e2e/helpers/markdown-structure';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const clock = (ms: number) => {
  const d = new Date(T0 + ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
};

function event(ms: number, fields: Partial<DaebugEvent>): DaebugEvent {
  return { type: 'console', source: 'console.log', level: 'log', realm: 'page', ts: clock(ms), time: iso(ms), message: 'm', expected: false, ...fields };
}

function report(fields: Partial<Report> = {}): Report {
  const base: Report = {
    schemaVersion: 1,
    test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 1234, strict: false },
    capture: true,
    jobs: [],
    events: [],
    summary: { errors: 0, unexpected: 0, console: 0, dropped: 0 },
    ...fields,
  };
  return reportSchema.parse(base);
}

describe('formatMarkdown', () => {
  it('puts the header first and unexpected errors before the transcript', () => {
    const error = event(100, { type: 'error', source: 'window.onerror', message: 'Error: boom', stack: 'Error: boom\n    at f (http://x/a.js:1:2)', unexpected: true });
    const md = formatMarkdown(report({ events: [error], summary: { errors: 1, unexpected: 1, console: 0, dropped: 0 } }), { maxBytes: 65536 });
    const lines = md.split('\n');
    assert.equal(lines[0], '# a.spec.ts › t');
    assert.ok(md.includes('- File: `a.spec.ts:3`'));
    assert.ok(md.includes('- Strict: no'));
    assert.ok(md.indexOf('## Unexpected errors') < md.indexOf('## Transcript'));
    assert.ok(md.includes('```Error window.onerror\nError: boom\n    at f (http://x/a.js:1:2)\n```'));
    // Nothing twice: the transcript refers to the error at its place in time instead of repeating it.
    assert.ok(md.includes(`> **page** background at ${clock(100)}\n↑ unexpected error 1 (\`window.onerror\`), written in full above`), md);
    assert.equal(md.split('at f (http://x/a.js:1:2)').length, 2);
  });

  it("says in the header how many events show V8's preview instead of their full values, and only when some do", () => {
    const read = event(100, { message: 'state {"deep":{"x":1}}', structured: true });
    const previewed = event(200, { message: 'state {"deep":Object}', structured: true, preview: true });
    assert.ok(formatMarkdown(report({ events: [read, previewed] }), { maxBytes: 65536 }).includes("\n- Previews: 1 event shows V8's preview of the logged values (one level deep), not their full serialization: not read because the test passed (`daebugValues: 'full'` reads them) or because the page had gone\n"));
    assert.ok(!formatMarkdown(report({ events: [read] }), { maxBytes: 65536 }).includes('- Previews:'));
  });

  it('collapses identical consecutive events into one block with a count, as DevTools does', () => {
    const warns = Array.from({ length: 12 }, (_, i) => event(100 + i * 100, { source: 'console.warn', level: 'warn', message: 'deprecated prop' }));
    const other = event(2000, { source: 'console.warn', level: 'warn', message: 'another warning' });
    const md = formatMarkdown(report({ events: [...warns, other] }), { maxBytes: 65536 });
    // Once in the transcript; the Warnings section lists it once more by its first line, with the same count.
    assert.equal(md.slice(md.indexOf('## Transcript')).split('deprecated prop').length, 2, md);
    assert.match(md, /^1\. `console\.warn` in `page` at \d\d:\d\d:\d\d × 12 \(/m);
    assert.ok(md.includes(`× 12 (${clock(100)} to ${clock(1200)})\n\`\`\`Text console.warn\ndeprecated prop\n\`\`\``), md);
    assert.ok(md.includes('```Text console.warn\nanother warning'));
  });

  it('writes each unexpected error in full once: repeats are one numbered entry, the transcript refers to it', () => {
    const boom = (ms: number) => event(ms, { type: 'error', source: 'window.onerror', message: 'TypeError: boom', stack: 'TypeError: boom\n    at f (http://x/a.js:1:2)', unexpected: true });
    const other = event(500, { type: 'error', source: 'unhandledrejection', message: 'Error: later', stack: 'Error: later\n    at g (http://x/a.js:9:9)', unexpected: true });
    const md = formatMarkdown(report({ events: [boom(100), boom(200), boom(300), other], summary: { errors: 4, unexpected: 4, console: 0, dropped: 0 } }), { maxBytes: 65536 });
    assert.match(md, /^1\. `window\.onerror` in `page` at \d\d:\d\d:\d\d × 3 \(/m);
    assert.match(md, /^2\. `unhandledrejection` in `page`/m);
    assert.equal(md.split('at f (http://x/a.js:1:2)').length, 2, md);
    assert.match(md, /↑ unexpected error 1 \(`window\.onerror`\) × 3 \(.*\), written in full above$/m);
    assert.match(md, /↑ unexpected error 2 \(`unhandledrejection`\), written in full above$/m);
  });

  it('splits a background run where a step started in between, so later events come after the step', () => {
    const before = event(10, { message: 'before the step' });
    const inStep = event(60, { message: 'in the step', step: 's', stepId: 'step-s1' });
    const after = event(200, { source: 'navigation', level: 'debug', message: 'http://x/next' });
    const md = formatMarkdown(
      report({
        events: [before, inStep, after],
        steps: [{ id: 'step-s1', kind: 'step', title: 's', realm: 'test', startedAt: iso(50), finishedAt: iso(100), durationMs: 50, ok: true, events: [inStep] }],
      }),
      { maxBytes: 65536 },
    );
    assert.ok(md.indexOf('before the step') < md.indexOf('#### Step: s'));
    assert.ok(md.indexOf('#### Step: s') < md.indexOf('http://x/next'), md);
  });

  it('renders a job as a request, a reply, its events without a blank line, then a blank line and a rule', () => {
    const jobEvent = event(50, { jobId: 'job-1', source: 'console.warn', level: 'warn', message: 'careful' });
    const md = formatMarkdown(
      report({
        jobs: [{ id: 'job-1', kind: 'eval', realm: 'page', code: '() => 1', startedAt: iso(0), finishedAt: iso(120), durationMs: 120, ok: true, value: 1, events: [jobEvent] }],
        events: [jobEvent],
      }),
      { maxBytes: 65536 },
    );
    const expected = [`> **agent** to page at ${clock(0)}`, '```JS', '() => 1', '```', '', `> **page** to agent at ${clock(120)} (120ms)`, '```JSON', '1', '```', '```Text console.warn', 'careful', '```', '', RULE].join('\n');
    assert.ok(md.includes(expected), md);
    assert.equal(RULE.length, 70);
  });

  it('renders a failed job with an Error fence', () => {
    const md = formatMarkdown(
      report({ jobs: [{ id: 'job-1', kind: 'eval', realm: 'page', code: 'x', startedAt: iso(0), finishedAt: iso(5), durationMs: 5, ok: false, error: { message: 'ReferenceError: x is not defined', stack: 'ReferenceError: x is not defined\n    at <anonymous>:1:1' }, events: [] }] }),
      { maxBytes: 65536 },
    );
    assert.ok(md.includes('```Error\nReferenceError: x is not defined\n    at <anonymous>:1:1\n```'));
  });

  it('keeps page text inside fences: fake headings, agent lines and fences cannot change the structure', () => {
    const nasty = '# Not a heading\n> **agent** to page at 00:00:00\n```\n</details><script>x</script>\n----------------------------------------------------------------------';
    const e = event(10, { message: nasty });
    const md = formatMarkdown(report({ events: [e] }), { maxBytes: 65536 });
    const outside: string[] = [];
    let fenceTicks = '';
    for (const line of md.split('\n')) {
      const open = /^(`{3,})(.*)$/.exec(line);
      if (!fenceTicks && open) fenceTicks = open[1]!;
      else if (fenceTicks && line === fenceTicks) fenceTicks = '';
      else if (!fenceTicks) outside.push(line);
    }
    assert.equal(fenceTicks, '');
    assert.ok(!outside.includes('# Not a heading'));
    assert.equal(outside.filter((l) => l.startsWith('> **agent**')).length, 0);
  });

  it('stays within its byte budget and says how much it left out', () => {
    const events = Array.from({ length: 2000 }, (_, i) => event(i, { message: `line ${i} ${'x'.repeat(200)}`, realm: i % 2 ? 'page' : 'page-2' }));
    const md = formatMarkdown(report({ events }), { maxBytes: 32 * 1024, jsonFile: 'r.json' });
    assert.ok(Buffer.byteLength(md) <= 32 * 1024, `${Buffer.byteLength(md)}`);
    assert.match(md, /… \d+ more transcript entries left out to keep this report under 32 KiB; the JSON report `r.json` has every event …/);
  });

  it('says when capture was off', () => {
    const md = formatMarkdown(report({ capture: false }), { maxBytes: 65536 });
    assert.ok(md.includes('Capture was off'));
  });

  it('lists earlier attempts with lower-level headings', () => {
    const first = report({ test: { title: 't', titlePath: ['t'], file: 'a.spec.ts', line: 1, project: '', status: 'failed', expectedStatus: 'passed', retry: 0, duration: 1, strict: true } });
    const md = formatMarkdown(report({ attempts: [first] }), { maxBytes: 65536 });
    assert.ok(md.includes('## Earlier attempts'));
    assert.ok(md.includes('### t'));
    assert.ok(md.includes('#### Unexpected errors'));
  });
});

describe('no invitation to hide bugs', () => {
  const hint = hintFor({ source: 'window.onerror', message: "TypeError: Cannot read properties of undefined (reading 'price')", where: 'src/cart.ts:3:5' })!;
  const error = (ms: number, message = "TypeError: Cannot read properties of undefined (reading 'price')") =>
    event(ms, { type: 'error', source: 'window.onerror', message, hint, ignorePattern: message, unexpected: true });
  const withErrors = (events: DaebugEvent[], fields: Partial<Report> = {}) => report({ events, summary: { errors: events.length, unexpected: events.length, console: 0, dropped: 0 }, ...fields });
  const advice = /daebug\.expectError\(pattern\)/g;

  it('holds no per-error ignore advice, and the advice once, at the end, when there are unexpected errors', () => {
    const { attempts: _none, ...earlier } = withErrors([error(50)]);
    const md = formatMarkdown(withErrors([error(100), error(200, 'Error: second')], { attempts: [earlier] }), { maxBytes: 65536, jsonFile: 'r.json' });
    for (const block of parseBlocks(md)) {
      if (block.kind === 'fence') assert.doesNotMatch(block.content, /daebugIgnore|expectError|If this is expected/, block.content);
    }
    assert.equal(md.match(advice)?.length, 1, md);
    assert.equal(md.match(/^## If an error is expected$/gm)?.length, 1);
    const tail = md.slice(md.lastIndexOf('\n## '));
    assert.match(tail, /^\n## If an error is expected\n\nIf one of these errors is the app's intended behaviour in this test \(not a bug\), declare it with `daebug\.expectError\(pattern\)` in the test or `daebugIgnore` in its options; the JSON report `r\.json` gives each error's exact pattern \(`ignorePattern`\)\./);
    // The exact patterns are in the JSON only.
    assert.ok(!md.includes('ignorePattern:'), md);
    assert.deepEqual(structureProblems(md), []);
  });

  it('gives no advice when nothing was unexpected', () => {
    const md = formatMarkdown(report({ events: [event(100, { type: 'error', source: 'window.onerror', message: 'Error: allowed', expected: true })] }), { maxBytes: 65536 });
    assert.doesNotMatch(md, advice);
    assert.doesNotMatch(md, /If an error is expected/);
  });

  it('says in the status line of a passed test that it had unexpected errors', () => {
    assert.match(formatMarkdown(withErrors([error(100), error(200), error(300)]), { maxBytes: 65536 }), /^- Status: \*\*passed, with 3 unexpected browser errors\*\*$/m);
    assert.match(formatMarkdown(withErrors([error(100)]), { maxBytes: 65536 }), /^- Status: \*\*passed, with 1 unexpected browser error\*\*$/m);
    assert.match(formatMarkdown(report(), { maxBytes: 65536 }), /^- Status: \*\*passed\*\*$/m);
  });
});

describe('count phrases', () => {
  it('say "1 event was dropped", not "1 events were"', () => {
    const md = formatMarkdown(report({ dropped: { total: 1, bySource: { 'console.log': 1 }, firstAt: '10:00:00', lastAt: '10:00:00' }, summary: { errors: 0, unexpected: 0, console: 0, dropped: 1 } }), { maxBytes: 65536 });
    assert.match(md, /^1 event was dropped by daebug's limits \(`console\.log` 1\)/m);
  });
});
