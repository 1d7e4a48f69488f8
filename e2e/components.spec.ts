import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';
import { structureProblems, textOutsideFences } from './helpers/markdown-structure';

// Components that React names only in its own words ("Check the render method of `CartList`", "The above error
// occurred in the <PriceTag> component") are located in fixtures/react/src, found by name in the source map's
// sources or by React's owner stack; the warnings are listed in their own section; causes are linked.
const appSrc = path.resolve(__dirname, '..', 'fixtures', 'react', 'src');

/** The 1-based line of the first line holding `text` in a fixture source. */
function lineOf(file: string, text: string): number {
  const index = fs.readFileSync(path.join(appSrc, file), 'utf8').split('\n').findIndex((l) => l.includes(text));
  if (index === -1) throw new Error(`${text} is not in ${file}`);
  return index + 1;
}

const spec = `
import { test, expect } from 'daebug';

const click = (page: any, name: string) => page.getByRole('button', { name, exact: true }).click();

test.beforeEach(async ({ page }) => {
  await page.goto('/react/index.html');
});

test('key and prop warnings next to a click error', async ({ page, daebug }) => {
  await click(page, 'Show cart');
  await expect(page.locator('.cart li')).toHaveCount(2);
  await click(page, 'Remove all');
  await click(page, 'Show sizes');
  await expect(page.locator('.sizes')).toBeVisible();
  await expect.poll(() => daebug.events().filter((e) => e.source === 'console.error').length).toBe(2);
  await expect.poll(() => daebug.errors().length).toBe(1);
  await daebug.settle();
});

test.describe('owner stacks', () => {
  test.use({ daebugAsyncStacks: true });
  test('key warning with async stacks', async ({ page, daebug }) => {
    await click(page, 'Show cart');
    await expect(page.locator('.cart li')).toHaveCount(2);
    await expect.poll(() => daebug.events().some((e) => e.message.includes('"key" prop'))).toBe(true);
  });
});

test('render error caught by an error boundary', async ({ page, daebug }) => {
  await click(page, 'Show prices');
  await expect(page.locator('.fallback')).toBeVisible();
  await daebug.settle();
});

test('failed fetch in an effect', async ({ page, daebug }) => {
  await click(page, 'Load profile');
  await expect.poll(() => daebug.errors().some((e) => e.source === 'unhandledrejection')).toBe(true);
});
`;

test.describe.configure({ mode: 'default' });

let run: InlineRunResult;
const byTitle = (title: string) => {
  const entry = Object.entries(run.reports).find(([, r]) => r.test.title === title);
  if (!entry) throw new Error(`no report for ${title}:\n${run.output}`);
  const json = entry[1];
  expect(json.test.status, run.output).toBe('passed');
  return { json, md: run.markdown[entry[0].replace(/\.json$/, '.md')] ?? '' };
};
const keyWarningOf = (json: any) => json.events.find((e: any) => e.message.startsWith('Each child in a list should have a unique "key" prop.'));

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runInlineTest({ 'components.spec.ts': spec });
});

test("React's key and prop warnings are located at their components' declarations, and the click error between them borrows neither", () => {
  const { json } = byTitle('key and prop warnings next to a click error');
  const key = keyWarningOf(json);
  expect(key.message).toContain('Check the render method of `CartList`.');
  // No frame of the warning is the app's: React's own console.error, all of its frames in react-dom.
  expect(key.frames.some((f: any) => f.userCode)).toBe(false);
  expect(key.component).toEqual({ name: 'CartList', framework: 'React', source: 'src/CartList.tsx', line: lineOf('CartList.tsx', 'export function CartList('), foundBy: 'name' });
  const prop = json.events.find((e: any) => e.message.startsWith('The `value` prop supplied to <select> must be a scalar value'));
  expect(prop.message).toContain('Check the render method of `SizePicker`.');
  expect(prop.component).toEqual({ name: 'SizePicker', framework: 'React', source: 'src/SizePicker.tsx', line: lineOf('SizePicker.tsx', 'export function SizePicker('), foundBy: 'name' });
  const click = json.events.find((e: any) => e.source === 'window.onerror');
  expect(click.component).toBeUndefined();
  // Listing warnings changes nothing about what counts as unexpected: React's warnings are console.error.
  expect(key.unexpected).toBe(true);
  expect(prop.unexpected).toBe(true);
});

test('both warnings are listed once, as unexpected errors with their components, counted in the header; the root cause names no component', () => {
  const { md } = byTitle('key and prop warnings next to a click error');
  expect(structureProblems(md)).toEqual([]);
  // React's warnings are console.error, so unexpected errors: listed there only, never again under Warnings.
  // The header names them by their numbers there (issue 37): after the click error, the one to fix first.
  expect(md).toMatch(/^- Warnings: 2 \(all of them listed as unexpected errors 2, 3\)$/m);
  expect(md).not.toContain('## Warnings');
  expect(md.split('unique "key" prop.').length - 1, 'the key warning appears once').toBe(1);
  // The unexpected error entries carry the place, and say who logged it: React, about the app's component.
  // The key warning is fixed at the `.map(` inside CartList that renders the list: found in the source, said so.
  const mapLine = lineOf('CartList.tsx', '.map(');
  expect(keyWarningOf(byTitle('key and prop warnings next to a click error').json).foundInSource).toEqual([{ source: 'src/CartList.tsx', line: mapLine, by: 'key-map', snippet: expect.stringMatching(new RegExp(`^> +${mapLine} \\| `, 'm')) }]);
  expect(md).toMatch(new RegExp(`^\\d\\. \`console\\.error\` in \`page\` at [\\d:]+ \\(no frame of the stack is in your code; found in your source: the \`\\.map\\(\` in \`CartList\`: \`src/CartList\\.tsx:${mapLine}\`\\) · component \`<CartList>\` at \`src/CartList\\.tsx:${lineOf('CartList.tsx', 'export function CartList(')}\` \\(found by name\\) · a React warning`, 'm'));
  expect(md).toMatch(new RegExp(`^\\d\\. \`console\\.error\` in \`page\` at [\\d:]+ \\(no frame of the stack is in your code\\) · component \`<SizePicker>\` at \`src/SizePicker\\.tsx:${lineOf('SizePicker.tsx', 'export function SizePicker(')}\` \\(found by name\\) · a React warning`, 'm'));
  expect(textOutsideFences(md)).not.toContain('unique "key" prop');
  // The chosen error's own lines borrow no component; the order of the independent problems names each one's own.
  const rootCause = md.slice(md.indexOf('## Root cause'), md.indexOf(' independent problems'));
  expect(rootCause).toMatch(/^- Where: `src\/App\.tsx:\d+:\d+ in removeAll`$/m);
  expect(rootCause).not.toMatch(/component|CartList|SizePicker/);
  const order = md.slice(md.indexOf('- 3 independent problems'), md.indexOf('## Unexpected errors'));
  expect(order).toMatch(/^- 3 independent problems, fix each: /m);
  expect(order).toMatch(/^  1\. unexpected error \d below \(this one\): uncaught error in your code; at `src\/App\.tsx:\d+:\d+ in removeAll`$/m);
  expect(order).toMatch(/^  \d\. unexpected error \d below: a React warning about your component `CartList` \(no frame in your code\); component `<CartList>` at `src\/CartList\.tsx:\d+` \(found by name\); found in your source: the `\.map\(` in `CartList`: `src\/CartList\.tsx:\d+`$/m);
});

test("with daebugAsyncStacks the key warning is located by React's owner stack: the JSX in CartList that made the list", () => {
  const { json, md } = byTitle('key warning with async stacks');
  const key = keyWarningOf(json);
  expect(key.component).toEqual({ name: 'CartList', framework: 'React', source: 'src/CartList.tsx', line: lineOf('CartList.tsx', '<li>'), foundBy: 'owner-stack' });
  expect(md).toMatch(/component `<CartList>` at `src\/CartList\.tsx:\d+` \(from React's owner stack\)/);
});

test('a render error names its component in its own text: located, and shown in the Root cause', () => {
  const { json, md } = byTitle('render error caught by an error boundary');
  const event = json.events.find((e: any) => e.source === 'console.error');
  expect(event.component).toEqual({ name: 'PriceTag', framework: 'React', source: 'src/PriceTag.tsx', line: lineOf('PriceTag.tsx', 'export function PriceTag('), foundBy: 'name' });
  expect(md).toContain(`- React component \`<PriceTag>\` at \`src/PriceTag.tsx:${lineOf('PriceTag.tsx', 'export function PriceTag(')}\` (found by name): `);
  // An Error is not a warning.
  expect(md).not.toContain('## Warnings');
});

test('a failed request and the JSON parse error of its body are linked both ways, in the Markdown', () => {
  const { md } = byTitle('failed fetch in an effect');
  expect(md).toMatch(/^1\. `unhandledrejection` in `page` at [\d:]+ .*· caused by the failed request `GET \/api\/missing` \(404\) at [\d:]+/m);
  expect(md).toMatch(/^→ explains unexpected error 1\n```Error network\nGET http:\/\/127\.0\.0\.1:\d+\/api\/missing 404/m);
  expect(md).toMatch(/^- Caused by: the failed request `GET \/api\/missing` \(404\) at [\d:]+$/m);
});

test('a failed request and the JSON parse error of its body are linked both ways, in the JSON (causedBy / causes)', () => {
  const { json } = byTitle('failed fetch in an effect');
  const network = json.events.findIndex((e: any) => e.source === 'network');
  const rejection = json.events.findIndex((e: any) => e.source === 'unhandledrejection');
  expect(json.events[rejection].causedBy).toBe(network);
  expect(json.events[network].causes).toEqual([rejection]);
});
