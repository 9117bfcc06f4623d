/**
 * Admin access that holds: only access tokens open the admin API (an ID token is 401 whatever
 * its audience: the local provider's, a Cognito-shaped one, an outside issuer's).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { CONSOLE_CLIENT_ID } from '../../local/oidc/provider.js';
import { type AdminIssuerSettings, AdminTokenError, adminTokenVerifier } from '../../shared/auth/admin-tokens.js';
import { signIn } from '../support/admin-sign-in.js';
import { startTestApi, type TestApi } from '../support/api.js';

let api: TestApi;
let jwks: Server;
let issuerBase: string;
let sign: (header: Record<string, unknown>, claims: Record<string, unknown>) => Promise<string>;

beforeAll(async () => {
  api = await startTestApi({ admins: true });
  // An issuer of our own: its keys on a local JWKS URI, as Cognito's or Okta's would be.
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwks = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  issuerBase = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`;
  sign = (header, claims) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', ...header })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
});
afterAll(async () => {
  jwks?.closeAllConnections();
  await new Promise((resolve) => jwks?.close(resolve));
  await api?.close();
});

const listClients = (token: string) => fetch(`${api.url}/api/admin/clients`, { headers: { authorization: `Bearer ${token}` } });

/** Admin routes verified with `settings` for the length of `work`. */
const withIssuer = async (settings: AdminIssuerSettings, work: () => Promise<void>): Promise<void> => {
  const saved = api.deps.adminTokens;
  api.deps.adminTokens = adminTokenVerifier(settings, () => api.clock.now());
  try {
    await work();
  } finally {
    api.deps.adminTokens = saved;
  }
};

const expectRefusedAsIdToken = async (token: string) => {
  const answer = await listClients(token);
  expect(answer.status).toBe(401);
  expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
  expect(await answer.json()).toEqual({ detail: 'Not an access token: send the access token, not the ID token' });
};

test("the local provider's ID token is 401 on admin routes, also where its audience is the one expected", async () => {
  await api.adminToken('acme', 'ada@acme.example');
  const { tokens } = await signIn(api.url, `${api.url}/console`, 'ada@acme.example', 'correct horse battery staple');
  const { access_token: access, id_token: id } = tokens as { access_token: string; id_token: string };
  expect((await listClients(access)).status).toBe(200);
  const refused = await listClients(id);
  expect(refused.status).toBe(401);
  expect(Object.keys((await refused.json()) as object)).toEqual(['detail']);
  // Even a deployment whose audience is the console's client id (the ID token's `aud`) refuses it.
  const issuer = `${api.url}/oidc`;
  await withIssuer({ issuer, audience: CONSOLE_CLIENT_ID, orgClaim: 'org', jwksUri: `${issuer}/jwks` }, async () => {
    await expectRefusedAsIdToken(id);
  });
});

test('a Cognito-shaped ID token (token_use id, aud the app client) is 401; its access token (token_use access) is not', async () => {
  const issuer = `${issuerBase}/us-east-1_Example`;
  const appClient = '4example0client0id';
  const common = { iss: issuer, sub: 'a1b2', 'cognito:groups': ['acme'], email: 'ada@acme.example' };
  const idToken = await sign({}, { ...common, aud: appClient, token_use: 'id', 'cognito:username': 'ada' });
  const accessToken = await sign({}, { ...common, client_id: appClient, token_use: 'access', username: 'ada' });
  await withIssuer({ issuer, audience: appClient, orgClaim: 'cognito:groups', jwksUri: `${issuerBase}/jwks` }, async () => {
    expect((await listClients(accessToken)).status).toBe(200);
    await expectRefusedAsIdToken(idToken);
    // Relabelled as RFC 9068 access tokens, a token that names its use as "id" still is not one.
    await expectRefusedAsIdToken(await sign({ typ: 'at+jwt' }, { ...common, aud: appClient, token_use: 'id' }));
  });
});

test("an outside issuer's access tokens are those its mark setting names (by default RFC 9068's at+jwt)", async () => {
  const issuer = `${issuerBase}/oauth2/default`;
  const claims = { iss: issuer, sub: 'ada', aud: 'api://knap-admin', org: 'acme', email: 'ada@acme.example' };
  const rfc9068 = await sign({ typ: 'at+jwt' }, claims);
  const oktaAccess = await sign({}, { ...claims, scp: ['admin'], cid: 'console' });
  const idToken = await sign({ typ: 'JWT' }, { ...claims, nonce: 'n', amr: ['pwd'] });
  const settings = { issuer, audience: 'api://knap-admin', orgClaim: 'org', jwksUri: `${issuerBase}/jwks` };
  await withIssuer(settings, async () => {
    expect((await listClients(rfc9068)).status).toBe(200);
    await expectRefusedAsIdToken(oktaAccess);
    await expectRefusedAsIdToken(idToken);
  });
  await withIssuer({ ...settings, accessTokenMark: 'claim:scp' }, async () => {
    expect((await listClients(oktaAccess)).status).toBe(200);
    await expectRefusedAsIdToken(idToken);
  });
  expect(() => adminTokenVerifier({ ...settings, accessTokenMark: 'nonsense' })).toThrow(/ADMIN_ACCESS_TOKEN_MARK/);
  await expect(adminTokenVerifier(settings)(idToken)).rejects.toThrow(AdminTokenError);
});

describe('the per-admin rate limit', () => {
  afterEach(() => {
    api.deps.adminRateLimit = undefined;
  });

  test('120 a minute by default; then 429 {"detail"} with Retry-After until the next minute, other admins unaffected', async () => {
    const ada = await api.adminToken('acme', 'ada@acme.example');
    const bob = await api.adminToken('acme', 'bob@acme.example');
    // The start of a minute on the test's clock: every request below falls in it.
    api.clock.set('2026-11-23T11:00:00Z');
    const answers = await Promise.all(Array.from({ length: 125 }, () => listClients(ada)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(120);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    const refused = answers.find((answer) => answer.status === 429) as Response;
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit-limit')).toBe('120');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(await refused.json()).toEqual({ detail: 'Rate limit exceeded: 120 requests per minute. Retry in 60 s.' });
    expect((await listClients(bob)).status).toBe(200);
    api.clock.set('2026-11-23T11:00:45Z');
    const later = await listClients(ada);
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('15');
    api.clock.set('2026-11-23T11:01:00Z');
    const next = await listClients(ada);
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit-remaining')).toBe('119');
  });

  test('the limit is a setting (ADMIN_RATE_LIMIT), and a refused request changes nothing', async () => {
    const ada = await api.adminToken('acme', 'ada@acme.example');
    api.deps.adminRateLimit = 2;
    api.clock.set('2026-11-23T12:00:00Z');
    expect((await listClients(ada)).status).toBe(200);
    expect((await listClients(ada)).status).toBe(200);
    const create = await fetch(`${api.url}/api/admin/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'refused' }),
    });
    expect(create.status).toBe(429);
    expect(create.headers.get('retry-after')).toBe('60');
    expect((await api.deps.repo.listClientsByOrg('acme')).map((client) => client.name)).not.toContain('refused');
  });
});
