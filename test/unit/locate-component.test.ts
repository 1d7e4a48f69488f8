import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Recorder, type EventDraft } from '../../src/capture/recorder';
import { componentNote } from '../../src/format/component-note';
import { resolveOptions } from '../../src/options';
import { enrich } from '../../src/stack/enrich';
import type { FetchResult } from '../../src/stack/fetch-result';
import { componentNamedIn, locateComponent } from '../../src/stack/locate-component';
import { LruCache } from '../../src/stack/lru';
import { SourceMaps, type ScriptInfo } from '../../src/stack/source-maps';
import { bundle, positionOf } from './helpers/bundle';

describe('componentNamedIn', () => {
  it("reads React's words: the render method of a warning, the component an error occurred in", () => {
    assert.deepEqual(componentNamedIn('Each child in a list should have a unique "key" prop.\n\nCheck the render method of `PriceList`. See https://react.dev/link/warning-keys'), { name: 'PriceList', framework: 'React' });
    assert.deepEqual(componentNamedIn('TypeError: x\n\nThe above error occurred in the <PriceTag> component.'), { name: 'PriceTag', framework: 'React' });
    assert.deepEqual(componentNamedIn('Warning: x\n\nCheck the render method of `ForwardRef(Menu.Item)`.'), { name: 'Item', framework: 'React' });
  });

  it("reads Vue's first `at <X>` trace line and Angular's expression location and generated template frames", () => {
    assert.deepEqual(componentNamedIn('[Vue warn]: Invalid prop: type check failed for prop "age".\n  at <UserCard user=… >\n  at <App>'), { name: 'UserCard', framework: 'Vue' });
    assert.deepEqual(componentNamedIn("NG0100: ExpressionChangedAfterItHasBeenCheckedError: Expression has changed after it was checked. Previous value: 'a'. Current value: 'b'. Expression location: _AppComponent component."), { name: '_AppComponent', framework: 'Angular' });
    assert.deepEqual(componentNamedIn('ERROR TypeError: x', 'TypeError: x\n    at AppComponent_Template (ng:///AppComponent.js:12:5)'), { name: 'AppComponent', framework: 'Angular' });
    assert.deepEqual(componentNamedIn('ERROR TypeError: x', 'TypeError: x\n    at AppComponent_div_3_Template (ng:///AppComponent_div_3_Template.js:1:5)'), { name: 'AppComponent', framework: 'Angular' });
  });

  it('names nothing in text without such words', () => {
    assert.equal(componentNamedIn("TypeError: Cannot read properties of undefined (reading 'name')"), undefined);
    assert.equal(componentNamedIn('Check the render method of `Unknown`.'), undefined);
    assert.equal(componentNamedIn('  at <not a trace'), undefined);
  });
});

const src = (source: string, text: string) => ({ source, text });

describe('locateComponent', () => {
  it('finds a React function, const and class component at its declaration line', () => {
    const sources = [
      src('src/App.tsx', "import { PriceList } from './PriceList';\nexport function App() {\n  return <PriceList />;\n}\n"),
      src('src/PriceList.tsx', "import type { Item } from './item';\n\nexport function PriceList({ items }: { items: Item[] }) {\n  return null;\n}\n"),
      src('src/Cards.tsx', "export const Card: FC<Props> = ({ title }) => <div>{title}</div>;\n\nexport const Badge = memo(function Badge() {\n  return null;\n});\n\nexport class Panel extends Component<Props> {\n  render() { return null; }\n}\n"),
    ];
    assert.deepEqual(locateComponent('PriceList', sources, 'React'), { source: 'src/PriceList.tsx', line: 3 });
    assert.deepEqual(locateComponent('Card', sources, 'React'), { source: 'src/Cards.tsx', line: 1 });
    assert.deepEqual(locateComponent('Badge', sources, 'React'), { source: 'src/Cards.tsx', line: 3 });
    assert.deepEqual(locateComponent('Panel', sources, 'React'), { source: 'src/Cards.tsx', line: 7 });
  });

  it('prefers the file named after the component, and never takes a lazy import or a longer name for it', () => {
    const sources = [
      src('src/App.tsx', "const PriceList = lazy(() => import('./PriceList'));\nfunction PriceListItem() {}\n"),
      src('src/PriceList.tsx', '\n\nconst PriceList = () => {\n  return null;\n};\nexport default PriceList;\n'),
    ];
    assert.deepEqual(locateComponent('PriceList', sources, 'React'), { source: 'src/PriceList.tsx', line: 3 });
    assert.equal(locateComponent('PriceList', [sources[0]!], 'React'), undefined);
  });

  it("finds a Vue component by its options' name, or by its single-file component's name", () => {
    const sources = [
      src('src/main.ts', "import { createApp, defineComponent } from 'vue';\n\nconst Profile = defineComponent({\n  name: 'UserProfile',\n  props: {},\n});\n"),
      src('src/components/UserCard.vue', '<template>\n  <div>{{ user.name }}</div>\n</template>\n\n<script setup lang="ts">\ndefineProps<{ user: { name: string } }>();\n</script>\n'),
      src('src/components/price-tag.vue', "<template><b /></template>\n<script>\nexport default {\n  name: 'price-tag',\n};\n</script>\n"),
    ];
    assert.deepEqual(locateComponent('UserProfile', sources, 'Vue'), { source: 'src/main.ts', line: 4 });
    assert.deepEqual(locateComponent('UserCard', sources, 'Vue'), { source: 'src/components/UserCard.vue', line: 5 });
    assert.deepEqual(locateComponent('PriceTag', sources, 'Vue'), { source: 'src/components/price-tag.vue', line: 4 });
  });

  it('finds an Angular component class, with the underscore a build gives it or not', () => {
    const sources = [
      src('src/app/app.config.ts', 'export const appConfig = {};\n'),
      src('src/app/user-card.component.ts', "import { Component } from '@angular/core';\n\n@Component({ selector: 'app-user-card', template: '' })\nexport class UserCardComponent {\n  user = input.required<User>();\n}\n"),
    ];
    assert.deepEqual(locateComponent('UserCardComponent', sources, 'Angular'), { source: 'src/app/user-card.component.ts', line: 4 });
    assert.deepEqual(locateComponent('_UserCardComponent', sources, 'Angular'), { source: 'src/app/user-card.component.ts', line: 4 });
  });

  it('is undefined when no source declares it', () => {
    const sources = [src('src/App.tsx', 'export function App() {\n  return <PriceList />;\n}\n// class PriceListing\n')];
    assert.equal(locateComponent('PriceList', sources, 'React'), undefined);
    assert.equal(locateComponent('PriceList', [], 'React'), undefined);
    assert.equal(locateComponent('not a name!', sources), undefined);
  });
});

const ORIGIN = 'http://app.test';
const js = (text: string): FetchResult => ({ ok: true, text, contentType: 'text/javascript' });
/** A fetcher that serves one bundle at `${ORIGIN}/dist/app.js`, with its map. */
const serving = (app: { js: string; map: string }) => async (url: string): Promise<FetchResult> => (url === `${ORIGIN}/dist/app.js` ? js(app.js) : url === `${ORIGIN}/dist/app.js.map` ? js(app.map) : { ok: false, reason: 'HTTP 404' });

describe('enrich: the component an event names', () => {
  const files = {
    'main.ts': "import { PriceList } from './PriceList';\nimport { render } from './node_modules/fake-react/index';\n(window as any).show = () => render(PriceList);\n",
    'PriceList.tsx': "// A list of prices.\nexport function PriceList(): string[] {\n  return ['1.00', '2.00'].map((p) => p);\n}\n",
    // A library's console call: its frame is not the app's.
    'node_modules/fake-react/index.ts': 'export function render(component: () => unknown): unknown {\n  console.error("Each child in a list should have a unique key prop. Check the render method of `PriceList`.");\n  return component();\n}\n',
  };
  const app = bundle(files, 'main.ts');
  const fetcher = serving(app);
  const warned = positionOf(app.js, 'console.error');
  const rendered = positionOf(app.js, '"1.00"');
  const draft = (fields: Partial<EventDraft>): EventDraft => ({
    type: 'console',
    level: 'error',
    source: 'console.error',
    realm: 'page',
    timeMs: Date.now(),
    message: 'Each child in a list should have a unique key prop.\n\nCheck the render method of `PriceList`.',
    callFrames: [{ url: `${ORIGIN}/dist/app.js`, line: warned.line, column: warned.column }],
    ...fields,
  });
  const recorder = () => new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }));
  const maps = () => new SourceMaps(fetcher, new LruCache<Promise<ScriptInfo>>(50, 20 * 1024 * 1024));

  it("locates it by name in the source map's sourcesContent, on that event only", async () => {
    const rec = recorder();
    rec.add(draft({}));
    rec.add(draft({ message: "TypeError: Cannot read properties of undefined (reading 'x')", type: 'error', source: 'window.onerror', level: 'error' }));
    await enrich(rec, maps());
    const [warning, error] = rec.events();
    assert.deepEqual(warning?.component, { name: 'PriceList', framework: 'React', source: 'src/PriceList.tsx', line: 2, foundBy: 'name' });
    assert.equal(error?.component, undefined);
  });

  it("prefers React's owner stack: the app frame under React's console.createTask parent", async () => {
    const rec = recorder();
    rec.add(draft({ callFrames: [{ url: `${ORIGIN}/dist/app.js`, line: warned.line, column: warned.column }, { url: `${ORIGIN}/dist/app.js`, line: rendered.line, column: rendered.column + 1, asyncParent: '<li>' }] }));
    await enrich(rec, maps());
    assert.deepEqual(rec.events()[0]?.component, { name: 'PriceList', framework: 'React', source: 'src/PriceList.tsx', line: 3, foundBy: 'owner-stack' });
  });

  it("reads React's component stack in the message: the line that names the component, mapped to the source", async () => {
    const rec = recorder();
    const message = `Warning: Each child in a list should have a unique "key" prop.\n\nCheck the render method of \`PriceList\`.\n    at li\n    at PriceList (${ORIGIN}/dist/app.js:${rendered.line}:${rendered.column + 1})\n    at App`;
    rec.add(draft({ message }));
    await enrich(rec, maps());
    assert.deepEqual(rec.events()[0]?.component, { name: 'PriceList', framework: 'React', source: 'src/PriceList.tsx', line: 3, foundBy: 'owner-stack' });
  });

  it('reads the file named after the component from where the map says it is, when the map has no sourcesContent', async () => {
    const payload = JSON.parse(app.map);
    delete payload.sourcesContent;
    const requests: string[] = [];
    const bare = async (url: string): Promise<FetchResult> => {
      requests.push(url);
      if (url === `${ORIGIN}/dist/app.js`) return js(app.js);
      if (url === `${ORIGIN}/dist/app.js.map`) return js(JSON.stringify(payload));
      const file = /^http:\/\/app\.test\/(src\/.*)$/.exec(url)?.[1];
      return file ? js(fs.readFileSync(path.join(app.dir, file), 'utf8')) : { ok: false, reason: 'HTTP 404' };
    };
    const rec = recorder();
    rec.add(draft({}));
    await enrich(rec, new SourceMaps(bare, new LruCache<Promise<ScriptInfo>>(50, 20 * 1024 * 1024)));
    assert.deepEqual(rec.events()[0]?.component, { name: 'PriceList', framework: 'React', source: 'src/PriceList.tsx', line: 2, foundBy: 'name' });
    // Only the file named after it is read; the code frame of the warning's own frame may read its own source.
    assert.ok(requests.includes(`${ORIGIN}/src/PriceList.tsx`), requests.join(', '));
    assert.ok(!requests.includes(`${ORIGIN}/src/main.ts`), requests.join(', '));
  });

  it('keeps the name without a place when no source declares it', async () => {
    const rec = recorder();
    rec.add(draft({ message: 'Each child in a list should have a unique key prop.\n\nCheck the render method of `Basket`.' }));
    await enrich(rec, maps());
    assert.deepEqual(rec.events()[0]?.component, { name: 'Basket', framework: 'React' });
  });
});

describe('enrich: the component around the frame of an error whose text names none (issue 37)', () => {
  const files = {
    'main.ts': "import { Cart } from './Cart';\n(window as any).start = () => new Cart().componentDidMount();\n",
    'Component.ts': 'export class Component {\n  props: { items?: string[] } = {};\n}\n',
    'Cart.ts': "import { Component } from './Component';\nexport class Cart extends Component {\n  componentDidMount(): void {\n    const n = this.props.items!.length;\n    console.log(n);\n  }\n}\n",
  };
  const app = bundle(files, 'main.ts');
  const fetcher = serving(app);
  const thrown = positionOf(app.js, '.length');

  it('names the class component whose method threw, at its declaration, and says how it was found', async () => {
    const rec = new Recorder(resolveOptions({ strict: false, capture: true, ignore: [], limits: {} }));
    rec.add({ type: 'error', source: 'window.onerror', level: 'error', realm: 'page', timeMs: Date.now(), message: "TypeError: Cannot read properties of undefined (reading 'length')", callFrames: [{ url: `${ORIGIN}/dist/app.js`, line: thrown.line, column: thrown.column, functionName: 'componentDidMount' }] });
    await enrich(rec, new SourceMaps(fetcher, new LruCache<Promise<ScriptInfo>>(50, 20 * 1024 * 1024)));
    const [error] = rec.events();
    assert.equal(error?.frames?.[0]?.original?.source, 'src/Cart.ts');
    assert.deepEqual(error?.component, { name: 'Cart', framework: 'React', source: 'src/Cart.ts', line: 2, foundBy: 'enclosing' });
    assert.equal(componentNote(error!.component!), 'component `<Cart>` at `src/Cart.ts:2` (its code encloses the frame)');
  });
});
