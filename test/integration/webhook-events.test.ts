/**
 * Event types beyond knap.run (issue 44): each endpoint gets only the types it takes, and every
 * message but knap.run has an id of its own (`msg_` and 32 base64url characters), so receivers
 * that dedupe on webhook-id never drop one.
 */
import { Webhook } from 'standardwebhooks';
import { systemClock } from '../../shared/domain/clock.js';
import { newEndpointId, newWebhookSecret, type WebhookEndpoint, type WebhookEventType } from '../../shared/domain/webhooks.js';
import { RETRY_POLICY } from '../../shared/webhooks/retry.js';
import {
  type Answer,
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

const setup = () => {
  const deps = file.table.deps(systemClock);
  const queue = deliverWith(deps, { settings: { retry: { ...RETRY_POLICY, maxAttempts: 1 } } });
  file.cleanup(() => queue.close());
  return { deps, repo: deps.repo };
};

const receiver = async (answer?: (n: number) => Answer): Promise<Receiver> => {
  const started = await startReceiver(answer);
  file.cleanup(() => started.close());
  return started;
};

let orgs = 0;
const newOrg = () => `events-org-${++orgs}`;

/** An endpoint that takes only `eventTypes` (null: every type), as the admin API stores one. */
const endpointFor = async (
  repo: ReturnType<typeof setup>['repo'],
  orgName: string,
  target: Receiver,
  eventTypes: WebhookEventType[] | null,
): Promise<WebhookEndpoint> => {
  const endpoint: WebhookEndpoint = {
    endpointId: newEndpointId(),
    orgName,
    url: target.url,
    secret: newWebhookSecret(),
    createdAt: new Date().toISOString(),
    eventTypes,
  };
  await repo.putWebhookEndpoint(endpoint);
  return endpoint;
};

const verified = (endpoint: WebhookEndpoint, received: Receiver['received'][number]) =>
  new Webhook(endpoint.secret).verify(received.body, received.headers as Record<string, string>) as {
    type: string;
    data: { reason: string; run: { run_id: string; status: string } };
  };

describe('event types and filters', () => {
  test('a run that failed everywhere is announced as knap.run.failed, with its own id, to the endpoints that take it', async () => {
    const { deps, repo } = setup();
    const org = newOrg();
    const executor = await receiver(() => ({ status: 500 }));
    const watcher = await receiver();
    const other = await receiver();
    const executorEndpoint = await endpointFor(repo, org, executor, ['knap.run']);
    const watcherEndpoint = await endpointFor(repo, org, watcher, ['knap.run.failed']);
    await endpointFor(repo, org, other, ['knap.run.succeeded']);
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const run = await putPendingRun(repo, knap.uuid, org);

    await deps.deliveries.enqueue(run.run_id, 0);
    await waitForRunStatus(repo, run.run_id, 'failed');
    const [message] = await waitFor('the knap.run.failed message', () =>
      watcher.received.length > 0 ? watcher.received : undefined,
    );

    // knap.run went to the executor alone; the watcher took only knap.run.failed; the other nothing.
    expect(executor.received.map((r) => JSON.parse(r.body).type)).toEqual(['knap.run']);
    expect(executor.received[0]?.headers['webhook-id']).toBe(run.run_id);
    expect(watcher.received).toHaveLength(1);
    expect(message?.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    const payload = verified(watcherEndpoint, message as Receiver['received'][number]);
    expect(payload).toMatchObject({ type: 'knap.run.failed', data: { reason: 'delivery_failed', run: { run_id: run.run_id } } });
    // No report credential outside knap.run.
    expect(message?.body).not.toContain('report_token');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(other.received).toHaveLength(0);
    void executorEndpoint;
  });

  test('an outcome the answer reported is announced as knap.run.succeeded (reason "reported")', async () => {
    const { deps, repo } = setup();
    const org = newOrg();
    const executor = await receiver(() => ({ status: 200, body: JSON.stringify({ outcome: 'succeeded', output: { n: 1 } }) }));
    const watcher = await receiver();
    await endpointFor(repo, org, executor, ['knap.run']);
    const watcherEndpoint = await endpointFor(repo, org, watcher, ['knap.run.succeeded', 'knap.run.failed']);
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const run = await putPendingRun(repo, knap.uuid, org);

    await deps.deliveries.enqueue(run.run_id, 0);
    await waitForRunStatus(repo, run.run_id, 'delivered');
    const [message] = await waitFor('the knap.run.succeeded message', () =>
      watcher.received.length > 0 ? watcher.received : undefined,
    );
    expect(verified(watcherEndpoint, message as Receiver['received'][number])).toMatchObject({
      type: 'knap.run.succeeded',
      data: { reason: 'reported', run: { run_id: run.run_id } },
    });
    expect(message?.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    expect(message?.headers['webhook-id']).not.toBe(run.run_id);
  });

  test('a disabled endpoint is sent nothing; no endpoint that takes knap.run is no_endpoint', async () => {
    const { deps, repo } = setup();
    const org = newOrg();
    const target = await receiver();
    const endpoint = await endpointFor(repo, org, target, null);
    await repo.deleteWebhookEndpoint(endpoint.endpointId);
    await repo.putWebhookEndpoint({ ...endpoint, disabled: true, disabledAt: new Date().toISOString() });
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const run = await putPendingRun(repo, knap.uuid, org);
    await deps.deliveries.enqueue(run.run_id, 0);
    await waitForRunStatus(repo, run.run_id, 'no_endpoint');
    expect(target.received).toHaveLength(0);
  });
});
