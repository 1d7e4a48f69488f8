import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestInfo } from '@playwright/test';
import { traceMarkdown } from '../../src/fixture/trace-report';
import type { DaebugEvent } from '../../src/model/schema';

const error: DaebugEvent = { type: 'error', source: 'window.onerror', realm: 'page', ts: '10:00:00', time: '2026-01-01T10:00:00.000Z', message: 'Error: boom', expected: false, unexpected: true };
const record = { version: 1 as const, capture: true, strict: true, realms: ['page'], jobs: [], steps: [], events: [error], dropped: { total: 0, bySource: {} }, diagnostics: [] };

function testInfo(status: TestInfo['status']): TestInfo {
  return {
    title: 'adds to cart',
    titlePath: ['cart.spec.ts', 'cart', 'adds to cart'],
    file: '/repo/e2e/cart.spec.ts',
    line: 7,
    status,
    expectedStatus: 'passed',
    retry: 0,
    repeatEachIndex: 0,
    project: { name: '' },
    config: { rootDir: '/repo/e2e', projects: [{}] },
  } as unknown as TestInfo;
}

describe('traceMarkdown', () => {
  it("is the test's report as the worker knows it, failed when daebug's strict mode fails it", () => {
    const md = traceMarkdown(record, testInfo('passed'), true, 1500);
    assert.match(md, /^# cart\.spec\.ts › cart › adds to cart\n/);
    assert.match(md, /- Status: \*\*failed \(expected passed\)\*\*/);
    assert.match(md, /## Unexpected errors[\s\S]*Error: boom/);
    assert.match(md, /- JSON: `cart-cart-adds-to-cart-[0-9a-f]{8}\.json`/);
  });

  it('keeps the status Playwright gave when daebug did not fail the test', () => {
    assert.match(traceMarkdown(record, testInfo('passed'), false, 10), /- Status: \*\*passed, with 1 unexpected browser error\*\*/);
    assert.match(traceMarkdown(record, testInfo('timedOut'), true, 10), /- Status: \*\*timedOut/);
  });
});
