/**
 * Revocation that never grows a hot item (contract, "Tokens you can trust"), grants as hashed
 * items written in a safe order, and tokens sealed by earlier versions (version 1) across the
 * upgrade: those working keep working, those revoked stay revoked, before and after the
 * migration moves the marks those versions kept on client items.
 */
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startApiServer } from '../../local/server.js';
import { epochSeconds } from '../../shared/domain/clock.js';
import { hashCredential } from '../../shared/domain/credentials.js';
import { seal } from '../../shared/domain/sealed-tokens.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { key } from '../../shared/store/keys.js';
import {
  type ClientCredentials as Client,
  getToken,
  listKnaps,
  postToken,
  refreshGrant as refreshWith,
  startTestApi,
  type TestApi,
  type TokenSet,
  tokenOperation,
} from '../support/api.js';
import { failingRepo } from '../support/failing-repo.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const item = (itemKey: Record<string, string>) => api.table.item(itemKey);

const oauth = (path: 'revoke' | 'introspect', client: Client, token: string) => tokenOperation(api.url, path, client, token);

const grantsOf = async (clientId: string) =>
  (
    await api.table.documents.send(
      new ScanCommand({
        TableName: api.table.tableName,
        FilterExpression: '#type = :grant AND client_id = :client',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':grant': 'grant', ':client': clientId },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

test('many revocations: the client item keeps its size, revoking keeps biting, requests stay one round trip deep', async () => {
  const client = await api.newClient({ rateLimit: 100_000 });
  const live = await getToken(api.url, client);
  const before = JSON.stringify(await item(key.client(client.clientId))).length;
  for (let round = 0; round < 150; round += 1) {
    const tokens = await getToken(api.url, client);
    const revoked = round % 2 === 0 ? tokens.access_token : tokens.refresh_token;
    expect((await oauth('revoke', client, revoked)).status).toBe(200);
    if (round % 10 === 0) expect((await listKnaps(api.url, tokens.access_token)).status).toBe(401);
  }
  const after = JSON.stringify(await item(key.client(client.clientId))).length;
  expect(Math.abs(after - before)).toBeLessThan(100);
  roundTrips.reset();
  expect((await listKnaps(api.url, live.access_token, '?limit=0')).status).toBe(400);
  expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, BatchGetItemCommand: 1 });
  expect(roundTrips.depth).toBe(1);
});

test('a client_credentials grant stores its grant hashed, never the token, and revocation deletes it', async () => {
  const client = await api.newClient();
  const tokens = await getToken(api.url, client);
  const [grant, ...others] = await grantsOf(client.clientId);
  expect(others).toEqual([]);
  expect(grant).toEqual(
    expect.objectContaining({ type: 'grant', client_id: client.clientId, generation: 1, scope: tokens.scope }),
  );
  // Named by the refresh token's SHA-256, as every credential is stored; the token itself is nowhere.
  expect(grant?.pk).toBe(`GRANT#${hashCredential(tokens.refresh_token)}`);
  expect(JSON.stringify(grant)).not.toContain(tokens.refresh_token.slice('knap_rt_'.length, 40));
  expect((await oauth('revoke', client, tokens.refresh_token)).status).toBe(200);
  expect(await grantsOf(client.clientId)).toEqual([]);
});

test('a failure between the count and the grant: the count stays, and no grant nobody was given', async () => {
  const deps = { ...api.table.deps(api.clock), repo: failingRepo(api.deps.repo, 'putGrant') };
  const broken = await startApiServer({ deps });
  try {
    const client = await api.newClient({ rateLimit: 10 });
    const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret };
    const failed = await postToken(broken.url, form);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await failed.text()).not.toContain('knap_rt_');
    expect(await grantsOf(client.clientId)).toEqual([]);
    // The failed request was counted: 10 - 1 (it) - 1 (this one) remain.
    const next = await postToken(api.url, form);
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit-remaining')).toBe('8');
  } finally {
    await broken.close();
  }
});

describe('tokens sealed by earlier versions (version 1), across the upgrade', () => {
  /** A grant as the earlier version issued it: a version 1 refresh token with no grant item, and an access token of it. */
  const versionOneGrant = async (client: Client) => {
    const signing = await api.deps.tokenKeys.signingKey();
    const issuedAt = epochSeconds(api.clock.now());
    const base = { clientId: client.clientId, generation: 1, scope: 'knaps:read knaps:write', issuedAt };
    const refresh = seal({ ...base, kind: 'refresh', expiresAt: issuedAt + 30 * 24 * 3600, grantId: null }, signing, 1);
    const access = seal({ ...base, kind: 'access', expiresAt: issuedAt + 3600, grantId: refresh.grantId }, signing, 1);
    return {
      refresh: `knap_rt_${refresh.body}`,
      access: `knap_at_${access.body}`,
      tokenId: access.tokenId,
      grantId: refresh.grantId as string,
      refreshExpiresAt: issuedAt + 30 * 24 * 3600,
    };
  };

  /** What the earlier version wrote to revoke: marks on the client item, and a REVOKED# item for a grant. */
  const revokedTheOldWay = async (client: Client, marks: Record<string, number>, grant?: { id: string; until: number }) => {
    const current = await item(key.client(client.clientId));
    const names = Object.fromEntries(Object.entries(marks).map(([id, until]) => [key.revocationMark(id), until]));
    await api.table.documents.send(new PutCommand({ TableName: api.table.tableName, Item: { ...current, ...names } }));
    if (grant) {
      await api.table.documents.send(
        new PutCommand({
          TableName: api.table.tableName,
          Item: { ...key.revoked(grant.id), type: 'revoked-grant', expires_at: grant.until },
        }),
      );
    }
  };

  const migrate = () => api.deps.repo.migrateClientRevocations(epochSeconds(api.clock.now()));

  test('those working keep working: a refresh token with no grant item still grants', async () => {
    const client = await api.newClient();
    const old = await versionOneGrant(client);
    expect((await listKnaps(api.url, old.access)).status).toBe(200);
    const refreshed = await refreshWith(api.url, client, old.refresh);
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as TokenSet;
    expect((await listKnaps(api.url, fresh.access_token)).status).toBe(200);
    expect(await (await oauth('introspect', client, old.refresh)).json()).toEqual(expect.objectContaining({ active: true }));
    // Revoked now, by this version: it and every access token of its grant end.
    expect((await oauth('revoke', client, old.refresh)).status).toBe(200);
    for (const access of [old.access, fresh.access_token]) expect((await listKnaps(api.url, access)).status).toBe(401);
    expect((await refreshWith(api.url, client, old.refresh)).status).toBe(401);
  });

  test('those revoked stay revoked, before the marks move and after', async () => {
    const client = await api.newClient();
    const accessRevoked = await versionOneGrant(client);
    const grantRevoked = await versionOneGrant(client);
    const now = epochSeconds(api.clock.now());
    await revokedTheOldWay(
      client,
      { [accessRevoked.tokenId]: now + 3600, [grantRevoked.grantId]: now + 3600, 'long-lapsed-token-id': now - 60 },
      { id: grantRevoked.grantId, until: grantRevoked.refreshExpiresAt },
    );
    const expectEnded = async () => {
      expect((await listKnaps(api.url, accessRevoked.access)).status).toBe(401);
      expect((await listKnaps(api.url, grantRevoked.access)).status).toBe(401);
      expect((await refreshWith(api.url, client, grantRevoked.refresh)).status).toBe(401);
      for (const token of [accessRevoked.access, grantRevoked.access, grantRevoked.refresh]) {
        expect(await (await oauth('introspect', client, token)).json()).toEqual({ active: false });
      }
      // The one not revoked lives on.
      expect((await refreshWith(api.url, client, accessRevoked.refresh)).status).toBe(200);
    };
    await expectEnded();
    expect(await migrate()).toEqual(expect.objectContaining({ moved: 2, removed: 3 }));
    expect(Object.keys((await item(key.client(client.clientId))) ?? {}).filter((name) => name.startsWith('rv_'))).toEqual([]);
    await expectEnded();
    // Idempotent.
    expect(await migrate()).toEqual({ clients: 0, moved: 0, removed: 0 });
  });
});

test('a revoked token learns nothing of its client: 401, never 429, no RateLimit headers, and it counts for nothing', async () => {
  const client = await api.newClient({ rateLimit: 3 });
  const tokens = await getToken(api.url, client); // 1
  expect((await oauth('revoke', client, tokens.access_token)).status).toBe(200); // 2
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const refused = await listKnaps(api.url, tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('ratelimit-remaining')).toBeNull();
  }
  const live = await getToken(api.url, client); // 3: the revoked token's requests were handed back
  const limited = await listKnaps(api.url, live.access_token);
  expect(limited.status).toBe(429);
  const revokedWhileLimited = await listKnaps(api.url, tokens.access_token);
  expect([revokedWhileLimited.status, revokedWhileLimited.headers.get('ratelimit-limit')]).toEqual([401, null]);
});

test("a flood of requests with a revoked token takes nothing from its client's quota once the server has seen it", async () => {
  const client = await api.newClient({ rateLimit: 30 });
  const revoked = await getToken(api.url, client); // 1 used
  expect((await oauth('revoke', client, revoked.access_token)).status).toBe(200); // 2
  expect((await listKnaps(api.url, revoked.access_token)).status).toBe(401); // seen, handed back
  const live = await getToken(api.url, client); // 3
  roundTrips.reset();
  const flood = Array.from({ length: 100 }, () => listKnaps(api.url, revoked.access_token));
  const wanted = Array.from({ length: 27 }, () => listKnaps(api.url, live.access_token));
  const [refused, served] = await Promise.all([Promise.all(flood), Promise.all(wanted)]);
  expect(refused.map((response) => response.status)).toEqual(Array(100).fill(401));
  expect(served.map((response) => response.status)).toEqual(Array(27).fill(200));
  // The revoked token's requests cost nothing: the live ones' writes, reads and queries only.
  expect(roundTrips.byCommand.UpdateItemCommand).toBe(27);
});
