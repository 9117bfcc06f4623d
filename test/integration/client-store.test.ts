/**
 * The client store's grants and revocations (shared/store/client-store.ts), on a real local
 * DynamoDB: dynalite here, and Amazon's DynamoDB Local in CI's second pass, which enforces
 * the 400 KB item and 4 KB expression limits the migration must stay within.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createApiClient } from '../../shared/services/admin-service.js';
import { createDocumentClient, roundTrips } from '../../shared/store/dynamo-client.js';
import { key } from '../../shared/store/keys.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
let documents: ReturnType<typeof createDocumentClient>;
beforeAll(async () => {
  table = await startTestTable();
  documents = createDocumentClient({ endpoint: table.endpoint });
});
afterAll(async () => {
  documents.destroy();
  await table.close();
});

const clock = new FakeClock(new Date('2026-11-25T10:00:00Z'));
const NOW = Math.floor(clock.now().getTime() / 1000);
const deps = () => table.deps(clock);
const itemOf = async (itemKey: Record<string, string>) =>
  (await documents.send(new GetCommand({ TableName: table.tableName, Key: itemKey, ConsistentRead: true }))).Item;
const tokenId = () => randomBytes(16).toString('base64url');

/** An item's size as DynamoDB counts it (names plus values; a number is about one byte per two digits), near enough for limits. */
const itemSize = (item: Record<string, unknown> | undefined): number =>
  Object.entries(item ?? {}).reduce(
    (total, [name, value]) =>
      total +
      Buffer.byteLength(name) +
      (typeof value === 'number' ? Math.ceil(String(value).length / 2) + 1 : Buffer.byteLength(JSON.stringify(value))),
    0,
  );

describe('grants and revocations', () => {
  test('a grant is read with its revocation in one round trip, and gone once deleted', async () => {
    const { repo } = deps();
    const grant = {
      grantKey: 'a'.repeat(64),
      grantId: 'g-one-grant-0001',
      clientId: 'knap_ci_a',
      generation: 1,
      scope: 'knaps:read',
      issuedAt: NOW,
      expiresAt: NOW + 60,
    };
    await repo.putGrant(grant);
    roundTrips.reset();
    expect(await repo.tokenStanding({ grantKey: grant.grantKey, revocationIds: [grant.grantId] })).toEqual({
      grant,
      revoked: false,
    });
    expect(roundTrips.byCommand).toEqual({ BatchGetItemCommand: 1 });
    await repo.deleteGrant(grant.grantKey);
    expect(await repo.tokenStanding({ grantKey: grant.grantKey, revocationIds: [] })).toEqual({ grant: null, revoked: false });
  });

  test('a revocation is never shortened by a later, shorter one', async () => {
    const { repo } = deps();
    const id = tokenId();
    await repo.putRevocations({ [id]: NOW + 7200 });
    await repo.putRevocations({ [id]: NOW + 60 });
    expect((await itemOf(key.revoked(id)))?.expires_at).toBe(NOW + 7200);
    await repo.putRevocations({ [id]: NOW + 9000 });
    expect((await itemOf(key.revoked(id)))?.expires_at).toBe(NOW + 9000);
    expect(await repo.tokenStanding({ revocationIds: [tokenId(), id] })).toEqual({ grant: null, revoked: true });
  });
});

describe('moving the revocation marks of earlier versions off client items', () => {
  /** As earlier versions left a heavy revoker: the client item full of `rv_` marks. */
  const clientWithMarks = async (marks: Record<string, number>) => {
    const created = await createApiClient(deps(), { orgName: 'acme', name: 'revoker' });
    const item = await itemOf(key.client(created.clientId));
    const names = Object.fromEntries(Object.entries(marks).map(([id, until]) => [key.revocationMark(id), until]));
    await documents.send(new PutCommand({ TableName: table.tableName, Item: { ...item, ...names } }));
    return created;
  };

  test('a client item holding 400 KB of marks: live ones become items, all leave, in writes DynamoDB takes', async () => {
    const live = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [tokenId(), NOW + 60 + index]));
    const lapsed = Object.fromEntries(Array.from({ length: 12_450 }, () => [tokenId(), NOW - 60]));
    const client = await clientWithMarks({ ...live, ...lapsed });
    expect(itemSize(await itemOf(key.client(client.clientId)))).toBeGreaterThan(380_000);

    const { repo } = deps();
    expect(await repo.migrateClientRevocations(NOW)).toEqual({ clients: 1, moved: 50, removed: 12_500 });
    const after = await itemOf(key.client(client.clientId));
    expect(Object.keys(after ?? {}).filter((name) => name.startsWith('rv_'))).toEqual([]);
    expect(itemSize(after)).toBeLessThan(1_000);
    for (const [id, until] of Object.entries(live)) expect((await itemOf(key.revoked(id)))?.expires_at).toBe(until);
    expect(await itemOf(key.revoked(Object.keys(lapsed)[0] as string))).toBeUndefined();
    // Idempotent: nothing left to do, and the client is as it was.
    expect(await repo.migrateClientRevocations(NOW)).toEqual({ clients: 0, moved: 0, removed: 0 });
    expect(await repo.getClient(client.clientId)).toEqual(expect.objectContaining({ status: 'active', revocations: {} }));
  }, 120_000);

  test('a grant revoked until later keeps its longer revocation', async () => {
    const grantId = 'g-revoked-longer';
    const { repo } = deps();
    await repo.putRevocations({ [grantId]: NOW + 30 * 24 * 3600 });
    await clientWithMarks({ [grantId]: NOW + 3600 });
    await repo.migrateClientRevocations(NOW);
    expect((await itemOf(key.revoked(grantId)))?.expires_at).toBe(NOW + 30 * 24 * 3600);
  });
});

describe('client checks', () => {
  test('a version 1 token is counted only while none of its ids is marked on the client item, each id checked', async () => {
    const { repo } = deps();
    const client = await createApiClient(deps(), { orgName: 'acme', name: 'marked' });
    const [access, grant] = [tokenId(), tokenId()];
    const count = (mode: 'open' | 'continue') =>
      repo.countRequest({
        clientId: client.clientId,
        guard: { generation: 1, notRevoked: [access, grant] },
        window: NOW - (NOW % 60),
        now: clock.now().toISOString(),
        defaultLimit: 100,
        mode,
      });
    expect((await count('open')).applied).toBe(true);
    expect((await count('continue')).applied).toBe(true);
    // An earlier version's mark on the second id (the grant) alone: the write is refused.
    const current = await itemOf(key.client(client.clientId));
    await documents.send(
      new PutCommand({ TableName: table.tableName, Item: { ...current, [key.revocationMark(grant)]: NOW + 3600 } }),
    );
    const refused = await count('continue');
    expect(refused.applied).toBe(false);
    expect(refused.state?.client.revocations).toEqual({ [grant]: NOW + 3600 });
    expect((await itemOf(key.client(client.clientId)))?.rl_count).toBe(2);
  });

  test('an unknown client costs what a wrong secret costs, where DynamoDB hands back what a failed condition saw', async () => {
    const { repo } = deps();
    const client = await createApiClient({ ...deps(), repo }, { orgName: 'acme', name: 'timing' });
    const count = (clientId: string) =>
      repo.countRequest({
        clientId,
        guard: { secretHash: 'not-the-secret-hash' },
        window: NOW - (NOW % 60),
        now: clock.now().toISOString(),
        defaultLimit: 100,
        mode: 'open',
      });
    expect((await count(client.clientId)).state?.client.clientId).toBe(client.clientId);
    roundTrips.reset();
    expect(await count('knap_ci_nobody')).toEqual({ applied: false, state: null });
    // DynamoDB and DynamoDB Local send the old item with the failure (none: no client); dynalite
    // sends none ever, so there the store must look.
    const handsBackItems = Boolean(process.env.TEST_DYNAMODB_ENDPOINT);
    expect(roundTrips.byCommand).toEqual(handsBackItems ? { UpdateItemCommand: 1 } : { UpdateItemCommand: 1, GetItemCommand: 1 });
  });
});
