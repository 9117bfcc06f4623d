/**
 * Scopes per client (contract, "Credentials without downtime"; "Knapsack compatibility"): the
 * names Knapsack answers (`read:knaps`, `write:knaps`), the old ones as aliases; chosen by
 * admins at creation and changed later, a narrowing biting the client's live tokens at once;
 * 403 `{"detail"}` on every write route for a read-only client.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { routes as ROUTES } from '../../functions/routes.js';
import { epochSeconds } from '../../shared/domain/clock.js';
import { seal } from '../../shared/domain/sealed-tokens.js';
import { key } from '../../shared/store/keys.js';
import {
  bearer,
  createKnap,
  getToken,
  postToken,
  refreshGrant,
  startTestApi,
  type TestApi,
  tokenOperation,
} from '../support/api.js';
import { body as json } from '../support/json.js';

let api: TestApi;
let acme: string;

beforeAll(async () => {
  api = await startTestApi({ admins: true });
  acme = await api.adminToken('acme', 'ada@acme.example');
});
afterAll(() => api?.close());

const admin = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${acme}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
};

const adminClient = async (body: Record<string, unknown>) => {
  const created = await admin('POST', '/api/admin/clients', { rate_limit: 10_000, ...body });
  expect(created.status).toBe(201);
  return { clientId: created.body.client_id as string, clientSecret: created.body.client_secret as string, body: created.body };
};

/** The write routes of API clients: every studio route but reads, the preview (a read) and executors' reports. */
const WRITE_ROUTES = ROUTES.filter(
  (route) =>
    route.path.startsWith('/api/studio/') &&
    route.method !== 'GET' &&
    !['preview-schedule', 'report-run-event'].includes(route.id),
);

const pathOf = (path: string, uuid: string) => path.replace('{uuid}', uuid).replace('{run_id}', `run_${'A'.repeat(32)}`);

describe('the names', () => {
  test('metadata and the OpenAPI document say the new names only', async () => {
    const metadata = await json(await fetch(`${api.url}/.well-known/oauth-authorization-server`));
    expect(metadata.scopes_supported).toEqual(['read:knaps', 'write:knaps']);
    const openapi = await (await fetch(`${api.url}/api/openapi.json`)).text();
    expect(openapi).toContain('read:knaps');
    expect(openapi).not.toMatch(/knaps:(read|write)/);
  });

  test('the old names are aliases in a token request, granted under the new names', async () => {
    const client = await api.newClient({ rateLimit: 10_000 });
    const response = await postToken(api.url, {
      grant_type: 'client_credentials',
      scope: 'knaps:read',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(response.status).toBe(200);
    expect((await json(response)).scope).toBe('read:knaps');
  });

  test('a client stored with the old names, and one stored before scopes were chosen, answer the new names', async () => {
    for (const scopes of [['knaps:read', 'knaps:write'], undefined]) {
      const client = await api.newClient({ rateLimit: 10_000 });
      const item = (await api.table.item(key.client(client.clientId))) as Record<string, unknown>;
      const { scopes: _dropped, ...rest } = item;
      await api.table.documents.send(
        new PutCommand({ TableName: api.table.tableName, Item: scopes ? { ...rest, scopes } : rest }),
      );
      const tokens = await getToken(api.url, client);
      expect(tokens.scope).toBe('read:knaps write:knaps');
      expect((await createKnap(api.url, tokens.access_token, { name: 'old', schedule_type: 'manual' })).status).toBe(201);
      const listed = (await admin('GET', '/api/admin/clients')).body.clients as { client_id: string; scopes: string[] }[];
      expect(listed.find((c) => c.client_id === client.clientId)?.scopes).toEqual(['read:knaps', 'write:knaps']);
    }
  });

  test('a token sealed with the old names works on every route and introspects with the new names', async () => {
    const client = await api.newClient({ rateLimit: 10_000 });
    const issuedAt = epochSeconds(api.clock.now());
    const sealed = seal(
      {
        clientId: client.clientId,
        generation: 1,
        scope: 'knaps:read knaps:write',
        issuedAt,
        kind: 'access',
        expiresAt: issuedAt + 3600,
        grantId: null,
      },
      await api.deps.tokenKeys.signingKey(),
    );
    const old = `knap_at_${sealed.body}`;
    expect((await createKnap(api.url, old, { name: 'sealed before', schedule_type: 'manual' })).status).toBe(201);
    const introspection = await json(await tokenOperation(api.url, 'introspect', client, old));
    expect(introspection).toMatchObject({ active: true, scope: 'read:knaps write:knaps' });
  });
});

describe('scopes chosen by admins', () => {
  test('create with scopes (old names accepted), listed with them; bad scopes are a 400', async () => {
    const created = await adminClient({ name: 'Dashboard', scopes: ['knaps:read'] });
    expect(created.body.scopes).toEqual(['read:knaps']);
    const listed = (await admin('GET', '/api/admin/clients')).body.clients as { client_id: string; scopes: string[] }[];
    expect(listed.find((c) => c.client_id === created.clientId)?.scopes).toEqual(['read:knaps']);
    expect((await getToken(api.url, created)).scope).toBe('read:knaps');
    for (const scopes of [[], ['admin'], 'read:knaps', [1]]) {
      const refused = await admin('POST', '/api/admin/clients', { name: 'x', scopes });
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toMatch(/scopes/);
    }
    // Asking a read-only client's token endpoint for more is a 400.
    const more = await postToken(api.url, {
      grant_type: 'client_credentials',
      scope: 'write:knaps',
      client_id: created.clientId,
      client_secret: created.clientSecret,
    });
    expect(more.status).toBe(400);
  });

  test('attack: a read-only client on every write route is a 403 {"detail"}, and nothing changes', async () => {
    expect(WRITE_ROUTES.map((route) => route.id).sort()).toEqual(
      ['create-knap', 'delete-knap', 'put-knap', 'report-meeting', 'start-run', 'update-knap'].sort(),
    );
    const full = await adminClient({ name: 'Writer' });
    const reader = await adminClient({ name: 'Reader', scopes: ['read:knaps'] });
    const writerToken = (await getToken(api.url, full)).access_token;
    const created = await createKnap(api.url, writerToken, { name: 'shared', schedule_type: 'manual', visibility: 'acme' });
    const uuid = (await json(created)).uuid as string;
    const readToken = (await getToken(api.url, reader)).access_token;
    const bodies: Record<string, unknown> = {
      'create-knap': { name: 'no', schedule_type: 'manual' },
      'update-knap': { name: 'renamed' },
      'put-knap': { name: 'renamed' },
      'report-meeting': { meeting_id: 'm-1' },
    };
    for (const route of WRITE_ROUTES) {
      const body = bodies[route.id];
      const response = await fetch(`${api.url}${pathOf(route.path, uuid)}`, {
        method: route.method,
        headers: { ...bearer(readToken), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect([route.id, response.status]).toEqual([route.id, 403]);
      expect(Object.keys(await json(response))).toEqual(['detail']);
    }
    // Reads still work, and the Knap is as it was.
    const read = await fetch(`${api.url}/api/studio/knap-tools/${uuid}`, { headers: bearer(readToken) });
    expect(read.status).toBe(200);
    expect((await json(read)).name).toBe('shared');
  });

  test('narrowing bites live tokens at once (bearer, introspection, refresh); widening again restores them', async () => {
    const client = await adminClient({ name: 'Narrowed' });
    const tokens = await getToken(api.url, client);
    expect(tokens.scope).toBe('read:knaps write:knaps');
    const write = () => createKnap(api.url, tokens.access_token, { name: 'w', schedule_type: 'manual' });
    expect((await write()).status).toBe(201);

    const narrowed = await admin('PATCH', `/api/admin/clients/${client.clientId}`, { scopes: ['read:knaps'] });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scopes).toEqual(['read:knaps']);
    expect((await write()).status).toBe(403);
    expect((await fetch(`${api.url}/api/studio/knap-tools`, { headers: bearer(tokens.access_token) })).status).toBe(200);
    expect((await json(await tokenOperation(api.url, 'introspect', client, tokens.access_token))).scope).toBe('read:knaps');
    const refreshed = await refreshGrant(api.url, client, tokens.refresh_token);
    expect((await json(refreshed)).scope).toBe('read:knaps');

    expect(
      (await admin('PATCH', `/api/admin/clients/${client.clientId}`, { scopes: ['read:knaps', 'write:knaps'] })).status,
    ).toBe(200);
    expect((await write()).status).toBe(201);
    const audit = (await admin('GET', '/api/admin/audit-events?limit=100')).body.events as {
      action: string;
      target: { id: string };
    }[];
    expect(audit.filter((event) => event.target.id === client.clientId).map((event) => event.action)).toEqual([
      'client.update',
      'client.update',
      'client.create',
    ]);
  });
});
