/**
 * The OAuth client libraries integrators use, unchanged, against the local API: openid-client
 * starting from the server's metadata (RFC 8414) as a client normally does, and simple-oauth2
 * with both of its client authentication methods.
 */
import * as oidc from 'openid-client';
import { ClientCredentials } from 'simple-oauth2';
import { listKnaps, startTestApi, type TestApi } from '../support/api.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** openid-client's configuration, found through /.well-known/oauth-authorization-server (plain http locally). */
const discover = (client: { clientId: string; clientSecret: string }, auth = oidc.ClientSecretPost(client.clientSecret)) =>
  oidc.discovery(new URL(api.url), client.clientId, undefined, auth, {
    algorithm: 'oauth2',
    execute: [oidc.allowInsecureRequests],
  });

const statusWith = async (token: string) => (await listKnaps(api.url, token)).status;

describe('openid-client 6, from the authorization server metadata', () => {
  test('discovery (algorithm oauth2) finds every endpoint under the issuer it was asked at', async () => {
    const config = await discover(await api.newClient());
    const metadata = config.serverMetadata();
    expect(metadata).toMatchObject({
      issuer: api.url,
      token_endpoint: `${api.url}/api/oauth/token`,
      revocation_endpoint: `${api.url}/api/oauth/revoke`,
      introspection_endpoint: `${api.url}/api/oauth/introspect`,
      grant_types_supported: expect.arrayContaining(['client_credentials', 'refresh_token']),
      token_endpoint_auth_methods_supported: expect.arrayContaining(['client_secret_post', 'client_secret_basic']),
      response_types_supported: [],
      service_documentation: `${api.url}/api/docs`,
    });
  });

  test.each([
    ['client_secret_post', oidc.ClientSecretPost],
    ['client_secret_basic', oidc.ClientSecretBasic],
  ])('client credentials grant with %s: a token the API takes', async (_method, auth) => {
    const client = await api.newClient();
    const config = await discover(client, auth(client.clientSecret));
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'read:knaps' });
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'read:knaps', expires_in: 3600 });
    expect(tokens.expiresIn()).toBeGreaterThan(3590);
    expect(await statusWith(tokens.access_token)).toBe(200);
  });

  test('refresh grant: a new access token through the refresh token', async () => {
    const config = await discover(await api.newClient());
    const first = await oidc.clientCredentialsGrant(config);
    expect(first.refresh_token).toBeDefined();
    const refreshed = await oidc.refreshTokenGrant(config, first.refresh_token as string);
    expect(refreshed.access_token).not.toBe(first.access_token);
    expect(refreshed.scope).toBe('read:knaps write:knaps');
    expect(await statusWith(refreshed.access_token)).toBe(200);
  });

  test("tokenIntrospection: the client's live tokens are active; another client's and nonsense are not", async () => {
    const client = await api.newClient();
    const config = await discover(client, oidc.ClientSecretBasic(client.clientSecret));
    const tokens = await oidc.clientCredentialsGrant(config);
    const now = Math.floor(api.clock.now().getTime() / 1000);

    const access = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(access).toEqual({
      active: true,
      scope: 'read:knaps write:knaps',
      client_id: client.clientId,
      token_type: 'Bearer',
      exp: expect.any(Number),
      iat: expect.any(Number),
    });
    expect(access.iat).toBe(now);
    expect(access.exp).toBe((access.iat as number) + 3600);
    expect(
      await oidc.tokenIntrospection(config, tokens.refresh_token as string, { token_type_hint: 'refresh_token' }),
    ).toMatchObject({ active: true, client_id: client.clientId });

    const otherConfig = await discover(await api.newClient());
    expect(await oidc.tokenIntrospection(otherConfig, tokens.access_token)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(config, 'knap_at_not-a-token')).toEqual({ active: false });
  });

  test('tokenRevocation: a revoked access token is refused next, and introspects inactive', async () => {
    const config = await discover(await api.newClient());
    const tokens = await oidc.clientCredentialsGrant(config);
    await oidc.tokenRevocation(config, tokens.access_token, { token_type_hint: 'access_token' });
    expect(await statusWith(tokens.access_token)).toBe(401);
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
    // Revoking again, or a token the server never issued, is the same success (RFC 7009).
    await oidc.tokenRevocation(config, tokens.access_token);
    await oidc.tokenRevocation(config, 'knap_at_never-issued');
  });

  test('tokenRevocation of a refresh token ends it and the access tokens issued through it', async () => {
    const config = await discover(await api.newClient());
    const first = await oidc.clientCredentialsGrant(config);
    const refreshToken = first.refresh_token as string;
    const refreshed = await oidc.refreshTokenGrant(config, refreshToken);
    await oidc.tokenRevocation(config, refreshToken, { token_type_hint: 'refresh_token' });
    expect(await statusWith(first.access_token)).toBe(401);
    expect(await statusWith(refreshed.access_token)).toBe(401);
    await expect(oidc.refreshTokenGrant(config, refreshToken)).rejects.toThrow();
  });

  test("tokenRevocation leaves another client's token alone", async () => {
    const owner = await discover(await api.newClient());
    const tokens = await oidc.clientCredentialsGrant(owner);
    await oidc.tokenRevocation(await discover(await api.newClient()), tokens.access_token);
    expect(await statusWith(tokens.access_token)).toBe(200);
    expect(await oidc.tokenIntrospection(owner, tokens.access_token)).toMatchObject({ active: true });
  });

  test('wrong client credentials are refused at introspection and revocation', async () => {
    const client = await api.newClient();
    const tokens = await oidc.clientCredentialsGrant(await discover(client));
    const impostor = await discover({ clientId: client.clientId, clientSecret: 'not-the-secret' });
    await expect(oidc.tokenIntrospection(impostor, tokens.access_token)).rejects.toThrow();
    await expect(oidc.tokenRevocation(impostor, tokens.access_token)).rejects.toThrow();
    expect(await statusWith(tokens.access_token)).toBe(200);
  });
});

describe('simple-oauth2 5', () => {
  const simpleClient = (client: { clientId: string; clientSecret: string }, authorizationMethod: 'body' | 'header') =>
    new ClientCredentials({
      client: { id: client.clientId, secret: client.clientSecret },
      auth: { tokenHost: api.url, tokenPath: '/api/oauth/token', revokePath: '/api/oauth/revoke' },
      options: { authorizationMethod },
    });

  test.each(['body', 'header'] as const)('client credentials and refresh, credentials in the %s', async (method) => {
    const oauth = simpleClient(await api.newClient(), method);
    const token = await oauth.getToken({ scope: 'read:knaps' });
    expect(token.token).toMatchObject({ token_type: 'Bearer', scope: 'read:knaps', expires_in: 3600 });
    expect(token.expired()).toBe(false);
    expect(await statusWith(token.token.access_token as string)).toBe(200);

    const refreshed = await token.refresh();
    expect(refreshed.token.access_token).not.toBe(token.token.access_token);
    expect(refreshed.token.refresh_token).toBe(token.token.refresh_token);
    expect(await statusWith(refreshed.token.access_token as string)).toBe(200);
  });

  test.each(['body', 'header'] as const)('revokeAll with credentials in the %s ends both tokens', async (method) => {
    const oauth = simpleClient(await api.newClient(), method);
    const token = await oauth.getToken({});
    await token.revokeAll();
    expect(await statusWith(token.token.access_token as string)).toBe(401);
    await expect(token.refresh()).rejects.toThrow();
  });
});
