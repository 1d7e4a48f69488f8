import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame } from '../../src/model/schema';
import { firstUserFrame, isDependencyFrame } from '../../src/stack/first-user-frame';
import { isDocumentStart, isDocumentUrl } from '../../src/text/document-start';

const bundle = 'http://127.0.0.1:4000/react/dist/app.js';
const react: Frame = { url: bundle, line: 21557, column: 22, functionName: 'renderWithHooks', userCode: false, original: { source: 'node_modules/react-dom/cjs/react-dom-client.development.js', line: 8030, column: 22 } };
const component: Frame = { url: bundle, line: 23870, column: 33, functionName: 'PriceTag', userCode: true, original: { source: 'src/PriceTag.tsx', line: 4, column: 32 } };
const page: Frame = { url: 'http://127.0.0.1:4000/react/index.html', line: 1, column: 2, userCode: true };

describe('firstUserFrame', () => {
  it('skips library frames and returns the first frame in user code', () => {
    assert.equal(firstUserFrame([react, component]), component);
  });
  it('never returns line 1 of an HTML page: a rejection without a stack has no user frame', () => {
    assert.equal(firstUserFrame([page]), undefined);
    assert.equal(firstUserFrame([page, component]), component);
    assert.equal(firstUserFrame([]), undefined);
    assert.equal(firstUserFrame(undefined), undefined);
  });
  it('takes the caller\'s library rule (e.g. a source map\'s ignoreList)', () => {
    const ignored = new Set([component]);
    assert.equal(firstUserFrame([component], (f) => ignored.has(f)), undefined);
    const other: Frame = { ...component, functionName: 'App', original: { source: 'src/App.tsx', line: 30, column: 5 } };
    assert.equal(firstUserFrame([component, other], (f) => ignored.has(f)), other);
  });
  it('needs enrichment to have marked the frame as user code', () => {
    const { userCode: _, ...unmarked } = component;
    assert.equal(firstUserFrame([unmarked]), undefined);
  });
});

describe('isDependencyFrame', () => {
  it('reads the original source when mapped, else the URL', () => {
    assert.equal(isDependencyFrame(react), true);
    assert.equal(isDependencyFrame(component), false);
    assert.equal(isDependencyFrame({ url: 'http://x/node_modules/lib/index.js', line: 3, column: 1 }), true);
    assert.equal(isDependencyFrame({ url: 'http://x/app.js', line: 3, column: 1 }), false);
  });
});

describe('isDocumentStart', () => {
  it('is line 1 of a page URL, unmapped', () => {
    assert.equal(isDocumentStart(page), true);
    assert.equal(isDocumentStart({ url: 'http://x/shop/', line: 1 }), true);
    assert.equal(isDocumentStart({ url: 'http://x/shop?tab=2', line: 1 }), true);
    assert.equal(isDocumentStart({ ...page, line: 12 }), false, 'an inline script further down is user code');
    assert.equal(isDocumentStart({ url: 'http://x/app.min.js', line: 1 }), false, 'a minified bundle runs on line 1');
    assert.equal(isDocumentStart({ ...page, original: { source: 'src/a.ts', line: 1, column: 1 } }), false);
  });
  it('recognises page URLs only', () => {
    assert.equal(isDocumentUrl('http://x/index.htm#top'), true);
    assert.equal(isDocumentUrl('http://x/a.mjs'), false);
    assert.equal(isDocumentUrl('<anonymous>'), false);
  });
});
