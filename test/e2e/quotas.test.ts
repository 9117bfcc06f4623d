/**
 * Per-organization quotas (contract, "Webhooks operators trust"): Knaps, schedules more frequent
 * than hourly, webhook endpoints (at most 20: the 21st is a 409) and active API clients. One
 * over is a 409 {"detail"} that stores nothing; removing gives the place back; racing
 * creations never pass a quota; an organization over a lowered quota keeps what it has.
 * Runs on DynamoDB Local too (`npm run test:dynamodb-local -- test/e2e/quotas.test.ts`).
 */
import { DEFAULT_QUOTAS } from '../../shared/domain/quotas.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { body as json } from '../support/json.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ admins: true });
});
afterAll(async () => {
  await api?.close();
});
afterEach(() => {
  api.deps.quotas = DEFAULT_QUOTAS;
});

const admin = async (token: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown> };
};

const clientToken = async (orgName: string) =>
  (await getToken(api.url, await api.newClient({ orgName, rateLimit: 10_000 }))).access_token;

const every = (description: string) => ({
  name: description,
  schedule_type: 'scheduled',
  tool_metadata: { schedule_description: description },
});

const patchKnap = (token: string, uuid: string, body: unknown) =>
  fetch(`${api.url}/api/studio/knap-tools/${uuid}`, {
    method: 'PATCH',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const deleteKnap = (token: string, uuid: string) =>
  fetch(`${api.url}/api/studio/knap-tools/${uuid}`, { method: 'DELETE', headers: bearer(token) });

test('the 21st endpoint is a 409 {"detail"}, nothing stored; removing one makes room', async () => {
  const token = await api.adminToken('hooks-full', 'ops@hooks-full.example');
  const ids: string[] = [];
  for (let n = 1; n <= 20; n += 1) {
    const added = await admin(token, 'POST', '/api/admin/webhooks', { url: `https://hooks.example.com/${n}` });
    expect(added.status).toBe(201);
    ids.push(added.body.endpoint_id as string);
  }
  const refused = await admin(token, 'POST', '/api/admin/webhooks', { url: 'https://hooks.example.com/21' });
  expect(refused).toEqual({
    status: 409,
    body: { detail: expect.stringMatching(/^Your organization has reached its quota of 20 webhook endpoints/) },
  });
  expect(((await admin(token, 'GET', '/api/admin/webhooks')).body.endpoints as unknown[]).length).toBe(20);
  expect((await admin(token, 'DELETE', `/api/admin/webhooks/${ids[0]}`)).status).toBe(204);
  expect((await admin(token, 'POST', '/api/admin/webhooks', { url: 'https://hooks.example.com/21' })).status).toBe(201);
  expect((await admin(token, 'POST', '/api/admin/webhooks', { url: 'https://hooks.example.com/22' })).status).toBe(409);
});

test('racing creations never pass the quota: 24 endpoints at once, at most 20 stored', async () => {
  const token = await api.adminToken('hooks-race', 'ops@hooks-race.example');
  const answers = await Promise.all(
    Array.from({ length: 24 }, (_, n) => admin(token, 'POST', '/api/admin/webhooks', { url: `https://hooks.example.com/r${n}` })),
  );
  expect(answers.filter((answer) => answer.status !== 201 && answer.status !== 409)).toEqual([]);
  const stored = ((await admin(token, 'GET', '/api/admin/webhooks')).body.endpoints as unknown[]).length;
  expect(answers.filter((answer) => answer.status === 201)).toHaveLength(stored);
  expect(stored).toBeLessThanOrEqual(20);
  // 20 exactly unless a reservation's answer was lost and the SDK retried it (a loaded machine):
  // that place is then counted twice, refusing early (never late) until recount-quotas.
  const counted = (await api.deps.repo.quotaUsage('hooks-race')).counts.endpoints;
  expect(counted).toBeGreaterThanOrEqual(stored);
  if (counted === stored) expect(stored).toBe(20);
  await api.deps.repo.recountQuotas(true);
  expect((await api.deps.repo.quotaUsage('hooks-race')).counts.endpoints).toBe(stored);
});

test('Knaps: one over the quota is a 409; deleting gives the place back; racing creations stop at it', async () => {
  api.deps.quotas = { ...DEFAULT_QUOTAS, knaps: 3 };
  const token = await clientToken('knaps-org');
  const made = [];
  for (let n = 0; n < 3; n += 1) {
    const response = await createKnap(api.url, token, { name: `k${n}` });
    expect(response.status).toBe(201);
    made.push(await json(response));
  }
  const refused = await createKnap(api.url, token, { name: 'one too many' });
  expect(refused.status).toBe(409);
  expect(await json(refused)).toEqual({ detail: expect.stringMatching(/quota of 3 Knaps/) });
  expect((await deleteKnap(token, made[0]?.uuid as string)).status).toBe(200);
  const statuses = await Promise.all(Array.from({ length: 6 }, (_, n) => createKnap(api.url, token, { name: `race ${n}` })));
  expect(statuses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  expect((await api.deps.repo.quotaUsage('knaps-org')).counts.knaps).toBe(3);
});

test('sub-hourly schedules: their own quota, on create and on PATCH; hourly and slower are not counted', async () => {
  api.deps.quotas = { ...DEFAULT_QUOTAS, subhourly: 1 };
  const token = await clientToken('minutes-org');
  const fast = await json(await createKnap(api.url, token, every('every 5 minutes')));
  expect((await createKnap(api.url, token, every('every hour'))).status).toBe(201);
  const refused = await createKnap(api.url, token, every('every 10 minutes'));
  expect(refused.status).toBe(409);
  expect(await json(refused)).toEqual({ detail: expect.stringMatching(/quota of 1 schedules more frequent than hourly/) });
  const slow = await json(await createKnap(api.url, token, every('every day at 9am')));
  // Made sub-hourly by a PATCH: refused, unchanged.
  const patch = { tool_metadata: { schedule_description: 'every 15 minutes' } };
  const patched = await patchKnap(token, slow.uuid as string, patch);
  expect(patched.status).toBe(409);
  expect(await json(patched)).toEqual({ detail: expect.any(String) });
  const after = await json(await fetch(`${api.url}/api/studio/knap-tools/${slow.uuid}`, { headers: bearer(token) }));
  expect(after.tool_metadata).toMatchObject({ schedule_description: 'every day at 9am' });
  // The sub-hourly one made daily gives its place back; the PATCH then passes.
  const slower = await patchKnap(token, fast.uuid as string, { tool_metadata: { schedule_description: 'every day at 8am' } });
  expect(slower.status).toBe(200);
  expect((await patchKnap(token, slow.uuid as string, patch)).status).toBe(200);
  expect((await api.deps.repo.quotaUsage('minutes-org')).counts).toMatchObject({ knaps: 3, subhourly: 1 });
});

test('clients: active ones count; a revoked one gives its place back', async () => {
  api.deps.quotas = { ...DEFAULT_QUOTAS, clients: 2 };
  const token = await api.adminToken('clients-org', 'ops@clients-org.example');
  const first = await admin(token, 'POST', '/api/admin/clients', { name: 'one' });
  expect((await admin(token, 'POST', '/api/admin/clients', { name: 'two' })).status).toBe(201);
  const refused = await admin(token, 'POST', '/api/admin/clients', { name: 'three' });
  expect(refused).toEqual({ status: 409, body: { detail: expect.stringMatching(/quota of 2 active API clients/) } });
  expect((await admin(token, 'DELETE', `/api/admin/clients/${first.body.client_id}`)).status).toBe(204);
  // Revoking again changes nothing, and gives nothing back twice.
  expect((await admin(token, 'DELETE', `/api/admin/clients/${first.body.client_id}`)).status).toBe(204);
  expect((await admin(token, 'POST', '/api/admin/clients', { name: 'three' })).status).toBe(201);
  expect((await admin(token, 'POST', '/api/admin/clients', { name: 'four' })).status).toBe(409);
});

test('an organization over a lowered quota keeps what it has: reads and changes work, only more is refused', async () => {
  const token = await clientToken('lowered-org');
  const made = [];
  for (let n = 0; n < 3; n += 1) made.push(await json(await createKnap(api.url, token, { name: `kept ${n}` })));
  await api.deps.repo.setOrgQuotas('lowered-org', { knaps: 1 });
  const listed = await json(await fetch(`${api.url}/api/studio/knap-tools`, { headers: bearer(token) }));
  expect((listed.my_knaps as unknown[]).length).toBe(3);
  expect((await patchKnap(token, made[1]?.uuid as string, { name: 'renamed' })).status).toBe(200);
  expect((await createKnap(api.url, token, { name: 'more' })).status).toBe(409);
  expect((await deleteKnap(token, made[0]?.uuid as string)).status).toBe(200);
  expect((await createKnap(api.url, token, { name: 'more' })).status).toBe(409);
  // Back to the deployment's default.
  await api.deps.repo.setOrgQuotas('lowered-org', { knaps: null });
  expect((await createKnap(api.url, token, { name: 'more' })).status).toBe(201);
});

test('recount: organizations stored before quotas get their counts from the table', async () => {
  const token = await clientToken('old-org');
  for (let n = 0; n < 2; n += 1) expect((await createKnap(api.url, token, every('every 30 minutes'))).status).toBe(201);
  // As if stored by an earlier version: no counts at all.
  const { DeleteCommand } = await import('../../shared/store/commands.js');
  await api.table.documents.send(
    new DeleteCommand({ TableName: api.table.tableName, Key: { pk: 'QUOTA#old-org', sk: 'QUOTA' } }),
  );
  expect((await api.deps.repo.quotaUsage('old-org')).counts).toEqual({ knaps: 0, subhourly: 0, endpoints: 0, clients: 0 });
  expect(await api.deps.repo.recountQuotas()).toBeGreaterThanOrEqual(1);
  expect((await api.deps.repo.quotaUsage('old-org')).counts).toEqual({ knaps: 2, subhourly: 2, endpoints: 0, clients: 1 });
  // Counted once: a second upkeep leaves it; --force counts again.
  expect(await api.deps.repo.recountQuotas()).toBe(0);
});
