/**
 * Organization admins manage their organization's Knaps (the contract's "Knapsack
 * compatibility"): every Knap of the organization, private ones included, with its schedule
 * said in English and its last run; switched off it has no next run and does not run; deleted
 * it is gone; each change is in the audit log with the Knap's uuid; another organization's
 * Knap is a 404.
 */
import { dispatchDueRuns } from '../../shared/services/dispatcher.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { type Body, body as json } from '../support/json.js';

let api: TestApi;
let acme: string;
let umbrella: string;
let alice: string;
let bob: string;

beforeAll(async () => {
  api = await startTestApi({ admins: true });
  api.clock.set('2026-11-23T10:00:05Z'); // a Monday
  acme = await api.adminToken('acme', 'ada@acme.example');
  umbrella = await api.adminToken('umbrella', 'eve@umbrella.example');
  alice = (await getToken(api.url, await api.newClient({ orgName: 'acme', rateLimit: 10_000 }))).access_token;
  bob = (await getToken(api.url, await api.newClient({ orgName: 'acme', rateLimit: 10_000 }))).access_token;
});
afterAll(() => api?.close());

const admin = async (token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await json(response), headers: response.headers };
};

const newKnap = async (token: string, body: Record<string, unknown>): Promise<Body> => {
  const response = await createKnap(api.url, token, body);
  expect(response.status).toBe(201);
  return json(response);
};

const listAll = async (token: string): Promise<Body[]> => {
  const knaps: Body[] = [];
  let cursor: string | null = null;
  do {
    const page = await admin(token, 'GET', `/api/admin/knaps?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    expect(Object.keys(page.body).sort()).toEqual(['knaps', 'next_cursor']);
    knaps.push(...page.body.knaps);
    cursor = page.body.next_cursor;
  } while (cursor);
  return knaps;
};

test('an admin lists every Knap of the organization, private ones too, with schedule_summary and last_run', async () => {
  const weekly = await newKnap(alice, {
    name: 'Weekly digest',
    schedule_type: 'scheduled',
    tool_metadata: { schedule_description: 'every Monday at 9am', timezone: 'Europe/Berlin' },
  });
  const secret = await newKnap(bob, { name: "Bob's private" });
  const shared = await newKnap(bob, { name: 'Team notes', visibility: 'acme' });
  await newKnap((await getToken(api.url, await api.newClient({ orgName: 'umbrella' }))).access_token, { name: 'Elsewhere' });
  const run = await fetch(`${api.url}/api/studio/knap-tools/${shared.uuid}/runs`, { method: 'POST', headers: bearer(bob) });
  expect(run.status).toBe(202);
  const runId = (await json(run)).run_id;

  const knaps = await listAll(acme);
  const byName = new Map(knaps.map((knap) => [knap.name, knap]));
  expect([...byName.keys()].sort()).toEqual(["Bob's private", 'Team notes', 'Weekly digest']);
  expect(byName.get('Weekly digest')).toMatchObject({
    uuid: weekly.uuid,
    schedule_summary: expect.stringMatching(/Monday.*09:00.*Europe\/Berlin/),
    next_run_at: '2026-11-30T08:00:00Z',
    last_run: null,
    can_toggle_default_active: false,
  });
  expect(byName.get("Bob's private")).toMatchObject({ uuid: secret.uuid, schedule_summary: null, last_run: null });
  expect(byName.get('Team notes')).toMatchObject({
    can_toggle_default_active: true,
    last_run: { run_id: runId, created_at: expect.any(String), status: expect.any(String), outcome: null },
  });
  expect(Object.keys(byName.get('Team notes')?.last_run).sort()).toEqual(['created_at', 'outcome', 'run_id', 'status']);
  expect((await listAll(umbrella)).map((knap) => knap.name)).toEqual(['Elsewhere']);
  expect((await admin(acme, 'GET', '/api/admin/knaps?cursor=bogus')).status).toBe(400);
  expect((await admin(acme, 'GET', '/api/admin/knaps?limit=0')).status).toBe(400);
});

test('switched off, a Knap has no next run and does not run; deleted, it is gone; both are audited with its uuid', async () => {
  // Within the hour of the clients' tokens.
  api.clock.set('2026-11-23T10:10:00Z');
  const knap = await newKnap(alice, {
    name: 'Hourly check',
    schedule_type: 'scheduled',
    tool_metadata: { schedule_description: 'every day at 10:30' },
  });
  expect(knap.next_run_at).toBe('2026-11-23T10:30:00Z');
  const read = await admin(acme, 'GET', `/api/admin/knaps/${knap.uuid}`);
  expect(read.status).toBe(200);
  const off = await admin(
    acme,
    'PATCH',
    `/api/admin/knaps/${knap.uuid}`,
    { is_active: false },
    {
      'if-match': read.headers.get('etag') as string,
    },
  );
  expect(off.status).toBe(200);
  expect(off.body).toMatchObject({ is_active: false, next_run_at: null, name: 'Hourly check' });
  expect(off.headers.get('etag')).not.toBe(read.headers.get('etag'));
  // The creator sees the same.
  const seen = await fetch(`${api.url}/api/studio/knap-tools/${knap.uuid}`, { headers: bearer(alice) });
  expect(await json(seen)).toMatchObject({ is_active: false, next_run_at: null });
  // Past its time, the dispatcher makes no run of it.
  api.clock.set('2026-11-23T10:31:00Z');
  await dispatchDueRuns(api.deps);
  const runs = await fetch(`${api.url}/api/studio/knap-tools/${knap.uuid}/runs`, { headers: bearer(alice) });
  expect((await json(runs)).runs).toEqual([]);
  expect((await admin(acme, 'GET', `/api/admin/knaps/${knap.uuid}`)).body.last_run).toBeNull();

  // A stale If-Match, a field admins do not change, and a misspelt one: refused, nothing written.
  expect((await admin(acme, 'PATCH', `/api/admin/knaps/${knap.uuid}`, { name: 'x' }, { 'if-match': '"1"' })).status).toBe(412);
  const kind = await admin(acme, 'PATCH', `/api/admin/knaps/${knap.uuid}`, { schedule_type: 'manual' });
  expect(kind.status).toBe(400);
  expect(kind.body.detail).toMatch(
    /^Unknown field "schedule_type"; the fields are: name, is_active, active_by_default, tool_metadata/,
  );
  const typo = await admin(acme, 'PATCH', `/api/admin/knaps/${knap.uuid}`, { is_actve: true });
  expect(typo.body.detail).toBe('Unknown field "is_actve": did you mean "is_active"?');
  // Another organization's admin: a 404 on every route, and the Knap stays.
  for (const method of ['GET', 'PATCH', 'DELETE']) {
    const foreign = await admin(
      umbrella,
      method,
      `/api/admin/knaps/${knap.uuid}`,
      method === 'PATCH' ? { name: 'x' } : undefined,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'Knap not found' });
  }

  const deleted = await admin(acme, 'DELETE', `/api/admin/knaps/${knap.uuid}`);
  expect(deleted.status).toBe(200);
  expect(deleted.body).toEqual({ message: 'Knap deleted successfully' });
  expect((await admin(acme, 'GET', `/api/admin/knaps/${knap.uuid}`)).status).toBe(404);
  expect((await fetch(`${api.url}/api/studio/knap-tools/${knap.uuid}`, { headers: bearer(alice) })).status).toBe(404);

  const audit = await admin(acme, 'GET', '/api/admin/audit-events?limit=10');
  const events = audit.body.events.filter((event: Body) => event.target?.id === knap.uuid);
  expect(events.map((event: Body) => [event.action, event.actor, event.target])).toEqual([
    ['knap.delete', 'ada@acme.example', { type: 'knap', id: knap.uuid }],
    ['knap.update', 'ada@acme.example', { type: 'knap', id: knap.uuid }],
  ]);
  const theirs = await admin(umbrella, 'GET', '/api/admin/audit-events?limit=50');
  expect(JSON.stringify(theirs.body)).not.toContain(knap.uuid);
});

test('an admin may set active_by_default on a shared Knap, not on a private one; tool_metadata merges', async () => {
  const shared = await newKnap(bob, { name: 'Shared', visibility: 'public', tool_metadata: { a: 1, b: 2 } });
  const changed = await admin(acme, 'PATCH', `/api/admin/knaps/${shared.uuid}`, {
    active_by_default: false,
    tool_metadata: { b: null, c: 3 },
  });
  expect(changed.status).toBe(200);
  expect(changed.body).toMatchObject({ active_by_default: false, tool_metadata: { a: 1, c: 3 } });
  const secret = await newKnap(bob, { name: 'Private' });
  expect((await admin(acme, 'PATCH', `/api/admin/knaps/${secret.uuid}`, { active_by_default: false })).status).toBe(400);
});
