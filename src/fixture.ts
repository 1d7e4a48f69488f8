import { test as base, type BrowserContext, type TestInfo, type TestType, type PlaywrightTestArgs, type PlaywrightTestOptions, type PlaywrightWorkerArgs, type PlaywrightWorkerOptions, type Fixtures } from '@playwright/test';
import { TestCapture } from './capture/test-capture';
import { runsPageHandlers } from './capture/input-calls';
import { Recorder } from './capture/recorder';
import { Daebug } from './daebug';
import { resolveOptions, type DaebugLimits, type IgnorePattern, type NetworkMode, type ValuesMode } from './options';
import type { RedactOption } from './redact';
import { enrichRecorder, hasStacksToMap } from './stack/enrich';
import { TestContexts } from './stack/test-contexts';
import { openContexts } from './capture/open-contexts';
import { startLiveReport } from './live/live-report';
import { LIVE_ENV, liveReportsTarget } from './live/live-env';
import { recordsTrace } from './trace-mode';
import { knownIn, loadBaseline, type LoadedBaseline } from './fixture/baseline';
import { failedSoFar, finish } from './fixture/finish';

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

const SETTLE_MS = 1000;

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

  _daebugRecorder: [
    async ({ daebugStrict, daebugCapture, daebugIgnore, daebugLimits, daebugRedact, daebugNetwork, daebugAsyncStacks, daebugLive, daebugBaseline, daebugValues, trace }, use, testInfo) => {
      const options = resolveOptions({ strict: daebugStrict, capture: daebugCapture, ignore: daebugIgnore, limits: daebugLimits, redact: daebugRedact, network: daebugNetwork, asyncStacks: daebugAsyncStacks, live: daebugLive, baseline: daebugBaseline, values: daebugValues });
      // Read before the test runs: a missing or malformed baseline fails the test at once, naming the file.
      const baseline = options.baseline === undefined ? undefined : loadBaseline(options.baseline, testInfo);
      const recorder = new Recorder(options);
      if (baseline) baselines.set(recorder, baseline);
      // Set only when daebug's reporter forked this worker: live reports go there, and it attaches the final Markdown.
      const reporterRuns = liveReportsTarget(process.env[LIVE_ENV], process.ppid);
      const live = options.live ? startLiveReport(recorder, testInfo, reporterRuns) : undefined;
      const startedMs = Date.now();
      try {
        await use(recorder);
      } finally {
        // Before the record is attached: the reporter's final report must be the last write of this file.
        await live?.stop();
      }
      // The worker's copy of the report is for the trace viewer; daebug's reporter attaches the final one for the rest.
      const traceCopy = recordsTrace(trace, testInfo.retry) || !reporterRuns;
      await finish(recorder, testInfo, startedMs, traceCopy, baseline, bodyEnded.get(recorder));
    },
    // Boxed, not 'self': the attachments it adds belong to the step that is open when they are added. Its own hidden
    // step keeps them out of the HTML report's "After Hooks", and the reporter can replace the Markdown one (without a
    // step of its own, the HTML reporter failed on the step's attachment the reporter had replaced).
    { auto: true, box: true },
  ],

  _daebugCapture: [
    async ({ _daebugRecorder, playwright, _reuseContext, extraHTTPHeaders, httpCredentials }, use, testInfo) => {
      if (!_daebugRecorder.options.capture) return use(undefined);
      // Playwright's own answer (1.57 to 1.65): the reuseContext option, PW_TEST_REUSE_CONTEXT, or the component-test
      // packages' reuse mode, unless video is on. A reused context's targets stay attached for the next test.
      const capture = new TestCapture(_daebugRecorder, _reuseContext === true);
      // What the source-map fetcher may use of the test's contexts: their cookies, kept before each one closes.
      // And the headers and credentials the test's options give its browser: a staging server behind HTTP Basic.
      const contexts = new TestContexts({ extraHeaders: extraHTTPHeaders, credentials: httpCredentials });
      testContexts.set(capture, contexts);
      // Contexts the test makes itself (browser.newContext(), browser.newPage()) are captured as they are made, the
      // way Playwright's own tracing finds them; values are read, and cookies kept, before any of them closes (a
      // suite's own `context` fixture may close the test's context before daebug's teardown maps its stacks).
      const listener = {
        runAfterCreateBrowserContext: (context: BrowserContext) => {
          contexts.add(context);
          return capture.addContext(context);
        },
        runBeforeCloseBrowserContext: async (context: BrowserContext) => {
          await capture.flushReads();
          await contexts.beforeClose(context, () => hasStacksToMap(_daebugRecorder));
        },
        // The test's own calls (daebug's are internal and not reported): a click or an evaluate runs page handlers.
        onApiCallBegin: (_call: unknown, channel: unknown) => {
          if (runsPageHandlers(channel)) capture.noteHandlersRan();
        },
      };
      const instrumentation = (playwright as unknown as { _instrumentation?: { addListener(l: object): void; removeListener(l: object): void } })._instrumentation;
      instrumentation?.addListener(listener);
      try {
        // Contexts that outlived an earlier test (a connectOverCDP browser's default context) are this test's too.
        for (const context of openContexts(playwright)) {
          contexts.add(context);
          await capture.addContext(context);
        }
        await use(capture);
        // When the test used no `context` fixture (its contexts were made by hand); else that fixture's teardown did it.
        await settleAndEnrich(capture, _daebugRecorder, testInfo);
      } finally {
        instrumentation?.removeListener(listener);
        contexts.end();
        capture.end();
      }
    },
    { auto: true, box: 'self' },
  ],

  context: [
    async ({ context, _daebugCapture, _daebugRecorder }, use, testInfo) => {
      if (_daebugCapture) testContexts.get(_daebugCapture)?.add(context);
      await _daebugCapture?.addContext(context);
      await use(context);
      markBodyEnd(_daebugRecorder);
      // Values still being read must arrive before the context closes. A suite's own `context` fixture may have
      // closed it already (SvelteKit's does): the stacks are mapped by daebug's own fetcher either way.
      if (_daebugCapture) await settleAndEnrich(_daebugCapture, _daebugRecorder, testInfo);
    },
    { scope: 'test', box: 'self' },
  ],

  page: [
    async ({ page, _daebugCapture, _daebugRecorder }, use) => {
      await _daebugCapture?.addFixturePage(page);
      await use(page);
      markBodyEnd(_daebugRecorder);
    },
    { scope: 'test', box: 'self' },
  ],

  daebug: [
    async ({ _daebugRecorder, _daebugCapture }, use) => {
      await use(new Daebug(_daebugRecorder, _daebugCapture));
      markBodyEnd(_daebugRecorder);
    },
    { box: 'self' },
  ],
};

const finished = new WeakSet<TestCapture>();

/** Each test's contexts, as the source-map fetcher may use them (cookies, an open request client). */
const testContexts = new WeakMap<TestCapture, TestContexts>();

// When the test's body ended: the first teardown of a fixture the test used. A failure is measured from it.
const bodyEnded = new WeakMap<Recorder, number>();

// The test's baseline (daebugBaseline), read when its recorder was made: a known error's values need not be read.
const baselines = new WeakMap<Recorder, LoadedBaseline>();

function markBodyEnd(recorder: Recorder): void {
  if (!bodyEnded.has(recorder)) bodyEnded.set(recorder, Date.now());
}

/**
 * Once per test, at the first teardown that can: the last values that matter are read (`daebugValues`), then stacks
 * are source-mapped. With a baseline, whether an error is known needs its mapped stack (its fingerprint): its values
 * wait for that, and the stacks are mapped again when a read added causes or changed a message.
 */
async function settleAndEnrich(capture: TestCapture, recorder: Recorder, testInfo: TestInfo): Promise<void> {
  if (finished.has(capture)) return;
  finished.add(capture);
  const baseline = baselines.get(recorder);
  let mapped = false;
  capture.readValuesAtEnd({ failed: failedSoFar(testInfo), known: knownIn(baseline, () => mapped) });
  await capture.settle(SETTLE_MS, { newTargets: false, contextsClosing: !capture.reusesContext });
  await enrichRecorder(recorder, testContexts.get(capture));
  mapped = true;
  if (!baseline || !capture.reads.hasWaiting()) return;
  const read = capture.reads.readCount;
  await capture.settle(SETTLE_MS, { newTargets: false });
  if (capture.reads.readCount > read) await enrichRecorder(recorder, testContexts.get(capture));
}

type DaebugTest = TestType<Args & DaebugOptions & DaebugFixtures, PlaywrightWorkerArgs & PlaywrightWorkerOptions>;

/** `@playwright/test`'s `test` with daebug's fixtures and step tracking. */
export const test: DaebugTest = base.extend<DaebugOptions & DaebugFixtures & InternalFixtures>(daebugFixtures as never) as unknown as DaebugTest;
