/**
 * Webhook endpoints an organization shapes (contract, "Webhooks operators trust"): event types
 * and a description at creation, shown in listings, changed later with PATCH (audited, 404
 * across organizations), and refused with a 400 for an unknown type.
 */
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { startTestApi, type TestApi } from '../support/api.js';

let api: TestApi;
let acme: string;
let umbrella: string;

beforeAll(async () => {
  api = await startTestApi({ admins: true, countRoundTrips: true });
  acme = await api.adminToken('acme', 'ada@acme.example');
  umbrella = await api.adminToken('umbrella', 'eve@umbrella.example');
});
afterAll(async () => {
  await api?.close();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
  calls: number;
}

const call = async (token: string, method: string, path: string, body?: unknown): Promise<Answer> => {
  roundTrips.reset();
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    calls: Number(response.headers.get('x-dynamodb-round-trips')),
  };
};

const listed = async (token: string) =>
  (await call(token, 'GET', '/api/admin/webhooks')).body.endpoints as Record<string, unknown>[];

test('event types and a description at creation, shown in the listing; duplicates kept once', async () => {
  const added = await call(acme, 'POST', '/api/admin/webhooks', {
    url: 'https://hooks.example.com/outcomes',
    event_types: ['knap.run.failed', 'knap.run.succeeded', 'knap.run.failed'],
    description: 'On-call channel',
  });
  expect(added.status).toBe(201);
  expect(added.body).toMatchObject({
    event_types: ['knap.run.failed', 'knap.run.succeeded'],
    description: 'On-call channel',
    disabled: false,
    disabled_at: null,
  });
  const every = await call(acme, 'POST', '/api/admin/webhooks', { url: 'https://hooks.example.com/all', event_types: null });
  expect(every.body).toMatchObject({ event_types: null, description: null });
  const endpoints = await listed(acme);
  expect(endpoints).toContainEqual({
    endpoint_id: added.body.endpoint_id,
    url: 'https://hooks.example.com/outcomes',
    created_at: added.body.created_at,
    event_types: ['knap.run.failed', 'knap.run.succeeded'],
    description: 'On-call channel',
    disabled: false,
    disabled_at: null,
  });
  expect(endpoints.find((e) => e.endpoint_id === every.body.endpoint_id)).toMatchObject({ event_types: null });
});

test.each([
  [{ event_types: ['knap.run', 'knap.exploded'] }, /event_types must be null \(every type\) or a list of: knap\.run, /],
  [{ event_types: 'knap.run' }, /event_types must be null/],
  [{ event_types: [] }, /event_types must not be empty/],
  [{ description: 42 }, /description must be a string/],
  [{ description: 'x'.repeat(1001) }, /description must be at most 1000 characters/],
])('creation with %j is a 400 {"detail"}, nothing stored', async (extra, detail) => {
  const before = (await listed(acme)).length;
  const refused = await call(acme, 'POST', '/api/admin/webhooks', { url: 'https://hooks.example.com/bad', ...extra });
  expect(refused.status).toBe(400);
  expect(refused.body).toEqual({ detail: expect.stringMatching(detail) });
  expect(await listed(acme)).toHaveLength(before);
});

test('PATCH changes event types, description and disabled (stamped), one write and the audit; others stay', async () => {
  const { body: endpoint } = await call(acme, 'POST', '/api/admin/webhooks', {
    url: 'https://hooks.example.com/patched',
    description: 'Before',
  });
  const path = `/api/admin/webhooks/${endpoint.endpoint_id}`;
  api.clock.set(new Date('2026-11-23T11:00:00Z'));
  const disabled = await call(acme, 'PATCH', path, { disabled: true, event_types: ['knap.run'] });
  expect(disabled.status).toBe(200);
  expect(disabled.body).toEqual({
    endpoint_id: endpoint.endpoint_id,
    url: 'https://hooks.example.com/patched',
    created_at: endpoint.created_at,
    event_types: ['knap.run'],
    description: 'Before',
    disabled: true,
    disabled_at: '2026-11-23T11:00:00Z',
  });
  // The admin's request counted, the conditional update and the audit event.
  expect(disabled.calls).toBe(3);
  expect((await listed(acme)).find((e) => e.endpoint_id === endpoint.endpoint_id)).toEqual(disabled.body);
  const enabled = await call(acme, 'PATCH', path, { disabled: false, event_types: null, description: null });
  expect(enabled.body).toMatchObject({ disabled: false, disabled_at: null, event_types: null, description: null });
  const empty = await call(acme, 'PATCH', path, {});
  expect(empty.status).toBe(200);
  expect(empty.body).toEqual(enabled.body);
  const { body: audit } = await call(acme, 'GET', '/api/admin/audit-events?limit=100');
  const updates = (audit.events as { action: string; actor: string; target: { id: string } }[]).filter(
    (event) => event.action === 'webhook.update' && event.target.id === endpoint.endpoint_id,
  );
  expect(updates).toHaveLength(3);
  expect(updates[0]?.actor).toBe('ada@acme.example');
});

test("PATCH: another organization's endpoint or an unknown one is 404, unchanged; bad bodies 400", async () => {
  const { body: endpoint } = await call(acme, 'POST', '/api/admin/webhooks', { url: 'https://hooks.example.com/mine' });
  const path = `/api/admin/webhooks/${endpoint.endpoint_id}`;
  const foreign = await call(umbrella, 'PATCH', path, { disabled: true });
  expect(foreign.status).toBe(404);
  expect(foreign.body).toEqual({ detail: expect.any(String) });
  expect((await listed(acme)).find((e) => e.endpoint_id === endpoint.endpoint_id)).toMatchObject({ disabled: false });
  expect((await call(acme, 'PATCH', '/api/admin/webhooks/we_000000000000000000000000', { disabled: true })).status).toBe(404);
  for (const body of [{ disabled: 'yes' }, { event_types: ['nope'] }, { url: 'https://elsewhere.example' }]) {
    const refused = await call(acme, 'PATCH', path, body);
    expect({ body, status: refused.status }).toEqual({ body, status: 400 });
    expect(refused.body).toEqual({ detail: expect.any(String) });
  }
});
