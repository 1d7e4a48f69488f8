import { test as base, type TestType, type PlaywrightTestArgs, type PlaywrightTestOptions, type PlaywrightWorkerArgs, type PlaywrightWorkerOptions, type Fixtures } from '@playwright/test';
import type { TestCapture } from './capture/test-capture';
import type { Recorder } from './capture/recorder';
import type { Daebug } from './daebug';
import type { DaebugLimits, IgnorePattern, NetworkMode, ValuesMode } from './options';
import type { RedactOption } from './redact';

/** Options that `test.use()` and the config's `use` block accept. */
export interface DaebugOptions {
  /** Fail a test on any unexpected error (uncaught exception, unhandled rejection, console.error). @default false */
  daebugStrict: boolean;
  /** Attach listeners to pages and workers. false attaches none and the report says capture was off. @default true */
  daebugCapture: boolean;
  /** Errors and messages that are expected: substrings or RegExps tested against message and stack. @default [] */
  daebugIgnore: IgnorePattern[];
  /** Bounds on what is kept per test; see DaebugLimits for the defaults. @default {} */
  daebugLimits: Partial<DaebugLimits>;
  /**
   * Replaces values that look like secrets (Authorization and Bearer tokens, `password=` / `token=` / `api_key=`
   * pairs, JWTs, cookies) with `[REDACTED]` before anything leaves the test, so neither report nor blob holds them.
   * `false` turns it off; `{ patterns }` adds patterns; `{ builtIn: false, patterns }` uses only yours.
   * @default true
   * @example test.use({ daebugRedact: { patterns: [/acct-\d{8}/] } });
   */
  daebugRedact: RedactOption;
  /**
   * Failed requests (DNS, refused, aborted, CORS, blocked) and responses of 400 or more, for documents, scripts,
   * stylesheets, fetch and XHR, as events of the source `network`. `report` records them without counting them as
   * unexpected; `strict` makes them unexpected, so `daebugStrict` fails on them; `off` does not listen to the network.
   * `daebugIgnore` patterns are tested against their URL. Favicon requests are never reported.
   * @default 'report'
   * @example test.use({ daebugNetwork: 'strict', daebugIgnore: ['/optional-widget.js'] });
   */
  daebugNetwork: NetworkMode;
  /**
   * Chromium only: turns on CDP's async stack traces (`Runtime.setAsyncCallStackDepth`, 8 levels) in the test's pages
   * and workers, so an error thrown in a callback or a rejection also lists the frames that scheduled the work (the
   * handler that set the timer, the code that awaited) and the first user frame can be found there. Off by default:
   * it makes promise- and timer-heavy pages slower (see README, "Async stacks").
   * @default false
   * @example test.use({ daebugAsyncStacks: true });
   */
  daebugAsyncStacks: boolean;
  /**
   * Keeps the test's Markdown report (`<slug>.md` in the reporter's outputDir) up to date while the test runs: the
   * jobs so far and the running job's background events, rewritten at most every 2 s and only when something changed.
   * Only in runs that use daebug's reporter; the final report replaces it when the test ends.
   * @default true
   */
  daebugLive: boolean;
  /**
   * A baseline file written by `npx daebug baseline` (a path relative to the Playwright config's folder). Every
   * error whose fingerprint is in it is marked `known: true`; in strict mode a known error does not fail the test,
   * so a suite with existing errors can turn strict mode on for new errors only. A missing or malformed file fails
   * the test with an error naming the path. `undefined` (the default) uses no baseline.
   * @default undefined
   * @example test.use({ daebugStrict: true, daebugBaseline: 'daebug-baseline.json' });
   */
  daebugBaseline: string | undefined;
  /**
   * Chromium: which logged objects daebug reads in full (serialized in the page: nested values to `maxDepth`,
   * `[Circular]`, `[Getter]`). `'auto'` reads them where they can matter: every value of an unexpected error, a
   * warning or a `console.error`; every value in a test that failed or that strict mode fails; every event the test
   * read itself (`events()`, `errors()`, `settle()`, `daebug.eval`, a job's end). A passing test's plain `log`,
   * `info` and `debug` lines, and its known (baseline) and expected errors, keep V8's preview (one level deep,
   * `preview: true`), so its end does not wait for a busy page. `'full'` reads every value.
   * @default 'auto'
   * @example test.use({ daebugValues: 'full' });
   */
  daebugValues: ValuesMode;
}

export interface DaebugFixtures {
  /** Runs code and action blocks as jobs, and reads what daebug captured in this test. */
  daebug: Daebug;
}

interface InternalFixtures {
  _daebugRecorder: Recorder;
  _daebugCapture: TestCapture | undefined;
}

type Args = PlaywrightTestArgs & PlaywrightTestOptions & PlaywrightWorkerArgs & PlaywrightWorkerOptions;

/** Playwright's internal worker fixture (every version daebug supports): whether contexts are kept between tests. */
interface ReuseArgs {
  _reuseContext: boolean;
}

/**
 * daebug's fixtures, for `base.extend(daebugFixtures)` or `mergeTests`. All but the recorder are `box: 'self'`:
 * Playwright makes no step for their setup and teardown. With `box: true` it still made one (hidden from reporters,
 * but with a stack captured and source-mapped, two messages to the runner and a trace entry), and one at the teardown
 * of each option left at its default: fourteen steps a test, two now (issue 25). A Playwright older
 * than `'self'` reads it as `true`. An option a suite sets in `use` is Playwright's registration then, with its step.
 */
export const daebugFixtures: Fixtures<DaebugOptions & DaebugFixtures & InternalFixtures, {}, Args & ReuseArgs, PlaywrightWorkerArgs & PlaywrightWorkerOptions> = {
  daebugStrict: [false, { option: true, box: 'self' }],
  daebugCapture: [true, { option: true, box: 'self' }],
  daebugIgnore: [[], { option: true, box: 'self' }],
  daebugLimits: [{}, { option: true, box: 'self' }],
  daebugRedact: [true, { option: true, box: 'self' }],
  daebugNetwork: ['report', { option: true, box: 'self' }],
  daebugAsyncStacks: [false, { option: true, box: 'self' }],
  daebugLive: [true, { option: true, box: 'self' }],
  daebugBaseline: [undefined, { option: true, box: 'self' }],
  daebugValues: ['auto', { option: true, box: 'self' }],

  // Each fixture names what it depends on in its own parameter list: Playwright reads the names from the source.
  _daebugRecorder: [
    ({ daebugStrict, daebugCapture, daebugIgnore, daebugLimits, daebugRedact, daebugNetwork, daebugAsyncStacks, daebugLive, daebugBaseline, daebugValues, trace }, use, testInfo) =>
      bodies().recordTest({ daebugStrict, daebugCapture, daebugIgnore, daebugLimits, daebugRedact, daebugNetwork, daebugAsyncStacks, daebugLive, daebugBaseline, daebugValues, trace }, use, testInfo),
    // Boxed, not 'self': the attachments it adds belong to the step that is open when they are added. Its own hidden
    // step keeps them out of the HTML report's "After Hooks", and the reporter can replace the Markdown one (without a
    // step of its own, the HTML reporter failed on the step's attachment the reporter had replaced).
    { auto: true, box: true },
  ],

  _daebugCapture: [
    ({ _daebugRecorder, playwright, _reuseContext, extraHTTPHeaders, httpCredentials }, use, testInfo) =>
      bodies().captureTest({ _daebugRecorder, playwright, _reuseContext, extraHTTPHeaders, httpCredentials }, use, testInfo),
    { auto: true, box: 'self' },
  ],

  context: [({ context, _daebugCapture, _daebugRecorder }, use, testInfo) => bodies().captureContext({ context, _daebugCapture, _daebugRecorder }, use, testInfo), { scope: 'test', box: 'self' }],

  page: [({ page, _daebugCapture, _daebugRecorder }, use) => bodies().capturePage({ page, _daebugCapture, _daebugRecorder }, use), { scope: 'test', box: 'self' }],

  daebug: [({ _daebugRecorder, _daebugCapture }, use) => bodies().provideDaebug({ _daebugRecorder, _daebugCapture }, use), { box: 'self' }],
};

/**
 * What the fixtures do (src/fixture/bodies.ts), loaded when a worker sets up the first of them: a spec file imports
 * this module in the runner too, which only lists the tests and needs none of capture (about 15 ms a run there).
 */
let loaded: typeof import('./fixture/bodies') | undefined;
function bodies(): typeof import('./fixture/bodies') {
  return (loaded ??= require('./fixture/bodies') as typeof import('./fixture/bodies'));
}

type DaebugTest = TestType<Args & DaebugOptions & DaebugFixtures, PlaywrightWorkerArgs & PlaywrightWorkerOptions>;

/** `@playwright/test`'s `test` with daebug's fixtures and step tracking. */
export const test: DaebugTest = base.extend<DaebugOptions & DaebugFixtures & InternalFixtures>(daebugFixtures as never) as unknown as DaebugTest;
