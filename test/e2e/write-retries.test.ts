/**
 * Writes that survive retries: DynamoDB applies a write but its answer is lost (the connection
 * cut after the table answered, by a proxy in front of a real local DynamoDB), the AWS SDK
 * sends the write again, and the second try recognizes the first by the token it stored. A
 * client or endpoint is created once (201, not a 500 for a "duplicate"), with one audit event;
 * a metering write (an API client's, an admin's) is counted once.
 */
import { windowStart } from '../../shared/domain/rate-limit.js';
import { createDocumentClient, roundTrips } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';
import { key } from '../../shared/store/keys.js';
import { postToken, startTestApi, type TestApi } from '../support/api.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';

let api: TestApi;
let proxy: FaultProxy;
let admin: string;
const allowLocalhost = process.env.WEBHOOKS_ALLOW_LOCALHOST;

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_LOCALHOST = 'true';
  api = await startTestApi({ admins: true });
  proxy = await startFaultProxy(api.table.endpoint);
  // Every request of the API now reaches the table through the proxy.
  api.deps.repo = new DynamoRepository(createDocumentClient({ endpoint: proxy.endpoint }), api.table.tableName);
  admin = await api.adminToken('acme', 'ada@acme.example');
});
afterAll(async () => {
  if (allowLocalhost === undefined) delete process.env.WEBHOOKS_ALLOW_LOCALHOST;
  else process.env.WEBHOOKS_ALLOW_LOCALHOST = allowLocalhost;
  await api?.close();
  await proxy?.close();
});

const adminCall = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const auditOf = async (targetId: string) =>
  (await api.deps.repo.listAuditEvents('acme', { limit: 100 })).events
    .filter((event) => event.target.id === targetId)
    .map((event) => event.action);

/** Loses the answer of the next call of `operation` whose body names a key starting `prefix`. */
const loseAnswerOf = (operation: string, prefix: string) =>
  proxy.loseNextAnswer((called, body) => called === operation && body.includes(`"S":"${prefix}`));

test('a client whose PutItem answer was lost: created once, 201, its secret works, one audit event', async () => {
  const lost = loseAnswerOf('PutItem', 'CLIENT#');
  roundTrips.reset();
  const created = await adminCall('POST', '/api/admin/clients', { name: 'Retried sync' });
  await lost;
  expect(created.status).toBe(201);
  // The lost try and the SDK's retry, both of the client's PutItem.
  expect(roundTrips.byCommand.PutItemCommand).toBe(3);
  const clientId = created.body.client_id as string;
  expect((await api.deps.repo.listClientsByOrg('acme')).filter((client) => client.name === 'Retried sync')).toHaveLength(1);
  expect(await auditOf(clientId)).toEqual(['client.create']);
  const grant = await postToken(api.url, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: created.body.client_secret as string,
  });
  expect(grant.status).toBe(200);
});

test('a webhook endpoint whose PutItem answer was lost: created once, 201, one audit event', async () => {
  const lost = loseAnswerOf('PutItem', 'WEBHOOK#');
  const created = await adminCall('POST', '/api/admin/webhooks', { url: 'https://hooks.example/retried' });
  await lost;
  expect(created.status).toBe(201);
  const endpoints = await api.deps.repo.listWebhookEndpoints('acme');
  expect(endpoints.filter((endpoint) => endpoint.url === 'https://hooks.example/retried')).toHaveLength(1);
  expect(await auditOf(created.body.endpoint_id as string)).toEqual(['webhook.create']);
});

test("an API client's metering write retried after a lost answer is counted once", async () => {
  const client = await api.newClient({ name: 'metered' });
  const grant = () =>
    postToken(api.url, { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret });
  expect((await grant()).status).toBe(200);
  const lost = loseAnswerOf('UpdateItem', 'CLIENT#');
  const retried = await grant();
  await lost;
  expect(retried.status).toBe(200);
  // Two grants, two counts: the retry of the second was recognized as itself.
  expect(retried.headers.get('ratelimit-remaining')).toBe(String(Number(retried.headers.get('ratelimit-limit')) - 2));
  expect((await api.table.item(key.client(client.clientId)))?.rl_count).toBe(2);
});

test("an admin's metering write retried after a lost answer is counted once", async () => {
  const window = windowStart(api.clock.now());
  const counted = async () =>
    (await api.table.item(key.adminMeter('acme', 'ada@acme.example', window)))?.count as number | undefined;
  expect((await adminCall('GET', '/api/admin/clients')).status).toBe(200);
  const before = (await counted()) as number;
  const lost = loseAnswerOf('UpdateItem', 'ADMINRATE#');
  expect((await adminCall('GET', '/api/admin/clients')).status).toBe(200);
  await lost;
  expect(await counted()).toBe(before + 1);
});
