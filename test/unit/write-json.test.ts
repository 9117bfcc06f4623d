/**
 * toJson (stored tool_metadata, answers, webhook messages) writes exactly what lossless-json's
 * stringify writes, in one native pass.
 */
import fc from 'fast-check';
import { LosslessNumber, stringify } from 'lossless-json';
import { parseJson, parseStoredJson, toJson } from '../../shared/domain/storable-json.js';

/** The definition: lossless-json's own writer. */
const lossless = (value: unknown): string => stringify(value) ?? 'null';

const losslessNumber = fc
  .oneof(fc.bigInt().map(String), fc.constantFrom('1e400', '-1e-400', '12345678901234567890.5', '0.1'))
  .map((digits) => new LosslessNumber(digits));

const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    losslessNumber,
    fc.array(tie('any'), { maxLength: 5 }),
    fc.dictionary(fc.string(), tie('any'), { maxKeys: 5 }),
  ),
})).any;

test('the same text as lossless-json for any value, lossless numbers included', () => {
  fc.assert(
    fc.property(value, (input) => {
      expect(toJson(input)).toBe(lossless(input));
    }),
    { numRuns: 2000 },
  );
});

test('a listing of Knaps whose tool_metadata holds numbers JavaScript would round', () => {
  const knap = (n: number) => ({
    uuid: `u${n}`,
    name: 'Digest',
    tool_metadata: parseJson(`{"id": 1234567890123456789${n}, "ratio": 1e400, "plain": 7}`),
  });
  const listing = { my_knaps: [knap(1), knap(2)], next_cursor: null };
  expect(toJson(listing)).toBe(lossless(listing));
  expect(toJson(listing)).toContain('"id":12345678901234567891,"ratio":1e400');
});

test('a string a caller stored can never be taken for a number', () => {
  const sneaky = { name: '\u2063num:abc:0', tool_metadata: { n: new LosslessNumber('1') } };
  expect(toJson(sneaky)).toBe(lossless(sneaky));
});

describe('the one native pass, and the replacer only when it is needed', () => {
  /** A value as a request body or a stored tool_metadata reads: through parseJson. */
  const parsed = value.map((input) => parseJson(lossless(input)));

  test('what parseJson read is written with its digits, as lossless-json writes it', () => {
    fc.assert(
      fc.property(parsed, (input) => {
        expect(toJson(input)).toBe(lossless(input));
      }),
      { numRuns: 2000 },
    );
  });

  test('parseStoredJson reads stored JSON text exactly as parseJson does', () => {
    fc.assert(
      fc.property(value, (input) => {
        const text = lossless(input);
        expect(parseStoredJson(text)).toEqual(parseJson(text));
        expect(lossless(parseStoredJson(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  test.each([
    '{"id":1234567890123456789}',
    '{"id":-12345678901234567}',
    '{"f":1234567.123456789012}',
    '{"f":0.1000000000000000055511151231257827}',
    '{"e":1e400}',
    '{"e":-2.5e+400}',
    '[9007199254740993]',
  ])('%s keeps its digits through parseStoredJson and toJson', (text) => {
    expect(toJson(parseStoredJson(text))).toBe(text);
  });

  test('an object that merely looks like a LosslessNumber is written as it is', () => {
    const lookalike = parseJson('{"n":{"isLosslessNumber":true,"value":"5"}}');
    expect(toJson(lookalike)).toBe('{"n":{"isLosslessNumber":true,"value":"5"}}');
  });

  test('a bigint is written with its digits', () => {
    expect(toJson({ n: 12345678901234567890n, s: 'x' })).toBe('{"n":12345678901234567890,"s":"x"}');
  });
});
