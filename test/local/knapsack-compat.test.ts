/**
 * A client written against Knapsack's public API pages (docs.knapsack.ai: authentication,
 * create, list, get, update, delete) works here unchanged: each request those pages show is
 * sent, in the same shape, to a real `npm start`, and each answer is checked for the shape
 * the pages give. The facts are restated here (our own values), not copied.
 *
 * Scope names: the token is asked for without a `scope` parameter, and answers Knapsack's
 * names (`read:knaps write:knaps`).
 */
import { freePort } from '../../local/ports.js';
import type { Body } from '../support/json.js';
import { cleanEnv, type Spawned, spawnNpm, spawnStart, tempDir } from './processes.js';

let server: Spawned;
let api: string;
let dynamodb: string;
const folders: ReturnType<typeof tempDir>[] = [];

/** What Knapsack's pages say every Knap answer has, and nothing else at the top. */
const KNAP_MEMBERS = [
  'active_by_default',
  'can_toggle_default_active',
  'creation_timestamp',
  'creation_user_id',
  'is_active',
  'name',
  'next_run_at',
  'schedule_info',
  'schedule_type',
  'tool_metadata',
  'updated_at',
  'uuid',
  'visibility',
];
/** The schedule_info members Knapsack's pages show (this API adds interval, timezone, ...). */
const SCHEDULE_INFO_MEMBERS = [
  'schedule_type',
  'schedule_time',
  'days_of_week',
  'days_of_month',
  'weeks_of_month',
  'months_of_year',
];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const admin = async (args: string[]): Promise<Record<string, unknown>> => {
  const run = spawnNpm(['run', '-s', 'admin', '--', ...args], cleanEnv({ DYNAMODB_ENDPOINT: dynamodb }));
  const exit = await run.exited(60_000);
  if (exit.code !== 0) throw new Error(`admin ${args.join(' ')}: ${run.stderr()}`);
  return JSON.parse(run.stdout());
};

/** Knapsack's token request: a form body with grant_type, client_id and client_secret. */
const token = async (clientId: string, clientSecret: string) => {
  const response = await fetch(`${api}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const call = async (method: string, path: string, accessToken: string, body?: unknown) => {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as Body) };
};

const expectKnapShape = (knap: Body) => {
  expect(Object.keys(knap).sort()).toEqual(KNAP_MEMBERS);
  expect(knap.uuid).toMatch(UUID);
  expect(knap.creation_timestamp).toMatch(ISO_UTC);
  expect(knap.updated_at).toMatch(ISO_UTC);
  expect(typeof knap.creation_user_id).toBe('number');
  expect(typeof knap.can_toggle_default_active).toBe('boolean');
  if (knap.schedule_info !== null) expect(Object.keys(knap.schedule_info)).toEqual(expect.arrayContaining(SCHEDULE_INFO_MEMBERS));
};

let mine: { clientId: string; secret: string };
let colleague: { clientId: string; secret: string };

beforeAll(async () => {
  const data = tempDir('knap-knapsack-');
  folders.push(data);
  const port = String(await freePort());
  const dynamodbPort = String(await freePort());
  server = spawnStart({
    PORT: port,
    DYNAMODB_PORT: dynamodbPort,
    DATA_DIR: data.path,
    ACCESS_LOG: 'false',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    DISPATCH_INTERVAL_MS: '0',
  });
  await server.waitForStdout(/Knap API listening/, 60_000);
  api = `http://127.0.0.1:${port}`;
  dynamodb = `http://127.0.0.1:${dynamodbPort}`;
  const made = await admin(['create-client', '--org', 'acme', '--name', 'Knapsack-style client', '--user-id', '123', '--json']);
  mine = { clientId: String(made.client_id), secret: String(made.client_secret) };
  const other = await admin(['create-client', '--org', 'acme', '--name', 'Colleague', '--user-id', '456', '--json']);
  colleague = { clientId: String(other.client_id), secret: String(other.client_secret) };
}, 120_000);

afterAll(() => {
  server?.kill();
  for (const folder of folders.splice(0)) folder.remove();
});

describe("Knapsack's pages, replayed against npm start", () => {
  let accessToken = '';
  let created: Body;

  test('npm start says where the console is and how to make the first admin', () => {
    expect(server.stdout()).toContain(`Admin console: ${api}/console\n`);
    expect(server.stdout()).toMatch(/npm run -s admin -- create-admin --org \S+ --email \S+/);
  });

  test('authentication: client credentials in a form body give a one-hour bearer token and a refresh token', async () => {
    const { status, body } = await token(mine.clientId, mine.secret);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(body.scope).toBe('read:knaps write:knaps');
    accessToken = String(body.access_token);
    // The pages' other way to a new token: the refresh grant, the client authenticating again.
    const refreshed = await fetch(`${api}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: String(body.refresh_token),
        client_id: mine.clientId,
        client_secret: mine.secret,
      }),
    });
    expect(refreshed.status).toBe(200);
    expect(await refreshed.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    // The bearer header as the pages show it opens the listing.
    expect((await call('GET', '/api/studio/knap-tools', accessToken)).status).toBe(200);
  });

  test('create: every field the page lists, a scheduled private Knap; the whole Knap comes back', async () => {
    const { status, body } = await call('POST', '/api/studio/knap-tools', accessToken, {
      name: 'Monday pipeline summary',
      schedule_type: 'scheduled',
      is_active: true,
      visibility: 'private',
      active_by_default: true,
      tool_metadata: {
        action_description: 'Summarise last week of deals and calls',
        schedule_description: 'every Monday at 9am',
      },
    });
    expect(status).toBe(201);
    created = body as Body;
    expectKnapShape(created);
    expect(created).toMatchObject({
      name: 'Monday pipeline summary',
      creation_user_id: 123,
      schedule_type: 'scheduled',
      is_active: true,
      visibility: 'private',
      can_toggle_default_active: false,
      active_by_default: true,
      tool_metadata: {
        action_description: 'Summarise last week of deals and calls',
        schedule_description: 'every Monday at 9am',
      },
      schedule_info: {
        schedule_type: 'weekly',
        schedule_time: '09:00',
        days_of_week: [1],
        days_of_month: null,
        weeks_of_month: null,
        months_of_year: null,
      },
    });
    expect(created.next_run_at).toMatch(ISO_UTC);
    expect(new Date(created.next_run_at).getUTCDay()).toBe(1);
    // Only name is required; the defaults are the page's.
    const minimal = await call('POST', '/api/studio/knap-tools', accessToken, { name: 'Just a name' });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toMatchObject({
      schedule_type: 'manual',
      is_active: true,
      visibility: 'private',
      active_by_default: true,
      schedule_info: null,
      next_run_at: null,
    });
  });

  test('list: my_knaps, organization_knaps ({org_name, knaps}) and public_knaps, each of whole Knaps', async () => {
    const theirs = await token(colleague.clientId, colleague.secret);
    const colleagueToken = String(theirs.body.access_token);
    const shared = await call('POST', '/api/studio/knap-tools', colleagueToken, {
      name: 'Standup notes',
      schedule_type: 'post_meeting_transcription',
      visibility: 'acme',
      tool_metadata: { action_description: 'Notes after each standup' },
    });
    expect(shared.status).toBe(201);
    const published = await call('POST', '/api/studio/knap-tools', colleagueToken, {
      name: 'Inbox digest',
      is_active: false,
      visibility: 'public',
      tool_metadata: { action_description: 'Digest of the inbox' },
    });
    expect(published.status).toBe(201);

    const { status, body } = await call('GET', '/api/studio/knap-tools', accessToken);
    expect(status).toBe(200);
    const listing = body as Body;
    expect(listing).toEqual(
      expect.objectContaining({
        my_knaps: expect.any(Array),
        organization_knaps: expect.any(Array),
        public_knaps: expect.any(Array),
      }),
    );
    expect(listing.my_knaps.map((knap: { uuid: string }) => knap.uuid)).toContain(created.uuid);
    expect(listing.organization_knaps).toHaveLength(1);
    expect(Object.keys(listing.organization_knaps[0]).sort()).toEqual(['knaps', 'org_name']);
    expect(listing.organization_knaps[0].org_name).toBe('acme');
    const sync = listing.organization_knaps[0].knaps.find((knap: { uuid: string }) => knap.uuid === shared.body?.uuid);
    expect(sync).toMatchObject({
      creation_user_id: 456,
      schedule_type: 'post_meeting_transcription',
      visibility: 'acme',
      can_toggle_default_active: false,
      schedule_info: null,
      next_run_at: null,
    });
    const digest = listing.public_knaps.find((knap: { uuid: string }) => knap.uuid === published.body?.uuid);
    expect(digest).toMatchObject({
      visibility: 'public',
      is_active: false,
      schedule_type: 'manual',
      can_toggle_default_active: false,
    });
    for (const knap of [
      ...listing.my_knaps,
      ...listing.organization_knaps.flatMap((group: { knaps: unknown[] }) => group.knaps),
      ...listing.public_knaps,
    ]) {
      expectKnapShape(knap);
    }
  });

  test('get: the Knap by its uuid', async () => {
    const { status, body } = await call('GET', `/api/studio/knap-tools/${created.uuid}`, accessToken);
    expect(status).toBe(200);
    expectKnapShape(body as Body);
    expect(body).toEqual(created);
    expect((await call('GET', '/api/studio/knap-tools/00000000-0000-4000-8000-000000000000', accessToken)).status).toBe(404);
  });

  test('update: PUT with only the fields to change; the schedule is read again', async () => {
    const { status, body } = await call('PUT', `/api/studio/knap-tools/${created.uuid}`, accessToken, {
      name: 'Tuesday pipeline summary',
      schedule_type: 'scheduled',
      is_active: true,
      active_by_default: true,
      tool_metadata: { action_description: 'Summarise deals and calls', schedule_description: 'every Tuesday at 10am' },
    });
    expect(status).toBe(200);
    const updated = body as Body;
    expectKnapShape(updated);
    expect(updated).toMatchObject({
      uuid: created.uuid,
      name: 'Tuesday pipeline summary',
      creation_user_id: 123,
      visibility: 'private',
      can_toggle_default_active: false,
      creation_timestamp: created.creation_timestamp,
      tool_metadata: { action_description: 'Summarise deals and calls', schedule_description: 'every Tuesday at 10am' },
      schedule_info: { schedule_type: 'weekly', schedule_time: '10:00', days_of_week: [2], days_of_month: null },
    });
    expect(new Date(updated.next_run_at).getUTCDay()).toBe(2);
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    // "All fields are optional": one field alone.
    const renamed = await call('PUT', `/api/studio/knap-tools/${created.uuid}`, accessToken, { is_active: false });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Tuesday pipeline summary', is_active: false, next_run_at: null });
    // "Cannot be changed after creation": visibility.
    const moved = await call('PUT', `/api/studio/knap-tools/${created.uuid}`, accessToken, { visibility: 'public' });
    expect(moved.status).toBe(400);
    expect(Object.keys(moved.body ?? {})).toEqual(['detail']);
    // The page's error statuses: an unknown Knap 404, someone else's 403.
    expect(
      (await call('PUT', '/api/studio/knap-tools/00000000-0000-4000-8000-000000000000', accessToken, { name: 'x' })).status,
    ).toBe(404);
    const theirs = await call('GET', '/api/studio/knap-tools', accessToken);
    const colleagues = theirs.body?.organization_knaps[0].knaps[0].uuid as string;
    expect((await call('PUT', `/api/studio/knap-tools/${colleagues}`, accessToken, { name: 'x' })).status).toBe(403);
  });

  test('delete: 200 with the success message; the Knap is gone', async () => {
    const { status, body } = await call('DELETE', `/api/studio/knap-tools/${created.uuid}`, accessToken);
    expect(status).toBe(200);
    expect(body).toEqual({ message: 'Knap deleted successfully' });
    expect((await call('GET', `/api/studio/knap-tools/${created.uuid}`, accessToken)).status).toBe(404);
    expect((await call('DELETE', `/api/studio/knap-tools/${created.uuid}`, accessToken)).status).toBe(404);
  });
});
