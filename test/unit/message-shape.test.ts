import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baselineShapes, eventShape, messageShape } from '../../src/run/message-shape';
import { fingerprintOf, stableWhere } from '../../src/run/fingerprint';
import { normalizeMessage } from '../../src/run/normalize';
import { markEvents } from '../../src/run/mark-events';
import { RunGroups } from '../../src/run/groups';
import { keepWording, makeBaseline, type BaselineEntry } from '../../src/run/baseline';
import { knownIn, knownShape, type LoadedBaseline } from '../../src/fixture/baseline';
import { formatPrimitiveArgs, previewText, type RemoteObject } from '../../src/capture/remote-object';
import { serializeConsoleCall } from '../../src/capture/in-page/console';
import type { StoredEvent } from '../../src/capture/recorder';
import type { DaebugEvent, Frame } from '../../src/model/schema';

const frames: Frame[] = [{ url: 'http://127.0.0.1:4517/bench/suite.html', functionName: 'load', line: 9, column: 13, userCode: true }];

/** The bench page's `console.warn('item 3 loaded', {...})` as V8 previews it, the way src/capture/cdp/runtime.ts writes its message. */
function previewMessage(i: number): string {
  const args: RemoteObject[] = [
    { type: 'string', value: `item ${i} loaded` },
    {
      type: 'object',
      className: 'Object',
      description: 'Object',
      preview: {
        type: 'object',
        overflow: false,
        properties: [
          { name: 'id', type: 'number', value: String(i) },
          { name: 'name', type: 'string', value: `item-${i}` },
          { name: 'tags', type: 'object', subtype: 'array', value: 'Array(2)' },
          { name: 'nested', type: 'object', value: 'Object' },
        ],
      },
    } as RemoteObject,
  ];
  return formatPrimitiveArgs(args, args.map((a) => (a.type === 'string' ? String(a.value) : previewText(a))));
}

/** The same call read in full by the in-page serializer. */
function fullMessage(i: number): string {
  return serializeConsoleCall([`item ${i} loaded`, { id: i, name: `item-${i}`, tags: ['a', 'b'], nested: { ok: true, n: i } }]).text;
}

function warn(message: string, fields: Partial<DaebugEvent> = {}): DaebugEvent {
  return { type: 'console', level: 'warn', source: 'console.warn', realm: 'page', ts: '10:00:00', time: '2026-11-26T10:00:00.000Z', message, frames, expected: false, unexpected: false, ...fields };
}

function entryOf(event: DaebugEvent): BaselineEntry {
  const where = stableWhere(event.frames);
  return { fingerprint: fingerprintOf(event), source: event.source, message: normalizeMessage(event.message), ...(where ? { where } : {}), count: 1, tests: 1 };
}

function loaded(entries: BaselineEntry[]): LoadedBaseline {
  const { groups } = makeBaseline(entries);
  return { file: '/tmp/daebug-baseline.json', fingerprints: new Set(groups.map((g) => g.fingerprint)), groups };
}

describe('messageShape', () => {
  it('collapses each outermost object or array, and nothing else', () => {
    assert.equal(messageShape('item <n> loaded {<str>:<n>,<str>:[<str>,<str>],<str>:{<str>:true}}'), 'item <n> loaded {…}');
    assert.equal(messageShape('a [<n>,<n>] b {<str>:Array(<n>)} c'), 'a […] b {…} c');
    assert.equal(messageShape('no objects here'), 'no objects here');
  });

  it('collapses a part cut open at the end, and leaves a message with crossed brackets as it is', () => {
    assert.equal(messageShape('x {<str>:[<n>,<n>,…'), 'x {…}');
    assert.equal(messageShape('x {<str>:[<n>}]'), 'x {<str>:[<n>}]');
    assert.equal(messageShape('stray } and ] close nothing'), 'stray } and ] close nothing');
  });
});

describe('a known error told from its preview', () => {
  it("a class instance's preview, named as DevTools names it, has the shape of its full text (issue 37)", () => {
    class Cart {
      constructor(
        public id: number,
        public name: string,
      ) {}
    }
    const instance: RemoteObject = { type: 'object', className: 'Cart', description: 'Cart', preview: { properties: [{ name: 'id', type: 'number', value: '3' }, { name: 'name', type: 'string', value: 'item-3' }] } };
    const preview = warn(formatPrimitiveArgs([{ type: 'string', value: 'item 3 loaded' }, instance], ['item 3 loaded', previewText(instance)]));
    assert.equal(preview.message, 'item 3 loaded Cart {id: 3, name: "item-3"}');
    const full = warn(serializeConsoleCall(['item 3 loaded', new Cart(3, 'item-3')]).text);
    assert.equal(eventShape(preview), eventShape(full));
    // A page's own word before a plain object's JSON is not a class name: it stays.
    assert.equal(messageShape('saved {"id":3}'), 'saved {…}');
  });

  it('the preview and the full text differ in fingerprint and agree in shape', () => {
    const preview = warn(previewMessage(3));
    const full = warn(fullMessage(3));
    assert.notEqual(preview.message, full.message);
    assert.notEqual(fingerprintOf(preview), fingerprintOf(full));
    assert.equal(eventShape(preview), eventShape(full));
    // Another item's values: the same group by either rule.
    assert.equal(fingerprintOf(warn(fullMessage(7))), fingerprintOf(full));
  });

  it('another message, kind or place is another shape', () => {
    const base = eventShape(warn(previewMessage(3)));
    assert.notEqual(eventShape(warn(previewMessage(3).replace('loaded', 'failed'))), base);
    assert.notEqual(eventShape(warn(previewMessage(3), { source: 'console.error', level: 'error' })), base);
    assert.notEqual(eventShape(warn(previewMessage(3), { frames: [{ ...frames[0]!, functionName: 'other' }] })), base);
    assert.equal(eventShape(warn('GET /x 404', { network: { url: 'http://127.0.0.1/x', method: 'GET', status: 404 } } as Partial<DaebugEvent>)), undefined);
  });

  it('a shape two baseline groups share matches neither', () => {
    const one = warn(fullMessage(3));
    const other = warn('item 3 loaded {"id":3,"flag":true}');
    assert.notEqual(fingerprintOf(one), fingerprintOf(other));
    const shapes = baselineShapes([entryOf(one), entryOf(other)]);
    assert.equal(shapes.get(eventShape(one)!), null);
    assert.equal(knownShape(loaded([entryOf(one), entryOf(other)]), warn(previewMessage(3))), undefined);
  });

  it("knownIn: a preview whose values still wait is known by its shape; a message read in full only by its fingerprint", () => {
    const baseline = loaded([entryOf(warn(fullMessage(3)))]);
    const preview = warn(previewMessage(5)) as unknown as StoredEvent;
    assert.equal(knownIn(baseline, () => true, () => true)(preview), true);
    assert.equal(knownIn(baseline, () => true, () => false)(preview), false);
    assert.equal(knownIn(baseline, () => false, () => true)(preview), undefined);
    assert.equal(knownIn(undefined, () => true, () => true)(preview), false);
    // Read in full, a message of another structure is a new error.
    assert.equal(knownIn(baseline, () => true, () => false)(warn('item 3 loaded {"id":3}') as unknown as StoredEvent), false);
  });

  it('knownIn answers again once the event was read or its message changed', () => {
    const baseline = loaded([entryOf(warn(fullMessage(3)))]);
    let isUnread = true;
    const known = knownIn(baseline, () => true, () => isUnread);
    const event = warn(previewMessage(5)) as unknown as StoredEvent;
    assert.equal(known(event), true);
    // Read in full into another structure: a new error, told by its fingerprint.
    isUnread = false;
    event.message = 'item 5 loaded {"id":5}';
    assert.equal(known(event), false);
    event.message = fullMessage(5);
    assert.equal(known(event), true);
  });

  it('markEvents gives a known preview the baseline group’s fingerprint, and the group keeps a full message', () => {
    const full = warn(fullMessage(3));
    const baseline = loaded([entryOf(full)]);
    const preview = warn(previewMessage(5), { preview: true });
    const readAnyway = warn('item 5 loaded {"id":5}');
    markEvents([[preview, readAnyway]], baseline.fingerprints, (event) => knownShape(baseline, event));
    assert.equal(preview.fingerprint, full.fingerprint ?? fingerprintOf(full));
    assert.equal(preview.known, true);
    assert.notEqual(readAnyway.fingerprint, fingerprintOf(full));
    assert.equal(readAnyway.known, undefined);

    const groups = new RunGroups();
    groups.addAttempt({ testKey: 'a', report: 'a.md' }, [preview]);
    groups.addAttempt({ testKey: 'b', report: 'b.md' }, [warn(fullMessage(4), { fingerprint: preview.fingerprint, preview: false })]);
    const [entry] = groups.baselineEntries();
    assert.equal(entry?.message, normalizeMessage(fullMessage(4)));
  });

  it('a baseline written again over itself keeps a group’s wording when the run only saw its preview', () => {
    const full = warn(fullMessage(3));
    const before = makeBaseline([entryOf(full)]);
    // The run left every occurrence to its preview: its group's message is the preview's.
    const fromRun = { ...entryOf(warn(previewMessage(5))), fingerprint: before.groups[0]!.fingerprint, count: 4, tests: 2 };
    const after = makeBaseline(keepWording([fromRun, entryOf(warn('a new warning'))], before.groups));
    assert.equal(after.groups.find((g) => g.fingerprint === fromRun.fingerprint)?.message, before.groups[0]!.message);
    assert.equal(after.groups.find((g) => g.fingerprint === fromRun.fingerprint)?.count, 4);
    assert.equal(after.groups.find((g) => g.message === 'a new warning')?.source, 'console.warn');
  });
});
