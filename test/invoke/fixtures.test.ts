import { assertLocalEndpoint, CLIENTS, seedFixtures, TOKENS } from '../../scripts/fixtures.js';
import { hashCredential } from '../../shared/domain/credentials.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table.close());

describe('fixture credentials', () => {
  test('stored as sha256 hashes, with the real prefixes', async () => {
    const { repo } = table.deps();
    await seedFixtures(repo, table.endpoint);
    const main = await repo.getClient(CLIENTS.main.clientId);
    expect(main).toEqual(expect.objectContaining({ status: 'active', secretHash: hashCredential(CLIENTS.main.secret) }));
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
