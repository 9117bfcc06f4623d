/**
 * Sealed tokens (shared/domain/sealed-tokens.ts): what they cost in round trips, that a
 * forged one costs nothing and nobody, that revocation still bites on the next request, and
 * that tokens of the stored format issued by earlier versions keep working until they expire.
 */
import { routes as ROUTES } from '../../functions/routes.js';
import { staticKeyring } from '../../shared/domain/sealed-tokens.js';
import { issueStoredToken, readToken } from '../../shared/domain/tokens.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { key } from '../../shared/store/keys.js';
import {
  bearer,
  type ClientCredentials,
  getToken,
  listKnaps,
  refreshGrant as refreshWith,
  startTestApi,
  type TestApi,
  type TokenSet,
  tokenOperation,
} from '../support/api.js';
import { TEST_TOKEN_KEY } from '../support/token-keys.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const clientItem = async (clientId: string) => (await api.table.item(key.client(clientId))) ?? {};

const oauth = (path: 'revoke' | 'introspect', client: ClientCredentials, token: string) =>
  tokenOperation(api.url, path, client, token);

const refreshGrant = (client: ClientCredentials, refreshToken: string) => refreshWith(api.url, client, refreshToken);

/** Flips one character of the sealed part, keeping the token URL-safe. */
const tamper = (token: string, at: number): string => {
  const index = token.length - at;
  const swapped = token[index] === 'A' ? 'B' : 'A';
  return token.slice(0, index) + swapped + token.slice(index + 1);
};

/**
 * A request per bearer route that the handler refuses on its own input, before any I/O of
 * its own: what it costs is the authentication alone.
 */
const REFUSED_BY_THE_HANDLER: Record<string, { path: string; body?: string }> = {
  'create-knap': { path: '/api/studio/knap-tools', body: '{}' },
  'list-knaps': { path: '/api/studio/knap-tools?limit=0' },
  'get-knap': { path: '/api/studio/knap-tools/not-a-uuid' },
  'update-knap': { path: '/api/studio/knap-tools/not-a-uuid', body: '{}' },
  'put-knap': { path: '/api/studio/knap-tools/not-a-uuid', body: '{}' },
  'delete-knap': { path: '/api/studio/knap-tools/not-a-uuid' },
  'start-run': { path: '/api/studio/knap-tools/not-a-uuid/runs', body: '{}' },
  'list-runs': { path: '/api/studio/knap-tools/not-a-uuid/runs' },
  'report-meeting': { path: '/api/studio/meeting-transcriptions', body: '{}' },
  'preview-schedule': { path: '/api/studio/schedules/preview', body: '{}' },
  'get-run': { path: '/api/studio/runs/not-a-run' },
  'list-run-events': { path: '/api/studio/runs/not-a-run/events' },
};
const PUBLIC_OR_CLIENT_AUTHENTICATED = [
  'token',
  'revoke-token',
  'introspect-token',
  'oauth-metadata',
  'openapi',
  'docs',
  'docs-asset',
  'console',
  // A run's executor reports with the run's report token (test/e2e/run-reports.test.ts).
  'report-run-event',
  // Organization admins' routes take an admin's JWT, never an API token (test/e2e/admin-api.test.ts).
  ...ROUTES.filter((route) => route.path.startsWith('/api/admin/')).map((route) => route.id),
];

describe('round trips', () => {
  test('the table lists every bearer route', () => {
    const bearerRoutes = ROUTES.map((route) => route.id).filter((id) => !PUBLIC_OR_CLIENT_AUTHENTICATED.includes(id));
    expect(Object.keys(REFUSED_BY_THE_HANDLER).sort()).toEqual(bearerRoutes.sort());
  });

  test.each(Object.entries(REFUSED_BY_THE_HANDLER))(
    '%s: one conditional write before the handler, nothing for a forged token',
    async (id, request) => {
      const route = ROUTES.find((candidate) => candidate.id === id)!;
      const client = await api.newClient({ rateLimit: 1000 });
      const { access_token: token } = await getToken(api.url, client);
      const send = (bearerToken: string) =>
        fetch(api.url + request.path, {
          method: route.method,
          headers: { ...bearer(bearerToken), ...(request.body ? { 'content-type': 'application/json' } : {}) },
          body: request.body,
        });

      roundTrips.reset();
      const refused = await send(token);
      expect([400, 404, 422]).toContain(refused.status);
      // The metering write and the token's revocations, side by side: one round trip deep.
      expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, BatchGetItemCommand: 1 });
      expect(roundTrips.depth).toBe(1);

      roundTrips.reset();
      const forged = await send(tamper(token, 5));
      expect(forged.status).toBe(401);
      expect(await forged.json()).toEqual({ detail: 'Invalid access token' });
      expect(roundTrips.total).toBe(0);
    },
  );

  test('a client_credentials grant writes two items (the client count, then the grant) and stores no token', async () => {
    const client = await api.newClient();
    roundTrips.reset();
    const tokens = await getToken(api.url, client);
    expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, PutItemCommand: 1 });
    expect(roundTrips.depth).toBe(2);
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      const presented = await readToken(token, token.startsWith('knap_at_') ? 'access' : 'refresh', api.deps.tokenKeys);
      expect(presented.format).toBe('sealed');
    }
  });

  test('a refresh grant: the client check and the grant read side by side, nothing written but the count', async () => {
    const client = await api.newClient();
    const tokens = await getToken(api.url, client);
    roundTrips.reset();
    expect((await refreshGrant(client, tokens.refresh_token)).status).toBe(200);
    expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, BatchGetItemCommand: 1 });
    expect(roundTrips.depth).toBe(1);
  });
});

describe('forged and altered tokens', () => {
  test('never count against the client they name, and never reach the table', async () => {
    const client = await api.newClient({ rateLimit: 5 });
    const { access_token: token } = await getToken(api.url, client);
    const before = (await listKnaps(api.url, token)).headers.get('ratelimit-remaining');
    roundTrips.reset();
    for (let at = 1; at < token.length - 'knap_at_'.length; at += 7) {
      const response = await listKnaps(api.url, tamper(token, at));
      expect(response.status).toBe(401);
    }
    expect(roundTrips.total).toBe(0);
    const after = await listKnaps(api.url, token);
    expect(Number(after.headers.get('ratelimit-remaining'))).toBe(Number(before) - 1);
  });

  test('a token sealed under a key the deployment does not hold is refused with no I/O', async () => {
    const client = await api.newClient();
    const { access_token: genuine } = await getToken(api.url, client);
    const otherKeys = staticKeyring([Buffer.from('another-deployment-key-0123456789abcdef0123', 'utf8')]);
    const presented = await readToken(genuine, 'access', api.deps.tokenKeys);
    if (presented.format !== 'sealed') throw new Error('expected a sealed token');
    const { issueSealedToken } = await import('../../shared/domain/tokens.js');
    const foreign = await issueSealedToken('access', presented.claims, presented.claims.scope, null, api.clock, otherKeys);
    roundTrips.reset();
    expect((await listKnaps(api.url, foreign.token)).status).toBe(401);
    expect(roundTrips.total).toBe(0);
  });

  test('an expired sealed token is refused with no I/O', async () => {
    const client = await api.newClient();
    const { access_token: token } = await getToken(api.url, client);
    api.clock.advance(3600);
    roundTrips.reset();
    const response = await listKnaps(api.url, token);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'Access token has expired' });
    expect(roundTrips.total).toBe(0);
  });

  test('an access token is never a refresh token, nor the other way round', async () => {
    const client = await api.newClient();
    const tokens = await getToken(api.url, client);
    expect((await listKnaps(api.url, tokens.refresh_token)).status).toBe(401);
    const swapped = await refreshGrant(client, tokens.access_token);
    expect(swapped.status).toBe(401);
    expect(await swapped.json()).toEqual({ detail: 'Invalid refresh token' });
  });
});

describe('revocation bites on the next request', () => {
  test('a revoked access token is 401, does not count, and its sibling tokens live on', async () => {
    const client = await api.newClient({ rateLimit: 50 });
    const tokens = await getToken(api.url, client);
    const sibling = (await (await refreshGrant(client, tokens.refresh_token)).json()) as TokenSet;
    expect((await oauth('revoke', client, tokens.access_token)).status).toBe(200);
    const remaining = Number((await listKnaps(api.url, sibling.access_token)).headers.get('ratelimit-remaining'));
    const revoked = await listKnaps(api.url, tokens.access_token);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ detail: 'Invalid access token' });
    const next = await listKnaps(api.url, sibling.access_token);
    expect(next.status).toBe(200);
    expect(Number(next.headers.get('ratelimit-remaining'))).toBe(remaining - 1);
  });

  test('revoking a refresh token ends it and every access token of its grant, not other grants', async () => {
    const client = await api.newClient();
    const grant = await getToken(api.url, client);
    const other = await getToken(api.url, client);
    const through = (await (await refreshGrant(client, grant.refresh_token)).json()) as TokenSet;
    expect((await oauth('revoke', client, grant.refresh_token)).status).toBe(200);
    expect((await listKnaps(api.url, grant.access_token)).status).toBe(401);
    expect((await listKnaps(api.url, through.access_token)).status).toBe(401);
    const refreshed = await refreshGrant(client, grant.refresh_token);
    expect(refreshed.status).toBe(401);
    expect(await refreshed.json()).toEqual({ detail: 'Invalid refresh token' });
    expect(await (await oauth('introspect', client, grant.refresh_token)).json()).toEqual({ active: false });
    expect((await listKnaps(api.url, other.access_token)).status).toBe(200);
    expect((await refreshGrant(client, other.refresh_token)).status).toBe(200);
  });

  test('revoking leaves the client item as it was: one small item per revoked token instead', async () => {
    const client = await api.newClient();
    const before = await clientItem(client.clientId);
    const tokens = await getToken(api.url, client);
    await oauth('revoke', client, tokens.access_token);
    await oauth('revoke', client, tokens.refresh_token);
    const after = await clientItem(client.clientId);
    expect(Object.keys(after).sort()).toEqual(Object.keys({ ...before, rl_window: 0, rl_count: 0, last_used_at: '' }).sort());
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      const presented = await readToken(token, token.startsWith('knap_at_') ? 'access' : 'refresh', api.deps.tokenKeys);
      if (presented.format !== 'sealed') throw new Error('expected a sealed token');
      const id = presented.claims.kind === 'access' ? presented.claims.tokenId : (presented.claims.grantId as string);
      const item = await api.table.item(key.revoked(id));
      // Kept until nothing it names can be used: the access token's expiry; a grant's last access token's.
      expect(item?.expires_at).toBe(presented.claims.expiresAt + (presented.claims.kind === 'refresh' ? 3600 : 0));
    }
  });
});

describe('tokens issued before sealing (stored format) keep working until they expire', () => {
  // A deployment that upgraded within their 30 days sets STORED_TOKENS_UNTIL.
  beforeEach(() => {
    api.deps.storedTokensUntil = Math.floor(api.clock.now().getTime() / 1000) + 30 * 24 * 3600;
  });
  afterEach(() => {
    api.deps.storedTokensUntil = undefined;
  });

  const storedGrant = async (client: { clientId: string }) => {
    const owner = { clientId: client.clientId, generation: 1 };
    const access = issueStoredToken('access', owner, 'knaps:read knaps:write', api.clock);
    const refresh = issueStoredToken('refresh', owner, 'knaps:read knaps:write', api.clock);
    await api.deps.repo.putTokens([access.record, { ...refresh.record, accessHashes: [access.record.tokenHash] }]);
    return { access: access.token, refresh: refresh.token };
  };

  test('an old access token authenticates (read, then the count), and introspects', async () => {
    const client = await api.newClient();
    const old = await storedGrant(client);
    expect(old.access).toMatch(/^knap_at_[A-Za-z0-9_-]{43}$/);
    roundTrips.reset();
    expect((await listKnaps(api.url, old.access)).status).toBe(200);
    expect(roundTrips.byCommand).toEqual({ GetItemCommand: 1, UpdateItemCommand: 1, QueryCommand: 2 });
    expect(await (await oauth('introspect', client, old.access)).json()).toEqual(
      expect.objectContaining({ active: true, client_id: client.clientId }),
    );
  });

  test('an old refresh token grants sealed access tokens, and revoking it ends old and new ones', async () => {
    const client = await api.newClient();
    const old = await storedGrant(client);
    const refreshed = await refreshGrant(client, old.refresh);
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as TokenSet;
    expect(fresh.refresh_token).toBe(old.refresh);
    expect((await readToken(fresh.access_token, 'access', api.deps.tokenKeys)).format).toBe('sealed');
    expect((await listKnaps(api.url, fresh.access_token)).status).toBe(200);

    expect((await oauth('revoke', client, old.refresh)).status).toBe(200);
    expect((await listKnaps(api.url, old.access)).status).toBe(401);
    expect((await listKnaps(api.url, fresh.access_token)).status).toBe(401);
    expect((await refreshGrant(client, old.refresh)).status).toBe(401);
  });

  test('an old access token expires on its own schedule', async () => {
    const client = await api.newClient();
    const old = await storedGrant(client);
    api.clock.advance(3600);
    const response = await listKnaps(api.url, old.access);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'Access token has expired' });
  });
});

describe('the stored-token path retired (the default)', () => {
  test('a token shaped like the stored format costs nobody a read, even a real one', async () => {
    const client = await api.newClient();
    const owner = { clientId: client.clientId, generation: 1 };
    const stored = issueStoredToken('access', owner, 'knaps:read', api.clock);
    await api.deps.repo.putTokens([stored.record]);
    roundTrips.reset();
    for (const token of [stored.token, `knap_at_${'A'.repeat(43)}`]) {
      const response = await listKnaps(api.url, token);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: 'Invalid access token' });
    }
    expect(await (await oauth('introspect', client, stored.token)).json()).toEqual({ active: false });
    // Only the introspection's own client check.
    expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1 });
  });
});

describe('key rotation', () => {
  test('tokens sealed under the previous key still open while the new key signs', async () => {
    const next = Buffer.from('the-next-token-signing-key-0123456789abcdef', 'utf8');
    const before = await getToken(api.url, await api.newClient());
    const rotated = staticKeyring([next, TEST_TOKEN_KEY]);
    expect((await readToken(before.access_token, 'access', rotated)).format).toBe('sealed');
    const retired = staticKeyring([next]);
    expect((await readToken(before.access_token, 'access', retired)).format).toBe('invalid');
  });
});
