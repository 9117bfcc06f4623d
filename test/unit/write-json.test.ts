/** The response writer writes exactly what lossless-json's stringify (toJson) writes, in one native pass. */
import fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';
import { parseJson, toJson } from '../../shared/domain/storable-json.js';
import { writeJson } from '../../shared/http/responses.js';

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

test('the same text as toJson for any value, lossless numbers included', () => {
  fc.assert(
    fc.property(value, (input) => {
      expect(writeJson(input)).toBe(toJson(input));
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
  expect(writeJson(listing)).toBe(toJson(listing));
  expect(writeJson(listing)).toContain('"id":12345678901234567891,"ratio":1e400');
});

test('a string a caller stored can never be taken for a number', () => {
  const sneaky = { name: '\u2063num:abc:0', tool_metadata: { n: new LosslessNumber('1') } };
  expect(writeJson(sneaky)).toBe(toJson(sneaky));
});
