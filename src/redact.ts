
/** What `daebugRedact` accepts besides `true` and `false`. */
export interface RedactOptions {
  /**
   * Extra patterns. A match is replaced by `[REDACTED]`; when the pattern has named groups whose names
   * start with `secret`, only those groups are replaced, so `/user=(?<secret>\w+)/` keeps `user=`.
   * @default []
   * @example test.use({ daebugRedact: { patterns: [/acct-\d{8}/] } });
   */
  patterns?: RegExp[];
  /** Keep daebug's built-in patterns (Authorization and Bearer tokens, password/token/api_key pairs, JWTs, cookies, private keys). @default true */
  builtIn?: boolean;
}

export const REDACTED = '[REDACTED]';

// Keys whose value is a secret in `key=value`, `key: value`, JSON `"key":"value"` and JSON inside a JSON string;
// up to 30 characters may come first (`access_token`, `x-api-key`, `clientSecret`).
const SECRET_KEYS = 'password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|private[_-]?key|session[_-]?id|credentials?';
const VALUE = `(?!\\[REDACTED\\])(?:\\\\"(?<secretEscaped>[^"\\\\\\n]*)\\\\"|"(?<secret>(?:[^"\\\\\\n]|\\\\.)*)"|'(?<secretQ>[^'\\n]*)'|(?<secretBare>[^\\s"'&,;}\\]]+))`;

/** daebug's built-in patterns, in the order they run. */
export const BUILT_IN_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /(?<![\w-])(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|digest|token|negotiate|apikey)\s+)?(?<secret>[^\s"',;]+)/gi,
  /(?<![\w-])(?:set-)?cookie["']?\s*[:=]\s*(?:"(?<secret>(?:[^"\\\n]|\\.)*)"|(?<secretLine>[^\n]+))/gi,
  /\bbearer\s+(?<secret>[A-Za-z0-9\-._~+/]{8,}=*)/gi,
  /\beyJ[\w-]{2,}\.[\w-]{2,}(?:\.[\w-]*)?/g,
  /\/\/[^/\s:@]+:(?<secret>[^/\s@]+)@/g,
  new RegExp(`(?<![\\w-])[\\w-]{0,30}?(?:${SECRET_KEYS})\\\\?["']?\\s*[=:]\\s*${VALUE}`, 'gi'),
];

export type RedactOption = boolean | RedactOptions;

/** Replaces secrets in a text; `noRedaction` when redaction is off. */
export interface Redactor {
  (text: string): string;
  /** Object keys whose string or number values are secrets whatever they look like (`{ apiKey: 'x' }`). */
  readonly secretKey?: RegExp | undefined;
}

const SECRET_KEY = new RegExp(`^[\\w-]{0,30}?(?:${SECRET_KEYS}|authorization|cookie)$`, 'i');

// Every built-in pattern needs one of these: most messages and stacks have none and skip the patterns' slower scans.
const BUILT_IN_HINT = new RegExp(`-----BEGIN |authorization|cookie|bearer|eyJ|//[^/\\s:@]+:[^/\\s@]+@|${SECRET_KEYS}`, 'i');

/** The redactor of `daebugRedact: false`. */
export const noRedaction: Redactor = (text) => text;

function prepare(pattern: RegExp): RegExp {
  const flags = new Set(pattern.flags);
  flags.add('g');
  flags.add('d');
  flags.delete('y');
  return new RegExp(pattern.source, [...flags].join(''));
}

function replaceAll(text: string, pattern: RegExp): string {
  pattern.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    const groups = match.indices?.groups;
    const named = groups ? Object.keys(groups).filter((name) => name.startsWith('secret')) : [];
    const spans = named.length
      ? named.map((name) => groups![name]).filter((span): span is [number, number] => !!span && span[1] > span[0]).sort((a, b) => a[0] - b[0])
      : [match.indices![0]!];
    for (const [start, end] of spans) {
      if (start < last) continue;
      out += text.slice(last, start) + REDACTED;
      last = end;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Builds the redactor of a `daebugRedact` value (already validated with `redactSchema` of src/option-schemas.ts). */
export function makeRedactor(option: RedactOption): Redactor {
  if (option === false) return noRedaction;
  const settings: RedactOptions = option === true ? {} : option;
  const builtIn = settings.builtIn === false ? [] : BUILT_IN_PATTERNS.map(prepare);
  const own = (settings.patterns ?? []).map(prepare);
  if (!builtIn.length && !own.length) return noRedaction;
  const redact = (text: string): string => {
    if (!text) return text;
    let out = text;
    if (builtIn.length && BUILT_IN_HINT.test(text)) for (const pattern of builtIn) out = replaceAll(out, pattern);
    for (const pattern of own) out = replaceAll(out, pattern);
    return out;
  };
  return Object.assign(redact, { secretKey: settings.builtIn === false ? undefined : SECRET_KEY });
}

/** A copy of a JSON-like value with every string redacted (keys stay); the value itself when redaction is off. */
export function redactDeep<T>(value: T, redact: Redactor, depth = 0): T {
  if (redact === noRedaction) return value;
  if (typeof value === 'string') return redact(value) as T;
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (Object.prototype.hasOwnProperty.call(value, key)) out[key] = redactEntry(key, (value as Record<string, unknown>)[key], redact, depth + 1);
  }
  return out as T;
}

/** One field of an object, redacted: a secret key's string or number value goes whole. */
export function redactEntry(key: string, item: unknown, redact: Redactor, depth: number): unknown {
  const secret = (typeof item === 'string' || typeof item === 'number') && isSecretKey(key, redact);
  return secret ? REDACTED : redactDeep(item, redact, depth);
}

// Records repeat the same few keys thousands of times; page data can bring any number of others, hence the bound.
const secretKeys = new Map<string, boolean>();

function isSecretKey(key: string, redact: Redactor): boolean {
  if (!redact.secretKey) return false;
  if (redact.secretKey !== SECRET_KEY) return redact.secretKey.test(key);
  let secret = secretKeys.get(key);
  if (secret === undefined) {
    secret = SECRET_KEY.test(key);
    if (secretKeys.size < 2000) secretKeys.set(key, secret);
  }
  return secret;
}
