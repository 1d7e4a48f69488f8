import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUILT_IN_PATTERNS, REDACTED, makeRedactor, noRedaction, redactDeep } from '../../src/redact';
import { redactSchema } from '../../src/option-schemas';
import { resolveOptions } from '../../src/options';
import { DaebugOptionsError } from '../../src/errors';

const redact = makeRedactor(true);
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('built-in redaction', () => {
  const cases: Array<[string, string]> = [
    ['Authorization: Bearer abc.def-ghi', 'Authorization: Bearer [REDACTED]'],
    ['{"headers":{"Authorization":"Basic dXNlcjpwYXNz","x":1}}', '{"headers":{"Authorization":"Basic [REDACTED]","x":1}}'],
    ['proxy-authorization=Digest abc123', 'proxy-authorization=Digest [REDACTED]'],
    [`fetch with bearer ${JWT} done`, 'fetch with bearer [REDACTED] done'],
    [`jwt ${JWT}`, 'jwt [REDACTED]'],
    ['login password=hunter2&user=bob', 'login password=[REDACTED]&user=bob'],
    ['{"password":"correct horse battery","ok":true}', '{"password":"[REDACTED]","ok":true}'],
    ["token='abc def' rest", "token='[REDACTED]' rest"],
    ['GET /api?access_token=xyz123&api_key=K-999 HTTP/1.1', 'GET /api?access_token=[REDACTED]&api_key=[REDACTED] HTTP/1.1'],
    ['x-api-key: 0123456789', 'x-api-key: [REDACTED]'],
    ['clientSecret: s3cr3t', 'clientSecret: [REDACTED]'],
    ['Cookie: sid=abc; theme=dark\nnext line', 'Cookie: [REDACTED]\nnext line'],
    ['Set-Cookie: sid=abc; HttpOnly', 'Set-Cookie: [REDACTED]'],
    ['https://bob:pa55w0rd@example.com/path', 'https://bob:[REDACTED]@example.com/path'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- after', '[REDACTED] after'],
    [JSON.stringify({ body: JSON.stringify({ password: 'p w', token: 'tt' }) }), '{"body":"{\\"password\\":\\"[REDACTED]\\",\\"token\\":\\"[REDACTED]\\"}"}'],
  ];
  for (const [input, expected] of cases) {
    it(`redacts ${JSON.stringify(input.slice(0, 50))}`, () => {
      assert.equal(redact(input), expected);
      // Idempotent: redacting a redacted text changes nothing (messages are redacted again after refinement).
      assert.equal(redact(expected), expected);
    });
  }

  it('leaves ordinary text alone', () => {
    for (const text of ['tokens: 5 left', 'password is wrong', 'tokenizer=ok', 'Bearer of bad news', 'cookies are nice', 'eyJ alone', 'https://example.com/a:b@c']) {
      assert.equal(redact(text), text);
    }
  });

  it('is linear on long and adversarial input', () => {
    const inputs = ['a'.repeat(200_000), 'password'.repeat(20_000), `${'x-'.repeat(50_000)}token=`, 'eyJ'.repeat(50_000), `Cookie: ${'a'.repeat(100_000)}`];
    for (const input of inputs) {
      const started = performance.now();
      redact(input);
      assert.ok(performance.now() - started < 500, `took ${performance.now() - started} ms`);
    }
  });

  it('has one pattern per kind the issue names, each global', () => {
    assert.ok(BUILT_IN_PATTERNS.length >= 5);
    for (const pattern of BUILT_IN_PATTERNS) assert.ok(pattern.global, String(pattern));
  });
});

describe('makeRedactor options', () => {
  it('false turns redaction off', () => {
    assert.equal(makeRedactor(false), noRedaction);
    assert.equal(makeRedactor(false)('password=x'), 'password=x');
  });

  it('adds patterns to the built-in ones; a pattern without the g flag still replaces every match', () => {
    const r = makeRedactor({ patterns: [/acct-\d{4}/] });
    assert.equal(r('acct-1234 and acct-5678 password=x'), `${REDACTED} and ${REDACTED} password=${REDACTED}`);
  });

  it('builtIn: false keeps only your patterns; groups named secret* are all that is replaced', () => {
    const r = makeRedactor({ builtIn: false, patterns: [/user=(?<secret>\w+)/, /(?<secretA>\d{3})-(?<secretB>\d{3})/] });
    assert.equal(r('user=bob password=x 123-456'), `user=${REDACTED} password=x ${REDACTED}-${REDACTED}`);
  });

  it('an empty match does not loop', () => {
    assert.equal(makeRedactor({ builtIn: false, patterns: [/x*/] })('abxxc'), `ab${REDACTED}c`);
  });

  it('is validated: a wrong shape is DAEBUG_OPTIONS_INVALID naming daebugRedact', () => {
    assert.equal(redactSchema.safeParse({ patterns: ['x'] }).success, false);
    assert.throws(
      () => resolveOptions({ strict: false, capture: true, ignore: [], limits: {}, redact: { pattern: [/x/] } }),
      (error: unknown) => error instanceof DaebugOptionsError && /daebugRedact/.test(error.message) && /builtIn/.test(error.message),
    );
    assert.doesNotThrow(() => resolveOptions({ strict: false, capture: true, ignore: [], limits: {}, redact: { builtIn: false, patterns: [/x/] } }));
  });
});

describe('redactDeep', () => {
  it('redacts every string of a record, and values under secret-looking keys whatever they look like', () => {
    const record = { jobs: [{ value: { apiKey: 'plain-value', nested: ['Bearer abcdefgh12345'], n: 1 }, code: 'login("password=x")' }], realms: ['page'], count: 3 };
    assert.deepEqual(redactDeep(record, redact), {
      jobs: [{ value: { apiKey: REDACTED, nested: [`Bearer ${REDACTED}`], n: 1 }, code: `login("password=${REDACTED}")` }],
      realms: ['page'],
      count: 3,
    });
  });

  it('is the identity (same object) when redaction is off', () => {
    const record = { password: 'x' };
    assert.equal(redactDeep(record, noRedaction), record);
  });
});
