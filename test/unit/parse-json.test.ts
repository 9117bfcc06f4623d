/**
 * parseJson (request bodies) reads every text exactly as lossless-json does, though most
 * texts go through one native JSON.parse; storableJsonProblem answers as it did before it
 * bounded a value's size instead of writing its JSON.
 */
import fc from 'fast-check';
import { isLosslessNumber, isSafeNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import { setOwnMember } from '../../shared/domain/own-member.js';
import {
  MAX_DEPTH,
  MAX_METADATA_BYTES,
  parseJson,
  sizeBound,
  storableJsonProblem,
  toJson,
} from '../../shared/domain/storable-json.js';

/** The definition: lossless-json's parse, numbers that fit a double as numbers. */
const lossless = (text: string): unknown =>
  parse(text, null, (digits) => (isSafeNumber(digits) ? Number(digits) : new LosslessNumber(digits)));

/** A value with its lossless numbers as their digits, so that two parses can be compared. */
const plain = (value: unknown): unknown => {
  if (isLosslessNumber(value)) return { digits: (value as LosslessNumber).value, lossless: true };
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) setOwnMember(copy, name, plain(member));
  return copy;
};

/** What a parse gives: its value, or that it threw a SyntaxError. */
const outcome = (read: (text: string) => unknown, text: string): unknown => {
  try {
    return { value: plain(read(text)) };
  } catch (error) {
    return { threw: (error as Error).name };
  }
};

const expectSameAsLossless = (text: string): void => {
  expect(outcome(parseJson, text)).toEqual(outcome(lossless, text));
};

const numberText = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.bigInt().map(String),
  fc.constantFrom(
    '1e400',
    '-1e-400',
    '1.0',
    '1.50',
    '-0',
    '0.1000000000000000055511151231257827',
    '9007199254740993',
    '1E2',
    '2e-7',
  ),
);
const name = fc.oneof(
  fc.constantFrom('a', 'b', '__proto__', 'constructor', 'tool_metadata', 'a"b', 'x\\'),
  fc.string({ maxLength: 4 }),
);

/** JSON texts with repeated names, numbers of every kind, escapes, spaces and deep nesting. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ text: string }>((tie) => ({
  text: fc.oneof(
    { depthSize: 'small' },
    numberText,
    fc.string({ unit: 'binary', maxLength: 6 }).map((text) => JSON.stringify(text)),
    fc.constantFrom('true', 'false', 'null', '"\\u0041\\"\\\\"', '" : "'),
    fc.array(tie('text'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(name, tie('text'), fc.constantFrom('', ' ', '\n\t')), { maxLength: 4 })
      .map((members) => `{${members.map(([key, value, space]) => `${JSON.stringify(key)}${space}:${space}${value}`).join(',')}}`),
  ),
})).text;

test('any JSON text reads as lossless-json reads it, or is refused as it refuses it', () => {
  fc.assert(fc.property(jsonText, expectSameAsLossless), { numRuns: 5000 });
});

test('a text cut or changed anywhere is refused or read as lossless-json does', () => {
  const changed = fc
    .tuple(jsonText, fc.nat(), fc.constantFrom('', '"', '{', '}', ',', ':', '1', '\\', ' ', '\u0001'))
    .map(([text, at, put]) => text.slice(0, at % (text.length + 1)) + put + text.slice((at % (text.length + 1)) + 1));
  fc.assert(fc.property(changed, expectSameAsLossless), { numRuns: 5000 });
});

test.each([
  ['a repeated name with another value', '{"a":1,"a":2}'],
  ['a repeated name with the same value', '{"a":1,"a":1}'],
  ['a repeated name deep inside', '{"m":{"k":[{"x":"1","x":"2"}]}}'],
  ['a repeated name spelled with an escape', '{"a":1,"\\u0061":2}'],
  ['a name that looks like a string with a colon', '{"a":"b\\":","c":1}'],
  ['a 64-bit id', '{"id":12345678901234567890}'],
  ['a number too large for a double', '[1e400]'],
  ['a fraction with more digits than a double holds', '{"f":0.1000000000000000055511151231257827}'],
  ['nesting deeper than the native pass takes', `${'['.repeat(40)}1${']'.repeat(40)}`],
  ['nesting too deep for lossless-json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
  ['a __proto__ member', '{"__proto__":{"x":1},"y":2}'],
  ['an unfinished text', '{"a":'],
  ['two texts', '{} {}'],
])('%s reads as lossless-json reads it', (_what, text) => {
  expectSameAsLossless(text);
});

test('a repeated name with another value is refused; the digits of a 64-bit id are kept', () => {
  expect(() => parseJson('{"a":1,"a":2}')).toThrow(SyntaxError);
  expect(toJson(parseJson('{"id": 12345678901234567890}'))).toBe('{"id":12345678901234567890}');
  const read = parseJson('{"__proto__":{"x":1}}') as Record<string, unknown>;
  expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  expect(Object.keys(read)).toEqual(['__proto__']);
});

const LOSSLESS_MARK = Symbol.for('lossless-json.LosslessNumber');
/** A LosslessNumber without the deprecated `isLosslessNumber` field. */
const withoutField = (): LosslessNumber => {
  const number = new LosslessNumber('12345678901234567890');
  delete (number as { isLosslessNumber?: boolean }).isLosslessNumber;
  return number;
};
/** `leaf` inside `depth` arrays. */
const atDepth = (leaf: unknown, depth: number): unknown => (depth === 0 ? leaf : [atDepth(leaf, depth - 1)]);

test("lossless-json still marks its numbers as storable-json's guard expects", () => {
  expect((new LosslessNumber('1') as unknown as Record<symbol, unknown>)[LOSSLESS_MARK]).toBe(true);
  expect(isLosslessNumber(withoutField())).toBe(true);
  expect(storableJsonProblem(atDepth(withoutField(), MAX_DEPTH), 'tool_metadata')).toBeNull();
  expect(sizeBound(atDepth({ value: '7', [LOSSLESS_MARK]: true }, 3))).toBe(Number.POSITIVE_INFINITY);
});

describe('storableJsonProblem', () => {
  /** What the check answered before it bounded sizes: the depth first, then the size of the JSON written. */
  const answerBefore = (value: unknown, field: string): string | null => {
    const deeper = (at: unknown, path: string, depth: number): string | null => {
      if (depth > MAX_DEPTH) return `${path} is nested too deeply (at most ${MAX_DEPTH} levels)`;
      if (at === null || typeof at !== 'object' || isLosslessNumber(at)) return null;
      for (const [key, child] of Object.entries(at)) {
        const problem = deeper(child, `${path}.${key}`, depth + 1);
        if (problem) return problem;
      }
      return null;
    };
    const problem = deeper(value, field, 0);
    if (problem) return problem;
    return Buffer.byteLength(stringify(value) ?? 'null') > MAX_METADATA_BYTES
      ? `${field} must be at most ${MAX_METADATA_BYTES} bytes of JSON`
      : null;
  };

  const value = fc.letrec((tie) => ({
    any: fc.oneof(
      { depthSize: 'small', maxDepth: MAX_DEPTH + 3 },
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom('\u0001', '"', '\\', '\u{1F600}', '\uD800', 'é'), maxLength: 40 }),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.bigInt().map((digits) => new LosslessNumber(String(digits))),
      fc.array(tie('any'), { maxLength: 4 }),
      fc.dictionary(fc.string({ unit: 'binary', maxLength: 5 }), tie('any'), { maxKeys: 4 }),
    ),
  })).any;

  test('the bound is never below the bytes of the JSON, for any value', () => {
    fc.assert(
      fc.property(value, (input) => {
        const bound = sizeBound(input);
        if (bound >= 0) expect(bound).toBeGreaterThanOrEqual(Buffer.byteLength(toJson(input)));
      }),
      { numRuns: 5000 },
    );
  });

  test('the same answer as before, for any value, deep ones included', () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(storableJsonProblem(input, 'tool_metadata')).toBe(answerBefore(input, 'tool_metadata'));
      }),
      { numRuns: 5000 },
    );
  });

  test.each([
    ['just under the limit in escapes', { s: '\u0001'.repeat((MAX_METADATA_BYTES - 20) / 6) }],
    ['just over it in escapes', { s: '\u0001'.repeat(MAX_METADATA_BYTES / 6 + 1) }],
    ['at the limit in plain characters', { s: 'x'.repeat(MAX_METADATA_BYTES - 8) }],
    ['one byte over it', { s: 'x'.repeat(MAX_METADATA_BYTES - 7) }],
    ['over it in four-byte characters', { s: '\u{1F600}'.repeat(MAX_METADATA_BYTES / 4) }],
    ['over it in many members', Object.fromEntries(Array.from({ length: 30_000 }, (_, n) => [`k${n}`, n]))],
    ['over it in lossless digits', { n: new LosslessNumber('9'.repeat(MAX_METADATA_BYTES)) }],
    ['a look-alike of a lossless number', { n: { isLosslessNumber: true, value: 'x'.repeat(MAX_METADATA_BYTES) } }],
    // lossless-json knows its numbers by a symbol's getter; the field is deprecated.
    ['a lossless number without its field, as deep as allowed', atDepth(withoutField(), MAX_DEPTH)],
    ["an object with lossless-json's mark only, as deep as allowed", atDepth({ value: '7', [LOSSLESS_MARK]: true }, MAX_DEPTH)],
    ['one level too deep', JSON.parse(`${'{"a":'.repeat(MAX_DEPTH + 1)}1${'}'.repeat(MAX_DEPTH + 1)}`)],
    ['as deep as allowed', JSON.parse(`${'{"a":'.repeat(MAX_DEPTH)}1${'}'.repeat(MAX_DEPTH)}`)],
  ])('%s: as before', (_what, input) => {
    expect(storableJsonProblem(input, 'tool_metadata')).toBe(answerBefore(input, 'tool_metadata'));
  });

  test('the limit itself still answers', () => {
    expect(storableJsonProblem({ s: 'x'.repeat(MAX_METADATA_BYTES - 7) }, 'tool_metadata')).toBe(
      `tool_metadata must be at most ${MAX_METADATA_BYTES} bytes of JSON`,
    );
    expect(storableJsonProblem({ s: 'x'.repeat(MAX_METADATA_BYTES - 8) }, 'tool_metadata')).toBeNull();
  });
});
