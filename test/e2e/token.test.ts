import * as v from 'valibot';
import { TokenResponseSchema } from '../../shared/schemas/responses.js';
import { regenerateSecret, revokeClient } from '../../shared/services/admin-service.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { basic, getToken, listKnaps, postToken, startTestApi, type TestApi } from '../support/api.js';
import { body as json } from '../support/json.js';

const UNSUPPORTED = "Unsupported grant_type. Use 'client_credentials' or 'refresh_token'.";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const credentials = (client: { clientId: string; clientSecret: string }) => ({
  client_id: client.clientId,
  client_secret: client.clientSecret,
});

describe('POST /api/oauth/token, client_credentials', () => {
  test('client_secret_post: a token set, not cacheable, with the default scopes', async () => {
    const client = await api.newClient();
    const response = await postToken(api.url, { grant_type: 'client_credentials', ...credentials(client) });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read:knaps write:knaps' });
    expect(v.safeParse(TokenResponseSchema, body).issues).toBeUndefined();
    // Sealed: longer than the 43 characters of stored-format tokens, and still URL-safe.
    expect(body.access_token).toMatch(/^knap_at_[A-Za-z0-9_-]{100,500}$/);
    expect(body.refresh_token).toMatch(/^knap_rt_[A-Za-z0-9_-]{100,500}$/);
  });

  test('client_secret_basic works the same, and every grant issues a new access token', async () => {
    const client = await api.newClient();
    const first = await postToken(
      api.url,
      { grant_type: 'client_credentials' },
      { authorization: basic(client.clientId, client.clientSecret) },
    );
    const second = await postToken(
      api.url,
      { grant_type: 'client_credentials' },
      { authorization: basic(client.clientId, client.clientSecret) },
    );
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const [a, b] = [await json(first), await json(second)];
    expect(a.access_token).not.toBe(b.access_token);
    expect((await listKnaps(api.url, a.access_token)).status).toBe(200);
  });

  test('the form may narrow the scope; a scope the client lacks is a 400', async () => {
    const client = await api.newClient();
    const narrowed = await postToken(api.url, { grant_type: 'client_credentials', scope: 'read:knaps', ...credentials(client) });
    expect(narrowed.status).toBe(200);
    expect((await json(narrowed)).scope).toBe('read:knaps');

    const wider = await postToken(api.url, {
      grant_type: 'client_credentials',
      scope: 'read:knaps admin',
      ...credentials(client),
    });
    expect(wider.status).toBe(400);
    expect((await json(wider)).detail).toContain('Invalid scope');
  });

  test('unknown client and wrong secret: the same 401, same text, no rate-limit headers', async () => {
    const client = await api.newClient();
    const wrong = await postToken(api.url, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: 'knap_cs_wrong',
    });
    const unknown = await postToken(api.url, {
      grant_type: 'client_credentials',
      client_id: 'knap_ci_unknown',
      client_secret: 'knap_cs_wrong',
    });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(await json(response)).toEqual({ detail: 'Invalid client credentials' });
      expect(response.headers.get('ratelimit-limit')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    const badBasic = await postToken(
      api.url,
      { grant_type: 'client_credentials' },
      { authorization: basic(client.clientId, 'nope') },
    );
    expect(badBasic.status).toBe(401);
    expect(await json(badBasic)).toEqual({ detail: 'Invalid client credentials' });
  });

  test('a revoked client is told so, but only with the right secret', async () => {
    const client = await api.newClient();
    await revokeClient(api.deps, client.clientId);
    const revoked = await postToken(api.url, { grant_type: 'client_credentials', ...credentials(client) });
    expect(revoked.status).toBe(401);
    expect(await json(revoked)).toEqual({ detail: 'API client has been revoked' });

    const guess = await postToken(api.url, { grant_type: 'client_credentials', client_id: client.clientId, client_secret: 'x' });
    expect(await json(guess)).toEqual({ detail: 'Invalid client credentials' });
  });

  test('every 401 to a client that sent HTTP Basic carries the Basic challenge (RFC 6749 2.3.1); client_secret_post gets none', async () => {
    const client = await api.newClient();
    const revoked = await api.newClient();
    await revokeClient(api.deps, revoked.clientId);
    const viaBasic = (id: string, secret: string, fields: Record<string, string> = { grant_type: 'client_credentials' }) =>
      postToken(api.url, fields, { authorization: basic(id, secret) });
    for (const [response, detail] of [
      [await viaBasic(client.clientId, 'knap_cs_wrong'), 'Invalid client credentials'],
      [await viaBasic('knap_ci_unknown', 'knap_cs_wrong'), 'Invalid client credentials'],
      [await viaBasic('x'.repeat(300), 'knap_cs_wrong'), 'Invalid client credentials'],
      [await viaBasic(revoked.clientId, revoked.clientSecret), 'API client has been revoked'],
      [
        await viaBasic(client.clientId, client.clientSecret, { grant_type: 'refresh_token', refresh_token: 'knap_rt_x' }),
        'Invalid refresh token',
      ],
      [
        await postToken(api.url, { grant_type: 'client_credentials' }, { authorization: 'Basic ***' }),
        'Invalid client credentials',
      ],
    ] as const) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="knap"');
      expect(await json(response)).toEqual({ detail });
    }

    for (const fields of [
      { client_id: client.clientId, client_secret: 'knap_cs_wrong' },
      { client_id: 'knap_ci_unknown', client_secret: 'knap_cs_wrong' },
      { client_id: revoked.clientId, client_secret: revoked.clientSecret },
    ]) {
      const response = await postToken(api.url, { grant_type: 'client_credentials', ...fields });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBeNull();
    }
  });
});

describe('POST /api/oauth/token, bad requests', () => {
  test.each([
    ['missing grant_type', {}],
    ['unknown grant_type', { grant_type: 'password' }],
    ['authorization_code', { grant_type: 'authorization_code' }],
  ])('%s: 400 naming both grants', async (_, fields) => {
    const response = await postToken(api.url, { client_id: 'a', client_secret: 'b', ...fields });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ detail: UNSUPPORTED });
  });

  test.each([
    ['client_id', { grant_type: 'client_credentials', client_secret: 's' }, 'Missing required parameter: client_id'],
    ['client_secret', { grant_type: 'client_credentials', client_id: 'c' }, 'Missing required parameter: client_secret'],
    [
      'refresh_token',
      { grant_type: 'refresh_token', client_id: 'c', client_secret: 's' },
      'Missing required parameter: refresh_token',
    ],
  ])('missing %s: 400', async (_, fields, detail) => {
    const response = await postToken(api.url, fields);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ detail });
  });

  test('a JSON body, a repeated parameter, or two authentication methods: 400 with a detail', async () => {
    const asJson = await fetch(`${api.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    expect(asJson.status).toBe(400);
    expect(await json(asJson)).toEqual({ detail: 'Content-Type must be application/x-www-form-urlencoded' });

    const repeated = await fetch(`${api.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&grant_type=refresh_token',
    });
    expect(repeated.status).toBe(400);
    expect(await json(repeated)).toEqual({ detail: 'Parameter grant_type must be given once' });

    const both = await postToken(
      api.url,
      { grant_type: 'client_credentials', client_secret: 's' },
      { authorization: basic('c', 's') },
    );
    expect(both.status).toBe(400);
    expect((await json(both)).detail).toMatch(/not both/);
  });

  test('a body over the limit is a 413', async () => {
    const response = await postToken(api.url, { grant_type: 'client_credentials', padding: 'x'.repeat(20_000) });
    expect(response.status).toBe(413);
    expect((await json(response)).detail).toMatch(/limit/);
  });
});

describe('POST /api/oauth/token, refresh_token', () => {
  test('a new access token for the same client; the refresh token stays the same', async () => {
    const client = await api.newClient();
    const tokens = await getToken(api.url, client);
    const response = await postToken(api.url, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      ...credentials(client),
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: tokens.refresh_token,
      scope: tokens.scope,
    });
    expect(body.access_token).not.toBe(tokens.access_token);
    expect((await listKnaps(api.url, body.access_token)).status).toBe(200);
  });

  test('basic authentication works for the refresh grant too', async () => {
    const client = await api.newClient();
    const tokens = await getToken(api.url, client);
    const response = await postToken(
      api.url,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      { authorization: basic(client.clientId, client.clientSecret) },
    );
    expect(response.status).toBe(200);
  });

  test("another client's refresh token, an access token, or garbage: 401", async () => {
    const mine = await api.newClient();
    const theirs = await api.newClient();
    const theirTokens = await getToken(api.url, theirs);
    const myTokens = await getToken(api.url, mine);
    for (const refresh of [theirTokens.refresh_token, myTokens.access_token, 'knap_rt_garbage', 'garbage']) {
      const response = await postToken(api.url, { grant_type: 'refresh_token', refresh_token: refresh, ...credentials(mine) });
      expect(response.status).toBe(401);
      expect(await json(response)).toEqual({ detail: 'Invalid refresh token' });
    }
  });

  test('a refresh token cannot be used as an access token', async () => {
    const client = await api.newClient();
    const tokens = await getToken(api.url, client);
    const response = await listKnaps(api.url, tokens.refresh_token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  test('access tokens last 3600 s and refresh tokens 30 days, from issue', async () => {
    const client = await api.newClient();
    const tokens = await getToken(api.url, client);
    api.clock.advance(3599);
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(200);
    api.clock.advance(1);
    const expired = await listKnaps(api.url, tokens.access_token);
    expect(expired.status).toBe(401);
    expect(await json(expired)).toEqual({ detail: 'Access token has expired' });

    api.clock.advance(30 * 24 * 3600 - 3600 - 1);
    const refreshed = await postToken(api.url, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      ...credentials(client),
    });
    expect(refreshed.status).toBe(200);
    api.clock.advance(1);
    const late = await postToken(api.url, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      ...credentials(client),
    });
    expect(late.status).toBe(401);
    expect(await json(late)).toEqual({ detail: 'Refresh token has expired' });
  });
});

describe('regenerate and revoke end every token at once', () => {
  test('regenerate: old secret, access and refresh tokens stop; the new secret works', async () => {
    const client = await api.newClient();
    const tokens = await getToken(api.url, client);
    const { clientSecret: newSecret } = await regenerateSecret(api.deps, client.clientId);

    const access = await listKnaps(api.url, tokens.access_token);
    expect(access.status).toBe(401);
    expect(await json(access)).toEqual({ detail: 'Access token has been invalidated' });
    const refresh = await postToken(api.url, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.clientId,
      client_secret: newSecret,
    });
    expect(refresh.status).toBe(401);
    expect(await json(refresh)).toEqual({ detail: 'Refresh token has been invalidated' });
    const oldSecret = await postToken(api.url, { grant_type: 'client_credentials', ...credentials(client) });
    expect(oldSecret.status).toBe(401);

    const fresh = await getToken(api.url, { clientId: client.clientId, clientSecret: newSecret });
    expect((await listKnaps(api.url, fresh.access_token)).status).toBe(200);
  });

  test('revoke: every token gets 401 API client has been revoked', async () => {
    const client = await api.newClient();
    const tokens = await getToken(api.url, client);
    await revokeClient(api.deps, client.clientId);

    const access = await listKnaps(api.url, tokens.access_token);
    expect(access.status).toBe(401);
    expect(await json(access)).toEqual({ detail: 'API client has been revoked' });
    expect(access.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    const refresh = await postToken(api.url, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      ...credentials(client),
    });
    expect(refresh.status).toBe(401);
    expect(await json(refresh)).toEqual({ detail: 'API client has been revoked' });
  });
});

describe('DynamoDB round trips', () => {
  test('a client_credentials grant: the count, then the grant; an authenticated request: 1 deep before the handler works', async () => {
    const client = await api.newClient();
    await getToken(api.url, client); // opens the rate window for this client

    roundTrips.reset();
    const tokens = await getToken(api.url, client);
    expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, PutItemCommand: 1 });

    roundTrips.reset();
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(200);
    // UpdateItem (client check, metering) beside BatchGetItem (revocations), then one Query per listing.
    expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, BatchGetItemCommand: 1, QueryCommand: 2 });
    expect(roundTrips.depth).toBe(2);
  });
});
