import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deployedRegion, runAdmin } from '../../local/admin-cli.js';
import { freePort } from '../../local/ports.js';
import { cleanEnv, spawnNpm, tempDir } from '../local/processes.js';
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

/** The range message of a rate limit out of range, negative ones included. */
const RANGE = (value: string) =>
  new RegExp(`^error: Rate limit must be a whole number from 1 to 1000000 \\(requests per minute\\), got ${value}$`);

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

  test('create-client refuses names that read otherwise than they are stored', async () => {
    const refused = await admin('create-client', '--org', 'acme', '--name', 'pay\u202eroll');
    expect(refused).toMatchObject({ status: 2, err: 'error: --name must not contain control characters or direction overrides' });
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
    expect(regenerate.status).toBe(2);
    expect(regenerate.err).toBe(`error: API client ${created.client_id} is revoked; revocation is permanent`);
    // A revoked client is refused every change alike, a new rate limit too.
    const relimit = await admin('set-rate-limit', created.client_id, '9');
    expect(relimit).toEqual({ status: 2, out: '', err: regenerate.err });
    // Revoking again is refused the same way, as removing an endpoint twice is.
    expect(await admin('revoke-client', created.client_id)).toEqual({ status: 2, out: '', err: regenerate.err });
    const [listed] = JSON.parse((await admin('list-clients', '--org', 'acme', '--json')).out).filter(
      (client: { client_id: string }) => client.client_id === created.client_id,
    );
    expect(listed).toMatchObject({ status: 'revoked', rate_limit: 100, rate_limit_is_default: true });
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
    [
      ['create-client', '--org', 'acme', '--name', 'x', '--rate-limit', 'lots'],
      /^error: --rate-limit must be a whole number from 1 to 1000000 \(requests per minute\), got "lots"$/,
    ],
    [['create-client', '--org', 'acme', '--name', 'x', '--rate-limit', '-5'], RANGE('-5')],
    [['create-client', '--org', 'acme', '--name', 'x', '--rate-limit=-5'], RANGE('-5')],
    [['create-client', '--org', 'acme', '--name', 'x', '--bogus'], /Unknown option/],
    [['set-rate-limit', 'knap_ci_x', '0'], RANGE('0')],
    [['set-rate-limit', 'knap_ci_x', '-1'], RANGE('-1')],
    [['set-rate-limit', 'knap_ci_x', '-1', '--json'], RANGE('-1')],
    [['set-rate-limit', 'knap_ci_x', '1000001'], RANGE('1000001')],
    [
      ['set-rate-limit', 'knap_ci_x', 'lots'],
      /^error: N must be a whole number from 1 to 1000000 \(requests per minute\) or "default", got "lots"$/,
    ],
    [['set-rate-limit', 'knap_ci_x'], /Missing N/],
    [['regenerate-secret'], /Missing CLIENT_ID/],
    [['revoke-client', 'knap_ci_unknown'], /No API client with id knap_ci_unknown/],
    [['set-rate-limit', 'knap_ci_unknown', '5'], /No API client with id knap_ci_unknown/],
    [['frobnicate'], /Unknown command "frobnicate"/],
  ])('%j: one line on stderr, exit 2', async (argv, message) => {
    const result = await admin(...argv);
    expect(result.status).toBe(2);
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

describe('admin CLI without a usable DynamoDB: one line on stderr, exit 2', () => {
  let home: ReturnType<typeof tempDir>;
  beforeEach(() => {
    home = tempDir('knap-admin-home-');
  });
  afterEach(() => home.remove());

  /** No AWS settings of this machine: a home of its own, no credentials, no instance metadata. */
  const isolated = (extra: Record<string, string>): NodeJS.ProcessEnv => {
    const env = cleanEnv({});
    for (const name of Object.keys(env)) if (name.startsWith('AWS_')) delete env[name];
    return {
      ...env,
      HOME: home.path,
      AWS_CONFIG_FILE: join(home.path, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: join(home.path, 'credentials'),
      AWS_EC2_METADATA_DISABLED: 'true',
      ...extra,
    };
  };

  const cli = async (env: NodeJS.ProcessEnv, ...argv: string[]) => {
    const spawned = spawnNpm(['run', '-s', 'admin', '--', ...argv], env);
    try {
      const { code } = await spawned.exited(60_000);
      return { status: code, out: spawned.stdout(), err: spawned.stderr() };
    } finally {
      spawned.kill();
    }
  };

  test('DYNAMODB_ENDPOINT that does not answer', async () => {
    const port = await freePort();
    const result = await cli(isolated({ DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}` }), 'list-clients', '--org', 'acme');
    expect(result).toEqual({
      status: 2,
      out: '',
      err: `error: DYNAMODB_ENDPOINT=http://127.0.0.1:${port} does not answer: connect ECONNREFUSED 127.0.0.1:${port}. Is npm start running?\n`,
    });
  }, 60_000);

  test('DYNAMODB_ENDPOINT that is not a URL', async () => {
    const result = await cli(isolated({ DYNAMODB_ENDPOINT: 'localhost:8000' }), 'list-clients', '--org', 'acme');
    expect(result).toEqual({
      status: 2,
      out: '',
      err: 'error: DYNAMODB_ENDPOINT=localhost:8000 is not an http(s) URL; write it as http://host:port, e.g. http://127.0.0.1:8000.\n',
    });
  }, 60_000);

  test('no DYNAMODB_ENDPOINT and no AWS credentials', async () => {
    const result = await cli(isolated({ AWS_REGION: 'eu-west-1' }), 'list-clients', '--org', 'acme');
    expect(result).toEqual({
      status: 2,
      out: '',
      err: 'error: No AWS credentials found. Set DYNAMODB_ENDPOINT for a local DynamoDB, or configure AWS credentials for the deployed table.\n',
    });
  }, 60_000);

  test('no DYNAMODB_ENDPOINT and no region anywhere: says so rather than use us-east-1', async () => {
    const result = await cli(
      isolated({ AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' }),
      'list-clients',
      '--org',
      'acme',
    );
    expect(result).toEqual({
      status: 2,
      out: '',
      err: 'error: No AWS region: set AWS_REGION or a region in your AWS profile, or DYNAMODB_ENDPOINT for a local DynamoDB.\n',
    });
  }, 60_000);
});

describe("the deployed table's region", () => {
  const saved = { ...process.env };
  let folder: ReturnType<typeof tempDir>;
  beforeEach(() => {
    folder = tempDir('knap-admin-region-');
    for (const name of ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_PROFILE']) delete process.env[name];
    // A file of this test's own: the SDK reads AWS_CONFIG_FILE when asked, and caches by path.
    process.env.AWS_CONFIG_FILE = join(folder.path, 'config');
    writeFileSync(process.env.AWS_CONFIG_FILE, '[default]\nregion = eu-west-3\n[profile admin]\nregion = ap-south-1\n');
  });
  afterEach(() => {
    process.env = { ...saved };
    folder.remove();
  });

  test("comes from the SDK's chain: the profile's region when AWS_REGION is unset", async () => {
    expect(await deployedRegion()).toBe('eu-west-3');
    process.env.AWS_PROFILE = 'admin';
    expect(await deployedRegion()).toBe('ap-south-1');
  });

  test('AWS_REGION wins, then AWS_DEFAULT_REGION', async () => {
    process.env.AWS_DEFAULT_REGION = 'ca-central-1';
    expect(await deployedRegion()).toBe('ca-central-1');
    process.env.AWS_REGION = 'eu-north-1';
    expect(await deployedRegion()).toBe('eu-north-1');
  });
});

/** A scheduled Knap as an earlier version stored it: no gsi3 keys, no version. */
const putKnapWithoutDueEntry = async (orgName: string, uuid: string): Promise<void> => {
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
  const { createDocumentClient } = await import('../../shared/store/dynamo-client.js');
  const documents = createDocumentClient({ endpoint: api.table.endpoint });
  try {
    await documents.send(
      new PutCommand({
        TableName: api.table.tableName,
        Item: {
          pk: `ORG#${orgName}`,
          sk: `KNAP#${uuid}`,
          type: 'knap',
          uuid,
          schedule_type: 'scheduled',
          is_active: true,
          next_run_at: '2030-01-01T09:00:00Z',
        },
      }),
    );
  } finally {
    documents.destroy();
  }
};

describe('backfill-due-index', () => {
  test('adds the due-index entry of scheduled Knaps stored without one, once', async () => {
    await putKnapWithoutDueEntry('backfill', '8a9b0c1d-0000-4000-8000-000000000001');
    const first = await admin('backfill-due-index', '--json');
    expect(first.status).toBe(0);
    expect(JSON.parse(first.out).added).toBeGreaterThanOrEqual(1);
    const second = await admin('backfill-due-index');
    expect(second).toEqual({
      status: 0,
      out: 'Due index: 0 scheduled Knap(s) added; they run from their next occurrence.',
      err: '',
    });
  });
});

describe('migrate', () => {
  test('runs every step in order, and a second run changes nothing', async () => {
    await putKnapWithoutDueEntry('migrate', '8a9b0c1d-0000-4000-8000-000000000002');
    const first = await admin('migrate', '--json');
    expect(first.status).toBe(0);
    const steps = (JSON.parse(first.out) as { steps: { id: string; changed: Record<string, number> }[] }).steps;
    expect(steps.map((step) => step.id)).toEqual([
      'due-index',
      'run-index',
      'revocations',
      'schedule-rrule',
      'meeting-index',
      'quota-counts',
    ]);
    expect(steps[0]?.changed.added).toBeGreaterThanOrEqual(1);
    const second = await admin('migrate', '--json');
    for (const step of (JSON.parse(second.out) as { steps: { changed: Record<string, number> }[] }).steps) {
      expect(Object.values(step.changed).every((count) => count === 0)).toBe(true);
    }
    expect((await admin('migrate')).out).toMatch(/^due-index: 0 added \(scheduled Knaps/);
  });
});

describe('organization admins and the audit log', () => {
  const auditOf = async (org: string) =>
    (await api.deps.repo.listAuditEvents(org, { limit: 50 })).events.map(({ actor, action, target }) => ({
      actor,
      action,
      target,
    }));

  test('create-admin: a generated password printed once, kept only as a hash; the org rule and one admin per e-mail', async () => {
    const made = await admin('create-admin', '--org', 'admins-org', '--email', 'Ada@Example.com', '--json');
    expect(made.status).toBe(0);
    const printed = JSON.parse(made.out) as { email: string; org: string; password: string };
    expect(printed).toEqual({ email: 'ada@example.com', org: 'admins-org', password: expect.stringMatching(/^.{16,}$/) });
    const stored = await api.deps.repo.getAdmin('ada@example.com');
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(stored)).not.toContain(printed.password);

    const human = await admin(
      'create-admin',
      '--org',
      'admins-org',
      '--email',
      'bob@example.com',
      '--password',
      'chosen by the operator',
    );
    expect(human.out).not.toContain('chosen by the operator');
    expect((await admin('create-admin', '--org', 'admins-org', '--email', 'ADA@example.com')).err).toMatch(/exists already/);
    expect((await admin('create-admin', '--org', 'Public', '--email', 'eve@example.com')).err).toMatch(/visibility word/);
    expect((await admin('create-admin', '--org', 'admins-org', '--email', 'not-an-address')).status).toBe(2);
    expect((await admin('create-admin', '--org', 'admins-org', '--email', 'c@example.com', '--password', 'short')).err).toMatch(
      /at least 12/,
    );
  });

  test('every change the CLI makes to clients, endpoints and admins is in the audit log, by "cli", with no secret', async () => {
    const org = 'audited-org';
    const created = await createJson('--org', org);
    await admin('set-rate-limit', created.client_id, '10');
    const regenerated = JSON.parse((await admin('regenerate-secret', created.client_id, '--json')).out) as {
      client_secret: string;
    };
    await admin('revoke-client', created.client_id);
    const added = JSON.parse(
      (await admin('add-webhook', '--org', org, '--url', 'https://hooks.example.com/knap', '--json')).out,
    ) as {
      endpoint_id: string;
      secret: string;
    };
    await admin('remove-webhook', added.endpoint_id);
    await admin('create-admin', '--org', org, '--email', 'audit@example.com');
    const client = { type: 'client', id: created.client_id };
    const webhook = { type: 'webhook', id: added.endpoint_id };
    expect(await auditOf(org)).toEqual(
      [
        { actor: 'cli', action: 'client.create', target: client },
        { actor: 'cli', action: 'client.update', target: client },
        { actor: 'cli', action: 'client.regenerate_secret', target: client },
        { actor: 'cli', action: 'client.revoke', target: client },
        { actor: 'cli', action: 'webhook.create', target: webhook },
        { actor: 'cli', action: 'webhook.delete', target: webhook },
        { actor: 'cli', action: 'admin.create', target: { type: 'admin', id: 'audit@example.com' } },
      ].reverse(),
    );
    const everything = JSON.stringify(await api.deps.repo.listAuditEvents(org, { limit: 50 }));
    for (const secret of [created.client_secret, regenerated.client_secret, added.secret])
      expect(everything).not.toContain(secret);
  });
});

describe('manners', () => {
  test('--version prints the version; an unknown option is one line saying what to do', async () => {
    expect(await admin('--version')).toEqual({ status: 0, out: expect.stringMatching(/^\d+\.\d+\.\d+$/), err: '' });
    expect(await admin('list-clients', '--org', 'acme', '--bogus')).toEqual({
      status: 2,
      out: '',
      err: 'error: Unknown option --bogus. Run with --help for the commands and their options.',
    });
  });

  test('remove-webhook twice: the second is one line, status 2, like revoke-client twice', async () => {
    const added = JSON.parse(
      (await admin('add-webhook', '--org', 'acme', '--url', 'https://hooks.example.com/twice', '--json')).out,
    ) as {
      endpoint_id: string;
    };
    expect((await admin('remove-webhook', added.endpoint_id)).status).toBe(0);
    expect(await admin('remove-webhook', added.endpoint_id)).toEqual({
      status: 2,
      out: '',
      err: `error: No webhook endpoint with id ${added.endpoint_id}`,
    });
  });
});
