/**
 * An endpoint's attempts (issue 44, GET /api/admin/webhooks/{endpoint_id}/attempts): real
 * deliveries to a local receiver on DynamoDB (dynalite), listed newest first with what each
 * attempt got back, a page per Query; another organization's endpoint is a 404; delivery items
 * written before the listing existed are simply not listed.
 */
import { newEndpointId, newWebhookSecret, type WebhookEndpoint } from '../../shared/domain/webhooks.js';
import { ApiError } from '../../shared/errors.js';
import { parseWebhookAttemptsQuery } from '../../shared/schemas/webhook-attempts.js';
import { listWebhookAttempts } from '../../shared/services/webhook-attempts.js';
import { emitEvent } from '../../shared/services/webhook-messages.js';
import { PutCommand } from '../../shared/store/commands.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { key } from '../../shared/store/keys.js';
import { RETRY_POLICY } from '../../shared/webhooks/retry.js';
import { FakeClock } from '../support/clock.js';
import {
  deliverWith,
  OWNER,
  putPendingRun,
  putTestKnap,
  type Receiver,
  startReceiver,
  waitFor,
  waitForRunStatus,
} from '../support/deliveries.js';
import { tableForFile } from '../support/dynamo.js';

const file = tableForFile();

let orgs = 0;

const setup = async (receiver: Receiver) => {
  const clock = new FakeClock();
  const deps = file.table.deps(clock);
  // Two attempts per message; D far away: these failures never disable the endpoint.
  const queue = deliverWith(deps, { settings: { retry: { ...RETRY_POLICY, maxAttempts: 2 }, disableAfterSeconds: 1e9 } });
  file.cleanup(() => queue.close());
  const orgName = `attempts-org-${++orgs}`;
  const knap = await putTestKnap(deps.repo, { ...OWNER, orgName });
  const endpoint: WebhookEndpoint = {
    endpointId: newEndpointId(),
    orgName,
    url: `${receiver.url}?token=secret-in-query`,
    secret: newWebhookSecret(),
    createdAt: clock.now().toISOString(),
    // Not knap.run.failed: the failed run's own message would be one more delivery here.
    eventTypes: ['knap.run', 'endpoint.disabled'],
  };
  await deps.repo.putWebhookEndpoint(endpoint);
  const run = async (status: 'delivered' | 'failed'): Promise<string> => {
    const made = await putPendingRun(deps.repo, knap.uuid, orgName);
    await deps.deliveries.enqueue(made.run_id, 0);
    await waitForRunStatus(deps.repo, made.run_id, status);
    return made.run_id;
  };
  const admin = { orgName, actor: { name: 'ada@example.com', sourceIp: '192.0.2.1' } };
  // Nothing due or under way (a retry or a message may follow what a test waited for).
  const quiet = () =>
    waitFor('the queue to be quiet', () => (queue.queue.busy || queue.queue.size.waiting > 0 ? undefined : true));
  return { clock, deps, orgName, admin, endpoint, run, quiet };
};

test('each attempt with its status, duration and answer, newest first, a page per Query', async () => {
  // 2xx; then 500 with a body, then 2xx; then 500 twice.
  const answers = [
    { status: 204 },
    { status: 500, body: 'database down' },
    { status: 200, body: 'ok' },
    { status: 500, body: 'still down' },
    { status: 500, body: 'x'.repeat(3000) },
  ];
  const receiver = await startReceiver((n) => answers[n - 1] ?? { status: 204 });
  file.cleanup(() => receiver.close());
  const { clock, deps, orgName, admin, endpoint, run, quiet } = await setup(receiver);

  const messageId = await emitEvent(deps, orgName, 'endpoint.disabled', { endpoint_id: 'we_other' });
  if (!messageId) throw new Error('no endpoint took the message');
  await waitFor('the message delivered', async () =>
    (await deps.repo.getDelivery(messageId, endpoint.endpointId))?.status === 'delivered' ? true : undefined,
  );
  clock.advance(60);
  const recovered = await run('delivered');
  clock.advance(60);
  const failed = await run('failed');

  await quiet();
  roundTrips.reset();
  const page = await listWebhookAttempts(deps, admin, endpoint.endpointId, parseWebhookAttemptsQuery({}));
  // The endpoint's read (of this organization), then one Query.
  expect(roundTrips.byCommand).toEqual({ GetItemCommand: 1, QueryCommand: 1 });

  expect(page.endpoint).toMatchObject({
    endpoint_id: endpoint.endpointId,
    url: endpoint.url,
    disabled: false,
    fail_streak: 1,
    fail_streak_since: expect.any(String),
  });
  const seen = page.attempts.map(({ message_id, run_id, type, attempt, status, response_status, delivery_status }) => ({
    message_id,
    run_id,
    type,
    attempt,
    status,
    response_status,
    delivery_status,
  }));
  expect(seen).toEqual([
    {
      message_id: failed,
      run_id: failed,
      type: 'knap.run',
      attempt: 2,
      status: 'failed',
      response_status: 500,
      delivery_status: 'failed',
    },
    {
      message_id: failed,
      run_id: failed,
      type: 'knap.run',
      attempt: 1,
      status: 'failed',
      response_status: 500,
      delivery_status: 'failed',
    },
    {
      message_id: recovered,
      run_id: recovered,
      type: 'knap.run',
      attempt: 2,
      status: 'delivered',
      response_status: 200,
      delivery_status: 'delivered',
    },
    {
      message_id: recovered,
      run_id: recovered,
      type: 'knap.run',
      attempt: 1,
      status: 'failed',
      response_status: 500,
      delivery_status: 'delivered',
    },
    {
      message_id: messageId,
      run_id: null,
      type: 'endpoint.disabled',
      attempt: 1,
      status: 'delivered',
      response_status: 204,
      delivery_status: 'delivered',
    },
  ]);
  const [longBody, stillDown, ok, down] = page.attempts;
  expect(down?.response_body).toBe('database down');
  expect(ok?.response_body).toBe('ok');
  expect(stillDown?.response_body).toBe('still down');
  expect(Buffer.byteLength(longBody?.response_body ?? '')).toBeLessThanOrEqual(1024);
  for (const attempt of page.attempts) {
    expect(attempt.duration_ms).toEqual(expect.any(Number));
    expect(attempt.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  }
  // Never the URL's path or query, only scheme, host and port.
  expect(JSON.stringify(page.attempts)).not.toContain('secret-in-query');
  expect(JSON.stringify(page.attempts)).not.toContain('/hooks/knap');
  expect(down?.error).toMatch(/^HTTP 500 from http:\/\/127\.0\.0\.1:\d+$/);
  expect(page.next_cursor).toBeNull();

  // A page at a time: each one Query (and the endpoint's read), in the same order.
  const paged: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    roundTrips.reset();
    const next = await listWebhookAttempts(
      deps,
      admin,
      endpoint.endpointId,
      parseWebhookAttemptsQuery({ limit: '1', ...(cursor ? { cursor } : {}) }),
    );
    expect(roundTrips.byCommand).toEqual({ GetItemCommand: 1, QueryCommand: 1 });
    expect(new Set(next.attempts.map((attempt) => attempt.message_id)).size).toBeLessThanOrEqual(1);
    paged.push(...next.attempts.map((attempt) => `${attempt.message_id}/${attempt.attempt}`));
    if (!next.next_cursor) break;
    cursor = next.next_cursor;
  }
  expect(paged).toEqual(page.attempts.map((attempt) => `${attempt.message_id}/${attempt.attempt}`));
});

test("another organization's endpoint is a 404, a foreign cursor a 400; items of earlier versions are not listed", async () => {
  const receiver = await startReceiver();
  file.cleanup(() => receiver.close());
  const { deps, admin, endpoint, run } = await setup(receiver);
  const stranger = { ...admin, orgName: 'someone-else' };
  await expect(listWebhookAttempts(deps, stranger, endpoint.endpointId, { limit: 10 })).rejects.toMatchObject({ status: 404 });
  await expect(listWebhookAttempts(deps, admin, 'we_nope', { limit: 10 })).rejects.toMatchObject({ status: 404 });
  for (const query of [{ limit: '0' }, { limit: '101' }, { limit: 'x' }]) {
    expect(() => parseWebhookAttemptsQuery(query)).toThrow(ApiError);
  }
  const foreign = Buffer.from(JSON.stringify({ pk: 'DLV#r', sk: 'EP#other', gsi2pk: 'EPDLV#other', gsi2sk: 'x' })).toString(
    'base64url',
  );
  await expect(listWebhookAttempts(deps, admin, endpoint.endpointId, { limit: 10, cursor: foreign })).rejects.toMatchObject({
    status: 400,
  });

  const delivered = await run('delivered');
  // A delivery item as earlier versions wrote it: no gsi2 entry.
  await file.table.documents.send(
    new PutCommand({
      TableName: file.table.tableName,
      Item: {
        ...key.delivery('run_earlier', endpoint.endpointId),
        type: 'delivery',
        run_id: 'run_earlier',
        endpoint_id: endpoint.endpointId,
        org_name: admin.orgName,
        status: 'delivered',
        attempts: 1,
        da_1: { n: 1, entry: { at: '2026-11-01T00:00:00Z', endpoint_id: endpoint.endpointId, status: 'delivered', error: null } },
      },
    }),
  );
  const page = await listWebhookAttempts(deps, admin, endpoint.endpointId, { limit: 10 });
  expect(page.attempts.map((attempt) => attempt.message_id)).toEqual([delivered]);
});
