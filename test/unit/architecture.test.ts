/**
 * The house rule of src/, checked on every file: rooms (the folders of src/) stand on floors, a file may import
 * from its own room or a lower one, never a higher one, and no src files import each other in a circle (of any
 * length, type imports included). See docs/architecture.md for what goes in each room.
 *
 * The floors, lowest first, and why each stands where it does (what the code actually imports):
 *   text       pure string helpers: a stack's text parsed, a message's first line, a URL that names a page. Imports nothing.
 *   errors     src/errors.ts: daebug's own named errors and debug log, thrown and logged from every room.
 *   io         the only file writes the worker and the reporter share: atomic writes, "is this process alive".
 *   options    src/options.ts, src/option-schemas.ts, src/redact.ts: the user's options and the redactor they build.
 *   model      the data: schemas, the record and its parsing, the attempt joined from a record, pure classifications.
 *   test-info  what the worker reads from Playwright's TestInfo: the test's header, its report's path.
 *   capture    browser events into a Recorder (CDP, Playwright events, in-page serializer).
 *   stack      enrichment of the captured stacks: fetching, source maps, code frames, the user's first frame.
 *   run        facts across a run: fingerprints, normalisation, baselines, groups, sightings.
 *   diagnosis  what explains what: ranking, causal links, the line to fix. Neither run nor diagnosis imports the
 *              other today; diagnosis stands above run only because a list needs an order.
 *   history    run history across runs: store (through io), fold, flaky and first-seen analysis over run and diagnosis.
 *   format     pure model -> Markdown/JSON/text, using diagnosis, run and history.
 *   ci         CI integrations (GitHub annotations, the commit, the repo's sources): uses format.
 *   live       the worker's live report while a test runs: formats the record, writes through io.
 *   fixture    the fixtures, the `daebug` object and the end of a test (finish.ts): uses everything below.
 *   reporter   Playwright's reporter: reads the attachments, writes reports, history, live-run markers and CI output.
 *   cli        `npx daebug` and its MCP server: reads written reports and history only.
 *   browser    the package's `daebug/browser` entry: needs only errors, and nothing imports it.
 * The entry points src/index.ts, src/lazy-exports.ts and src/entry.ts may import from any room; they
 * are still checked for circles.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The rooms, lowest first. A new folder under src/ must be placed here before the test passes. */
const ROOMS = ['text', 'errors', 'io', 'options', 'model', 'test-info', 'capture', 'stack', 'run', 'diagnosis', 'history', 'format', 'ci', 'live', 'fixture', 'reporter', 'cli', 'browser'] as const;

/** Files at src/'s root, each given its room; `ENTRY` marks an entry point, which may import from any room. */
const ENTRY = 'entry point';
const ROOT_FILES: Record<string, string> = {
  'errors.ts': 'errors',
  'options.ts': 'options',
  'option-schemas.ts': 'options',
  'redact.ts': 'options',
  'index.ts': ENTRY,
  'lazy-exports.ts': ENTRY,
  // The package's main entry, which loads its bundle (issue 36): above every room, like index.ts.
  'entry.ts': ENTRY,
};

const SRC = path.resolve(__dirname, '../../src');

/** One import of one src file by another, as paths relative to src/. */
interface Edge {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts')) files.push(full);
  }
  return files;
}

/** Relative module names a file imports: static and type imports, re-exports, `import()` (also `typeof import()`) and `require()`. */
function importedNames(text: string): string[] {
  // The compiler's own pre-processor: it skips comments and strings, and reads `import()` and `require()` calls too.
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith('./') || name.startsWith('../'));
}

/** The src file a relative import names, as the compiler resolves it (`./x` is x.ts or x/index.ts), if it is one. */
function resolveImport(fromFile: string, name: string, known: ReadonlySet<string>): string | undefined {
  const base = path.resolve(path.dirname(fromFile), name).replace(/\.js$/, '');
  return [base, `${base}.ts`, path.join(base, 'index.ts')].find((candidate) => known.has(candidate));
}

function srcEdges(): Edge[] {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const edges: Edge[] = [];
  for (const file of files) {
    for (const name of importedNames(fs.readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, name, known);
      if (target) edges.push({ from: path.relative(SRC, file), to: path.relative(SRC, target) });
    }
  }
  return edges;
}

/** The room of a file (a path relative to src/): its top folder, or its entry in ROOT_FILES. */
function roomOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  return parts.length > 1 ? parts[0] : ROOT_FILES[file];
}

/** Imports that climb: from a room up into a higher one. Unknown rooms are reported too. */
function climbingImports(edges: readonly Edge[], rooms: readonly string[], room: (file: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const { from, to } of edges) {
    const fromRoom = room(from);
    const toRoom = room(to);
    if (fromRoom === ENTRY) continue;
    const fromFloor = fromRoom === undefined ? -1 : rooms.indexOf(fromRoom);
    const toFloor = toRoom === undefined || toRoom === ENTRY ? -1 : rooms.indexOf(toRoom);
    if (fromFloor === -1) problems.push(`${from}: its room (${fromRoom ?? 'a file at src/ root'}) is not in the list of rooms`);
    else if (toFloor === -1) problems.push(`${from} imports ${to}, whose room (${toRoom ?? 'a file at src/ root'}) is not in the list of rooms`);
    else if (toFloor > fromFloor) problems.push(`${from} (${fromRoom}) imports ${to} (${toRoom}), a higher room`);
  }
  return [...new Set(problems)];
}

/** Every circle of imports, one path per strongly connected group of files (Tarjan's algorithm), e.g. `a.ts -> b.ts -> a.ts`. */
function importCycles(edges: readonly Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(to)) next.set(to, []);
    const list = next.get(from);
    if (list) list.push(to);
    else next.set(from, [to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (next.get(node) ?? []).includes(node)) groups.push(group);
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.map((group) => cyclePath(group, next).join(' -> '));
}

/** A circle through the first (by name) file of a group: the shortest way from it back to itself, within the group. */
function cyclePath(group: readonly string[], next: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(group);
  const start = [...group].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const to of next.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const way: string[] = [];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) way.unshift(at);
        return [start, ...way, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [...group, start];
}

describe('architecture: rooms stand on floors, imports go down, never round', () => {
  const edges = srcEdges();

  it('reads the imports of src/ (the parser finds them)', () => {
    assert.ok(edges.length > 300, `only ${edges.length} imports found among src files`);
    assert.ok(edges.some((e) => e.from === path.join('fixture', 'fixtures.ts') && e.to === path.join('fixture', 'bodies.ts')), 'the fixtures load their bodies with require()');
  });

  it('every folder of src/ and every file at its root has a room in the list', () => {
    const unplaced = fs
      .readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => (entry.isDirectory() ? !(ROOMS as readonly string[]).includes(entry.name) : entry.name.endsWith('.ts') && !(entry.name in ROOT_FILES)))
      .map((entry) => `src/${entry.name}`);
    assert.deepEqual(unplaced, [], `place these in ROOMS or ROOT_FILES (test/unit/architecture.test.ts):\n${unplaced.join('\n')}`);
    const roomless = ROOMS.filter((room) => !fs.existsSync(path.join(SRC, room)) && !Object.values(ROOT_FILES).includes(room));
    assert.deepEqual(roomless, [], `rooms in the list with neither a folder nor a root file: ${roomless.join(', ')}`);
  });

  it('no file imports from a higher room', () => {
    const problems = climbingImports(edges, ROOMS, roomOf);
    assert.deepEqual(problems, [], `imports that climb (rooms lowest first: ${ROOMS.join(' < ')}):\n${problems.join('\n')}`);
  });

  it('no src files import each other in a circle, type imports included', () => {
    const cycles = importCycles(edges);
    assert.deepEqual(cycles, [], `import circles:\n${cycles.join('\n')}`);
  });

  it('the checks catch what they are for', () => {
    const rooms = ['low', 'high'];
    const room = (file: string) => file.split('/')[0];
    assert.deepEqual(climbingImports([{ from: 'low/a.ts', to: 'high/b.ts' }], rooms, room), ['low/a.ts (low) imports high/b.ts (high), a higher room']);
    assert.deepEqual(climbingImports([{ from: 'high/b.ts', to: 'low/a.ts' }], rooms, room), []);
    assert.match(climbingImports([{ from: 'attic/x.ts', to: 'low/a.ts' }], rooms, room)[0] ?? '', /attic.*not in the list of rooms/);
    const circle = [
      { from: 'a.ts', to: 'b.ts' },
      { from: 'b.ts', to: 'c.ts' },
      { from: 'c.ts', to: 'a.ts' },
      { from: 'c.ts', to: 'd.ts' },
    ];
    assert.deepEqual(importCycles(circle), ['a.ts -> b.ts -> c.ts -> a.ts']);
    assert.deepEqual(importCycles([{ from: 'a.ts', to: 'a.ts' }]), ['a.ts -> a.ts']);
    assert.deepEqual(importCycles(circle.slice(0, 2)), []);
  });
});
