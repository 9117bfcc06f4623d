/** The contract's "OAuth standards a client library expects": metadata, revocation, introspection. */

import { regenerateSecret, revokeClient } from '../../shared/services/admin-service.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { basic, bearer, form, getToken, listKnaps, postToken, startTestApi, type TestApi } from '../support/api.js';
import { body as json } from '../support/json.js';

let api: TestApi;
let me: { clientId: string; clientSecret: string };
let other: { clientId: string; clientSecret: string };
beforeAll(async () => {
  api = await startTestApi();
  me = await api.newClient({ orgName: 'oauth', rateLimit: 10_000 });
  other = await api.newClient({ orgName: 'oauth', rateLimit: 10_000 });
});
afterAll(() => api.close());

const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form(fields),
  });
const credentials = (client = me) => ({ client_id: client.clientId, client_secret: client.clientSecret });
const revoke = (token: string, client = me) => post('/api/oauth/revoke', { token, ...credentials(client) });
const introspect = (token: string, client = me) => post('/api/oauth/introspect', { token, ...credentials(client) });
const refresh = (refreshToken: string, client = me) =>
  postToken(api.url, { grant_type: 'refresh_token', refresh_token: refreshToken, ...credentials(client) });

describe('GET /.well-known/oauth-authorization-server (RFC 8414)', () => {
  test('public, cacheable, not metered; the issuer is the address it was asked on', async () => {
    const response = await fetch(`${api.url}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toMatch(/public/);
    expect(response.headers.get('ratelimit-limit')).toBeNull();
    const methods = ['client_secret_post', 'client_secret_basic', 'private_key_jwt'];
    const algorithms = ['RS256', 'PS256', 'ES256', 'EdDSA'];
    expect(await json(response)).toEqual({
      issuer: api.url,
      token_endpoint: `${api.url}/api/oauth/token`,
      revocation_endpoint: `${api.url}/api/oauth/revoke`,
      introspection_endpoint: `${api.url}/api/oauth/introspect`,
      grant_types_supported: ['client_credentials', 'refresh_token'],
      token_endpoint_auth_methods_supported: methods,
      revocation_endpoint_auth_methods_supported: methods,
      introspection_endpoint_auth_methods_supported: methods,
      token_endpoint_auth_signing_alg_values_supported: algorithms,
      revocation_endpoint_auth_signing_alg_values_supported: algorithms,
      introspection_endpoint_auth_signing_alg_values_supported: algorithms,
      scopes_supported: ['read:knaps', 'write:knaps'],
      response_types_supported: [],
      service_documentation: `${api.url}/api/docs`,
    });
  });

  test.each([
    ['https', 'https'],
    ['HTTPS', 'https'],
    ['Http', 'http'],
    ['https,http', 'https'],
    [' https , http', 'https'],
    ['javascript', 'http'],
    ['javascript,https', 'http'],
    ['https:', 'http'],
    ['ftp', 'http'],
    ['', 'http'],
  ])('X-Forwarded-Proto %j: the issuer scheme is %s, never anything but http or https', async (proto, scheme) => {
    const response = await fetch(`${api.url}/.well-known/oauth-authorization-server`, {
      headers: { 'x-forwarded-proto': proto },
    });
    const { host } = new URL(api.url);
    const metadata = await json(response);
    expect(metadata.issuer).toBe(`${scheme}://${host}`);
    expect(metadata.token_endpoint).toBe(`${scheme}://${host}/api/oauth/token`);
  });
});

describe('POST /api/oauth/revoke (RFC 7009)', () => {
  test('an access token: 200 with an empty body, no-store, metered; the token is 401 on its next use', async () => {
    const tokens = await getToken(api.url, me);
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(200);
    const response = await revoke(tokens.access_token);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('ratelimit-limit')).toBe('10000');
    const next = await listKnaps(api.url, tokens.access_token);
    expect(next.status).toBe(401);
    expect(next.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // The refresh token of the grant is not revoked with it.
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
  });

  test('a refresh token: it and every access token issued through it end', async () => {
    const tokens = await getToken(api.url, me);
    const refreshed = await json(await refresh(tokens.refresh_token));
    const unrelated = await getToken(api.url, me);
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    expect((await refresh(tokens.refresh_token)).status).toBe(401);
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(401);
    expect((await listKnaps(api.url, refreshed.access_token)).status).toBe(401);
    expect((await listKnaps(api.url, unrelated.access_token)).status).toBe(200);
  });

  test('unknown tokens and anything at all: 200 just the same', async () => {
    for (const token of ['knap_at_unknown', 'knap_rt_unknown', 'garbage', 'x'.repeat(900)]) {
      expect((await revoke(token)).status).toBe(200);
    }
  });

  test("another client's token is left alone", async () => {
    const theirs = await getToken(api.url, other);
    expect((await revoke(theirs.access_token, me)).status).toBe(200);
    expect((await revoke(theirs.refresh_token, me)).status).toBe(200);
    expect((await listKnaps(api.url, theirs.access_token)).status).toBe(200);
    expect((await refresh(theirs.refresh_token, other)).status).toBe(200);
  });

  test('client authentication as at the token endpoint: HTTP Basic works; a wrong secret is 401; no token is 400', async () => {
    const tokens = await getToken(api.url, me);
    const byBasic = await post(
      '/api/oauth/revoke',
      { token: tokens.access_token, token_type_hint: 'access_token' },
      { authorization: basic(me.clientId, me.clientSecret) },
    );
    expect(byBasic.status).toBe(200);
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(401);
    const wrong = await post('/api/oauth/revoke', { token: 'knap_at_x', client_id: me.clientId, client_secret: 'knap_cs_wrong' });
    expect(wrong.status).toBe(401);
    expect(await json(wrong)).toEqual({ detail: 'Invalid client credentials' });
    const missing = await post('/api/oauth/revoke', credentials());
    expect(missing.status).toBe(400);
    expect(await json(missing)).toEqual({ detail: 'Missing required parameter: token' });
  });

  test.each(['/api/oauth/revoke', '/api/oauth/introspect'])(
    '%s: a 401 to a client that sent HTTP Basic carries the Basic challenge; client_secret_post gets none',
    async (path) => {
      const revoked = await api.newClient({ orgName: 'oauth' });
      await revokeClient(api.deps, revoked.clientId);
      for (const [id, secret, detail] of [
        [me.clientId, 'knap_cs_wrong', 'Invalid client credentials'],
        ['knap_ci_unknown', 'knap_cs_wrong', 'Invalid client credentials'],
        [revoked.clientId, revoked.clientSecret, 'API client has been revoked'],
      ] as const) {
        const byBasic = await post(path, { token: 'knap_at_x' }, { authorization: basic(id, secret) });
        expect(byBasic.status).toBe(401);
        expect(byBasic.headers.get('www-authenticate')).toBe('Basic realm="knap"');
        expect(await json(byBasic)).toEqual({ detail });
        const inForm = await post(path, { token: 'knap_at_x', client_id: id, client_secret: secret });
        expect(inForm.status).toBe(401);
        expect(inForm.headers.get('www-authenticate')).toBeNull();
      }
    },
  );
});

describe('POST /api/oauth/introspect (RFC 7662)', () => {
  test('a live access token of the calling client: active, with its scope, client, expiry and issue time', async () => {
    const issuedAt = Math.floor(api.clock.now().getTime() / 1000);
    const tokens = await getToken(api.url, me);
    const response = await introspect(tokens.access_token);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await json(response)).toEqual({
      active: true,
      scope: 'read:knaps write:knaps',
      client_id: me.clientId,
      token_type: 'Bearer',
      exp: issuedAt + 3600,
      iat: issuedAt,
    });
    expect((await json(await introspect(tokens.refresh_token))).active).toBe(true);
  });

  test('exactly {"active": false} for unknown, revoked, expired, invalidated and other clients\' tokens', async () => {
    const tokens = await getToken(api.url, me);
    const theirs = await getToken(api.url, other);
    const revoked = await getToken(api.url, me);
    await revoke(revoked.access_token);
    for (const token of ['knap_at_unknown', 'garbage', theirs.access_token, theirs.refresh_token, revoked.access_token]) {
      expect(await json(await introspect(token))).toEqual({ active: false });
    }
    api.clock.advance(3600);
    expect(await json(await introspect(tokens.access_token))).toEqual({ active: false });
    expect((await json(await introspect(tokens.refresh_token))).active).toBe(true);
    const client = await api.newClient({ orgName: 'oauth', rateLimit: 10_000 });
    const before = await getToken(api.url, client);
    const { clientSecret } = await regenerateSecret(api.deps, client.clientId);
    const regenerated = { clientId: client.clientId, clientSecret };
    expect(await json(await introspect(before.access_token, regenerated))).toEqual({ active: false });
  });

  test('never 401 for the token, only for the client: a wrong secret is 401', async () => {
    const wrong = await post('/api/oauth/introspect', {
      token: 'knap_at_x',
      client_id: me.clientId,
      client_secret: 'knap_cs_wrong',
    });
    expect(wrong.status).toBe(401);
    expect(await json(wrong)).toEqual({ detail: 'Invalid client credentials' });
  });

  test("one round trip deep: the client check beside the token's revocations (and a refresh token's grant)", async () => {
    const tokens = await getToken(api.url, me);
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      roundTrips.reset();
      expect((await introspect(token)).status).toBe(200);
      expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, BatchGetItemCommand: 1 });
      expect(roundTrips.depth).toBe(1);
    }
  });
});

test('a bearer request with a revoked token is refused before it is metered', async () => {
  const tokens = await getToken(api.url, me);
  await revoke(tokens.access_token);
  const response = await fetch(`${api.url}/api/studio/knap-tools`, { headers: bearer(tokens.access_token) });
  expect(response.status).toBe(401);
  expect(response.headers.get('ratelimit-limit')).toBeNull();
});
