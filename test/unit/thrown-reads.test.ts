import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Recorder } from '../../src/capture/recorder';
import { onRuntimeEvent, type RuntimeSink } from '../../src/capture/cdp/runtime';
import { fakePage } from './helpers/fake-page';
import type { ValueRead } from '../../src/capture/cdp/value-reads';
import { defaultLimits } from '../../src/options';

function sinkWithReads(): { sink: RuntimeSink; reads: ValueRead[]; recorder: Recorder } {
  const recorder = new Recorder({ strict: false, capture: true, ignore: [], limits: { ...defaultLimits } });
  const reads: ValueRead[] = [];
  return { sink: { recorder, realmOf: () => 'page', readLater: (_target, read) => reads.push(read) }, reads, recorder };
}

function thrown(className: string, properties: string[], extra: { overflow?: boolean } = {}) {
  const description = `${className}: boom\n    at http://127.0.0.1/app.js:1:1`;
  return {
    timestamp: 1,
    exceptionDetails: {
      text: 'Uncaught',
      lineNumber: 0,
      columnNumber: 0,
      executionContextId: 1,
      exception: {
        type: 'object',
        subtype: 'error',
        className,
        description,
        objectId: 'obj-1',
        preview: { type: 'object', subtype: 'error', overflow: extra.overflow ?? false, properties: properties.map((name) => ({ name, type: 'string', value: '' })) },
      },
    },
  };
}

describe('reading thrown errors in the page', () => {
  const page = fakePage();

  it('a built-in Error whose preview shows no cause and no inner errors is not read: its stack says everything', () => {
    const { sink, reads, recorder } = sinkWithReads();
    onRuntimeEvent(sink, page, 'Runtime.exceptionThrown', thrown('TypeError', ['stack', 'message']));
    assert.equal(reads.length, 0);
    assert.equal(recorder.events()[0]?.message, 'TypeError: boom');
  });

  it('an Error with a cause, an AggregateError, a subclass or an incomplete preview is read', () => {
    for (const [className, properties, overflow] of [
      ['Error', ['stack', 'message', 'cause'], false],
      ['AggregateError', ['stack', 'message', 'errors'], false],
      ['ValidationError', ['stack', 'message'], false],
      ['Error', ['stack', 'message'], true],
    ] as const) {
      const { sink, reads } = sinkWithReads();
      onRuntimeEvent(sink, page, 'Runtime.exceptionThrown', thrown(className, [...properties], { overflow }));
      assert.equal(reads.length, 1, `${className} ${properties.join(',')} overflow ${overflow}`);
      assert.equal(reads[0]!.kind, 'thrown');
    }
  });

  it('an Error logged with console.error is read for its cause only when it may have one; its other arguments are read as always', () => {
    const logged = (properties: string[]) => ({
      type: 'error',
      executionContextId: 1,
      timestamp: 1,
      args: [
        { type: 'string', value: 'saving failed' },
        { ...thrown('Error', properties).exceptionDetails.exception, objectId: 'obj-2' },
      ],
    });
    const plain = sinkWithReads();
    onRuntimeEvent(plain.sink, page, 'Runtime.consoleAPICalled', logged(['stack', 'message']));
    assert.deepEqual(plain.reads.map((r) => r.kind), ['console']);
    const withCause = sinkWithReads();
    onRuntimeEvent(withCause.sink, page, 'Runtime.consoleAPICalled', logged(['stack', 'message', 'cause']));
    assert.deepEqual(withCause.reads.map((r) => r.kind), ['thrown', 'console']);
  });
});
