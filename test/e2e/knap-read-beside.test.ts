/**
 * GET, PATCH and DELETE of one Knap read the Knap beside the metering write (one round trip less),
 * and authentication still comes first: whatever that read found, a caller whose token fails
 * gets the same 401 for a Knap that exists and for one that does not.
 */
import { epochSeconds } from '../../shared/domain/clock.js';
import { seal } from '../../shared/domain/sealed-tokens.js';
import { regenerateSecret, revokeClient } from '../../shared/services/admin-service.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi, tokenOperation } from '../support/api.js';
import { body as json } from '../support/json.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const knapUrl = (uuid: string) => `${api.url}/api/studio/knap-tools/${uuid}`;
const get = (token: string, uuid: string) => fetch(knapUrl(uuid), { headers: bearer(token) });
const patch = (token: string, uuid: string, body: unknown = { name: 'Changed' }) =>
  fetch(knapUrl(uuid), {
    method: 'PATCH',
    headers: { ...bearer(token), 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify(body),
  });

const remove = (token: string, uuid: string) => fetch(knapUrl(uuid), { method: 'DELETE', headers: bearer(token) });

const newKnap = async (token: string, body: Record<string, unknown> = {}): Promise<string> => {
  const response = await createKnap(api.url, token, { name: 'Guarded', ...body });
  expect(response.status).toBe(201);
  return (await json(response)).uuid as string;
};

const MISSING = '6f1c0b52-3f0e-4c1a-9a57-6d1f0b0c0999';

/** Status, body and the headers that could tell one refusal from another. */
const answer = async (response: Response) => ({
  status: response.status,
  body: await response.text(),
  challenge: response.headers.get('www-authenticate'),
  etag: response.headers.get('etag'),
  rateLimit: response.headers.get('ratelimit-remaining'),
});

describe('round trips', () => {
  test('GET: one round trip, the Knap read beside the metering write', async () => {
    const client = await api.newClient({ orgName: 'acme', rateLimit: 10_000 });
    const { access_token: token } = await getToken(api.url, client);
    const uuid = await newKnap(token);
    roundTrips.reset();
    const response = await get(token, uuid);
    expect(response.status).toBe(200);
    expect((await json(response)).uuid).toBe(uuid);
    expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, BatchGetItemCommand: 1, GetItemCommand: 1 });
    expect(roundTrips.depth).toBe(1);
  });

  test('PATCH: two round trips, the read beside the metering write, then the write', async () => {
    const client = await api.newClient({ orgName: 'acme', rateLimit: 10_000 });
    const { access_token: token } = await getToken(api.url, client);
    const uuid = await newKnap(token);
    roundTrips.reset();
    const response = await patch(token, uuid);
    expect(response.status).toBe(200);
    expect((await json(response)).name).toBe('Changed');
    expect(roundTrips.byCommand).toEqual({
      UpdateItemCommand: 1,
      BatchGetItemCommand: 1,
      GetItemCommand: 1,
      PutItemCommand: 1,
    });
    expect(roundTrips.depth).toBe(2);
  });

  test('DELETE: the read beside the metering write, the conditional delete, then its quota place back', async () => {
    const client = await api.newClient({ orgName: 'acme', rateLimit: 10_000 });
    const { access_token: token } = await getToken(api.url, client);
    const uuid = await newKnap(token);
    roundTrips.reset();
    expect((await remove(token, uuid)).status).toBe(200);
    expect(roundTrips.byCommand).toEqual({
      UpdateItemCommand: 2,
      BatchGetItemCommand: 1,
      GetItemCommand: 1,
      DeleteItemCommand: 1,
    });
    expect(roundTrips.depth).toBe(3);
    expect((await get(token, uuid)).status).toBe(404);
  });

  test('a client this container has not metered yet: the read waits for authentication (its organization), then it is one deep', async () => {
    const colleague = await api.newClient({ orgName: 'initech', rateLimit: 10_000 });
    const shared = await newKnap((await getToken(api.url, colleague)).access_token, { visibility: 'initech' });
    // A token sealed elsewhere (another container issued it): nothing here has metered this client.
    const client = await api.newClient({ orgName: 'initech', rateLimit: 10_000 });
    const signing = await api.deps.tokenKeys.signingKey();
    const issuedAt = epochSeconds(api.clock.now());
    const sealed = seal(
      {
        clientId: client.clientId,
        generation: 1,
        scope: 'knaps:read knaps:write',
        issuedAt,
        kind: 'access',
        expiresAt: issuedAt + 3600,
        grantId: null,
      },
      signing,
    );
    const token = `knap_at_${sealed.body}`;
    roundTrips.reset();
    expect((await get(token, shared)).status).toBe(200);
    expect(roundTrips.depth).toBe(2);
    roundTrips.reset();
    expect((await get(token, shared)).status).toBe(200);
    expect(roundTrips.depth).toBe(1);
  });

  test('a client refused at its limit: no read beside its metering write for the rest of the window', async () => {
    // The token grant, the create and one GET: the limit.
    const client = await api.newClient({ orgName: 'acme', rateLimit: 3 });
    const { access_token: token } = await getToken(api.url, client);
    const uuid = await newKnap(token);
    expect((await get(token, uuid)).status).toBe(200);
    const reads = async () => {
      roundTrips.reset();
      expect((await get(token, uuid)).status).toBe(429);
      return roundTrips.byCommand.GetItemCommand ?? 0;
    };
    // The first refusal still read the Knap beside (the client was not known to be limited);
    // the next ones do not. (What else a refusal reads depends on the engine: dynalite hands
    // back no item with a failed condition, so the client item is read after it.)
    const first = await reads();
    expect(await reads()).toBe(first - 1);
    expect(await reads()).toBe(first - 1);
  });

  test('a path that is not a UUID reads nothing: 404 after the metering write alone', async () => {
    const client = await api.newClient({ orgName: 'acme', rateLimit: 10_000 });
    const { access_token: token } = await getToken(api.url, client);
    roundTrips.reset();
    expect((await get(token, 'not-a-uuid')).status).toBe(404);
    expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, BatchGetItemCommand: 1 });
  });
});

describe('authentication first: a failed token learns nothing of what exists', () => {
  /**
   * For each way a token fails, after the client was metered here (so the Knap read does go
   * beside the metering write): GET and PATCH of the caller's own Knap, of another
   * organization's and of none at all answer exactly the same 401, and nothing changes.
   */
  const failures: [string, (setup: { client: { clientId: string; clientSecret: string }; token: string }) => Promise<string>][] =
    [
      [
        'an invalid token',
        async () => 'knap_at_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      ],
      ['a token altered after sealing', async ({ token }) => `${token.slice(0, -2)}${token.endsWith('AA') ? 'BA' : 'AA'}`],
      [
        'a revoked token',
        async ({ client, token }) => {
          expect((await tokenOperation(api.url, 'revoke', client, token)).status).toBe(200);
          return token;
        },
      ],
      [
        'a token of a client revoked since',
        async ({ client, token }) => {
          await revokeClient(api.deps, client.clientId);
          return token;
        },
      ],
      [
        'a token from before a regenerated secret',
        async ({ client, token }) => {
          await regenerateSecret(api.deps, client.clientId);
          return token;
        },
      ],
    ];

  test.each(failures)('%s: the same 401 on GET, PATCH and DELETE, whether the Knap exists or not', async (_name, spoil) => {
    const client = await api.newClient({ orgName: 'acme', rateLimit: 10_000 });
    const { access_token: token } = await getToken(api.url, client);
    const mine = await newKnap(token, { visibility: 'acme' });
    const stranger = await api.newClient({ orgName: 'globex', rateLimit: 10_000 });
    const theirs = await newKnap((await getToken(api.url, stranger)).access_token, { visibility: 'public' });
    const before = await json(await get(token, mine));
    const failed = await spoil({ client, token });

    const answers = [];
    for (const uuid of [mine, theirs, MISSING]) {
      roundTrips.reset();
      answers.push(await answer(await get(failed, uuid)));
      answers.push(await answer(await patch(failed, uuid)));
      answers.push(await answer(await remove(failed, uuid)));
      // No write ever follows a failed authentication.
      expect(roundTrips.byCommand.PutItemCommand).toBeUndefined();
      expect(roundTrips.byCommand.DeleteItemCommand).toBeUndefined();
    }
    for (const each of answers) {
      expect(each.status).toBe(401);
      expect(each).toEqual(answers[0]);
    }
    expect(answers[0]?.challenge).toMatch(/^Bearer /);
    expect(answers[0]?.etag).toBeNull();
    const colleague = await api.newClient({ orgName: 'acme', rateLimit: 10_000 });
    // Unchanged; a colleague reads can_toggle_default_active false (the creator's alone).
    expect(await json(await get((await getToken(api.url, colleague)).access_token, mine))).toEqual({
      ...before,
      can_toggle_default_active: false,
    });
  });
});
