import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMarkdown } from '../../src/format/markdown';
import { frameworkContext, rootCauseSection } from '../../src/format/root-cause';
import { reportSchema, type DaebugEvent, type Frame, type Report } from '../../src/model/schema';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const event = (ms: number, fields: Partial<DaebugEvent>): DaebugEvent => ({ type: 'console', source: 'console.error', level: 'error', realm: 'page', ts: '10:00:00', time: new Date(T0 + ms).toISOString(), message: 'm', expected: false, ...fields });
const user: Frame = { url: 'http://h/app.js', line: 1, column: 500, functionName: 'u', original: { source: 'src/Cart.tsx', line: 14, column: 11, functionName: 'Cart' }, userCode: true };
const react: Frame[] = Array.from({ length: 9 }, (_, i) => ({ url: 'http://h/app.js', line: 1, column: 9000 + i, original: { source: 'node_modules/react-dom/cjs/react-dom-client.development.js', line: 100 + i, column: 1 }, library: 'react-dom' }));

function report(events: DaebugEvent[], fields: Partial<Report> = {}): Report {
  return reportSchema.parse({
    schemaVersion: 1,
    test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'failed', expectedStatus: 'passed', retry: 0, duration: 5, strict: true },
    jobs: [],
    events,
    summary: { errors: events.length, unexpected: events.filter((e) => e.unexpected).length, console: 0, dropped: 0 },
    ...fields,
  });
}

describe('the Root cause block', () => {
  it("names the message, the original file:line and function, React's component, the step and the first thing to try", () => {
    const logged = event(100, {
      message: "TypeError: Cannot read properties of undefined (reading 'price')\n\nThe above error occurred in the <Cart> component.\n\nReact will try to recreate this component tree",
      stack: "TypeError: Cannot read properties of undefined (reading 'price')\n    at u (http://h/app.js:1:500)",
      frames: [...react.slice(0, 3), user, ...react.slice(3)],
      unexpected: true,
      step: 'open the cart',
      stepId: 's1',
      hint: 'Please check:\n- The value before `.price` is undefined in src/Cart.tsx:14:11: where should it come from?\n- guard it',
    });
    const lines = rootCauseSection(report([logged]), '#');
    const text = lines.join('\n');
    assert.equal(lines[1], '## Root cause');
    // The page's words stay inside a fence; daebug's own lines name where, what and when.
    assert.match(text, /^```Error console\.error\nTypeError: Cannot read properties of undefined \(reading 'price'\)\n\nTry first: The value before `\.price` is undefined in src\/Cart\.tsx:14:11/m);
    assert.match(text, /^The `console\.error` in `page` at 10:00:00, unexpected error 1 below:$/m);
    assert.match(text, /^- Where: `src\/Cart\.tsx:14:11 in Cart`$/m);
    assert.match(text, /^- React component `<Cart>`: named by React's "The above error occurred in the <…> component"$/m);
    assert.match(text, /^- When: during step `open the cart`$/m);
    assert.match(text, /^- Chosen: /m);
  });

  it("reads Vue's component trace and Angular's ERROR prefix from the event's own text", () => {
    const vueWarn = event(90, { source: 'console.warn', level: 'warn', message: '[Vue warn]: Unhandled error during execution of render function \n  at <Child msg="x" > \n  at <App>' });
    const thrown = event(100, { message: 'Error: child broke', unexpected: true });
    assert.deepEqual(frameworkContext(vueWarn, [vueWarn, thrown]), { framework: 'Vue', component: 'Child', evidence: "named by Vue's component trace (`at <…>`)" });
    assert.equal(frameworkContext(event(1, { message: 'ERROR Error: save failed' }), [])?.framework, 'Angular');
    assert.equal(frameworkContext(event(1, { message: 'plain' }), []), undefined);
  });
});

describe('the component of the Root cause', () => {
  const keyWarning = event(100, { message: 'Each child in a list should have a unique "key" prop.\n\nCheck the render method of `PriceList`.', frames: react, unexpected: true });
  const widgetError = event(110, { message: "TypeError: Cannot read properties of undefined (reading 'id')\n\nThe above error occurred in the <BrokenWidget> component.", loggedAt: { url: 'http://h/app.js', line: 1, column: 9 }, frames: [user], unexpected: true });

  it("is never borrowed from the next error: React's key warning is not <BrokenWidget>'s", () => {
    assert.equal(frameworkContext(keyWarning, [keyWarning, widgetError]), undefined);
    assert.equal(frameworkContext(widgetError, [keyWarning, widgetError])?.component, 'BrokenWidget');
  });

  it('is never borrowed from an unrelated Vue prop warning', () => {
    const propWarning = event(90, { source: 'console.warn', level: 'warn', message: '[Vue warn]: Invalid prop: type check failed for prop "user". \n  at <UserCard user=undefined > \n  at <App>' });
    const mountError = event(100, { type: 'error', source: 'window.onerror', message: "TypeError: Cannot read properties of undefined (reading 'name')", unexpected: true, frames: [user] });
    const events = [propWarning, mountError];
    assert.equal(frameworkContext(mountError, events), undefined);
    // The error's own lines borrow nothing; the list of problems after them names the warning with its own component
    // (issue 37: warnings are problems too).
    const section = rootCauseSection(report(events), '#').join('\n');
    assert.ok(!section.slice(0, section.indexOf(' independent problems')).includes('UserCard'), section);
    assert.match(section, /^  2\. warning 1 below: a Vue warning about your component `UserCard`/m);
  });

  it("takes React 18's boundary log, a console.error of its own right after the error in the same realm", () => {
    const thrown = event(100, { type: 'error', source: 'window.onerror', message: 'Error: cart broke', unexpected: true, frames: [user] });
    const boundary = event(101, { message: 'The above error occurred in the <Cart> component:\n\n    at Cart\n    at App', unexpected: true });
    assert.equal(frameworkContext(thrown, [thrown, boundary])?.component, 'Cart');
    // Not from another realm, not when something else came between, and never for a warning.
    assert.equal(frameworkContext(thrown, [thrown, { ...boundary, realm: 'worker' }]), undefined);
    assert.equal(frameworkContext(thrown, [thrown, event(100, { message: 'other' }), boundary]), undefined);
    assert.equal(frameworkContext(keyWarning, [keyWarning, boundary]), undefined);
  });

  it('says so when no frame is in the user code, and never blames a library frame', () => {
    const text = rootCauseSection(report([event(100, { type: 'error', source: 'unhandledrejection', message: 'Error: inside', frames: react, unexpected: true })]), '#').join('\n');
    assert.match(text, /^- Where: no frame of its stack is in your code; it surfaced in `node_modules\/react-dom\/cjs\/react-dom-client\.development\.js:100:1`$/m);
    assert.match(text, /^Try first: No frame of its stack is in your code/m);
  });

  it('comes right under the header, and only when there are unexpected errors', () => {
    const md = formatMarkdown(report([event(100, { unexpected: true, frames: [user] })]), { maxBytes: 65536 });
    assert.ok(md.indexOf('- Events:') < md.indexOf('## Root cause') && md.indexOf('## Root cause') < md.indexOf('## Unexpected errors'), md);
    assert.ok(!formatMarkdown(report([event(100, { expected: true })]), { maxBytes: 65536 }).includes('## Root cause'));
  });
});

describe('the Root cause of an error whose own frames are not in the app', () => {
  it("points at its cause's (or first member's) user frame", () => {
    const aggregate = event(100, { type: 'error', source: 'unhandledrejection', message: 'AggregateError: All promises were rejected', unexpected: true, frames: [], aggregate: [{ name: 'Error', message: 'out of stock', frames: [user] }] });
    const text = rootCauseSection(report([aggregate]), '#').join('\n');
    assert.match(text, /^- Where: `src\/Cart\.tsx:14:11 in Cart` \(where its member `Error` was thrown\)$/m);
  });
});

describe('the Root cause of an error during a daebug.eval', () => {
  it('names the eval by its realm and start, never by its code', () => {
    const inEval = event(100, { type: 'error', source: 'window.onerror', message: 'Error: x', unexpected: true, jobId: 'job-1', frames: [user] });
    const jobs = [{ id: 'job-1', kind: 'eval' as const, realm: 'page', code: "() => '# INJECT heading'", startedAt: new Date(T0 + 50).toISOString(), ok: true, events: [] }];
    const text = rootCauseSection(report([inEval], { jobs }), '#').join('\n');
    assert.match(text, /^- When: during the `daebug\.eval` in `page` that started at \d\d:\d\d:\d\d$/m);
    assert.ok(!text.includes('INJECT'));
  });
});
