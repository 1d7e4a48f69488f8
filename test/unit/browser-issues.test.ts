import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { issueDraft, logLineOf } from '../../src/capture/cdp/audits';
import { isCanceledByPage, isLocalUrl } from '../../src/capture/network-failure';
import { isUnexpectedKind } from '../../src/model/classify';
import { shortUrl } from '../../src/model/short-url';

// As Chromium 156 sends them (Audits.issueAdded), trimmed to what daebug reads.
const CSP = { code: 'ContentSecurityPolicyIssue', details: { contentSecurityPolicyIssueDetails: { blockedURL: 'http://localhost:1/w.js', violatedDirective: 'script-src-elem', isReportOnly: false, contentSecurityPolicyViolationType: 'kURLViolation', sourceCodeLocation: { url: 'http://127.0.0.1:1/app.js', lineNumber: 4, columnNumber: 9 } } } };
const CORS = { code: 'CorsIssue', details: { corsIssueDetails: { corsErrorStatus: { corsError: 'MissingAllowOriginHeader', failedParameter: '' }, isWarning: false, request: { requestId: '7.3', url: 'http://localhost:1/api' }, initiatorOrigin: 'http://127.0.0.1:1/' } } };

describe('issueDraft', () => {
  it('reads a CSP violation: what was blocked, by which directive, where', () => {
    const draft = issueDraft(CSP)!;
    assert.equal(draft.level, 'error');
    assert.deepEqual(draft.issue, { kind: 'csp', code: 'ContentSecurityPolicyIssue', blockedUrl: 'http://localhost:1/w.js', directive: 'script-src-elem', reason: 'url' });
    assert.equal(draft.message, 'Content-Security-Policy blocked http://localhost:1/w.js: directive script-src-elem');
    assert.deepEqual(draft.location, { url: 'http://127.0.0.1:1/app.js', line: 5, column: 10 });
  });

  it('reads a report-only CSP violation as a warning that blocked nothing', () => {
    const draft = issueDraft({ ...CSP, details: { contentSecurityPolicyIssueDetails: { ...CSP.details.contentSecurityPolicyIssueDetails, isReportOnly: true } } })!;
    assert.equal(draft.level, 'warn');
    assert.equal(draft.issue.reportOnly, true);
    assert.match(draft.message, /would block \(report-only\)/);
  });

  it('reads a CORS block with the request it belongs to', () => {
    const draft = issueDraft(CORS)!;
    assert.equal(draft.requestId, '7.3');
    assert.deepEqual(draft.issue, { kind: 'cors', code: 'CorsIssue', reason: 'MissingAllowOriginHeader', requestUrl: 'http://localhost:1/api' });
    assert.equal(draft.message, 'CORS blocked http://localhost:1/api from http://127.0.0.1:1: MissingAllowOriginHeader');
  });

  it('reads mixed content, cookies and deprecations as their own kinds, and skips what it does not know', () => {
    assert.equal(issueDraft({ code: 'MixedContentIssue', details: { mixedContentIssueDetails: { resolutionStatus: 'MixedContentBlocked', insecureURL: 'http://x/a.js', mainResourceURL: 'https://y/' } } })!.level, 'error');
    assert.equal(issueDraft({ code: 'CookieIssue', details: { cookieIssueDetails: { cookie: { name: 'sid' }, cookieExclusionReasons: ['ExcludeSameSiteNoneInsecure'], operation: 'SetCookie' } } })!.issue.kind, 'cookie');
    assert.equal(issueDraft({ code: 'DeprecationIssue', details: { deprecationIssueDetails: { type: 'PrefixedStorageInfo' } } })!.issue.reason, 'PrefixedStorageInfo');
    assert.equal(issueDraft({ code: 'QuirksModeIssue', details: {} }), undefined);
  });
});

describe('one problem, one event', () => {
  it('knows the browser line that says the same as an issue', () => {
    const csp = issueDraft(CSP)!.issue;
    assert.equal(logLineOf(csp, { source: 'security', text: "Loading the script 'http://localhost:1/w.js' violates the following Content Security Policy directive" }), true);
    assert.equal(logLineOf(csp, { source: 'security', text: "Loading the script 'http://localhost:1/other.js' violates …" }), false);
    const cors = issueDraft(CORS)!.issue;
    assert.equal(logLineOf(cors, { source: 'javascript', category: 'cors', text: "Access to fetch at 'http://localhost:1/api' from origin 'http://127.0.0.1:1' has been blocked by CORS policy" }), true);
  });

  it('counts an enforced CSP violation as unexpected, a report-only one and a CORS block not', () => {
    const event = (issue: ReturnType<typeof issueDraft>) => ({ type: 'console' as const, source: 'browser.issue', message: '', level: issue!.level, issue: issue!.issue });
    assert.equal(isUnexpectedKind(event(issueDraft(CSP))), true);
    assert.equal(isUnexpectedKind(event(issueDraft({ ...CSP, details: { contentSecurityPolicyIssueDetails: { ...CSP.details.contentSecurityPolicyIssueDetails, isReportOnly: true } } }))), false);
    assert.equal(isUnexpectedKind(event(issueDraft(CORS))), false);
  });
});

describe('canceled loads and long URLs', () => {
  it('a canceled load is not a failure, whatever its type; a data: load is not even a line', () => {
    assert.equal(isCanceledByPage({ errorText: 'net::ERR_ABORTED', canceled: true }), true);
    assert.equal(isCanceledByPage({ errorText: 'net::ERR_CONNECTION_REFUSED' }), false);
    assert.equal(isLocalUrl('data:image/svg+xml,<svg/>'), true);
    assert.equal(isLocalUrl('blob:https://app/0d5c'), true);
    assert.equal(isLocalUrl('https://app/frame.html'), false);
  });

  it('prints a data: or blob: URL as a short prefix and its length', () => {
    const long = `data:image/svg+xml,${'%3Csvg%3E'.repeat(200)}`;
    assert.equal(shortUrl(long), `${long.slice(0, 48)}… (${long.length} chars)`);
    assert.equal(shortUrl('data:,x'), 'data:,x');
    assert.equal(shortUrl(`https://app/${'a'.repeat(500)}`).length, 512);
  });
});
