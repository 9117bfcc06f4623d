/**
 * The contract's "Over-long or odd client_id values (any length, any characters) are a 401,
 * never a 5xx", at the three endpoints that authenticate a client. DynamoDB refuses a key over
 * 2,048 bytes with an error (Amazon's DynamoDB Local and the real service; dynalite does not),
 * so such ids must be refused before any lookup: `npm run test:dynamodb-local` runs this too.
 */
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { basic, form, startTestApi, type TestApi } from '../support/api.js';
import { body as json } from '../support/json.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const ENDPOINTS = [
  ['token', '/api/oauth/token', { grant_type: 'client_credentials' }],
  ['revoke', '/api/oauth/revoke', { token: 'knap_at_x' }],
  ['introspect', '/api/oauth/introspect', { token: 'knap_at_x' }],
] as const;

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });

/** HTTP Basic with the id and secret exactly as given, not percent-encoded. */
const rawBasic = (id: Buffer | string, secret = 'knap_cs_x') =>
  `Basic ${Buffer.concat([Buffer.from(id), Buffer.from(`:${secret}`)]).toString('base64')}`;

const ODD_IDS: [string, string][] = [
  ['2,100 bytes in 700 characters', '€'.repeat(700)],
  ['2,100 ASCII bytes', 'a'.repeat(2_100)],
  ['4,500 bytes', `knap_ci_${'a'.repeat(4_492)}`],
  ['256 bytes, one past what a sealed token can hold', 'a'.repeat(256)],
  ['NUL', 'knap_ci_\u0000'],
  ['a control character', 'knap_ci_\u0001'],
  ['a line feed', 'knap_ci_\n'],
  ['DEL', 'knap_ci_\u007f'],
  ['a C1 control', 'knap_ci_\u0085'],
  ['an emoji', 'knap_ci_🔑'],
  ['U+FFFD', 'knap_ci_\ufffd'],
  ['a space', 'knap_ci_ x'],
];

/** The unknown client's answer, reached without a DynamoDB call. */
const expectRefusedUpFront = async (response: Response) => {
  expect(response.status).toBe(401);
  expect(await json(response)).toEqual({ detail: 'Invalid client credentials' });
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(roundTrips.byCommand).toEqual({});
};

describe.each(ENDPOINTS)(
  'POST %s: odd and over-long client ids are an unknown client, refused before DynamoDB',
  (_, path, fields) => {
    test.each(ODD_IDS)('in the form: %s', async (_, clientId) => {
      roundTrips.reset();
      await expectRefusedUpFront(await post(path, form({ ...fields, client_id: clientId, client_secret: 'knap_cs_x' })));
    });

    test.each(ODD_IDS)('in HTTP Basic: %s', async (_, clientId) => {
      roundTrips.reset();
      await expectRefusedUpFront(await post(path, form(fields), { authorization: basic(clientId, 'knap_cs_x') }));
    });

    test.each([
      ['a lone surrogate, percent-encoded', rawBasic('knap_ci_%ED%A0%80')],
      ['invalid UTF-8 bytes', rawBasic(Buffer.from([0x6b, 0xed, 0xa0, 0x80]))],
    ])('in HTTP Basic: %s', async (_, authorization) => {
      roundTrips.reset();
      await expectRefusedUpFront(await post(path, form(fields), { authorization }));
    });

    test('invalid UTF-8 percent-encoded in the form: the body is unparseable, a 400 (as for any field)', async () => {
      const response = await post(path, `${form(fields)}&client_id=knap_ci_%ED%A0%80&client_secret=knap_cs_x`);
      expect(response.status).toBe(400);
      expect(await json(response)).toEqual({ detail: 'Request body is not a valid application/x-www-form-urlencoded form' });
    });

    test('255 bytes is still looked up, and is an unknown client', async () => {
      roundTrips.reset();
      const response = await post(path, form({ ...fields, client_id: `knap_ci_${'a'.repeat(247)}`, client_secret: 'knap_cs_x' }));
      expect(response.status).toBe(401);
      expect(await json(response)).toEqual({ detail: 'Invalid client credentials' });
      expect(roundTrips.byCommand.UpdateItemCommand).toBe(1);
    });
  },
);
