import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  assertLocalEndpoint,
  CLIENTS,
  FIXTURE_KNAPS,
  FIXTURE_RUNS,
  FIXTURE_WEBHOOKS,
  KNAPS,
  OTHER_ORG,
  RUNS,
  type RunWriter,
  resetDueFixtureKnaps,
  resetFixtureClient,
  resetFixtureKnap,
  resetFixtureRun,
  resetFixtureWebhook,
  seedFixtures,
  TOKENS,
  WEBHOOKS,
} from '../../scripts/fixtures.js';
import { hashCredential } from '../../shared/domain/credentials.js';
import type { Repository } from '../../shared/domain/repository.js';
import { dispatchDueRuns } from '../../shared/services/dispatcher.js';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { runToItem } from '../../shared/store/run-items.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
let documents: ReturnType<typeof createDocumentClient>;
/** What the invoke environment writes runs back with (scripts/invoke-core.ts). */
let writeRun: RunWriter;
beforeAll(async () => {
  table = await startTestTable();
  documents = createDocumentClient({ endpoint: table.endpoint });
  writeRun = async (stored) => {
    await documents.send(new PutCommand({ TableName: table.tableName, Item: runToItem(stored) }));
  };
});
afterAll(async () => {
  documents?.destroy();
  await table.close();
});

describe('fixture credentials', () => {
  test('stored as sha256 hashes, with the real prefixes', async () => {
    const { repo } = table.deps();
    await seedFixtures(repo, table.endpoint);
    const main = await repo.getClient(CLIENTS.main.clientId);
    expect(main).toEqual(expect.objectContaining({ status: 'active' }));
    expect(main?.secrets.map((secret) => secret.secretHash)).toEqual([hashCredential(CLIENTS.main.secret)]);
    expect(JSON.stringify(main)).not.toContain(CLIENTS.main.secret);
    const access = await repo.getToken(hashCredential(TOKENS.access.token));
    expect(access).toEqual(expect.objectContaining({ kind: 'access', clientId: CLIENTS.main.clientId, generation: 1 }));
    expect(access!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 10 * 365 * 24 * 3600);
    for (const { token, kind } of Object.values(TOKENS))
      expect(token.startsWith(kind === 'access' ? 'knap_at_' : 'knap_rt_')).toBe(true);
  });

  test('seeding again (a persistent local table) puts every fixture back as it was', async () => {
    const { repo } = table.deps();
    await repo.updateClient(
      CLIENTS.main.clientId,
      { status: 'revoked', bumpGeneration: true, rateLimit: 1 },
      '2026-01-01T00:00:00Z',
    );
    await seedFixtures(repo, table.endpoint);
    const main = await repo.getClient(CLIENTS.main.clientId);
    expect(main).toEqual(expect.objectContaining({ status: 'active', rateLimit: CLIENTS.main.rateLimit, generation: 2 }));
    // Tokens follow the client's generation, so they work again.
    expect((await repo.getToken(hashCredential(TOKENS.access.token)))?.generation).toBe(2);
  });

  test('seeding again brings deleted and changed Knaps back, each at its fixture version', async () => {
    const { repo } = table.deps();
    await seedFixtures(repo, table.endpoint);
    const { toDelete, ownPrivate, changedSinceRead } = FIXTURE_KNAPS;
    const acme = CLIENTS.main.orgName;
    expect(await repo.deleteKnap(acme, toDelete.knap.uuid, 1)).toBe(true);
    const ownership = { orgName: acme, creatorClientId: CLIENTS.main.clientId };
    expect(await repo.replaceKnap({ ...ownPrivate.knap, name: 'Renamed by an event' }, ownership, 1)).toBe(true);
    await seedFixtures(repo, table.endpoint);
    for (const fixture of KNAPS) {
      const stored = await repo.getKnap(CLIENTS[fixture.owner].orgName, fixture.knap.uuid);
      expect(stored).toEqual({
        knap: fixture.knap,
        ownership: { orgName: CLIENTS[fixture.owner].orgName, creatorClientId: CLIENTS[fixture.owner].clientId },
        version: fixture.version,
      });
    }
    // The 412 events send If-Match: "1" to a Knap changed since: it must not be at version 1.
    expect(changedSinceRead.version).toBeGreaterThan(1);
  });

  test('resetting a Knap that is as seeded writes nothing; an unknown uuid is no fixture', async () => {
    const { repo } = table.deps();
    await seedFixtures(repo, table.endpoint);
    const writes: string[] = [];
    const counted =
      <K extends 'putKnap' | 'replaceKnap' | 'deleteKnap'>(name: K) =>
      (...args: Parameters<Repository[K]>) => {
        writes.push(name);
        return Reflect.apply(repo[name], repo, args) as Promise<boolean>;
      };
    const counting: Repository = Object.assign(Object.create(repo) as Repository, {
      putKnap: counted('putKnap'),
      replaceKnap: counted('replaceKnap'),
      deleteKnap: counted('deleteKnap'),
    });
    for (const fixture of KNAPS) expect(await resetFixtureKnap(counting, fixture.knap.uuid)).toBe(true);
    expect(writes).toEqual([]);
    expect(await resetFixtureKnap(counting, '5d0c4a9e-7b21-4f3a-8e6d-000000000404')).toBe(false);
    // A changed one is deleted and written again, at its version.
    const { ownPrivate } = FIXTURE_KNAPS;
    const ownership = { orgName: CLIENTS.main.orgName, creatorClientId: CLIENTS.main.clientId };
    expect(await repo.replaceKnap({ ...ownPrivate.knap, is_active: false }, ownership, 1)).toBe(true);
    expect(await resetFixtureKnap(counting, ownPrivate.knap.uuid)).toBe(true);
    expect(writes).toEqual(['deleteKnap', 'putKnap']);
    expect(await repo.getKnap(ownership.orgName, ownPrivate.knap.uuid)).toEqual({ knap: ownPrivate.knap, ownership, version: 1 });
  });

  test('the Knaps the runs events need: one inactive, one after meetings, one due, one with a history', () => {
    const { inactive, afterMeeting, due, withHistory } = FIXTURE_KNAPS;
    for (const fixture of [inactive, afterMeeting, due, withHistory]) expect(fixture.owner).toBe('main');
    expect(inactive.knap.is_active).toBe(false);
    expect(afterMeeting.knap).toEqual(expect.objectContaining({ schedule_type: 'post_meeting_transcription', is_active: true }));
    expect(due.knap).toEqual(expect.objectContaining({ schedule_type: 'scheduled', is_active: true }));
    expect(Date.parse(due.knap.next_run_at as string)).toBeLessThan(Date.now());
    expect(RUNS.filter((stored) => stored.run.knap_uuid === withHistory.knap.uuid).length).toBeGreaterThan(1);
  });

  test('seeding writes the fixture runs; given a writer, it puts a delivered one back as it was', async () => {
    const { repo } = table.deps();
    await seedFixtures(repo, table.endpoint);
    for (const fixture of RUNS) expect(await repo.getRun(fixture.run.run_id)).toEqual(fixture);
    const { awaitingDelivery } = FIXTURE_RUNS;
    const attempt = {
      number: 1,
      id: 'attempt-1',
      at: '2026-11-23T10:00:00Z',
      deliveredTo: [],
      error: 'No webhook endpoint in the organization',
    };
    expect(await repo.recordDeliveryAttempt(awaitingDelivery.run.run_id, attempt, 'no_endpoint')).not.toBeNull();
    // Without a writer (the repository only creates runs), a changed run stays as it is.
    await seedFixtures(repo, table.endpoint);
    expect((await repo.getRun(awaitingDelivery.run.run_id))?.run.status).toBe('no_endpoint');
    await seedFixtures(repo, table.endpoint, writeRun);
    expect(await repo.getRun(awaitingDelivery.run.run_id)).toEqual(awaitingDelivery);
  });

  test('resetting a run writes only a changed fixture run; an unknown id is no fixture', async () => {
    const { repo } = table.deps();
    await seedFixtures(repo, table.endpoint, writeRun);
    const written: string[] = [];
    const counting: RunWriter = async (stored) => {
      written.push(stored.run.run_id);
      await writeRun(stored);
    };
    const { awaitingDeliveryToo } = FIXTURE_RUNS;
    expect(await resetFixtureRun(repo, awaitingDeliveryToo.run.run_id, counting)).toBe(true);
    expect(written).toEqual([]);
    expect(await resetFixtureRun(repo, 'run_00000000000000000000000000000000', counting)).toBe(false);
    const attempt = { number: 1, id: 'attempt-1', at: '2026-11-23T10:00:00Z', deliveredTo: [], error: null };
    await repo.recordDeliveryAttempt(awaitingDeliveryToo.run.run_id, attempt, 'delivered');
    expect(await resetFixtureRun(repo, awaitingDeliveryToo.run.run_id, counting)).toBe(true);
    expect(written).toEqual([awaitingDeliveryToo.run.run_id]);
    expect(await repo.getRun(awaitingDeliveryToo.run.run_id)).toEqual(awaitingDeliveryToo);
  });

  test('the due Knap is due again after a dispatch claimed its occurrence', async () => {
    const deps = table.deps();
    await seedFixtures(deps.repo, table.endpoint, writeRun);
    const { due } = FIXTURE_KNAPS;
    const orgName = CLIENTS[due.owner].orgName;
    expect((await dispatchDueRuns(deps)).claimed).toBeGreaterThanOrEqual(1);
    expect((await deps.repo.getKnap(orgName, due.knap.uuid))?.knap.next_run_at).not.toBe(due.knap.next_run_at);
    await resetDueFixtureKnaps(deps.repo);
    expect(await deps.repo.getKnap(orgName, due.knap.uuid)).toEqual({
      knap: due.knap,
      ownership: { orgName, creatorClientId: CLIENTS[due.owner].clientId },
      version: 1,
    });
    expect((await dispatchDueRuns(deps)).claimed).toBeGreaterThanOrEqual(1);
  });

  test('resetting a client puts back what an admin event changed, and writes nothing when it is as seeded', async () => {
    const { repo } = table.deps();
    await seedFixtures(repo, table.endpoint, writeRun);
    const updates: string[] = [];
    const counting: Repository = Object.assign(Object.create(repo) as Repository, {
      updateClient: (...args: Parameters<Repository['updateClient']>) => {
        updates.push(args[0]);
        return repo.updateClient(...args);
      },
    });
    for (const client of Object.values(CLIENTS)) expect(await resetFixtureClient(counting, client.clientId)).toBe(true);
    expect(updates).toEqual([]);
    expect(await resetFixtureClient(counting, 'knap_ci_00000000000000000000000000000000')).toBe(false);
    const { adminManaged, toRevoke } = CLIENTS;
    const acme = { orgName: adminManaged.orgName, active: true };
    const now = '2026-11-23T10:00:00Z';
    await repo.updateClient(
      adminManaged.clientId,
      { secretHash: 'new', bumpGeneration: true, name: 'Renamed', rateLimit: 7 },
      now,
      acme,
    );
    await repo.updateClient(toRevoke.clientId, { status: 'revoked', bumpGeneration: true }, now, acme);
    for (const client of [adminManaged, toRevoke]) {
      expect(await resetFixtureClient(counting, client.clientId)).toBe(true);
      expect(await repo.getClient(client.clientId)).toEqual(
        expect.objectContaining({
          status: 'active',
          name: client.name,
          rateLimit: client.rateLimit,
        }),
      );
      const hashes = (await repo.getClient(client.clientId))?.secrets.map((secret) => secret.secretHash);
      expect(hashes).toContain(hashCredential(client.secret));
    }
    expect(updates).toEqual([adminManaged.clientId, toRevoke.clientId]);
  });

  test("the webhook endpoints are another organization's; a removed one comes back", async () => {
    const { repo } = table.deps();
    await seedFixtures(repo, table.endpoint, writeRun);
    // The fixture organization has none: its deliveries are recorded as no_endpoint (events/deliver-runs).
    expect(await repo.listWebhookEndpoints(CLIENTS.main.orgName)).toEqual([]);
    expect(await repo.listWebhookEndpoints(OTHER_ORG)).toEqual(expect.arrayContaining([...WEBHOOKS]));
    const { toRemove } = FIXTURE_WEBHOOKS;
    expect(await repo.deleteWebhookEndpoint(toRemove.endpointId, OTHER_ORG)).not.toBeNull();
    expect(await resetFixtureWebhook(repo, toRemove.endpointId)).toBe(true);
    expect(await resetFixtureWebhook(repo, toRemove.endpointId)).toBe(true);
    expect(await repo.listWebhookEndpoints(OTHER_ORG)).toEqual(expect.arrayContaining([toRemove]));
    expect(await resetFixtureWebhook(repo, 'we_000000000000000000000000')).toBe(false);
  });

  test.each([
    'https://dynamodb.eu-west-1.amazonaws.com',
    'https://dynamodb.us-east-1.api.aws',
    'https://dynamodb.cn-north-1.amazonaws.com.cn',
  ])('never seeded into AWS: %s', (endpoint) => {
    expect(() => assertLocalEndpoint(endpoint)).toThrow(/AWS/);
  });

  test('a local endpoint is fine, no endpoint is not', () => {
    expect(() => assertLocalEndpoint('http://127.0.0.1:8000')).not.toThrow();
    expect(() => assertLocalEndpoint('http://dynamodb-local:8000')).not.toThrow();
    expect(() => assertLocalEndpoint(undefined)).toThrow();
  });
});
