// A failed request with no app frame is located at the app's literal that names its URL (src/stack/locate-evidence.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMarkdown } from '../../src/format/markdown';
import { reportSchema } from '../../src/model/schema';
import { assignmentsOfValue, innerHtmlBindings, linesNamingUrl, linesUsingComponent, mapCallsInComponent, ng0100CurrentValue, urlPattern } from '../../src/stack/locate-evidence';
import { locateComponent } from '../../src/stack/locate-component';
import { locateByEvidence } from '../../src/stack/locate-by-evidence';
import type { StoredEvent } from '../../src/capture/recorder';

const prices = { source: 'src/app/prices.service.ts', text: "import { HttpClient } from '@angular/common/http';\n\nexport class PricesService {\n  load() {\n    return this.http.get('/api/prices.json');\n  }\n}\n" };
const users = { source: 'src/users.ts', text: "export function loadUser(id: string) {\n  return request(`/api/users/${id}`);\n}\nexport const teamUrl = (id: string) => '/api/teams/' + id;\n" };

describe('linesNamingUrl', () => {
  it('finds the call whose literal is the request path, ignoring origin, base path and query', () => {
    assert.deepEqual(linesNamingUrl('http://127.0.0.1:4608/app/api/prices.json?v=3', [users, prices]), [{ source: 'src/app/prices.service.ts', line: 5 }]);
  });

  it('matches the static parts of a templated URL, and a literal that the app joins to an id', () => {
    assert.deepEqual(linesNamingUrl('http://h/api/users/42', [prices, users]), [{ source: 'src/users.ts', line: 2 }]);
    assert.deepEqual(linesNamingUrl('http://h/api/teams/3', [users]), [{ source: 'src/users.ts', line: 4 }]);
  });

  it('lists every matching line up to the limit, the most specific first', () => {
    const many = { source: 'src/a.ts', text: ["get('/api/users/' + id)", 'get(`/api/users/${id}`)', "get('/api/users/42')", 'get(`${base}/users/${id}`)'].join('\n') };
    assert.deepEqual(linesNamingUrl('http://h/api/users/42', [many]), [
      { source: 'src/a.ts', line: 3 },
      { source: 'src/a.ts', line: 1 },
      { source: 'src/a.ts', line: 2 },
    ]);
  });

  it('names nothing for literals too short or not a path, or for another URL', () => {
    const noise = { source: 'src/n.ts', text: "fetch('/');\nheaders['content-type'] = 'application/json';\nconst a = '/api';\n" };
    assert.deepEqual(linesNamingUrl('http://h/api/users/42', [noise, prices]), []);
    assert.equal(urlPattern('hello world/x'), undefined);
  });
});

describe('a request found by its URL in the report', () => {
  it('is said to be found by its URL, never as a frame, in the entry, the Root cause and the request block', () => {
    const lib = { url: 'http://h/app.js', line: 1, column: 90, original: { source: 'node_modules/fake-http/index.js', line: 20, column: 12 }, library: 'fake-http' };
    const request = {
      type: 'error' as const, source: 'network', level: 'error', realm: 'page', ts: '10:00:00', time: new Date(0).toISOString(), expected: false, unexpected: true,
      message: 'GET http://h/api/teams/3 404 (Not Found)',
      network: { method: 'GET', url: 'http://h/api/teams/3', status: 404, resourceType: 'fetch', initiator: { type: 'script', url: 'http://h/app.js', line: 1, column: 90 } },
      frames: [lib],
      foundInSource: [{ source: 'src/users.ts', line: 14, by: 'url' as const }, { source: 'src/teams.ts', line: 3, by: 'url' as const }],
    };
    const report = reportSchema.parse({
      schemaVersion: 1,
      test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: false },
      jobs: [],
      events: [request],
      summary: { errors: 1, unexpected: 1, console: 0, dropped: 0, network: 1 },
    });
    const md = formatMarkdown(report, { maxBytes: 65536 });
    assert.match(md, /^- Where: no frame of its stack is in your code; found in your source by its URL: `src\/users\.ts:14`, `src\/teams\.ts:3` \(each line that matches\); it surfaced in /m);
    assert.match(md, /^1\. `network` in `page` at 10:00:00 \(no frame of the stack is in your code; found in your source by its URL: `src\/users\.ts:14`, `src\/teams\.ts:3` \(each line that matches\)\)/m);
    assert.match(md, /^found in your source by its URL: src\/users\.ts:14, src\/teams\.ts:3$/m);
    assert.match(md, /Try first: No frame of its stack is in your code; its URL is written at `src\/users\.ts:14`, `src\/teams\.ts:3` in your source/);
    // Never as a frame.
    assert.doesNotMatch(md, /^- Where: `src\/users|^1\. .* at `src\/users|^initiator: .*src\/users/m);
  });
});

describe('linesUsingComponent and mapCallsInComponent', () => {
  const app = { source: 'src/App.ts', text: "import { UserCard } from './UserCard';\nexport const App = defineComponent({\n  render() {\n    return h('div', [h(UserCard, { name: user.name })]);\n  },\n});\n" };
  const sfc = { source: 'src/Page.vue', text: '<template>\n  <user-card :age="age" />\n  <UserCardList />\n</template>\n' };
  const card = { source: 'src/UserCard.ts', text: "export const UserCard = defineComponent({\n  name: 'UserCard',\n});\n" };
  it("finds the parent's use of a component (a render function's h(), a template's tag), not its import or declaration", () => {
    assert.deepEqual(linesUsingComponent('UserCard', [card, app, sfc]), [
      { source: 'src/App.ts', line: 4 },
      { source: 'src/Page.vue', line: 2 },
    ]);
    const jsx = { source: 'src/Cart.tsx', text: 'return <>\n  <PriceList items={items} />\n  <PriceListHeader />\n</>;' };
    assert.deepEqual(linesUsingComponent('PriceList', [jsx]), [{ source: 'src/Cart.tsx', line: 2 }]);
  });

  it('finds the .map( calls of the component that React named, from its declaration on', () => {
    const list = { source: 'src/CartList.tsx', text: "const names = all.map((p) => p.name);\nexport function CartList({ products }) {\n  return (\n    <ul>\n      {products.map((p) => (\n        <li>{p.name}</li>\n      ))}\n    </ul>\n  );\n}\n" };
    assert.deepEqual(mapCallsInComponent({ source: 'src/CartList.tsx', line: 2 }, [list]), [{ source: 'src/CartList.tsx', line: 5 }]);
    assert.deepEqual(mapCallsInComponent({ source: 'src/Other.tsx', line: 1 }, [list]), []);
  });
});

describe('a warning located where its component is used, in the report', () => {
  it("names the parent's use beside the component's declaration, said to be found in the source", () => {
    const warning = {
      type: 'console' as const, source: 'console.warn', level: 'warn', realm: 'page', ts: '10:00:00', time: new Date(0).toISOString(), expected: false,
      message: '[Vue warn]: Missing required prop: "amount"\n  at <OrderTotal>\n  at <App>',
      frames: [{ url: 'http://h/app.js', line: 1, column: 5, original: { source: 'node_modules/@vue/runtime-core/dist/runtime-core.esm-bundler.js', line: 9, column: 1 }, library: '@vue/runtime-core' }],
      component: { name: 'OrderTotal', framework: 'Vue' as const, source: 'src/OrderTotal.ts', line: 3, foundBy: 'name' as const },
      foundInSource: [{ source: 'src/App.ts', line: 18, by: 'component-use' as const }],
    };
    const report = reportSchema.parse({
      schemaVersion: 1,
      test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: false },
      jobs: [],
      events: [warning],
      summary: { errors: 0, unexpected: 0, console: 1, dropped: 0 },
    });
    const md = formatMarkdown(report, { maxBytes: 65536 });
    assert.match(md, /^1\. `console\.warn` in `page` at 10:00:00: component `<OrderTotal>` at `src\/OrderTotal\.ts:3` \(found by name\); found in your source: where `<OrderTotal>` is used: `src\/App\.ts:18`$/m);
  });
});

// An Angular 22 component as the style guide writes it: the decorator's inline template above the class.
const ticker = {
  source: 'src/app/stock-ticker.ts',
  text: [
    "import { Component } from '@angular/core';", // 1
    '', // 2
    '@Component({', // 3
    "  selector: 'app-stock-ticker',", // 4
    '  template: `<p class="status">{{ status }}</p>', // 5
    '    <div class="news" [innerHTML]="news"></div>`,', // 6
    '})', // 7
    'export class StockTicker {', // 8
    "  status = 'loading';", // 9
    "  news = '<b>up</b><img src=x onerror=alert(1)>';", // 10
    '  ngAfterViewInit() {', // 11
    "    if (this.status === 'live') return;", // 12
    "    this.status = 'live';", // 13
    '  }', // 14
    '}', // 15
    '', // 16
    '@Component({ selector: "app-other", template: `<p [innerHTML]="x"></p>` })', // 17
    'export class Other {', // 18
    "  state = signal('idle');", // 19
    "  go() { this.state.set('live'); }", // 20
    '}', // 21
  ].join('\n'),
};
const NG0100 = "NG0100: ExpressionChangedAfterItHasBeenCheckedError: Expression has changed after it was checked. Previous value: 'loading'. Current value: 'live'. Expression location: StockTicker component. Find more at https://angular.dev/errors/NG0100";

describe("Angular's NG0100 and sanitizer warning, located in the named component", () => {
  it('reads the new value as the source writes it, and nothing for a value no source holds', () => {
    assert.equal(ng0100CurrentValue(NG0100), "'live'");
    assert.equal(ng0100CurrentValue('Previous value: 1. Current value: 2. Expression location: A component.'), '2');
    assert.equal(ng0100CurrentValue("Previous value: 'a'. Current value: 'it''s'."), undefined);
    assert.equal(ng0100CurrentValue('Previous value: [object Object]. Current value: [object Object].'), undefined);
  });

  it("finds the component's assignment of the new value, not a comparison, not another component's", () => {
    const declaration = locateComponent('StockTicker', [ticker], 'Angular')!;
    assert.deepEqual(declaration, { source: 'src/app/stock-ticker.ts', line: 8 });
    assert.deepEqual(assignmentsOfValue(declaration, "'live'", [ticker]), [{ source: 'src/app/stock-ticker.ts', line: 13 }]);
    const other = locateComponent('Other', [ticker], 'Angular')!;
    assert.deepEqual(assignmentsOfValue(other, "'live'", [ticker]), [{ source: 'src/app/stock-ticker.ts', line: 20 }]);
    assert.deepEqual(assignmentsOfValue(declaration, "'gone'", [ticker]), []);
  });

  it("finds the [innerHTML] binding in the component's inline template, or in its template file", () => {
    const declaration = locateComponent('StockTicker', [ticker], 'Angular')!;
    assert.deepEqual(innerHtmlBindings(declaration, 'StockTicker', [ticker]), [{ source: 'src/app/stock-ticker.ts', line: 6 }]);
    const external = { source: 'src/app/price-news.component.html', text: '<h2>News</h2>\n<section [innerHTML]="html"></section>\n' };
    const code = { source: 'src/app/price-news.component.ts', text: "@Component({ templateUrl: './price-news.component.html' })\nexport class PriceNews {}\n" };
    const news = locateComponent('PriceNews', [code, external], 'Angular')!;
    assert.deepEqual(innerHtmlBindings(news, 'PriceNews', [code, external]), [{ source: 'src/app/price-news.component.html', line: 2 }]);
  });
});

describe('a located line gets its code, as a frame gets its code frame (issue 37)', () => {
  const app = { source: 'src/App.ts', text: "import { UserCard } from './UserCard';\nexport const App = defineComponent({\n  render() {\n    return h('div', [h(UserCard, { name: user.name })]);\n  },\n});\n" };
  const propWarning = () => ({
    type: 'console', source: 'console.warn', level: 'warn', realm: 'page', timeMs: 0, seq: 0,
    message: '[Vue warn]: Missing required prop: "age"\n  at <UserCard>\n  at <App>',
    frames: [{ url: 'http://h/app.js', line: 1, column: 5, library: '@vue/runtime-core' }],
    component: { name: 'UserCard', framework: 'Vue' as const, source: 'src/UserCard.ts', line: 1, foundBy: 'name' as const },
  }) as unknown as StoredEvent;

  it('stores the lines around a found line, marked but without a caret, beside it in the event', async () => {
    const event = propWarning();
    await locateByEvidence([event], async () => [app], Date.now() + 5000);
    assert.deepEqual(event.foundInSource?.map(({ source, line, by }) => ({ source, line, by })), [{ source: 'src/App.ts', line: 4, by: 'component-use' }]);
    const snippet = event.foundInSource?.[0]?.snippet ?? '';
    assert.match(snippet, /^> 4 \| {5}return h\('div', \[h\(UserCard, \{ name: user\.name \}\)\]\);$/m);
    assert.match(snippet, /^  2 \| export const App = defineComponent\(\{$/m);
    // Found by text, not a frame: no column, so no caret line.
    assert.doesNotMatch(snippet, /\^/);
  });

  it('shows that code in the Warnings entry and in an unexpected error entry, with the place it is at', () => {
    const snippet = '  3 |   render() {\n> 4 |     return h(UserCard);\n  5 |   },';
    const warning = {
      type: 'console' as const, source: 'console.warn', level: 'warn', realm: 'page', ts: '10:00:00', time: new Date(0).toISOString(), expected: false,
      message: '[Vue warn]: Missing required prop: "age"\n  at <UserCard>',
      frames: [{ url: 'http://h/app.js', line: 1, column: 5, library: '@vue/runtime-core' }],
      component: { name: 'UserCard', framework: 'Vue' as const, source: 'src/UserCard.ts', line: 1, foundBy: 'name' as const },
      foundInSource: [{ source: 'src/App.ts', line: 4, by: 'component-use' as const, snippet }],
    };
    const build = (events: unknown[]) => reportSchema.parse({
      schemaVersion: 1,
      test: { title: 't', titlePath: ['a.spec.ts', 't'], file: 'a.spec.ts', line: 3, project: '', status: 'passed', expectedStatus: 'passed', retry: 0, duration: 5, strict: false },
      jobs: [],
      events,
      summary: { errors: 0, unexpected: 0, console: 1, dropped: 0 },
    });
    const md = formatMarkdown(build([warning]), { maxBytes: 65536 });
    const warnings = md.slice(md.indexOf('## Warnings'), md.indexOf('## Transcript'));
    assert.ok(warnings.includes(`\`\`\`Text console.warn\n[Vue warn]: Missing required prop: "age"\n\nsrc/App.ts:4\n${snippet}\n\`\`\``), warnings);
    // With an app frame too (Vue's mount() line): the Warnings entry names the found line first, so shows its code.
    const mounted = formatMarkdown(build([{ ...warning, frames: [...warning.frames, { url: 'http://h/app.js', line: 1, column: 90, original: { source: 'src/main.ts', line: 4, column: 16 }, userCode: true }] }]), { maxBytes: 65536 });
    assert.ok(mounted.includes(`\n\nsrc/App.ts:4\n${snippet}\n\`\`\``), mounted);
    const unexpected = formatMarkdown(build([{ ...warning, source: 'console.error', level: 'error', unexpected: true }]), { maxBytes: 65536 });
    const section = unexpected.slice(unexpected.indexOf('## Unexpected errors'), unexpected.indexOf('## Transcript'));
    assert.ok(section.includes(`\n\nsrc/App.ts:4\n${snippet}\n\`\`\``), section);
  });
});
