// Every common name of '@playwright/test', imported from 'daebug' instead: this file must type-check unchanged.
import {
  test,
  expect,
  devices,
  defineConfig,
  mergeTests,
  mergeExpects,
  chromium,
  firefox,
  webkit,
  request,
  selectors,
  _baseTest,
  type Page,
  type Locator,
  type BrowserContext,
  type Browser,
  type Frame,
  type Worker,
  type APIRequestContext,
  type APIResponse,
  type ConsoleMessage,
  type Route,
  type TestInfo,
  type WorkerInfo,
  type Fixtures,
  type TestType,
  type PlaywrightTestConfig,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type Project,
  type FullConfig,
  type Expect,
  type ReporterDescription,
} from 'daebug';
import daebugDefault, { daebugFixtures, type DaebugOptions, type DaebugFixtures, type Report, type StackFrame } from 'daebug';
import { test as playwrightTest } from '@playwright/test';

// Playwright's defineConfig takes the fixture options' type, as for any extended test.
export const config: PlaywrightTestConfig<DaebugOptions> = defineConfig<DaebugOptions>({
  reporter: [['list'], ['daebug/reporter', { outputDir: 'reports' }]] satisfies ReporterDescription[],
  projects: [{ name: 'mobile', use: { ...devices['Pixel 7'] } } satisfies Project],
  use: { daebugStrict: true },
});

// daebugValues takes 'auto' or 'full' and nothing else.
test.use({ daebugValues: 'full' });
// @ts-expect-error -- not a daebugValues mode
test.use({ daebugValues: 'none' });

// daebug's `test` replaces Playwright's: it has the daebug fixture and options, and is also the default export.
const sameTest: typeof test = daebugDefault;
sameTest('default export is daebug test', async ({ daebug, page }) => {
  await daebug.settle();
});

type Todo = { title: string };
const withTodos = test.extend<{ todos: Todo[] }>({
  todos: async ({}, use) => {
    await use([{ title: 'buy milk' }]);
  },
});
const other = playwrightTest.extend<{ flag: boolean }>({ flag: false });
const merged: TestType<PlaywrightTestArgs & PlaywrightTestOptions & DaebugOptions & DaebugFixtures & { todos: Todo[] } & { flag: boolean }, PlaywrightWorkerArgs & PlaywrightWorkerOptions> = mergeTests(withTodos, other);
const mergedExpect: Expect<{}> = mergeExpects(expect);

async function fill(page: Page, text: string): Promise<Locator> {
  const input = page.getByPlaceholder('What needs to be done?');
  await input.fill(text);
  await input.press('Enter');
  return input;
}

merged('the drop-in test keeps every fixture', async ({ page, context, request: api, browser, daebug, todos, flag }, testInfo: TestInfo) => {
  const ctx: BrowserContext = context;
  const b: Browser = browser;
  const frame: Frame = page.mainFrame();
  const workers: Worker[] = page.workers();
  const client: APIRequestContext = api;
  const response: APIResponse = await client.get('/');
  page.on('console', (message: ConsoleMessage) => void message.text());
  await page.route('**/*', (route: Route) => route.continue());
  await fill(page, todos[0]!.title);
  const count: number = await daebug.eval(page, () => document.querySelectorAll('li').length);
  mergedExpect(count).toBe(1);
  await expect(page.getByTestId('todo-title')).toHaveText(['buy milk']);
  expect(response.ok()).toBe(true);
  expect(flag).toBe(false);
  void [ctx, b, frame, workers, testInfo.title];
});

test.use({ daebugStrict: true, daebugIgnore: [/ResizeObserver/] });
test.describe('describe and hooks', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
  });
  test.afterAll(async ({}, workerInfo: WorkerInfo) => {
    void workerInfo.workerIndex;
  });
});

export const fixtures: Fixtures<DaebugOptions & DaebugFixtures, {}, PlaywrightTestArgs & PlaywrightTestOptions, PlaywrightWorkerArgs & PlaywrightWorkerOptions> = daebugFixtures as never;
export const browsers = [chromium, firefox, webkit, request, selectors, _baseTest] as const;
export const full = (c: FullConfig): number => c.workers;
export type ReportFrames = NonNullable<Report['events'][number]['frames']> extends StackFrame[] ? true : never;
export const framesAreStackFrames: ReportFrames = true;

// daebug's `test` is not Playwright's: the body uses the daebug fixture, which Playwright's test does not have.
test('daebug fixture', async ({ daebug }) => void daebug.errors());
// @ts-expect-error Playwright's own test has no daebug fixture.
playwrightTest('no daebug fixture', async ({ daebug }) => void daebug);
