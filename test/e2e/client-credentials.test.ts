/**
 * Credentials without downtime: secret rotation with overlap (two live secrets, retire the
 * old), and private_key_jwt client authentication (RFC 7523) with registered public keys;
 * each attacked as the contract lists, and used by real client libraries unchanged.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { runAdmin } from '../../local/admin-cli.js';
import { CLIENT_ASSERTION_TYPE } from '../../shared/domain/client-keys.js';
import { key } from '../../shared/store/keys.js';
import { form, getToken, listKnaps, postToken, refreshGrant, startTestApi, type TestApi } from '../support/api.js';
import { type Body, body as json } from '../support/json.js';

let api: TestApi;
let acme: string;

beforeAll(async () => {
  api = await startTestApi({ admins: true });
  acme = await api.adminToken('acme', 'ada@acme.example');
});
afterAll(() => api?.close());

const admin = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${acme}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Body };
};

const newClient = async (name = 'Rotating') => {
  const created = await admin('POST', '/api/admin/clients', { name, rate_limit: 10_000 });
  expect(created.status).toBe(201);
  return { clientId: created.body.client_id as string, clientSecret: created.body.client_secret as string };
};

const grantStatus = async (clientId: string, clientSecret: string) =>
  (await postToken(api.url, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })).status;

/** Every member name anywhere in a JSON value. */
const memberNames = (value: unknown): string[] =>
  value === null || typeof value !== 'object'
    ? []
    : Array.isArray(value)
      ? value.flatMap(memberNames)
      : Object.entries(value).flatMap(([name, inner]) => [name, ...memberNames(inner)]);

describe('secret rotation with overlap', () => {
  test('add a second secret (shown once), both work, retire the old: refused at once; its tokens live, refresh needs a live secret', async () => {
    const client = await newClient();
    const oldTokens = await getToken(api.url, client);
    const added = await admin('POST', `/api/admin/clients/${client.clientId}/secrets`, { expires_in_days: 30 });
    expect(added.status).toBe(201);
    expect(Object.keys(added.body).sort()).toEqual(['client_secret', 'created_at', 'expires_at', 'secret_id']);
    expect(added.body.client_secret).toMatch(/^knap_cs_/);
    expect(added.body.expires_at).toBe('2026-12-23T10:00:05Z');
    const fresh = added.body.client_secret as string;
    api.clock.advance(60);
    expect(await grantStatus(client.clientId, fresh)).toBe(200);
    expect(await grantStatus(client.clientId, client.clientSecret)).toBe(200);

    const one = await admin('GET', `/api/admin/clients/${client.clientId}`);
    expect(one.status).toBe(200);
    expect(one.body.secrets).toHaveLength(2);
    const secrets = one.body.secrets as Record<string, string | null>[];
    const newSecret = secrets.find((secret) => secret.secret_id === added.body.secret_id);
    const oldSecret = secrets.find((secret) => secret.secret_id !== added.body.secret_id);
    expect(Object.keys(oldSecret ?? {}).sort()).toEqual(['created_at', 'expires_at', 'last_used_at', 'secret_id']);
    expect(newSecret).toMatchObject({ secret_id: added.body.secret_id, last_used_at: '2026-11-23T10:01:05Z' });
    expect(oldSecret?.last_used_at).toBe('2026-11-23T10:01:05Z');
    expect(JSON.stringify(one.body)).not.toContain(fresh);
    expect(JSON.stringify(one.body)).not.toContain(client.clientSecret);
    const listing = await admin('GET', '/api/admin/clients');
    expect(memberNames(listing.body).filter((name) => /secret|hash/i.test(name))).toEqual([]);

    // A third live secret is refused.
    expect((await admin('POST', `/api/admin/clients/${client.clientId}/secrets`)).status).toBe(409);

    const removed = await fetch(`${api.url}/api/admin/clients/${client.clientId}/secrets/${oldSecret?.secret_id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${acme}` },
    });
    expect(removed.status).toBe(204);
    const refused = await postToken(api.url, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(refused.status).toBe(401);
    expect(await json(refused)).toEqual({ detail: 'Invalid client credentials' });
    // Tokens issued with the retired secret live until they expire ...
    expect((await listKnaps(api.url, oldTokens.access_token)).status).toBe(200);
    // ... but a refresh needs a live secret.
    expect((await refreshGrant(api.url, client, oldTokens.refresh_token)).status).toBe(401);
    expect(
      (await refreshGrant(api.url, { clientId: client.clientId, clientSecret: fresh }, oldTokens.refresh_token)).status,
    ).toBe(200);
    // The last live secret stays.
    const last = await fetch(`${api.url}/api/admin/clients/${client.clientId}/secrets/${added.body.secret_id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${acme}` },
    });
    expect(last.status).toBe(409);

    const audit = (await admin('GET', '/api/admin/audit-events?limit=100')).body.events as {
      action: string;
      target: { id: string };
    }[];
    expect(audit.filter((event) => event.target.id === client.clientId).map((event) => event.action)).toEqual([
      'client.remove_secret',
      'client.add_secret',
      'client.create',
    ]);
  });

  test('regenerate during an overlap replaces both secrets with one and ends every token', async () => {
    const client = await newClient();
    const tokens = await getToken(api.url, client);
    const added = await admin('POST', `/api/admin/clients/${client.clientId}/secrets`);
    const regenerated = await admin('POST', `/api/admin/clients/${client.clientId}/secret`);
    expect(regenerated.status).toBe(200);
    expect(await grantStatus(client.clientId, client.clientSecret)).toBe(401);
    expect(await grantStatus(client.clientId, added.body.client_secret)).toBe(401);
    expect(await grantStatus(client.clientId, regenerated.body.client_secret)).toBe(200);
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(401);
    expect((await admin('GET', `/api/admin/clients/${client.clientId}`)).body.secrets).toHaveLength(1);
  });

  test('an expired secret is refused and costs no quota; it makes room for a new one', async () => {
    const client = await newClient();
    const added = await admin('POST', `/api/admin/clients/${client.clientId}/secrets`, { expires_in_days: 1 });
    expect(await grantStatus(client.clientId, added.body.client_secret)).toBe(200);
    api.clock.advance(86_400);
    const before = (await api.table.item(key.client(client.clientId)))?.rl_count;
    expect(await grantStatus(client.clientId, added.body.client_secret)).toBe(401);
    expect((await api.table.item(key.client(client.clientId)))?.rl_count).toBe(before);
    expect((await admin('POST', `/api/admin/clients/${client.clientId}/secrets`)).status).toBe(201);
    expect((await admin('GET', `/api/admin/clients/${client.clientId}`)).body.secrets).toHaveLength(2);
    for (const body of [{ expires_in_days: 0 }, { expires_in_days: 1.5 }, { other: 1 }]) {
      expect((await admin('POST', `/api/admin/clients/${client.clientId}/secrets`, body)).status).toBe(400);
    }
  });

  test('a client stored with one secret_hash (earlier versions) authenticates, and its secret moves into the map', async () => {
    const client = await newClient('Legacy');
    const item = (await api.table.item(key.client(client.clientId))) as Record<string, unknown>;
    const { client_secrets: secrets, ...rest } = item;
    const hash = Object.values(secrets as Record<string, { secret_hash: string }>)[0]?.secret_hash;
    await api.table.documents.send(new PutCommand({ TableName: api.table.tableName, Item: { ...rest, secret_hash: hash } }));
    expect((await admin('GET', `/api/admin/clients/${client.clientId}`)).body.secrets).toHaveLength(1);
    expect(await grantStatus(client.clientId, 'knap_cs_wrong')).toBe(401);
    expect(await grantStatus(client.clientId, client.clientSecret)).toBe(200);
    const after = (await api.table.item(key.client(client.clientId))) as Record<string, unknown>;
    expect(after.secret_hash).toBeUndefined();
    expect(Object.keys(after.client_secrets as object)).toHaveLength(1);
    expect(await grantStatus(client.clientId, client.clientSecret)).toBe(200);
    expect((await admin('POST', `/api/admin/clients/${client.clientId}/secrets`)).status).toBe(201);
  });

  test('oauth4webapi authenticates with a rotated secret unchanged', async () => {
    const client = await newClient();
    const added = await admin('POST', `/api/admin/clients/${client.clientId}/secrets`);
    const as = await oauth.processDiscoveryResponse(
      new URL(api.url),
      await oauth.discoveryRequest(new URL(api.url), { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }),
    );
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      { client_id: client.clientId },
      oauth.ClientSecretPost(added.body.client_secret),
      new URLSearchParams({ scope: 'read:knaps' }),
      { [oauth.allowInsecureRequests]: true },
    );
    const tokens = await oauth.processClientCredentialsResponse(as, { client_id: client.clientId }, response);
    expect(tokens.scope).toBe('read:knaps');
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(200);
  });
});

describe('private_key_jwt', () => {
  const keys = async (alg: 'ES256' | 'EdDSA' | 'RS256' | 'PS256') => {
    const pair = await generateKeyPair(alg, { extractable: true });
    return { ...pair, publicJwk: { ...(await exportJWK(pair.publicKey)), kid: randomUUID() } as JWK, alg };
  };

  const assertion = (
    signer: { privateKey: Parameters<SignJWT['sign']>[0]; alg: string; publicJwk: JWK },
    claims: Record<string, unknown>,
    header: Record<string, unknown> = {},
  ) => {
    const now = Math.floor(api.clock.now().getTime() / 1000);
    return new SignJWT({ jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: signer.alg, kid: signer.publicJwk.kid, ...header })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(signer.privateKey);
  };

  const withAssertion = (jwt: string, fields: Record<string, string> = {}) =>
    postToken(api.url, {
      grant_type: 'client_credentials',
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: jwt,
      ...fields,
    });

  const claimsFor = (clientId: string) => ({ iss: clientId, sub: clientId, aud: `${api.url}/api/oauth/token` });

  test('registration: public keys only, at most 5, RSA 2048+, P-256, Ed25519; shown on the client; audited', async () => {
    const client = await newClient('Keys');
    const ec = await keys('ES256');
    const ed = await keys('EdDSA');
    const rsa = await keys('RS256');
    const put = (body: unknown) => admin('PUT', `/api/admin/clients/${client.clientId}/jwks`, body);
    const ok = await put({ keys: [ec.publicJwk, ed.publicJwk, rsa.publicJwk] });
    expect(ok.status).toBe(200);
    expect((await admin('GET', `/api/admin/clients/${client.clientId}`)).body.jwks.keys).toHaveLength(3);

    const privateJwk = await exportJWK(ec.privateKey);
    const refused = await put({ keys: [privateJwk] });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/private member "d"/);
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    const tooSmall = await put({ keys: [small] });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.detail).toMatch(/1024 bits/);
    expect((await put({ keys: Array.from({ length: 6 }, () => ec.publicJwk) })).status).toBe(400);
    expect((await put({ keys: [{ kty: 'oct', k: 'c2VjcmV0' }] })).status).toBe(400);
    expect((await put({ keys: [{ kty: 'EC', crv: 'P-384', x: 'AA', y: 'AA' }] })).status).toBe(400);
    // Still the three registered before.
    expect((await admin('GET', `/api/admin/clients/${client.clientId}`)).body.jwks.keys).toHaveLength(3);
    const metadata = await json(await fetch(`${api.url}/.well-known/oauth-authorization-server`));
    for (const endpoint of ['token', 'revocation', 'introspection']) {
      expect(metadata[`${endpoint}_endpoint_auth_methods_supported`]).toContain('private_key_jwt');
      expect(metadata[`${endpoint}_endpoint_auth_signing_alg_values_supported`]).toEqual(['RS256', 'PS256', 'ES256', 'EdDSA']);
    }
  });

  test('each algorithm authenticates at the token, introspection and revocation endpoints; the aud may be the issuer', async () => {
    const client = await newClient('Signer');
    const signers = [await keys('ES256'), await keys('EdDSA'), await keys('RS256'), await keys('PS256')];
    expect(
      (await admin('PUT', `/api/admin/clients/${client.clientId}/jwks`, { keys: signers.map((s) => s.publicJwk) })).status,
    ).toBe(200);
    for (const signer of signers) {
      const response = await withAssertion(await assertion(signer, claimsFor(client.clientId)));
      expect([signer.alg, response.status]).toEqual([signer.alg, 200]);
    }
    const issuerAud = await withAssertion(await assertion(signers[0]!, { ...claimsFor(client.clientId), aud: api.url }));
    expect(issuerAud.status).toBe(200);
    const tokens = (await json(issuerAud)) as { access_token: string };
    const operate = async (path: 'introspect' | 'revoke') =>
      fetch(`${api.url}/api/oauth/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form({
          token: tokens.access_token,
          client_id: client.clientId,
          client_assertion_type: CLIENT_ASSERTION_TYPE,
          client_assertion: await assertion(signers[1]!, { ...claimsFor(client.clientId), aud: `${api.url}/api/oauth/${path}` }),
        }),
      });
    expect(await json(await operate('introspect'))).toMatchObject({ active: true, client_id: client.clientId });
    expect((await operate('revoke')).status).toBe(200);
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(401);
  });

  test('attacks: replay, wrong aud, expired, too long, future iat, unregistered key, another client, alg none, HS256 with the public key', async () => {
    const victim = await newClient('Victim');
    const other = await newClient('Other');
    const signer = await keys('RS256');
    const otherSigner = await keys('ES256');
    const stranger = await keys('ES256');
    await admin('PUT', `/api/admin/clients/${victim.clientId}/jwks`, { keys: [signer.publicJwk] });
    await admin('PUT', `/api/admin/clients/${other.clientId}/jwks`, { keys: [otherSigner.publicJwk] });
    const claims = claimsFor(victim.clientId);
    const now = Math.floor(api.clock.now().getTime() / 1000);

    const replayed = await assertion(signer, claims);
    expect((await withAssertion(replayed)).status).toBe(200);
    const afterFirst = (await api.table.item(key.client(victim.clientId)))?.rl_count;

    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${b64({ alg: 'none' })}.${b64({ ...claims, jti: randomUUID(), exp: now + 60 })}.`;
    const publicPem = new TextEncoder().encode(JSON.stringify(signer.publicJwk));
    const hs256 = await new SignJWT({ ...claims, jti: randomUUID() })
      .setProtectedHeader({ alg: 'HS256', kid: signer.publicJwk.kid })
      .setExpirationTime(now + 60)
      .sign(publicPem);
    const attacks: [string, string, Record<string, string>?][] = [
      ['replayed jti', replayed],
      ['wrong aud', await assertion(signer, { ...claims, aud: 'https://elsewhere.example/token' })],
      [
        'expired',
        await assertion(signer, claims).then(() =>
          new SignJWT({ ...claims, jti: randomUUID() })
            .setProtectedHeader({ alg: 'RS256', kid: signer.publicJwk.kid })
            .setIssuedAt(now - 600)
            .setExpirationTime(now - 120)
            .sign(signer.privateKey),
        ),
      ],
      [
        'exp over 5 minutes ahead',
        await new SignJWT({ ...claims, jti: randomUUID() })
          .setProtectedHeader({ alg: 'RS256', kid: signer.publicJwk.kid })
          .setExpirationTime(now + 3600)
          .sign(signer.privateKey),
      ],
      [
        'future iat',
        await new SignJWT({ ...claims, jti: randomUUID() })
          .setProtectedHeader({ alg: 'RS256', kid: signer.publicJwk.kid })
          .setIssuedAt(now + 120)
          .setExpirationTime(now + 180)
          .sign(signer.privateKey),
      ],
      [
        'no jti',
        await new SignJWT({ ...claims })
          .setProtectedHeader({ alg: 'RS256', kid: signer.publicJwk.kid })
          .setExpirationTime(now + 60)
          .sign(signer.privateKey),
      ],
      ['unregistered key', await assertion(stranger, claims)],
      [
        "another client's iss, its own key",
        await assertion(otherSigner, claimsFor(other.clientId)),
        { client_id: victim.clientId },
      ],
      ["another client's iss, the victim's key", await assertion(signer, claimsFor(other.clientId))],
      ['sub of another client', await assertion(signer, { ...claims, sub: other.clientId })],
      ['alg none', unsigned],
      ['HS256 keyed with the public key', hs256],
    ];
    for (const [name, jwt, fields] of attacks) {
      const response = await withAssertion(jwt, fields);
      expect([name, response.status, await json(response)]).toEqual([name, 401, { detail: 'Invalid client credentials' }]);
    }
    // None of them cost the victim's quota (the replay's count was handed back).
    expect((await api.table.item(key.client(victim.clientId)))?.rl_count).toBe(afterFirst);
    // An assertion together with a secret is a 400.
    const both = await withAssertion(await assertion(signer, claims), { client_secret: victim.clientSecret });
    expect(both.status).toBe(400);
  });

  test("openid-client's PrivateKeyJwt authenticates unchanged (grant, refresh, introspection)", async () => {
    // openid-client signs with the real clock.
    api.clock.set(new Date());
    const client = await newClient('openid-client');
    const signer = await keys('ES256');
    await admin('PUT', `/api/admin/clients/${client.clientId}/jwks`, { keys: [signer.publicJwk] });
    const config = await oidc.discovery(
      new URL(api.url),
      client.clientId,
      undefined,
      oidc.PrivateKeyJwt({ key: signer.privateKey, kid: signer.publicJwk.kid }),
      { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
    );
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'read:knaps' });
    expect(tokens.scope).toBe('read:knaps');
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(200);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect((await listKnaps(api.url, refreshed.access_token)).status).toBe(200);
    expect(await oidc.tokenIntrospection(config, refreshed.access_token)).toMatchObject({ active: true });
  });
});

describe('the CLI', () => {
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runAdmin(argv, () => api.deps, { out: (line) => out.push(line), err: (line) => err.push(line) });
    return { status, out: out.join('\n'), err: err.join('\n') };
  };

  test('create-client --scopes, set-scopes, add-secret, remove-secret, set-jwks', async () => {
    const created = await cli('create-client', '--org', 'acme', '--name', 'cli', '--scopes', 'knaps:read', '--json');
    expect(created.status).toBe(0);
    const client = JSON.parse(created.out) as { client_id: string; client_secret: string; scopes: string };
    expect(client.scopes).toBe('read:knaps');
    expect((await cli('set-scopes', client.client_id, '--scopes', 'read:knaps,write:knaps')).status).toBe(0);
    expect((await cli('set-scopes', client.client_id, '--scopes', 'admin')).status).toBe(2);

    const added = await cli('add-secret', client.client_id, '--expires-in-days', '7', '--json');
    expect(added.status).toBe(0);
    const secret = JSON.parse(added.out) as { secret_id: string; client_secret: string; expires_at: string };
    expect(await grantStatus(client.client_id, secret.client_secret)).toBe(200);
    expect((await cli('add-secret', client.client_id)).status).toBe(2);
    const old = (await api.deps.repo.getClient(client.client_id))?.secrets.find((s) => s.secretId !== secret.secret_id);
    expect((await cli('remove-secret', client.client_id, old?.secretId ?? '')).status).toBe(0);
    expect(await grantStatus(client.client_id, client.client_secret)).toBe(401);

    const { publicKey } = await generateKeyPair('EdDSA', { extractable: true });
    const file = join(mkdtempSync(join(tmpdir(), 'jwks-')), 'jwks.json');
    writeFileSync(file, JSON.stringify({ keys: [await exportJWK(publicKey)] }));
    expect((await cli('set-jwks', client.client_id, '--jwks', file)).status).toBe(0);
    expect((await api.deps.repo.getClientJwks(client.client_id))?.keys).toHaveLength(1);
    writeFileSync(file, JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'AA', d: 'AA' }] }));
    const refused = await cli('set-jwks', client.client_id, '--jwks', file);
    expect(refused.status).toBe(2);
    expect(refused.err).toMatch(/private member "d"/);
  });
});
