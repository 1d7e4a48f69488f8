import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMarkdown } from '../../src/format/markdown';
import { isWarning, warningEntries, warningsSection } from '../../src/format/warnings';
import { reportSchema, type DaebugEvent, type Frame, type Report } from '../../src/model/schema';
import { structureProblems, textOutsideFences } from '../../e2e/helpers/markdown-structure';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const event = (ms: number, fields: Partial<DaebugEvent>): DaebugEvent => ({ type: 'console', source: 'console.error', level: 'error', realm: 'page', ts: '10:00:00', time: new Date(T0 + ms).toISOString(), message: 'm', expected: false, ...fields });
const react: Frame[] = Array.from({ length: 6 }, (_, i) => ({ url: 'http://h/app.js', line: 1, column: 9000 + i, original: { source: 'node_modules/react-dom/cjs/react-dom-client.development.js', line: 100 + i, column: 1 }, library: 'react-dom' }));
/** The one frame both of Vue's prop warnings have: the app's `mount()` call. */
const mount: Frame = { url: 'http://h/app.js', line: 1, column: 40, original: { source: 'src/main.ts', line: 9, column: 3 }, userCode: true };

const keyWarning = event(100, {
  message: 'Each child in a list should have a unique "key" prop.\n\nCheck the render method of `CartList`. See https://react.dev/link/warning-keys for more information.',
  frames: react,
  unexpected: true,
  component: { name: 'CartList', framework: 'React', source: 'src/CartList.tsx', line: 3, foundBy: 'name' },
});
const vueWarning = (ms: number, component: string, line: number) =>
  event(ms, {
    source: 'console.warn',
    level: 'warn',
    message: `[Vue warn]: Invalid prop: type check failed for prop "user". Expected Object, got Undefined\n  at <${component}>\n  at <App>`,
    frames: [mount],
    component: { name: component, framework: 'Vue', source: `src/${component}.vue`, line, foundBy: 'name' },
  });

function report(events: DaebugEvent[], fields: Partial<Report> = {}): Report {
  return reportSchema.parse({
    schemaVersion: 1,
    test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: false },
    jobs: [],
    events,
    summary: { errors: 0, unexpected: events.filter((e) => e.unexpected).length, console: events.length, dropped: 0 },
    ...fields,
  });
}

describe('isWarning', () => {
  it("is any console.warn, React's warnings logged with console.error, and a library's console.error without an Error", () => {
    assert.equal(isWarning(vueWarning(1, 'UserCard', 5)), true);
    assert.equal(isWarning(keyWarning), true);
    assert.equal(isWarning(event(1, { message: 'Warning: Each child in a list should have a unique "key" prop.' })), true);
    assert.equal(isWarning(event(1, { message: 'Received `true` for a non-boolean attribute `active`.', frames: react })), true);
  });

  it('is not an error: thrown, logged with its Error, React reporting an error it caught, or the app logging a failure', () => {
    assert.equal(isWarning(event(1, { type: 'error', source: 'window.onerror', message: 'TypeError: x' })), false);
    assert.equal(isWarning(event(1, { message: 'save failed TypeError: x', loggedAt: { url: 'http://h/app.js', line: 1, column: 2 } })), false);
    assert.equal(isWarning(event(1, { message: 'The above error occurred in the <Cart> component', frames: react })), false);
    assert.equal(isWarning(event(1, { message: 'TypeError: x\n\nThe above error occurred in the <Cart> component', frames: react })), false);
    assert.equal(isWarning(event(1, { message: 'could not save', frames: [mount] })), false);
    assert.equal(isWarning(event(1, { source: 'console.log', message: 'Warning: not really' })), false);
    assert.equal(isWarning({ ...vueWarning(1, 'UserCard', 5), expected: true }), false);
    // Angular's ErrorHandler logs an HttpErrorResponse (no Error) from its own frames: an error, not a library's warning.
    assert.equal(isWarning(event(1, { message: 'ERROR HttpErrorResponse: Http failure response for http://h/api/prices.json: 404 Not Found', frames: react })), false);
  });
});

describe('warningEntries', () => {
  it('counts repeats, and tells two warnings with the same single frame apart by their components', () => {
    const entries = warningEntries([vueWarning(1, 'UserCard', 5), vueWarning(2, 'UserCard', 5), vueWarning(3, 'PriceTag', 7), keyWarning]);
    assert.deepEqual(
      entries.map((e) => [e.event.component?.name, e.count]),
      [
        ['UserCard', 2],
        ['PriceTag', 1],
      ],
    );
    // React's key warning is a console.error that counts as an unexpected error: it is listed there, once.
    assert.deepEqual(warningEntries([{ ...keyWarning, unexpected: false }]).length, 1);
  });
});

describe('the Warnings section', () => {
  it('lists each warning by its first line (in a fence) and its located component or first user frame', () => {
    const plain = event(300, { source: 'console.warn', level: 'warn', message: 'deprecated: use v2\nmore', frames: [mount] });
    const events = [vueWarning(100, 'UserCard', 5), vueWarning(150, 'UserCard', 5), vueWarning(200, 'PriceTag', 7), keyWarning, plain];
    const md = formatMarkdown(report(events), { maxBytes: 65536 });
    assert.deepEqual(structureProblems(md), []);
    // The header names which, on its own line (issue 37): their numbers among the unexpected errors.
    assert.match(md, /^- Warnings: 5 \(1 of them listed as unexpected error 1\)$/m);
    const section = md.slice(md.indexOf('## Warnings'), md.indexOf('## Transcript'));
    assert.ok(md.indexOf('## Unexpected errors') < md.indexOf('## Warnings'), md);
    assert.match(section, /^4 warnings, each by its first line and where it is; the JSON report has their stacks; 1 more is an unexpected error, listed above only\.$/m);
    assert.match(section, /^1\. `console\.warn` in `page` at 10:00:00: component `<UserCard>` at `src\/UserCard\.vue:5` \(found by name\) × 2$/m);
    assert.match(section, /^2\. `console\.warn` in `page` at 10:00:00: component `<PriceTag>` at `src\/PriceTag\.vue:7` \(found by name\)$/m);
    assert.doesNotMatch(section, /CartList|unique "key"/);
    assert.match(md, /^1\. `console\.error` in `page` at 10:00:00 \(no frame of the stack is in your code\) · component `<CartList>` at `src\/CartList\.tsx:3` \(found by name\) · a React warning$/m);
    assert.match(section, /^3\. `console\.warn` in `page` at 10:00:00: at `src\/main\.ts:9:3`$/m);
    assert.match(section, /^```Text console\.warn\ndeprecated: use v2\n```$/m);
    // The page's words stay in fences; only daebug's words and code spans are outside.
    assert.doesNotMatch(textOutsideFences(section), /Invalid prop|deprecated|unique "key"/);
    // Listing it changes nothing about what is unexpected.
    assert.match(md, /- Events: .*\(1 unexpected\)/);
  });

  it('says nothing without warnings, and neither does the header', () => {
    const md = formatMarkdown(report([event(1, { source: 'console.log', message: 'hello' })]), { maxBytes: 65536 });
    assert.ok(!md.includes('## Warnings'));
    assert.ok(!md.includes('- Warnings:'));
  });

  it('keeps to its room and counts what it left out', () => {
    const many = Array.from({ length: 60 }, (_, i) => event(i, { source: 'console.warn', level: 'warn', message: `warning number ${i} ${'x'.repeat(200)}` }));
    const lines = warningsSection(many, '#', 2048);
    assert.ok(Buffer.byteLength(lines.join('\n')) <= 2048 + 200);
    assert.match(lines.join('\n'), /… \d+ more warnings in the JSON report …/);
    const md = formatMarkdown(report(many), { maxBytes: 8192 });
    assert.ok(Buffer.byteLength(md) <= 8192);
    assert.deepEqual(structureProblems(md), []);
    assert.match(md, /^- Warnings: 60$/m);
  });
});

describe('a located component in the report', () => {
  it('is shown where its event is: the unexpected error entry and the Root cause block, never on a neighbour', () => {
    const widgetError = event(110, {
      message: "TypeError: Cannot read properties of undefined (reading 'id')\n\nThe above error occurred in the <BrokenWidget> component.",
      loggedAt: { url: 'http://h/app.js', line: 1, column: 9 },
      frames: [{ ...mount, original: { source: 'src/BrokenWidget.tsx', line: 6, column: 20, functionName: 'BrokenWidget' } }],
      unexpected: true,
      component: { name: 'BrokenWidget', framework: 'React', source: 'src/BrokenWidget.tsx', line: 4, foundBy: 'name' },
    });
    const md = formatMarkdown(report([keyWarning, widgetError], { test: { ...report([]).test, status: 'failed' } }), { maxBytes: 65536 });
    // The chosen error's own lines; the order of the independent problems after them names each one's own place.
    const rootCause = md.slice(md.indexOf('## Root cause'), md.indexOf(' independent problems'));
    // Numbered in the order to fix them (issue 37): the chosen error is unexpected error 1.
    assert.match(md, /^  2\. unexpected error 2 below: a React warning about your component `CartList` \(no frame in your code\); component `<CartList>` at `src\/CartList\.tsx:3` \(found by name\)$/m);
    assert.match(rootCause, /^- React component `<BrokenWidget>` at `src\/BrokenWidget\.tsx:4` \(found by name\): /m);
    assert.doesNotMatch(rootCause, /CartList/);
    assert.match(md, /^2\. `console\.error` in `page` at 10:00:00 \(no frame of the stack is in your code\) · component `<CartList>` at `src\/CartList\.tsx:3` \(found by name\)/m);
    assert.match(md, /^1\. `console\.error` in `page` at 10:00:00 at `src\/BrokenWidget\.tsx:6:20 in BrokenWidget` · component `<BrokenWidget>` at `src\/BrokenWidget\.tsx:4` \(found by name\)/m);
  });

  it("says so when the component's declaration was not found, and names the owner stack when React gave it", () => {
    const md = formatMarkdown(report([{ ...keyWarning, component: { name: 'CartList', framework: 'React' } }]), { maxBytes: 65536 });
    assert.match(md, /component `<CartList>` \(not found in the source maps' sources\)/);
    const owner = formatMarkdown(report([{ ...keyWarning, component: { name: 'CartList', framework: 'React', source: 'src/CartList.tsx', line: 7, foundBy: 'owner-stack' } }]), { maxBytes: 65536 });
    assert.match(owner, /component `<CartList>` at `src\/CartList\.tsx:7` \(from React's owner stack\)/);
  });
});

describe('the unexpected errors line in strict mode', () => {
  const strictReport = (events: DaebugEvent[]) => report(events, { test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: true, baseline: 'b.json' } } as Partial<Report>);
  it('never says known errors fail the test', () => {
    const known = event(0, { unexpected: true, known: true, message: 'Error: a' });
    const fresh = event(10, { unexpected: true, known: false, message: 'Error: b' });
    assert.match(formatMarkdown(strictReport([known]), { maxBytes: 65536 }), /^1 unexpected error \(it is known, in the baseline: strict mode does not fail on it\)\.$/m);
    assert.match(formatMarkdown(strictReport([known, fresh]), { maxBytes: 65536 }), /^2 unexpected errors \(strict mode: the test fails on the 1 new one; the baseline knows the rest\)\.$/m);
    assert.match(formatMarkdown(strictReport([fresh]), { maxBytes: 65536 }), /^1 unexpected error \(strict mode: the test fails on it\)\.$/m);
  });
});
