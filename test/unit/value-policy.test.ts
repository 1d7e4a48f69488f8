import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { endOfTestVerdicts, strictFails, valueVerdict, type TestEnd, type WaitingValue } from '../../src/capture/value-policy';
import type { Classifiable } from '../../src/model/classify';

const plain: WaitingValue = { asked: false, counts: false, expected: false, known: false };
const counting: WaitingValue = { ...plain, counts: true };
const passing = { failed: false, strictFails: false };

describe('valueVerdict: which values a test end reads in full', () => {
  it("a passing test's plain log keeps its preview; the same line is read when the test failed, strict mode fails it, or the test asked", () => {
    assert.equal(valueVerdict(plain, passing), 'preview');
    assert.equal(valueVerdict(plain, { failed: true, strictFails: false }), 'read');
    assert.equal(valueVerdict(plain, { failed: false, strictFails: true }), 'read');
    assert.equal(valueVerdict({ ...plain, asked: true }, passing), 'read');
  });

  it('an event that counts is read unless it is expected or known', () => {
    assert.equal(valueVerdict(counting, passing), 'read');
    assert.equal(valueVerdict({ ...counting, expected: true }, passing), 'preview');
    assert.equal(valueVerdict({ ...counting, known: true }, passing), 'preview');
  });

  it('waits while the baseline cannot tell yet: whether the event is known, or whether strict mode fails the test', () => {
    assert.equal(valueVerdict({ ...counting, known: undefined }, passing), 'later');
    assert.equal(valueVerdict(plain, { failed: false, strictFails: undefined }), 'later');
    assert.equal(valueVerdict({ ...counting, known: true }, { failed: false, strictFails: undefined }), 'later');
    // A test that failed already reads everything whatever the baseline says.
    assert.equal(valueVerdict({ ...counting, known: undefined }, { failed: true, strictFails: undefined }), 'read');
  });
});

describe('strictFails', () => {
  it('is false without strict mode, true with an unexpected error that is not known, undefined while one may be known', () => {
    assert.equal(strictFails(false, [{ known: false }]), false);
    assert.equal(strictFails(true, []), false);
    assert.equal(strictFails(true, [{ known: true }]), false);
    assert.equal(strictFails(true, [{ known: true }, { known: false }]), true);
    assert.equal(strictFails(true, [{ known: true }, { known: undefined }]), undefined);
    assert.equal(strictFails(true, [{ known: undefined }, { known: false }]), true);
  });
});

type Event = Classifiable & { id: string };

const event = (id: string, source: string, message = id, extra: Partial<Event> = {}): Event => ({ id, type: source.startsWith('window.') || source === 'unhandledrejection' ? 'error' : 'console', source, message, ...extra });

const log = event('log', 'console.log');
const info = event('info', 'console.info');
const debug = event('debug', 'console.debug');
const error = event('error', 'console.error');
const warn = event('warn', 'console.warn');
const assertion = event('assert', 'console.assert');
const uncaught = event('uncaught', 'window.onerror');
const rejection = event('rejection', 'unhandledrejection');

function verdicts(end: Partial<TestEnd<Event>>, events: Event[], asked: string[] = []): Record<string, string> {
  const verdict = endOfTestVerdicts<Event>({ strict: false, network: 'report', ignore: [], failed: false, known: () => false, ...end }, events);
  return Object.fromEntries(events.map((e) => [e.id, verdict(e, asked.includes(e.id))]));
}

describe('endOfTestVerdicts', () => {
  it("a passing test: plain log, info and debug keep V8's preview; errors, warnings and console.error are read", () => {
    assert.deepEqual(verdicts({}, [log, info, debug, error, warn, assertion, uncaught, rejection]), {
      log: 'preview',
      info: 'preview',
      debug: 'preview',
      error: 'read',
      warn: 'read',
      assert: 'read',
      uncaught: 'read',
      rejection: 'read',
    });
  });

  it('what the test asked for (events(), errors()) is read', () => {
    assert.deepEqual(verdicts({}, [log, info], ['log']), { log: 'read', info: 'preview' });
  });

  it('a failed test reads every value', () => {
    assert.deepEqual(verdicts({ failed: true }, [log, debug]), { log: 'read', debug: 'read' });
  });

  it('strict mode with an unexpected error reads every value; with only expected or known errors, not', () => {
    assert.deepEqual(verdicts({ strict: true }, [log, error]), { log: 'read', error: 'read' });
    assert.deepEqual(verdicts({ strict: true }, [log, uncaught]), { log: 'read', uncaught: 'read' });
    assert.deepEqual(verdicts({ strict: true, ignore: ['error'] }, [log, error]), { log: 'preview', error: 'preview' });
    assert.deepEqual(verdicts({ strict: true, known: (e) => e.id === 'error' }, [log, error]), { log: 'preview', error: 'preview' });
    // Without strict mode an unexpected error does not make a plain log matter.
    assert.deepEqual(verdicts({}, [log, error]), { log: 'preview', error: 'read' });
  });

  it('a failed request fails a strict test under daebugNetwork strict, though it has no value to read', () => {
    const network = event('network', 'network', 'GET /api 500');
    assert.deepEqual(verdicts({ strict: true, network: 'strict' }, [log, network]), { log: 'read', network: 'read' });
    assert.deepEqual(verdicts({ strict: true, network: 'report' }, [log, network]), { log: 'preview', network: 'preview' });
  });

  it('an expected (daebugIgnore) console.error keeps its preview: the pattern matched the text it has so far', () => {
    assert.deepEqual(verdicts({ ignore: [/^error$/] }, [error, warn]), { error: 'preview', warn: 'read' });
  });

  it('with a baseline: waits until the stacks are mapped, then reads only what is not known', () => {
    let mapped = false;
    const known = (e: Event) => (mapped ? e.id === 'uncaught' : undefined);
    assert.deepEqual(verdicts({ known }, [log, error, uncaught]), { log: 'preview', error: 'later', uncaught: 'later' });
    // Strict mode may fail the test on an error not known yet: every value waits.
    assert.deepEqual(verdicts({ strict: true, known }, [log, error, uncaught]), { log: 'later', error: 'later', uncaught: 'later' });
    mapped = true;
    assert.deepEqual(verdicts({ known }, [log, error, uncaught]), { log: 'preview', error: 'read', uncaught: 'preview' });
    assert.deepEqual(verdicts({ strict: true, known }, [log, error, uncaught]), { log: 'read', error: 'read', uncaught: 'read' });
    assert.deepEqual(verdicts({ strict: true, known }, [log, uncaught]), { log: 'preview', uncaught: 'preview' });
  });
});
