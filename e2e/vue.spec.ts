import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { buildVueApp } from './helpers/build-vue-app';
import { markdownSection, runForReport } from './helpers/report-by-title';
import type { InlineRunResult } from './helpers/run-playwright';
import { askTool, daebugBin } from './helpers/mcp-client';
import { parseSeedErrors } from './helpers/seed-error-blocks';

// fixtures/vue/src is a Vue 3.5 app (render functions, development build, linked source map), bundled by
// e2e/global-setup.ts and again in beforeAll (a no-op when unchanged) so that this file also runs alone. Its first
// render logs two prop warnings whose only app frame is the same `mount()` line, and a mounted hook throws.
const appSrc = path.resolve(__dirname, '..', 'fixtures', 'vue', 'src');
const bundle = /\/vue\/dist\/app\.js$/;

/** `src/<file>:<line>:<col>` of `token` on the line holding `lineText` in a fixture source. */
function at(file: string, lineText: string, token: string): { where: string; line: number; column: number } {
  const lines = fs.readFileSync(path.join(appSrc, file), 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes(lineText));
  if (index === -1) throw new Error(`${lineText} is not in ${file}`);
  const column = lines[index]!.indexOf(token, lines[index]!.indexOf(lineText)) + 1;
  return { where: `src/${file}:${index + 1}:${column}`, line: index + 1, column };
}

const spec = `
import { test, expect } from 'daebug';

test('first render of a Vue app', async ({ page, daebug }) => {
  await page.goto('/vue/index.html');
  await expect(page.locator('.orders li')).toHaveCount(2);
  await expect.poll(() => daebug.errors().length).toBe(1);
  await expect.poll(() => daebug.events().filter((e) => e.source === 'console.warn').length).toBe(3);
  await daebug.settle();
});
`;

test.describe.configure({ mode: 'default' });

let run: InlineRunResult, json: any, md: string;
test.beforeAll(async () => {
  test.setTimeout(240_000);
  buildVueApp();
  ({ run, json, md } = await runForReport({ 'vue.spec.ts': spec }, 'first render of a Vue app'));
});

const thrown = at('BrokenList.ts', 'document.title = latest!.label.toUpperCase();', 'label');
const mount = at('main.ts', "createApp(App).mount('#app');", 'mount');
const declared = {
  UserCard: at('UserCard.ts', 'export const UserCard = defineComponent(', 'UserCard').line,
  OrderTotal: at('OrderTotal.ts', 'export const OrderTotal = defineComponent(', 'OrderTotal').line,
  BrokenList: at('BrokenList.ts', 'export const BrokenList = defineComponent(', 'BrokenList').line,
};
// Where App uses them: the line to fix for a warning about how a component is used.
const used = {
  UserCard: at('App.ts', 'h(UserCard, {', 'UserCard').line,
  OrderTotal: at('App.ts', 'h(OrderTotal, summary)', 'OrderTotal').line,
};
const warningOf = (text: string) => {
  const found = json.events.filter((e: any) => e.source === 'console.warn' && e.message.startsWith(`[Vue warn]: ${text}`));
  expect(found, JSON.stringify(json.events.map((e: any) => e.message))).toHaveLength(1);
  return found[0];
};
const section = (title: string) => markdownSection(md, title);

test("the mounted hook's TypeError is the root cause, at its original line in BrokenList's own code", () => {
  expect(json.test.status, run.output).toBe('passed');
  const errors = json.events.filter((e: any) => e.unexpected);
  expect(errors.map((e: any) => e.source)).toEqual(['window.onerror']);
  const [error] = errors;
  expect(error.message).toBe("TypeError: Cannot read properties of undefined (reading 'label')");
  expect(error.location.url).toMatch(bundle);
  expect(error.frames[0]).toMatchObject({ userCode: true, original: { source: 'src/BrokenList.ts', line: thrown.line, column: thrown.column, functionName: 'mounted' } });
  // Vue rethrows it out of `app.mount()`: Vue's frames fold, the mount line is the app's caller.
  const callers = error.frames.filter((f: any) => f.original?.source.startsWith('src/')).map((f: any) => `${f.original.source}:${f.original.line}`);
  expect(callers).toEqual([`src/BrokenList.ts:${thrown.line}`, `src/main.ts:${mount.line}`]);

  const rootCause = section('Root cause');
  expect(rootCause).toMatch(/^The `window\.onerror` in `page` at \S+, unexpected error 1 below:$/m);
  expect(rootCause).toContain(`- Where: \`${thrown.where} in mounted\``);
  expect(rootCause).toContain('- Chosen: uncaught error in your code, the only unexpected error');
  expect(rootCause).toContain("TypeError: Cannot read properties of undefined (reading 'label')");
  // The warning Vue logged about the same throw is what it explains, named by its words (three warnings share its
  // second: issue 37 item 5); nothing else of the block quotes a Vue warning as if it were the cause.
  expect(rootCause).toMatch(/^- Explains: the `console\.warn` at \S+ \(`\[Vue warn\]: Unhandled error during execution of mounted hook`\)$/m);
  expect(rootCause.split('\n').filter((line) => !line.startsWith('- Explains:')).join('\n')).not.toContain('[Vue warn]');
  expect(md).toContain('- Status: **passed, with 1 unexpected browser error**');
});

test("Vue's prop warnings are listed, each located at its own component's declaration, though both have the same one app frame", () => {
  const age = warningOf('Invalid prop: type check failed for prop "age". Expected Number with value 42, got String with value "42".');
  const amount = warningOf('Missing required prop: "amount"');
  expect(age.message).toMatch(/\n\s*at <UserCard name="Ada" age="42" >\s*\n\s*at <App>$/);
  expect(amount.message).toMatch(/\n\s*at <OrderTotal currency="EUR" >\s*\n\s*at <App>$/);
  expect(age.component).toEqual({ name: 'UserCard', framework: 'Vue', source: 'src/UserCard.ts', line: declared.UserCard, foundBy: 'name' });
  expect(amount.component).toEqual({ name: 'OrderTotal', framework: 'Vue', source: 'src/OrderTotal.ts', line: declared.OrderTotal, foundBy: 'name' });
  // Their stacks are Vue's own but for one frame: the same `mount()` line, which tells them apart no more than it locates them.
  for (const warning of [age, amount]) {
    expect(warning.unexpected).toBeFalsy();
    const own = warning.frames.filter((f: any) => f.original?.source.startsWith('src/'));
    expect(own.map((f: any) => f.original)).toEqual([expect.objectContaining({ source: 'src/main.ts', line: mount.line, column: mount.column })]);
  }

  expect(md).toContain('- Warnings: 3');
  const warnings = section('Warnings');
  expect(warnings).toContain('3 warnings, each by its first line and where it is');
  const entries = warnings.split(/\n(?=\d+\. `console\.warn`)/).slice(1);
  expect(entries).toHaveLength(3);
  expect(entries[0]).toMatch(new RegExp(`^1\\. \`console\\.warn\` in \`page\` at \\S+: component \`<UserCard>\` at \`src/UserCard\\.ts:${declared.UserCard}\` \\(found by name\\); found in your source: where \`<UserCard>\` is used: \`src/App\\.ts:${used.UserCard}\`\n`));
  // Each found line carries its code (issue 37), that line marked, and the Warnings entry shows it.
  expect(age.foundInSource).toEqual([{ source: 'src/App.ts', line: used.UserCard, by: 'component-use', snippet: expect.stringMatching(new RegExp(`^> +${used.UserCard} \\| `, 'm')) }]);
  expect(amount.foundInSource).toEqual([{ source: 'src/App.ts', line: used.OrderTotal, by: 'component-use', snippet: expect.stringMatching(new RegExp(`^> +${used.OrderTotal} \\| `, 'm')) }]);
  expect(entries[0]).toContain(`\n\nsrc/App.ts:${used.UserCard}\n${age.foundInSource[0].snippet}\n`);
  expect(entries[0]).toContain('[Vue warn]: Invalid prop: type check failed for prop "age".');
  expect(entries[1]).toMatch(new RegExp(`^2\\. \`console\\.warn\` in \`page\` at \\S+: component \`<OrderTotal>\` at \`src/OrderTotal\\.ts:${declared.OrderTotal}\` \\(found by name\\); found in your source: where \`<OrderTotal>\` is used: \`src/App\\.ts:${used.OrderTotal}\`\n`));
  expect(entries[1]).toContain('[Vue warn]: Missing required prop: "amount"');
  // Neither is placed at the mount line the two share.
  expect(warnings).not.toContain('src/main.ts');
});

test('no component is borrowed from a neighbour: the TypeError is not labelled with a prop warning\'s component', () => {
  const error = json.events.find((e: any) => e.source === 'window.onerror');
  // Its own text names no component (Vue names BrokenList only in the warning it logs before rethrowing), but its
  // frame is inside BrokenList's own defineComponent object: that is its component (issue 37), no neighbour's.
  expect(error.component).toEqual({ name: 'BrokenList', framework: 'Vue', source: 'src/BrokenList.ts', line: declared.BrokenList, foundBy: 'enclosing' });
  // The error's own lines borrow nothing; the list of problems after them names each prop warning with its own
  // component (issue 37: warnings are problems too, counted in N).
  const whole = section('Root cause');
  const rootCause = whole.slice(0, whole.indexOf(' independent problems'));
  expect(rootCause).not.toMatch(/UserCard|OrderTotal/);
  expect(whole).toMatch(/^- 3 independent problems, fix each: /m);
  expect(whole).toMatch(/^ {2}2\. warning 1 below: a Vue warning about your component `UserCard`; component `<UserCard>` at `src\/UserCard\.ts:\d+` \(found by name\); found in your source: where `<UserCard>` is used: `src\/App\.ts:\d+`$/m);
  expect(whole).toMatch(/^ {2}3\. warning 2 below: a Vue warning about your component `OrderTotal`; /m);
  expect(rootCause).toMatch(new RegExp(`^- Vue component \`<BrokenList>\` at \`src/BrokenList\\.ts:${declared.BrokenList}\` \\(its code encloses the frame\\): the frame in your code is inside it$`, 'm'));
  const unexpected = section('Unexpected errors');
  expect(unexpected).not.toMatch(/UserCard|OrderTotal/);
  // The warning Vue logs about the hook names BrokenList in its own trace, and is located there.
  const hook = warningOf('Unhandled error during execution of mounted hook');
  expect(hook.message).toMatch(/\n\s*at <BrokenList>\s*\n\s*at <App>$/);
  expect(hook.component).toEqual({ name: 'BrokenList', framework: 'Vue', source: 'src/BrokenList.ts', line: declared.BrokenList, foundBy: 'name' });
  expect(section('Warnings')).toMatch(new RegExp(`^3\\. \`console\\.warn\` in \`page\` at \\S+: component \`<BrokenList>\` at \`src/BrokenList\\.ts:${declared.BrokenList}\` \\(found by name\\)$`, 'm'));
  // Vue's warning is about the TypeError it rethrows right after: linked both ways, by index into the events.
  const errorAt = json.events.findIndex((e: any) => e.source === 'window.onerror');
  const hookAt = json.events.indexOf(hook);
  expect(hook.causedBy).toBe(errorAt);
  expect(json.events[errorAt].causes).toEqual([hookAt]);
});

test("daebug errors and daebug_get_errors list the prop warnings at the lines where App uses the components, and the TypeError at its own", async () => {
  const args = ['errors', '--limit', '100', '--test', 'first render of a Vue app'];
  const cli = spawnSync(process.execPath, [daebugBin, ...args], { cwd: run.dir, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: 30_000 });
  expect(cli.status, cli.stderr).toBe(0);
  const { blocks } = parseSeedErrors(cli.stdout);
  const block = (text: string) => {
    const found = blocks.filter((b) => b.message.includes(text));
    expect(found, cli.stdout).toHaveLength(1);
    return found[0]!;
  };
  const age = block('type check failed for prop "age"');
  expect(age.location, cli.stdout).toMatchObject({ file: 'src/App.ts', line: used.UserCard });
  expect(age.fields['found']).toMatch(/where `?<UserCard>`? is used/);
  expect(age.fields['kind']).toBe('console.warn');
  // Vue's component trace is the message's own further lines, under Error:, not a field.
  expect(age.message).toMatch(/\n\s*at <UserCard name="Ada" age="42" >/);
  const amount = block('Missing required prop: "amount"');
  expect(amount.location, cli.stdout).toMatchObject({ file: 'src/App.ts', line: used.OrderTotal });
  const typeError = block("Cannot read properties of undefined (reading 'label')");
  expect(typeError.location, cli.stdout).toMatchObject({ file: 'src/BrokenList.ts', line: thrown.line, column: thrown.column });
  // The Markdown names the same lines.
  expect(section('Warnings')).toContain(`\`src/App.ts:${used.UserCard}\``);
  expect(section('Warnings')).toContain(`\`src/App.ts:${used.OrderTotal}\``);
  expect(section('Root cause')).toContain(`\`${thrown.where} in mounted\``);

  const answer = await askTool(run.dir, 'reports', 'daebug_get_errors', { limit: 100, test: 'first render of a Vue app' });
  expect(answer.isError).toBe(false);
  expect(answer.text).toBe(cli.stdout.trimEnd());
});
