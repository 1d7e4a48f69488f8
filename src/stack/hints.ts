import { firstLine } from '../text/first-line';
import type { NetworkFailure } from '../model/schema';

/** What a hint is computed from: the event's kind and text, and where it happened. */
export interface HintInput {
  source: string;
  message: string;
  /** The first user frame, e.g. `src/cart.ts:12:5`, named in the suggestions; a rejection without one says so. */
  where?: string | undefined;
  /** Failed requests and responses of 400 or more in the same realm shortly before the error, oldest first: they may explain it. */
  failedRequests?: readonly NetworkFailure[] | undefined;
  /** The event is this failed request (source `network`). */
  network?: NetworkFailure | undefined;
  /**
   * Failed fetches of the service workers of the page's browser context in those moments: a request of the page that
   * one of them fetched itself and could not answer failed because that fetch did.
   */
  serviceWorkerFailures?: readonly NetworkFailure[] | undefined;
}

interface Rule {
  /** Matches the message; the match feeds the suggestions. */
  test: RegExp;
  checks(match: RegExpExecArray, where: string, input: HintInput): string[];
  /** A stable substring of such errors, for its ignore pattern; defaults to the message's stable start. */
  ignore?: string;
  /** The ignore pattern read from this error's own message, when the rule knows a better one than `ignore`. */
  ignoreOf?: (message: string) => string | undefined;
  /** Its checks say where to look when the browser gave no stack: the general word about such rejections is left out. */
  placesItself?: boolean;
}

const RULES: Rule[] = [
  {
    test: /ResizeObserver loop (?:completed with undelivered notifications|limit exceeded)/,
    ignore: 'ResizeObserver loop',
    checks: () => ['This is browser noise, not a bug: a ResizeObserver callback changed layout within one frame. Nothing is broken.'],
  },
  {
    test: /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Loading (?:CSS )?chunk \S+ failed|Unable to preload CSS/,
    checks: () => [
      'A lazily loaded chunk or module did not load: does the file exist at that URL on the server this test uses (stale build, wrong `base`/`publicPath`)?',
      'Is the request blocked or answered by a `page.route()` in the test, or by the CSP?',
    ],
  },
  {
    test: /Content Security Policy|Content-Security-Policy blocked|Refused to (?:load|execute|evaluate|connect|apply|frame|create)/,
    ignoreOf: blockedUrlEntry,
    checks: () => [
      'The page\'s Content-Security-Policy blocked this: allow the source in the directive the message names (e.g. `script-src`, `connect-src`), or move inline code and `eval` into a file.',
      'If the test sets a strict CSP on purpose, this is expected.',
    ],
  },
  {
    // Chromium's rejection of a service worker's respondWith() given no Response; it has no stack.
    test: /Failed to convert value to 'Response'/,
    placesItself: true,
    checks: (_m, _where, input) => {
      const request = input.failedRequests?.filter((f) => f.status === undefined).pop();
      const after = request ? `, here after ${request.method} ${request.url}${requestedIn(request)} failed (${request.errorText ?? 'no response'})` : '';
      return [
        `A service worker's \`event.respondWith(…)\` got something that is not a Response (\`undefined\` from a cache lookup that found nothing, a fallback that resolved to nothing)${after}: the page's request then fails with a network error.`,
        'Make the fetch handler resolve to a Response on every path: the cached copy when there is one, else `Response.error()` or an offline page.',
      ];
    },
  },
  {
    test: /Failed to fetch|NetworkError when attempting to fetch resource|Load failed|net::ERR_[A-Z_]+/,
    checks: (_m, _where, input) => {
      const request = input.failedRequests?.filter((f) => f.status === undefined).pop();
      const worker = request && input.serviceWorkerFailures?.filter((f) => f.method === request.method && f.url === request.url).pop();
      if (request && worker) return serviceWorkerChecks(request, worker);
      if (OFFLINE.test(input.message) || (request?.errorText !== undefined && OFFLINE.test(request.errorText))) return offlineChecks(request);
      return [
        request
          ? `${request.method} ${request.url}${requestedIn(request)} failed before any response (${request.errorText ?? 'no response'}): is the URL right and the server up for this test?`
          : 'A request failed before any response: is the URL right and the server up for this test?',
        'CORS: does the response allow this page\'s origin (`Access-Control-Allow-Origin`)? Is it blocked by the CSP or aborted by a `page.route()`?',
      ];
    },
  },
  {
    test: /Cannot access '([^']+)' before initialization|can't access lexical declaration '([^']+)' before initialization/,
    checks: (m, where) => [`\`${m[1] ?? m[2]}\` is used${where} before its \`let\`/\`const\`/\`class\` line ran: move the use below it, or look for a circular import.`],
  },
  {
    test: /([\p{L}_$][\p{L}\p{N}_$.]*) is not defined|Can't find variable: ([\p{L}_$][\p{L}\p{N}_$]*)/u,
    checks: (m, where) => [
      `Is \`${m[1] ?? m[2]}\` declared, imported and spelled right${where}?`,
      'If it is a global from another script or a browser API: is that script loaded first, in this realm? Workers have no `window` or `document`.',
    ],
  },
  {
    test: /Cannot (?:read|set) propert(?:y|ies) of (undefined|null)(?: \((?:reading|setting) '([^']*)'\))?|Cannot read property '([^']*)' of (undefined|null)|can't access property "?([^",]*)"?, (.+) is (undefined|null)|(undefined|null) is not an object \(evaluating '([^']*)'\)|(\S+) is (undefined|null)$/,
    checks: (m, where) => {
      const nothing = m[1] ?? m[4] ?? m[7] ?? m[8] ?? m[11] ?? 'undefined';
      const property = m[2] ?? m[3] ?? m[5] ?? m[9]?.split('.').pop();
      const read = property ? `\`.${property}\`` : 'the property';
      return [
        `The value before ${read} is ${nothing}${where}: where should it come from (a missing field, an empty response, a lookup that found nothing, data not loaded yet)?`,
        `If it may legitimately be missing, guard it (\`?.\`, a default, or an early return); otherwise fix whatever should have set it.`,
      ];
    },
  },
  {
    test: /([\p{L}_$][^\s]*) is not a function/u,
    checks: (m, where) => [
      `Is \`${m[1]}\` spelled right and a function at this point${where} (not undefined, a Promise or a plain value)?`,
      'If it is imported: named or default export? If it is a method: is it called on the right object?',
    ],
  },
  {
    test: /^Script error\.?$/,
    checks: () => ['A cross-origin script threw and the browser hid the details: load it with `crossorigin` and serve it with `Access-Control-Allow-Origin` to see the real error.'],
  },
  {
    test: /Unexpected token '?(.)'?, "(.*?)"(?:\.\.\.)? is not valid JSON|Unexpected token '?<'?|is not valid JSON|Unexpected end of JSON input|JSON\.parse: unexpected/,
    checks: (m, _where, input) => jsonChecks(m[1], m[2], input.failedRequests),
  },
];

/**
 * A body that is not JSON: named by the failed response just before it when there is one, called HTML only when its
 * text starts like HTML (a plain `not found` body is not).
 */
function jsonChecks(token: string | undefined, excerpt: string | undefined, failed: readonly NetworkFailure[] | undefined): string[] {
  const response = failed?.filter((f) => f.status !== undefined).pop();
  const shown = excerpt === undefined ? '' : ` (it starts with ${JSON.stringify(excerpt)})`;
  if (response) {
    const statusText = response.statusText ? ` ${response.statusText}` : '';
    return [
      `${response.method} ${response.url}${requestedIn(response)} returned ${response.status}${statusText}; its body is not JSON${shown}: is the URL right, and the server up and answering it in this test?`,
      'Check `response.ok` (or the status) before `response.json()`, so a failed request is reported as such.',
    ];
  }
  if (token === '<' || excerpt?.trimStart().startsWith('<')) return ['A script or JSON response was HTML (often a 404 page or an index.html fallback): check the URL it was loaded from.'];
  return [
    `Text that is not JSON was parsed as JSON${shown}: a plain-text error body (e.g. "not found") or an empty response? Check the URL it came from and its status.`,
    'Check `response.ok` (or the status) before `response.json()`.',
  ];
}

/** ` (requested in src/api/user.ts:12:5 in loadUser)`: the app's call that made a failed request, when enrichment found it. */
function requestedIn(failure: NetworkFailure): string {
  const at = failure.initiator?.original;
  return at ? ` (requested in ${at.source}:${at.line}:${at.column}${at.functionName ? ` in ${at.functionName}` : ''})` : '';
}

const NO_USER_FRAME =
  'No frame of this rejection is in your code: the browser rejected it without a stack (e.g. `response.json()` on a body that is not JSON). Look for the `fetch` or `.json()` call that has no `.catch`.';

const REJECTION = [
  'Nothing handled this rejected Promise: `await` the call that started it (see the first user frame) or add `.catch(...)`.',
  'In an event handler or timer, wrap the async work in `try`/`catch` so the failure is handled.',
];

/** What the rules say of an error: the suggestions, and the stable substring of the rule that matched. */
function explain(input: HintInput): { checks: string[]; ignore: string | undefined } {
  const message = firstLine(input.message);
  const where = input.where ? ` in ${input.where}` : '';
  const checks: string[] = [];
  let ignore: string | undefined;
  let placed = false;
  if (input.network) {
    checks.push(...networkChecks(input.network, where));
    ignore = urlEntry(input.network.url);
  }
  for (const rule of input.network ? [] : RULES) {
    const match = rule.test.exec(message);
    if (!match) continue;
    checks.push(...rule.checks(match, where, input));
    ignore = rule.ignoreOf?.(message) ?? rule.ignore;
    placed = rule.placesItself === true;
    break;
  }
  if (input.source === 'unhandledrejection') {
    const general = REJECTION.slice(0, checks.length ? 1 : 2);
    if (!input.where && !placed) checks.push(NO_USER_FRAME);
    checks.push(...general);
  }
  return { checks, ignore };
}

/**
 * A short "Please check:" block for an error, in the spirit of compiler hints: the likely cause and what to try
 * first. Undefined when no rule knows the error. It never suggests ignoring the error: a report says once, at its
 * end, what to do when an error is truly expected, and the JSON gives each error's pattern (`ignorePatternFor`).
 */
export function hintFor(input: HintInput): string | undefined {
  const { checks } = explain(input);
  if (!checks.length) return undefined;
  return ['Please check:', ...checks.map((c) => `- ${c}`)].join('\n');
}

/**
 * The substring that `daebugIgnore` or `daebug.expectError` would match this error by, for the case where it is the
 * app's intended behaviour: a failed request's URL path, a known error's stable words, else the message's stable start.
 */
export function ignorePatternFor(input: HintInput): string {
  return explain(input).ignore ?? ignoreEntry(firstLine(input.message));
}

/** Chromium's error when the browser has no network: `context.setOffline(true)`, or the machine's network down. */
const OFFLINE = /net::ERR_INTERNET_DISCONNECTED/;

/** A request that failed because the browser was offline: neither CORS nor the server is to blame. */
function offlineChecks(request: NetworkFailure | undefined, where = ''): string[] {
  const what = request ? `${request.method} ${request.url}${where ? ` (requested${where})` : requestedIn(request)}` : 'The request';
  return [
    `${what} failed because the browser was offline (\`net::ERR_INTERNET_DISCONNECTED\`): did the test take the context offline (\`context.setOffline(true)\`), or was the machine's network down? No request left the browser, so it is not CORS or the server.`,
    "If the test goes offline on purpose, the app's offline handling is what failed: should it catch this (a fallback, a message, a service worker's cache) instead of letting it surface?",
  ];
}

/**
 * A page's request that its service worker failed: the worker fetched it itself, that fetch failed, and its fetch
 * handler had no Response to give instead (Chromium then fails the page's request with `net::ERR_FAILED`).
 */
function serviceWorkerChecks(request: NetworkFailure, worker: NetworkFailure): string[] {
  const at = worker.initiator?.original;
  const own = `${worker.errorText ?? (worker.status !== undefined ? String(worker.status) : 'failed')}${at ? `, requested in ${at.source}:${at.line}:${at.column}` : ''}`;
  return [
    `${request.method} ${request.url}${requestedIn(request)} was failed by the page's service worker (${request.errorText ?? 'no response'}): its own fetch of it failed (${own}) and its fetch handler gave no Response instead. Not CORS, not the page's code: look at the service worker's failed request.`,
    ...(worker.errorText !== undefined && OFFLINE.test(worker.errorText) ? [offlineChecks(worker)[1]!] : []),
  ];
}

function networkChecks(failure: NetworkFailure, where: string): string[] {
  if (failure.status === undefined && failure.errorText !== undefined && OFFLINE.test(failure.errorText)) return offlineChecks(failure, where);
  const started = where ? ` (requested${where})` : '';
  if (failure.status !== undefined) {
    return [
      `${failure.method} ${failure.url}${started} was answered ${failure.status}: is the URL right (a typo, a stale build, a wrong \`baseURL\` or \`base\`), and does the server this test uses serve it?`,
      failure.status >= 500 ? 'A 5xx is the server failing: its log says why.' : 'If a `page.route()` in the test answers it, does the route match and fulfil it?',
    ];
  }
  return [
    `${failure.method} ${failure.url}${started} got no response (${failure.errorText ?? 'failed'}): is the server up for this test, and the host and port right?`,
    'CORS, the CSP, a `page.route()` abort or the page navigating away also end a request early; the error text says which.',
  ];
}

/** The URL's path, which keeps matching when the test server's port changes. */
function urlEntry(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname.length > 1 ? parsed.pathname : url;
  } catch {
    return url;
  }
}

/**
 * The resource a CSP message says was blocked, as `urlEntry` writes it: the URL comes before "violates" or "because"
 * (`Loading the script 'http://…/worker.js' violates …`, `Refused to connect to '…' because …`). The message's start
 * (`Loading the script '`) would match every blocked script; a URL later on is the policy's, not the blocked one.
 * Undefined for inline code and eval, which name no URL.
 */
function blockedUrlEntry(message: string): string | undefined {
  const head = message.split(/ violates | because /, 1)[0] ?? '';
  const url = /\b(?:https?|wss?):\/\/[^\s'"]+/.exec(head)?.[0].replace(/[:.,]+$/, '');
  return url ? urlEntry(url) : undefined;
}

/** A substring of the message that keeps matching when volatile parts (numbers, ids, URLs) differ: its first 80 characters. */
function ignoreEntry(message: string): string {
  const text = message.replace(/^Uncaught (?:\(in promise\) )?/, '');
  const cut = text.search(/https?:\/\/|\d{3,}/);
  const stable = (cut > 12 ? text.slice(0, cut) : text).trim();
  return stable.length > 80 ? stable.slice(0, 80).replace(/\s+\S*$/, '') : stable;
}
