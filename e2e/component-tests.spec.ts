import net from 'node:net';
import { test, expect } from '@playwright/test';
import { runInlineTest, type InlineRunResult } from './helpers/run-playwright';

// Component tests as Playwright 1.63+ runs them: the built-in `mount` fixture of `@playwright/test` renders a story
// in a gallery page that the project's own Vite dev server serves (the `@playwright/experimental-ct-*` packages
// stopped at 1.62). Vite serves each module transformed, with an inline source map whose only source is the file's
// bare name, so the component's lines in the report come from that map.

const component = `import { useEffect, useState } from 'react';

interface Item {
  name: string;
  price: number;
}

async function loadShipping(country: string): Promise<number> {
  await Promise.resolve();
  throw new Error(\`no shipping rate for \${country}\`);
}

export function Checkout({ items }: { items: Item[] }) {
  const [total, setTotal] = useState(0);

  useEffect(() => {
    try {
      JSON.parse(localStorage.getItem('cart') ?? '{broken');
    } catch (error) {
      console.error('saved cart is unreadable', error);
    }
    void loadShipping('AQ').then(setTotal);
  }, [items]);

  useEffect(() => {
    if (items.some((item) => item.price < 0)) throw new Error(\`negative price in cart: \${items.length} items\`);
  }, [items]);

  return <output data-testid="total">{total}</output>;
}
`;

const files: Record<string, string> = {
  'src/components/Checkout.tsx': component,
  'src/components/Checkout.story.tsx': `import { Checkout } from './Checkout';

export const WithRefund = () => <Checkout items={[{ name: 'mug', price: 12 }, { name: 'refund', price: -3 }]} />;
`,
  // The gallery contract of Playwright's component-testing guide: window.mount({ story, props }) renders a story
  // found by its id (path under src/ without .story.tsx, then the export) into #root; window.unmount() tears it down.
  'playwright/gallery/index.html': `<!doctype html>
<html>
  <body>
    <div id="root"></div>
    <script type="module" src="./gallery.tsx"></script>
  </body>
</html>
`,
  'playwright/gallery/gallery.tsx': `import { createRoot, type Root } from 'react-dom/client';
import type { ComponentType } from 'react';

const stories = import.meta.glob<Record<string, ComponentType<any>>>('../../src/**/*.story.tsx');
let root: Root | undefined;

async function find(id: string): Promise<ComponentType<any>> {
  const name = id.slice(id.lastIndexOf('/') + 1);
  for (const [file, load] of Object.entries(stories)) {
    const path = file.replace(/^\\.\\.\\/\\.\\.\\/src\\//, '').replace(/\\.story\\.tsx$/, '');
    const story = \`\${path}/\${name}\`.endsWith(id) ? (await load())[name] : undefined;
    if (story) return story;
  }
  throw new Error(\`no story \${id}\`);
}

Object.assign(window, {
  mount: async ({ story, props }: { story: string; props?: Record<string, unknown> }) => {
    const Story = await find(story);
    root ??= createRoot(document.getElementById('root')!);
    root.render(<Story {...props} />);
  },
  unmount: () => {
    root?.unmount();
    root = undefined;
  },
});
`,
  // Its own cache folder, so a run next to another does not share Vite's pre-bundled dependencies; React is
  // pre-bundled at start, so the first page load does not make Vite reload it.
  'vite.config.mts': `import { defineConfig } from 'vite';

export default defineConfig({
  cacheDir: '.vite',
  clearScreen: false,
  logLevel: 'warn',
  optimizeDeps: { include: ['react', 'react/jsx-dev-runtime', 'react-dom/client'] },
});
`,
  'playwright.config.ts': `import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from 'daebug/browser';

const gallery = \`http://127.0.0.1:\${process.env['GALLERY_PORT']}/playwright/gallery/index.html\`;

export default defineConfig({
  outputDir: './test-results',
  workers: 1,
  timeout: 30000,
  reporter: [['line'], ['daebug/reporter', { outputDir: 'reports' }]],
  projects: [
    {
      name: 'components',
      testDir: 'tests',
      // As Playwright's guide sets it up: reuseContext keeps one context for the worker's tests.
      use: { baseURL: gallery, serviceWorkers: 'block', reuseContext: true, launchOptions: chromiumLaunchOptions() },
    },
  ],
  webServer: {
    command: \`npx vite --host 127.0.0.1 --port \${process.env['GALLERY_PORT']} --strictPort\`,
    url: gallery,
    reuseExistingServer: false,
    timeout: 60000,
  },
});
`,
  'tests/checkout.spec.ts': `import { test, expect } from 'daebug';

test('checkout story', async ({ mount, daebug }) => {
  const checkout = await mount('components/Checkout/WithRefund');
  await expect(checkout).toBeAttached();
  await expect.poll(() => daebug.errors().length).toBe(2);
  await daebug.settle();
});
`,
  // A suite with fixtures of its own merges daebug's in. Runs second, in the context the first test leaves.
  'tests/strict-checkout.spec.ts': `import { test as base, mergeTests, expect } from '@playwright/test';
import { test as daebugTest } from 'daebug';

const test = mergeTests(base.extend<{ story: string }>({ story: ['components/Checkout/WithRefund', { option: true }] }), daebugTest);
test.use({ daebugStrict: true });

test('checkout story, strict', async ({ mount, story, daebug }) => {
  await mount(story);
  await expect.poll(() => daebug.errors().length).toBe(2);
});
`,
};

/** Line and column (1-based) of `token` on the line of Checkout.tsx holding `lineText`, and that line. */
function at(lineText: string, token: string): { line: number; column: number; text: string; where: string } {
  const lines = component.split('\n');
  const index = lines.findIndex((l) => l.includes(lineText));
  if (index === -1) throw new Error(`${lineText} is not in Checkout.tsx`);
  const text = lines[index]!;
  const column = text.indexOf(token, text.indexOf(lineText)) + 1;
  return { line: index + 1, column, text, where: `${source}:${index + 1}:${column}` };
}

/** The code frame's line for `x`: `> 26 | text`, the number padded to the frame's width. */
function codeLine(x: { line: number; text: string }): RegExp {
  return new RegExp(`^> +${x.line} \\| ${x.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');
}

const source = 'src/components/Checkout.tsx';
const effectThrow = at('throw new Error(`negative price', 'new Error');
const rejection = at('throw new Error(`no shipping rate', 'new Error');
const parse = at("JSON.parse(localStorage.getItem('cart')", 'parse');
const logged = at("console.error('saved cart is unreadable'", 'error');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

test.describe.configure({ mode: 'default' });

let run: InlineRunResult;

function report(title: string): { json: any; md: string } {
  const entry = Object.entries(run.reports).find(([, r]) => r.test.title === title);
  if (!entry) throw new Error(`no report for ${title}:\n${run.output}`);
  return { json: entry[1], md: run.markdown[entry[0].replace(/\.json$/, '.md')] ?? '' };
}

function one(json: any, eventSource: string): any {
  const found = json.events.filter((e: any) => e.source === eventSource);
  expect(found, JSON.stringify(json.events.map((e: any) => e.source))).toHaveLength(1);
  return found[0];
}

/** The event's first frame is in the component as Vite serves it, and its map leads to `expected` in the .tsx. */
function expectMappedTo(frame: any, expected: { line: number; column: number }, functionName?: string): void {
  expect(frame.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/src\/components\/Checkout\.tsx$/);
  expect(frame).toMatchObject({ userCode: true, original: { source, line: expected.line, column: expected.column, ...(functionName ? { functionName } : {}) } });
  // Vite's transform moves the code: a position equal to the original's would mean the map was not used.
  expect({ line: frame.line, column: frame.column }).not.toEqual({ line: expected.line, column: expected.column });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  run = await runInlineTest(files, { env: { GALLERY_PORT: String(await freePort()) } });
});

test('the three errors of a mounted component are captured and mapped to its .tsx lines', () => {
  const { json, md } = report('checkout story');
  expect(json.test.status, run.output).toBe('passed');
  expect(json.events.filter((e: any) => e.unexpected).map((e: any) => e.source).sort()).toEqual(['console.error', 'unhandledrejection', 'window.onerror']);

  // Thrown in an effect: React 19 reports it with reportError, which the page sees as uncaught.
  const uncaught = one(json, 'window.onerror');
  expect(uncaught.message).toBe('Error: negative price in cart: 2 items');
  expectMappedTo(uncaught.frames[0], effectThrow);
  expect(uncaught.frames.slice(1).every((f: any) => f.userCode === false)).toBe(true);
  expect(uncaught.snippet).toMatch(codeLine(effectThrow));
  expect(md).toContain(`\`window.onerror\` in \`page\` at ${uncaught.ts} at \`${effectThrow.where}\``);

  const rejected = one(json, 'unhandledrejection');
  expect(rejected.message).toBe('Error: no shipping rate for AQ');
  expectMappedTo(rejected.frames[0], rejection, 'loadShipping');
  expect(rejected.snippet).toMatch(codeLine(rejection));
  expect(md).toContain(`${rejection.where} in loadShipping`);

  // The caught SyntaxError's stack starts in JSON.parse (native, no URL): its first frame with one is the component's.
  const caught = one(json, 'console.error');
  expect(caught.message).toMatch(/^saved cart is unreadable SyntaxError: /);
  expectMappedTo(caught.frames[0], parse);
  expect(caught.loggedAt.original).toMatchObject({ source, line: logged.line, column: logged.column });
  expect(caught.snippet).toMatch(codeLine(parse));
  expect(md).toContain(`logged at ${logged.where}`);
  expect(md).toMatch(codeLine(effectThrow));
});

test('strict mode fails the component test with the three errors at their .tsx lines', () => {
  const { json } = report('checkout story, strict');
  expect(json.test.status, run.output).toBe('failed');
  expect(json.test.strict).toBe(true);
  // The context is reused from the first test: nothing of that test's page is counted again here.
  expect(json.summary).toMatchObject({ errors: 3, unexpected: 3 });
  expect(run.output).toContain('daebug: 3 unexpected errors in the browser (daebugStrict):');
  for (const [kind, where] of [
    ['window.onerror', `${effectThrow.where} (your code)`],
    ['unhandledrejection', `${rejection.where} in loadShipping`],
    ['console.error', `${parse.where} (your code)`],
  ]) {
    expect(run.output).toMatch(new RegExp(`\\d\\. \\[${kind}\\] in page: .*\\n +↳ ${where!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
  }
  expect(run.output).toMatch(/1 failed[\s\S]*checkout story, strict[\s\S]*1 passed/);
});
