/**
 * Chromium's DevTools issues (the Audits domain) as drafts of one source, `browser.issue`, with structured fields:
 * which kind of problem (a Content-Security-Policy violation, a CORS block, mixed content, a cookie or a
 * deprecation), what was blocked and by which directive or reason. Pure: CDP's issue in, a draft's fields out.
 */
import type { BrowserIssue, Location } from '../../model/schema';

/** An `Audits.issueAdded` issue as Chromium sends it (only the fields daebug reads). */
export interface CdpIssue {
  code: string;
  details?: {
    contentSecurityPolicyIssueDetails?: { blockedURL?: string; violatedDirective?: string; isReportOnly?: boolean; contentSecurityPolicyViolationType?: string; sourceCodeLocation?: CdpSourceLocation };
    corsIssueDetails?: { corsErrorStatus?: { corsError?: string; failedParameter?: string }; isWarning?: boolean; request?: { requestId?: string; url?: string }; location?: CdpSourceLocation; initiatorOrigin?: string };
    mixedContentIssueDetails?: { resourceType?: string; resolutionStatus?: string; insecureURL?: string; mainResourceURL?: string; request?: { requestId?: string; url?: string } };
    cookieIssueDetails?: { cookie?: { name?: string; domain?: string }; rawCookieLine?: string; cookieWarningReasons?: string[]; cookieExclusionReasons?: string[]; operation?: string; cookieUrl?: string };
    deprecationIssueDetails?: { sourceCodeLocation?: CdpSourceLocation; type?: string };
  };
}

interface CdpSourceLocation {
  url?: string;
  lineNumber?: number;
  columnNumber?: number;
}

/** What a draft of an issue holds, and the request it belongs to (a CORS block is also a failed request). */
export interface IssueDraft {
  level: 'error' | 'warn';
  message: string;
  issue: BrowserIssue;
  location?: Location | undefined;
  /** CDP's request id, for a CORS block or mixed content: the failed request's own event takes the issue. */
  requestId?: string | undefined;
}

function locationOf(at: CdpSourceLocation | undefined): Location | undefined {
  return at?.url ? { url: at.url, line: (at.lineNumber ?? 0) + 1, column: (at.columnNumber ?? 0) + 1 } : undefined;
}

/** `kURLViolation` → `url`, `kInlineViolation` → `inline`, `kEvalViolation` → `eval`. */
function violationKind(type: string | undefined): string | undefined {
  return type?.replace(/^k/, '').replace(/Violation$/, '').toLowerCase() || undefined;
}

/** The draft of an issue, or undefined for an issue daebug does not know how to read. */
export function issueDraft(issue: CdpIssue): IssueDraft | undefined {
  const details = issue.details ?? {};
  const csp = details.contentSecurityPolicyIssueDetails;
  if (csp) {
    const blocked = csp.blockedURL ?? `${violationKind(csp.contentSecurityPolicyViolationType) ?? 'inline'} code`;
    const out: BrowserIssue = { kind: 'csp', code: issue.code };
    if (csp.blockedURL) out.blockedUrl = csp.blockedURL;
    if (csp.violatedDirective) out.directive = csp.violatedDirective;
    if (csp.isReportOnly) out.reportOnly = true;
    const violation = violationKind(csp.contentSecurityPolicyViolationType);
    if (violation) out.reason = violation;
    return {
      level: csp.isReportOnly ? 'warn' : 'error',
      message: `Content-Security-Policy ${csp.isReportOnly ? 'would block (report-only)' : 'blocked'} ${blocked}: directive ${csp.violatedDirective ?? '(unknown)'}`,
      issue: out,
      location: locationOf(csp.sourceCodeLocation),
    };
  }
  const cors = details.corsIssueDetails;
  if (cors) {
    const reason = cors.corsErrorStatus?.corsError ?? 'unknown';
    const parameter = cors.corsErrorStatus?.failedParameter;
    const out: BrowserIssue = { kind: 'cors', code: issue.code, reason: parameter ? `${reason} (${parameter})` : reason };
    if (cors.request?.url) out.requestUrl = cors.request.url;
    return {
      level: cors.isWarning ? 'warn' : 'error',
      message: `CORS ${cors.isWarning ? 'warning for' : 'blocked'} ${cors.request?.url ?? 'a request'}${cors.initiatorOrigin ? ` from ${cors.initiatorOrigin.replace(/\/$/, '')}` : ''}: ${out.reason}`,
      issue: out,
      location: locationOf(cors.location),
      requestId: cors.request?.requestId,
    };
  }
  const mixed = details.mixedContentIssueDetails;
  if (mixed) {
    const blocked = mixed.resolutionStatus === 'MixedContentBlocked';
    const out: BrowserIssue = { kind: 'mixed-content', code: issue.code };
    if (mixed.insecureURL) out.blockedUrl = mixed.insecureURL;
    if (mixed.resolutionStatus) out.reason = mixed.resolutionStatus;
    return { level: blocked ? 'error' : 'warn', message: `Mixed content ${blocked ? 'blocked' : 'loaded'}: ${mixed.insecureURL ?? 'a resource'} on ${mixed.mainResourceURL ?? 'a secure page'}`, issue: out, requestId: mixed.request?.requestId };
  }
  const cookie = details.cookieIssueDetails;
  if (cookie) {
    const reasons = [...(cookie.cookieExclusionReasons ?? []), ...(cookie.cookieWarningReasons ?? [])];
    const out: BrowserIssue = { kind: 'cookie', code: issue.code };
    if (reasons.length) out.reason = reasons.join(', ');
    if (cookie.cookieUrl) out.requestUrl = cookie.cookieUrl;
    const name = cookie.cookie?.name ?? cookie.rawCookieLine?.split('=', 1)[0];
    return { level: 'warn', message: `Cookie ${name ? `"${name}" ` : ''}${cookie.operation === 'SetCookie' ? 'not set' : 'not sent'}${cookie.cookieUrl ? ` for ${cookie.cookieUrl}` : ''}: ${out.reason ?? 'see the browser'}`, issue: out };
  }
  const deprecation = details.deprecationIssueDetails;
  if (deprecation) {
    const out: BrowserIssue = { kind: 'deprecation', code: issue.code };
    if (deprecation.type) out.reason = deprecation.type;
    return { level: 'warn', message: `Deprecated feature used: ${deprecation.type ?? 'unknown'}`, issue: out, location: locationOf(deprecation.sourceCodeLocation) };
  }
  return undefined;
}

/**
 * Whether a browser console line (`Log.entryAdded`) says the same as an issue: Chromium writes CSP violations as
 * `security` lines and CORS blocks as `javascript` lines of category `cors`, naming the blocked URL.
 */
export function logLineOf(issue: BrowserIssue, entry: { source?: string; category?: string; text?: string }): boolean {
  const text = entry.text ?? '';
  if (issue.kind === 'csp') return entry.source === 'security' && (issue.blockedUrl ? text.includes(issue.blockedUrl) : /Content Security Policy/.test(text));
  if (issue.kind === 'cors') return entry.category === 'cors' && entry.source !== 'network' && !!issue.requestUrl && text.includes(issue.requestUrl);
  if (issue.kind === 'mixed-content') return entry.source === 'security' && !!issue.blockedUrl && text.includes(issue.blockedUrl);
  return false;
}
