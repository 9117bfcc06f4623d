import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runAdmin } from '../../local/admin-cli.js';
import { getToken, listKnaps, postToken, startTestApi, type TestApi } from '../support/api.js';

const run = promisify(execFile);

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** The CLI in this process, over the test table; returns what it printed and its exit status. */
const admin = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runAdmin(argv, () => api.deps, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { status, out: out.join('\n'), err: err.join('\n') };
};

const createJson = async (...extra: string[]) => {
  const result = await admin('create-client', '--org', 'acme', '--name', 'CLI app', '--json', ...extra);
  expect(result.status).toBe(0);
  return JSON.parse(result.out) as Record<string, unknown> & { client_id: string; client_secret: string };
};

describe('admin CLI', () => {
  test('create-client prints the id and the secret once; the secret works', async () => {
    const created = await createJson('--description', 'Nightly sync', '--rate-limit', '50', '--user-id', '42');
    expect(created).toMatchObject({
      org_name: 'acme',
      name: 'CLI app',
      description: 'Nightly sync',
      rate_limit: 50,
      user_id: 42,
      status: 'active',
    });
    expect(created.client_id).toMatch(/^knap_ci_[0-9a-f]{32}$/);
    expect(created.client_secret).toMatch(/^knap_cs_/);
    await getToken(api.url, { clientId: created.client_id, clientSecret: created.client_secret });

    const human = await admin('create-client', '--org', 'acme', '--name', 'Human');
    expect(human.status).toBe(0);
    expect(human.out).toMatch(/Client secret\s+knap_cs_/);
    expect(human.out).toMatch(/shown only this once/);
  });

  test('list-clients shows last use and never a secret or its hash', async () => {
    const created = await createJson('--org', 'listing-org');
    const unused = await admin('create-client', '--org', 'listing-org', '--name', 'Unused', '--json');
    api.clock.set('2026-11-23T14:30:00Z');
    await getToken(api.url, { clientId: created.client_id, clientSecret: created.client_secret });

    const listed = await admin('list-clients', '--org', 'listing-org', '--json');
    expect(listed.status).toBe(0);
    const clients = JSON.parse(listed.out) as Record<string, unknown>[];
    expect(clients).toHaveLength(2);
    const used = clients.find((client) => client.client_id === created.client_id);
    expect(used).toMatchObject({
      last_used_at: '2026-11-23T14:30:00Z',
      status: 'active',
      rate_limit: 100,
      rate_limit_is_default: true,
    });
    expect((await admin('list-clients', '--org', 'listing-org')).out).toMatch(/active\s+100\s+2026-11-23T14:30:00Z/);
    expect(clients.find((client) => client.client_id !== created.client_id)?.last_used_at).toBeNull();
    const secretOfUnused = (JSON.parse(unused.out) as { client_secret: string }).client_secret;
    for (const text of [listed.out, (await admin('list-clients', '--org', 'listing-org')).out]) {
      expect(text).not.toContain(created.client_secret);
      expect(text).not.toContain(secretOfUnused);
      expect(text).not.toMatch(/secret|hash|[0-9a-f]{64}/i);
    }
    const table = (await admin('list-clients', '--org', 'listing-org')).out;
    expect(table.split('\n')[0]).toMatch(/^NAME\s+DESCRIPTION\s+CLIENT ID\s+STATUS\s+RATE LIMIT\/MIN\s+LAST USED$/);
    expect(table).toContain('never');
  });

  test('regenerate-secret: a new secret once, and the old tokens die', async () => {
    const created = await createJson();
    const tokens = await getToken(api.url, { clientId: created.client_id, clientSecret: created.client_secret });
    const regenerated = await admin('regenerate-secret', created.client_id, '--json');
    expect(regenerated.status).toBe(0);
    const { client_secret } = JSON.parse(regenerated.out) as { client_secret: string };
    expect(client_secret).not.toBe(created.client_secret);
    expect((await listKnaps(api.url, tokens.access_token)).status).toBe(401);
    await getToken(api.url, { clientId: created.client_id, clientSecret: client_secret });
  });

  test('revoke-client and set-rate-limit', async () => {
    const created = await createJson();
    const limit = await admin('set-rate-limit', created.client_id, '7');
    expect(limit).toMatchObject({ status: 0 });
    expect(limit.out).toContain('7 requests/minute');
    const tokens = await getToken(api.url, { clientId: created.client_id, clientSecret: created.client_secret });
    expect((await listKnaps(api.url, tokens.access_token)).headers.get('ratelimit-limit')).toBe('7');
    const reset = await admin('set-rate-limit', created.client_id, 'default', '--json');
    expect(JSON.parse(reset.out)).toMatchObject({ rate_limit: 100, rate_limit_is_default: true });
    expect((await listKnaps(api.url, tokens.access_token)).headers.get('ratelimit-limit')).toBe('100');

    expect((await admin('revoke-client', created.client_id)).status).toBe(0);
    const response = await listKnaps(api.url, tokens.access_token);
    expect(await response.json()).toEqual({ detail: 'API client has been revoked' });
    const regenerate = await admin('regenerate-secret', created.client_id);
    expect(regenerate.status).not.toBe(0);
    expect(regenerate.err).toMatch(/revoked/);
    const token = await postToken(api.url, {
      grant_type: 'client_credentials',
      client_id: created.client_id,
      client_secret: created.client_secret,
    });
    expect(token.status).toBe(401);
  });

  test.each([
    [['create-client', '--name', 'x'], /Missing --org/],
    [['create-client', '--org', 'acme'], /Missing --name/],
    [['create-client', '--org', 'acme', '--name', 'x', '--rate-limit', 'lots'], /--rate-limit must be a positive whole number/],
    [['create-client', '--org', 'acme', '--name', 'x', '--bogus'], /Unknown option/],
    [['set-rate-limit', 'knap_ci_x', '0'], /N must be a positive whole number/],
    [['set-rate-limit', 'knap_ci_x'], /Missing N/],
    [['regenerate-secret'], /Missing CLIENT_ID/],
    [['revoke-client', 'knap_ci_unknown'], /No API client with id knap_ci_unknown/],
    [['set-rate-limit', 'knap_ci_unknown', '5'], /No API client with id knap_ci_unknown/],
    [['frobnicate'], /Unknown command "frobnicate"/],
  ])('%j: one line on stderr, non-zero exit', async (argv, message) => {
    const result = await admin(...argv);
    expect(result.status).not.toBe(0);
    expect(result.err).toMatch(message);
    expect(result.err.split('\n')).toHaveLength(1);
    expect(result.out).toBe('');
  });

  test('as a real process: npm run -s admin against the table in the environment', async () => {
    const env = { ...process.env, DYNAMODB_ENDPOINT: api.table.endpoint, TABLE_NAME: api.table.tableName, NODE_OPTIONS: '' };
    const created = await run(
      'npm',
      ['run', '-s', 'admin', '--', 'create-client', '--org', 'proc-org', '--name', 'Proc', '--json'],
      { env },
    );
    const { client_id, client_secret } = JSON.parse(created.stdout) as { client_id: string; client_secret: string };
    await getToken(api.url, { clientId: client_id, clientSecret: client_secret });

    const failed = await run('npm', ['run', '-s', 'admin', '--', 'revoke-client', 'knap_ci_missing'], { env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in failed && failed.code).toBe(2);
    expect((failed as { stderr: string }).stderr.trim()).toBe('error: No API client with id knap_ci_missing');
  }, 60_000);
});
