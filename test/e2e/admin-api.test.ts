/**
 * The admin API over HTTP, as an organization admin uses it: signed in to the local OpenID
 * Connect provider (authorization code + PKCE), every route's success, its refusals (401 for
 * no, bad, expired or the wrong kind of token; 404 across organizations; 400 for bad input),
 * the audit log of the API and of the CLI, and the DynamoDB round trips of each route (the
 * first of them the admin's request counted against the per-admin limit).
 */
import { createApiClient, revokeClient } from '../../shared/services/admin-service.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { getToken, postToken, startTestApi, type TestApi } from '../support/api.js';
import { putTestKnap, type Receiver, startReceiver, waitFor, waitForRunStatus } from '../support/deliveries.js';

let api: TestApi;
let receiver: Receiver;
let acme: string;
let umbrella: string;
const allowLocalhost = process.env.WEBHOOKS_ALLOW_LOCALHOST;

beforeAll(async () => {
  // As npm start sets it: admins may add receivers on this machine.
  process.env.WEBHOOKS_ALLOW_LOCALHOST = 'true';
  api = await startTestApi({ admins: true, deliveries: {}, countRoundTrips: true });
  receiver = await startReceiver();
  acme = await api.adminToken('acme', 'ada@acme.example');
  umbrella = await api.adminToken('umbrella', 'eve@umbrella.example');
});
afterAll(async () => {
  if (allowLocalhost === undefined) delete process.env.WEBHOOKS_ALLOW_LOCALHOST;
  else process.env.WEBHOOKS_ALLOW_LOCALHOST = allowLocalhost;
  await receiver?.close();
  await api?.close();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  /**
   * DynamoDB calls the request made (X-DynamoDB-Round-Trips: its own, not the deliveries it
   * queued), and how deep they went (calls side by side count once; of the whole process).
   */
  calls: { total: number; depth: number };
}

const call = async (token: string | null, method: string, path: string, body?: unknown): Promise<Answer> => {
  roundTrips.reset();
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    headers: response.headers,
    calls: { total: Number(response.headers.get('x-dynamodb-round-trips')), depth: roundTrips.depth },
  };
};

const auditActions = async (token: string) => {
  const { body } = await call(token, 'GET', '/api/admin/audit-events?limit=100');
  return (body.events as { action: string; actor: string; target: { id: string } }[]).map(
    (event) => `${event.action} ${event.actor} ${event.target.id}`,
  );
};

const CLIENT_FIELDS = [
  'client_id',
  'name',
  'description',
  'status',
  'rate_limit',
  'last_used_at',
  'created_at',
  'user_id',
  'scopes',
];

describe('API clients', () => {
  test('create: 201 with the secret once, which gets tokens; listed without it; audited with the admin and address', async () => {
    const created = await call(acme, 'POST', '/api/admin/clients', { name: 'Billing sync', rate_limit: 30, user_id: 7 });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(created.body).sort()).toEqual([...CLIENT_FIELDS, 'client_secret'].sort());
    expect(created.body).toMatchObject({ name: 'Billing sync', description: '', status: 'active', rate_limit: 30, user_id: 7 });
    expect(created.body.client_secret).toMatch(/^knap_cs_/);
    expect(created.calls).toEqual({ total: 4, depth: 4 });

    const clientId = created.body.client_id as string;
    const token = await getToken(api.url, { clientId, clientSecret: created.body.client_secret as string });
    expect(token.access_token).toBeTruthy();

    const listed = await call(acme, 'GET', '/api/admin/clients');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    const mine = (listed.body.clients as Record<string, unknown>[]).find((client) => client.client_id === clientId);
    expect(Object.keys(mine ?? {}).sort()).toEqual([...CLIENT_FIELDS].sort());
    expect(mine?.last_used_at).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toMatch(/secret|hash|knap_cs_/i);
    expect(listed.calls.depth).toBe(3);

    const { body } = await call(acme, 'GET', '/api/admin/audit-events?limit=1');
    expect(body.events).toEqual([
      {
        at: expect.any(String),
        actor: 'ada@acme.example',
        action: 'client.create',
        target: { type: 'client', id: clientId },
        source_ip: '127.0.0.1',
      },
    ]);
  });

  test('PATCH changes name, description and rate limit (null: the default again); {} changes nothing', async () => {
    const { body: created } = await call(acme, 'POST', '/api/admin/clients', { name: 'Patch me' });
    const path = `/api/admin/clients/${created.client_id}`;
    const patched = await call(acme, 'PATCH', path, { name: 'Patched', description: 'Nightly export', rate_limit: 5 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Patched', description: 'Nightly export', rate_limit: 5 });
    expect(patched.calls).toEqual({ total: 3, depth: 3 });
    expect((await call(acme, 'PATCH', path, { rate_limit: null })).body.rate_limit).toBe(api.deps.defaultRateLimit);
    const unchanged = await call(acme, 'PATCH', path, {});
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toMatchObject({ name: 'Patched', description: 'Nightly export' });
    expect(
      (await auditActions(acme)).filter((line) => line === `client.update ada@acme.example ${created.client_id}`),
    ).toHaveLength(2);
  });

  test('a new secret ends every token at once and the old secret; the new one works', async () => {
    const { body: created } = await call(acme, 'POST', '/api/admin/clients', { name: 'Rotate me' });
    const old = { clientId: created.client_id as string, clientSecret: created.client_secret as string };
    const tokens = await getToken(api.url, old);
    const rotated = await call(acme, 'POST', `/api/admin/clients/${old.clientId}/secret`);
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body).sort()).toEqual(['client_id', 'client_secret']);
    expect(rotated.body.client_secret).toMatch(/^knap_cs_/);
    expect(rotated.body.client_secret).not.toBe(old.clientSecret);
    expect(rotated.calls).toEqual({ total: 3, depth: 3 });
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    expect((await fetch(`${api.url}/api/studio/knap-tools`, { headers: bearer })).status).toBe(401);
    expect(
      (await postToken(api.url, { grant_type: 'client_credentials', client_id: old.clientId, client_secret: old.clientSecret }))
        .status,
    ).toBe(401);
    expect(
      (
        await postToken(api.url, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: old.clientId,
          client_secret: rotated.body.client_secret as string,
        })
      ).status,
    ).toBe(401);
    await getToken(api.url, { clientId: old.clientId, clientSecret: rotated.body.client_secret as string });
  });

  test('DELETE revokes for good: tokens die, listed as revoked, a second DELETE is 204 and audits nothing, changes are 409', async () => {
    const { body: created } = await call(acme, 'POST', '/api/admin/clients', { name: 'Revoke me' });
    const clientId = created.client_id as string;
    const tokens = await getToken(api.url, { clientId, clientSecret: created.client_secret as string });
    const revoked = await call(acme, 'DELETE', `/api/admin/clients/${clientId}`);
    expect(revoked.status).toBe(204);
    expect(revoked.headers.get('cache-control')).toBe('no-store');
    expect(revoked.calls).toEqual({ total: 4, depth: 3 });
    const bearer = await fetch(`${api.url}/api/studio/knap-tools`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(bearer.status).toBe(401);
    const listed = await call(acme, 'GET', '/api/admin/clients');
    expect((listed.body.clients as { client_id: string; status: string }[]).find((c) => c.client_id === clientId)?.status).toBe(
      'revoked',
    );
    expect((await call(acme, 'DELETE', `/api/admin/clients/${clientId}`)).status).toBe(204);
    for (const [method, path, body] of [
      ['PATCH', `/api/admin/clients/${clientId}`, { name: 'Back' }],
      ['POST', `/api/admin/clients/${clientId}/secret`, undefined],
    ] as const) {
      const refused = await call(acme, method, path, body);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ detail: `API client ${clientId} is revoked; revocation is permanent` });
    }
    expect(
      (await auditActions(acme)).filter((line) => line.startsWith(`client.revoke ada@acme.example ${clientId}`)),
    ).toHaveLength(1);
  });

  test("an organization the table cannot hold (an issuer's odd group name) is a 403, and nothing is made", async () => {
    const verify = api.deps.adminTokens;
    api.deps.adminTokens = async () => ({ actor: 'odd@example.com', orgName: 'acme#sales', subject: 'odd' });
    try {
      const refused = await call('any-token', 'POST', '/api/admin/clients', { name: 'Odd' });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toMatch(/^Your organization cannot have API clients: /);
      // The admin's request counted, nothing else.
      expect(refused.calls.total).toBe(1);
    } finally {
      api.deps.adminTokens = verify;
    }
  });

  test('bad bodies are 400 {"detail"} and change nothing', async () => {
    const before = ((await call(acme, 'GET', '/api/admin/clients')).body.clients as unknown[]).length;
    const cases: [unknown, string][] = [
      [{}, 'name is required'],
      [{ name: '   ' }, 'name must not be empty'],
      [{ name: 'x'.repeat(101) }, 'name must be at most 100 characters'],
      [{ name: 'ok', rate_limit: 0 }, 'rate_limit must be a whole number from 1 to 1000000 (requests per minute)'],
      [{ name: 'ok', rate_limit: 1.5 }, 'rate_limit must be a whole number from 1 to 1000000 (requests per minute)'],
      [{ name: 'ok', user_id: -1 }, 'user_id must be a positive whole number'],
      [{ name: 'ok', client_secret: 'mine' }, 'Unknown field: send only name, description, rate_limit, user_id and scopes'],
      [{ name: 'pay\u202eroll' }, 'name must not contain control characters or direction overrides'],
      [{ name: 'a\u0000b' }, 'name must not contain control characters or direction overrides'],
      [{ name: 'ok', description: 'line\nbreak' }, 'description must not contain control characters or direction overrides'],
      [[], 'Request body must be a JSON object'],
    ];
    for (const [body, detail] of cases) {
      const answer = await call(acme, 'POST', '/api/admin/clients', body);
      expect({ body, status: answer.status, answer: answer.body }).toEqual({ body, status: 400, answer: { detail } });
    }
    const unparsable = await call(acme, 'POST', '/api/admin/clients', '{"name":');
    expect(unparsable.status).toBe(400);
    expect(unparsable.body.detail).toEqual(expect.any(String));
    expect(((await call(acme, 'GET', '/api/admin/clients')).body.clients as unknown[]).length).toBe(before);
  });
});

describe('isolation and authentication', () => {
  test("another organization's admin sees none of acme's clients, endpoints, runs or events, and changing them is 404", async () => {
    const { body: client } = await call(acme, 'POST', '/api/admin/clients', { name: 'Private to acme' });
    const { body: endpoint } = await call(acme, 'POST', '/api/admin/webhooks', { url: receiver.url });
    const clientId = client.client_id as string;
    for (const path of ['/api/admin/clients', '/api/admin/webhooks', '/api/admin/runs', '/api/admin/audit-events']) {
      const listed = await call(umbrella, 'GET', path);
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).not.toContain('acme');
      expect(JSON.stringify(listed.body)).not.toContain(clientId);
    }
    const attempts: [string, string, unknown, string][] = [
      ['PATCH', `/api/admin/clients/${clientId}`, { name: 'Mine now' }, `No API client with id ${clientId} in your organization`],
      ['POST', `/api/admin/clients/${clientId}/secret`, undefined, `No API client with id ${clientId} in your organization`],
      ['DELETE', `/api/admin/clients/${clientId}`, undefined, `No API client with id ${clientId} in your organization`],
      [
        'DELETE',
        `/api/admin/webhooks/${endpoint.endpoint_id}`,
        undefined,
        `No webhook endpoint with id ${endpoint.endpoint_id} in your organization`,
      ],
      ['POST', '/api/admin/runs/run_nope/redeliver', undefined, 'No run with id run_nope in your organization'],
    ];
    for (const [method, path, body, detail] of attempts) {
      const answer = await call(umbrella, method, path, body);
      expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 404, body: { detail } });
    }
    const still = await call(acme, 'GET', '/api/admin/clients');
    expect(
      (still.body.clients as { client_id: string; name: string; status: string }[]).find((c) => c.client_id === clientId),
    ).toMatchObject({
      name: 'Private to acme',
      status: 'active',
    });
    expect(
      ((await call(acme, 'GET', '/api/admin/webhooks')).body.endpoints as { endpoint_id: string }[]).map((e) => e.endpoint_id),
    ).toContain(endpoint.endpoint_id);
    await call(acme, 'DELETE', `/api/admin/webhooks/${endpoint.endpoint_id}`);
  });

  test('no token, a malformed, tampered or expired one, or an API client token: 401 {"detail"} with a Bearer challenge, before the body is read', async () => {
    const client = await api.newClient();
    const { access_token: clientToken } = await getToken(api.url, client);
    const [header, payload, signature] = acme.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const otherOrg = `${header}.${Buffer.from(JSON.stringify({ ...claims, org: 'umbrella' })).toString('base64url')}.${signature}`;
    const cases: [string | null, string][] = [
      [null, 'Missing bearer token. Send Authorization: Bearer <access token>'],
      [`${acme}A`, 'Invalid admin access token'],
      [acme.slice(0, -3), 'Invalid admin access token'],
      [otherOrg, 'Invalid admin access token'],
      [clientToken, 'Invalid admin access token'],
    ];
    for (const path of ['/api/admin/clients', '/api/admin/runs/run_x/redeliver']) {
      for (const [token, detail] of cases) {
        const answer = await call(token, 'POST', path, '{"not json');
        expect({ path, token: token?.slice(-8), status: answer.status, body: answer.body }).toEqual({
          path,
          token: token?.slice(-8),
          status: 401,
          body: { detail },
        });
        expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer realm="knap"/);
        expect(answer.calls.total).toBe(0);
      }
    }
    api.clock.set(new Date(Date.now() + 16 * 60_000));
    try {
      const expired = await call(acme, 'GET', '/api/admin/clients');
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual({ detail: 'Admin access token has expired' });
    } finally {
      api.clock.set(new Date('2026-11-23T10:00:05Z'));
    }
  });

  test('an admin token is never accepted on /api/studio', async () => {
    const answer = await fetch(`${api.url}/api/studio/knap-tools`, { headers: { authorization: `Bearer ${acme}` } });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ detail: expect.any(String) });
  });
});

describe('webhook endpoints', () => {
  test('add (secret once), list without the secret, remove; the CLI URL rules; all audited', async () => {
    const added = await call(acme, 'POST', '/api/admin/webhooks', { url: 'https://hooks.example.com/knap' });
    expect(added.status).toBe(201);
    expect(Object.keys(added.body).sort()).toEqual([
      'created_at',
      'description',
      'disabled',
      'disabled_at',
      'endpoint_id',
      'event_types',
      'secret',
      'url',
    ]);
    expect(added.body.secret).toMatch(/^whsec_/);
    expect(added.calls).toEqual({ total: 4, depth: 4 });
    const listed = await call(acme, 'GET', '/api/admin/webhooks');
    expect(listed.body.endpoints).toContainEqual({
      endpoint_id: added.body.endpoint_id,
      url: 'https://hooks.example.com/knap',
      created_at: added.body.created_at,
      event_types: null,
      description: null,
      disabled: false,
      disabled_at: null,
    });
    expect(JSON.stringify(listed.body)).not.toMatch(/secret|whsec_/);
    const removed = await call(acme, 'DELETE', `/api/admin/webhooks/${added.body.endpoint_id}`);
    expect(removed.status).toBe(204);
    expect(removed.calls).toEqual({ total: 4, depth: 3 });
    expect((await call(acme, 'DELETE', `/api/admin/webhooks/${added.body.endpoint_id}`)).status).toBe(404);
    const audit = await auditActions(acme);
    expect(audit).toContain(`webhook.create ada@acme.example ${added.body.endpoint_id}`);
    expect(audit).toContain(`webhook.delete ada@acme.example ${added.body.endpoint_id}`);
    for (const url of ['ftp://example.com/x', 'https://10.0.0.1/hook', 'not a url']) {
      const refused = await call(acme, 'POST', '/api/admin/webhooks', { url });
      expect({ url, status: refused.status }).toEqual({ url, status: 400 });
      expect(refused.body.detail).toEqual(expect.any(String));
    }
    expect((await call(acme, 'POST', '/api/admin/webhooks', { url: 'https://a.example', secret: 'x' })).status).toBe(400);
  });
});

describe('runs', () => {
  test('listed newest first with each attempt per endpoint; redelivery sends it again with the same webhook-id', async () => {
    const { body: endpoint } = await call(acme, 'POST', '/api/admin/webhooks', { url: receiver.url });
    const client = await api.newClient();
    const { access_token: token } = await getToken(api.url, client);
    const knap = await putTestKnap(api.deps.repo, { orgName: 'acme', creatorClientId: client.clientId });
    const started = await fetch(`${api.url}/api/studio/knap-tools/${knap.uuid}/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const run = (await started.json()) as { run_id: string };
    await waitForRunStatus(api.deps.repo, run.run_id, 'delivered');
    // The attempt's `delivered` event is written after the attempt: done too before counting round trips.
    await waitFor('the delivered event', async () =>
      (await api.deps.repo.runChainHead(run.run_id)).lastId >= 2 ? true : undefined,
    );
    const first = receiver.received.filter((message) => message.headers['webhook-id'] === run.run_id);
    expect(first).toHaveLength(1);

    // Its delivery's last writes done too: the depth counted is the whole process's.
    await waitFor('the delivery queue to be quiet', () => (api.deliveries?.queue.busy ? undefined : true));
    // The admin counted, the page, then the run's endpoint deliveries (its attempts).
    const listed = await call(acme, 'GET', '/api/admin/runs?limit=1');
    expect(listed.status).toBe(200);
    expect(listed.calls).toEqual({ total: 3, depth: 3 });
    const [shown] = listed.body.runs as Record<string, unknown>[];
    expect(shown).toMatchObject({ run_id: run.run_id, status: 'delivered', attempts: 1 });
    expect(shown?.delivery_attempts).toEqual([
      {
        at: expect.any(String),
        endpoint_id: endpoint.endpoint_id,
        status: 'delivered',
        error: null,
        response_status: 204,
        http_status: 204,
        duration_ms: expect.any(Number),
        response_body: '',
      },
    ]);
    expect(listed.body.next_cursor).toEqual(expect.any(String));

    const redelivered = await call(acme, 'POST', `/api/admin/runs/${run.run_id}/redeliver`);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toEqual({ run_id: run.run_id, status: 'pending' });
    // The delivery it queues starts at once, beside: only the request's own calls are counted.
    expect(redelivered.calls.total).toBe(3);
    await waitFor('the second delivery', () =>
      receiver.received.filter((message) => message.headers['webhook-id'] === run.run_id).length === 2 ? true : undefined,
    );
    await waitForRunStatus(api.deps.repo, run.run_id, 'delivered');
    const again = await call(acme, 'GET', '/api/admin/runs?limit=1');
    expect((again.body.runs as Record<string, unknown>[])[0]).toMatchObject({
      run_id: run.run_id,
      status: 'delivered',
      attempts: 2,
    });
    expect((again.body.runs as Record<string, unknown>[])[0]?.delivery_attempts).toHaveLength(2);
    expect(await auditActions(acme)).toContain(`run.redeliver ada@acme.example ${run.run_id}`);
    await call(acme, 'DELETE', `/api/admin/webhooks/${endpoint.endpoint_id}`);
  });

  test('bad limits and cursors are 400; an over-long run id is a 404 with no read', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'cursor=not-a-cursor']) {
      for (const path of ['/api/admin/runs', '/api/admin/audit-events']) {
        const answer = await call(acme, 'GET', `${path}?${query}`);
        expect({ path, query, status: answer.status }).toEqual({ path, query, status: 400 });
        expect(answer.body.detail).toEqual(expect.any(String));
      }
    }
    const long = `run_${'x'.repeat(3000)}`;
    const answer = await call(acme, 'POST', `/api/admin/runs/${long}/redeliver`);
    expect(answer.status).toBe(404);
    // The admin's request counted (ADMINRATE#), nothing read.
    expect(answer.calls.total).toBe(1);
  });
});

describe('audit log', () => {
  test('changes by the CLI appear as "cli", newest first, paged with next_cursor', async () => {
    const made = await createApiClient(api.deps, { orgName: 'acme', name: 'From the CLI' });
    await revokeClient(api.deps, made.clientId);
    const page = await call(acme, 'GET', '/api/admin/audit-events?limit=2');
    expect(page.status).toBe(200);
    expect(page.calls).toEqual({ total: 2, depth: 2 });
    expect(page.body.events).toEqual([
      {
        at: expect.any(String),
        actor: 'cli',
        action: 'client.revoke',
        target: { type: 'client', id: made.clientId },
        source_ip: null,
      },
      {
        at: expect.any(String),
        actor: 'cli',
        action: 'client.create',
        target: { type: 'client', id: made.clientId },
        source_ip: null,
      },
    ]);
    const next = await call(
      acme,
      'GET',
      `/api/admin/audit-events?limit=2&cursor=${encodeURIComponent(page.body.next_cursor as string)}`,
    );
    expect(next.status).toBe(200);
    expect((next.body.events as unknown[]).length).toBe(2);
    expect(JSON.stringify(next.body.events)).not.toContain(`"client.revoke","target":{"type":"client","id":"${made.clientId}"`);
    const all = await auditActions(acme);
    expect(all).toContain('admin.sign_in ada@acme.example ada@acme.example');
    expect(JSON.stringify(all)).not.toMatch(/knap_cs_|whsec_/);
  });
});
