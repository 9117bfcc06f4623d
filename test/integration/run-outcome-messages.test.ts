/**
 * knap.run.succeeded / knap.run.failed from the executor's report (issue 44, "Webhooks operators
 * trust"): the writer whose conditional write ended the run's chain queues one outcome message,
 * which the deliverer sends under the run's own outcome id to the endpoints that take it. A
 * retried report, or a report racing the webhook answer, sends nothing more.
 */
import { Webhook } from 'standardwebhooks';
import { systemClock } from '../../shared/domain/clock.js';
import {
  newEndpointId,
  newWebhookSecret,
  outcomeMessageId,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../shared/domain/webhooks.js';
import { ApiError } from '../../shared/errors.js';
import { handleDelivery } from '../../shared/services/delivery.js';
import { reportRun } from '../../shared/services/run-events.js';
import { outcomeJobId } from '../../shared/services/run-outcomes.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
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
import { RecordingQueue, tableForFile } from '../support/dynamo.js';

const file = tableForFile();

let orgs = 0;

const setup = async () => {
  const deps = file.table.deps(systemClock);
  const queue = deliverWith(deps, { settings: { retry: { ...RETRY_POLICY, maxAttempts: 1 } } });
  file.cleanup(() => queue.close());
  const orgName = `outcome-org-${++orgs}`;
  const receiver = async (answer?: (n: number) => Answer): Promise<Receiver> => {
    const started = await startReceiver(answer);
    file.cleanup(() => started.close());
    return started;
  };
  const endpointFor = async (target: Receiver, eventTypes: WebhookEventType[] | null): Promise<WebhookEndpoint> => {
    const endpoint: WebhookEndpoint = {
      endpointId: newEndpointId(),
      orgName,
      url: target.url,
      secret: newWebhookSecret(),
      createdAt: new Date().toISOString(),
      eventTypes,
    };
    await deps.repo.putWebhookEndpoint(endpoint);
    return endpoint;
  };
  const knap = await putTestKnap(deps.repo, { ...OWNER, orgName });
  /** A run delivered to the organization's executor (its knap.run endpoint), ready for reports. */
  const deliveredRun = async () => {
    const run = await putPendingRun(deps.repo, knap.uuid, orgName);
    await deps.deliveries.enqueue(run.run_id, 0);
    await waitForRunStatus(deps.repo, run.run_id, 'delivered');
    return run;
  };
  const claimsOf = (runId: string) => ({ runId, orgName, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  return { deps, queue, orgName, receiver, endpointFor, deliveredRun, claimsOf };
};

/** Verified with the endpoint's secret by the standardwebhooks library (timestamp included). */
const verified = (endpoint: WebhookEndpoint, received: Receiver['received'][number]) =>
  new Webhook(endpoint.secret).verify(received.body, received.headers as Record<string, string>) as {
    type: string;
    data: { reason: string; run: Record<string, unknown> };
  };

const statusOf = async (promise: Promise<unknown>): Promise<number> => {
  try {
    await promise;
    return 201;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
};

/** Long enough for a second message to have arrived, were one sent (the queue here runs at once). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('an outcome reported through the report route', () => {
  test('succeeded: one knap.run.succeeded with its own msg_ id, verified, reason "reported", the stored run; nothing to others', async () => {
    const { deps, receiver, endpointFor, deliveredRun, claimsOf } = await setup();
    const executor = await receiver();
    const watcher = await receiver();
    const failures = await receiver();
    await endpointFor(executor, ['knap.run']);
    const watching = await endpointFor(watcher, ['knap.run.succeeded']);
    await endpointFor(failures, ['knap.run.failed']);
    const run = await deliveredRun();

    const event = await reportRun(deps, claimsOf(run.run_id), { type: 'succeeded', output: { rows: 3 } });
    const [message] = await waitFor('the knap.run.succeeded message', () =>
      watcher.received.length > 0 ? watcher.received : undefined,
    );
    const payload = verified(watching, message!);
    const stored = await deps.repo.getRun(run.run_id);
    expect(payload).toEqual({
      type: 'knap.run.succeeded',
      timestamp: expect.any(String),
      data: { reason: 'reported', run: JSON.parse(JSON.stringify(stored!.run)) },
    });
    expect(payload.data.run).toMatchObject({ outcome: 'succeeded', output: { rows: 3 }, finished_at: event.at });
    expect(message!.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    expect(message!.headers['webhook-id']).not.toBe(run.run_id);
    expect(message!.headers['webhook-id']).toBe(outcomeMessageId(run.run_id));
    expect(message!.body).not.toContain('report_token');

    await settle();
    expect(watcher.received).toHaveLength(1);
    expect(failures.received).toHaveLength(0);
    // The executor took knap.run only.
    expect(executor.received.map((received) => JSON.parse(received.body).type)).toEqual(['knap.run']);
  });

  test('failed: one knap.run.failed with the error; an endpoint that takes only succeeded gets nothing', async () => {
    const { deps, receiver, endpointFor, deliveredRun, claimsOf } = await setup();
    const executor = await receiver();
    const watcher = await receiver();
    const successes = await receiver();
    await endpointFor(executor, ['knap.run']);
    const watching = await endpointFor(watcher, null);
    await endpointFor(successes, ['knap.run.succeeded']);
    const run = await deliveredRun();
    const before = watcher.received.length; // knap.run went to this every-type endpoint too

    await reportRun(deps, claimsOf(run.run_id), { type: 'failed', error: 'the model said no' });
    const [message] = await waitFor('the knap.run.failed message', () => {
      const outcomes = watcher.received.slice(before).filter((received) => JSON.parse(received.body).type !== 'knap.run');
      return outcomes.length > 0 ? outcomes : undefined;
    });
    expect(verified(watching, message!)).toMatchObject({
      type: 'knap.run.failed',
      data: { reason: 'reported', run: { run_id: run.run_id, outcome: 'failed', error: 'the model said no', output: null } },
    });
    expect(message!.headers['webhook-id']).toBe(outcomeMessageId(run.run_id));
    await settle();
    expect(watcher.received.slice(before)).toHaveLength(1);
    expect(successes.received).toHaveLength(0);
  });

  test('a retried report (409) and the job run twice send one message', async () => {
    const { deps, receiver, endpointFor, deliveredRun, claimsOf, queue } = await setup();
    const executor = await receiver();
    const watcher = await receiver();
    await endpointFor(executor, ['knap.run']);
    await endpointFor(watcher, ['knap.run.succeeded', 'knap.run.failed']);
    const run = await deliveredRun();
    const claims = claimsOf(run.run_id);

    expect(await statusOf(reportRun(deps, claims, { type: 'succeeded' }))).toBe(201);
    expect(await statusOf(reportRun(deps, claims, { type: 'succeeded' }))).toBe(409);
    expect(await statusOf(reportRun(deps, claims, { type: 'failed' }))).toBe(409);
    await waitFor('the message', () => (watcher.received.length > 0 ? true : undefined));
    // The queue delivers at least once: the job handled again stores and sends nothing new.
    await handleDelivery(deps, outcomeJobId(run.run_id, 'reported'), undefined, queue.settings);
    await settle();
    expect(watcher.received).toHaveLength(1);
    expect(queue.queued.filter((message: { runId: string }) => message.runId.startsWith('outcome.'))).toHaveLength(1);
  });

  test('a report that stopped before its outcome write: the retried report writes it and sends the message', async () => {
    const { deps, receiver, endpointFor, deliveredRun, claimsOf } = await setup();
    const executor = await receiver();
    const watcher = await receiver();
    await endpointFor(executor, ['knap.run']);
    await endpointFor(watcher, ['knap.run.succeeded']);
    const run = await deliveredRun();
    const claims = claimsOf(run.run_id);
    // The first report's event lands, then its second write fails (a 500: the executor retries).
    const setRunOutcome = deps.repo.setRunOutcome.bind(deps.repo);
    deps.repo.setRunOutcome = async () => {
      throw Object.assign(new Error('stopped'), { name: 'TimeoutError' });
    };
    try {
      await expect(reportRun(deps, claims, { type: 'succeeded', output: 1 })).rejects.toThrow('stopped');
    } finally {
      deps.repo.setRunOutcome = setRunOutcome;
    }
    await settle();
    expect(watcher.received).toHaveLength(0);
    expect(await statusOf(reportRun(deps, claims, { type: 'succeeded', output: 1 }))).toBe(409);
    const [message] = await waitFor('the message', () => (watcher.received.length > 0 ? watcher.received : undefined));
    expect(JSON.parse(message!.body).data.run).toMatchObject({ outcome: 'succeeded', output: 1 });
    await settle();
    expect(watcher.received).toHaveLength(1);
  });

  test('a report racing the webhook answer that reports too: one outcome, one message', async () => {
    const { deps, receiver, endpointFor, orgName, claimsOf } = await setup();
    const watcher = await receiver();
    // The executor reports while its answer (which reports the same outcome) is on the way.
    let reported: Promise<number> | undefined;
    const executor: Receiver = await receiver((n) => {
      const runId = JSON.parse(executor.received[n - 1]!.body).data.run.run_id as string;
      reported = statusOf(reportRun(deps, claimsOf(runId), { type: 'succeeded', output: { by: 'report' } }));
      return { status: 200, body: JSON.stringify({ outcome: 'succeeded', output: { by: 'answer' } }) };
    });
    await endpointFor(executor, ['knap.run']);
    await endpointFor(watcher, ['knap.run.succeeded']);
    const knap = await putTestKnap(deps.repo, { ...OWNER, orgName });
    const run = await putPendingRun(deps.repo, knap.uuid, orgName);
    await deps.deliveries.enqueue(run.run_id, 0);
    await waitForRunStatus(deps.repo, run.run_id, 'delivered');
    const status = await waitFor('the report', () => reported);
    await waitFor('the message', () => (watcher.received.length > 0 ? true : undefined));
    await settle();
    expect(watcher.received).toHaveLength(1);
    // Whichever landed first is the outcome, on the run and in the one message.
    const stored = await deps.repo.getRun(run.run_id);
    const sent = JSON.parse(watcher.received[0]!.body).data.run;
    expect(sent.output).toEqual(stored!.run.output);
    expect(status === 201 ? { by: 'report' } : { by: 'answer' }).toEqual(stored!.run.output);
  });

  test('the queue refusing the job fails nothing: the report is stored and answered, the refusal logged', async () => {
    const { deps, receiver, endpointFor, deliveredRun, claimsOf } = await setup();
    const executor = await receiver();
    await endpointFor(executor, ['knap.run']);
    const run = await deliveredRun();
    const enqueue = deps.deliveries.enqueue.bind(deps.deliveries);
    deps.deliveries.enqueue = async () => {
      throw Object.assign(new Error('SQS is down'), { name: 'ServiceUnavailable' });
    };
    try {
      expect(await statusOf(reportRun(deps, claimsOf(run.run_id), { type: 'succeeded' }))).toBe(201);
    } finally {
      deps.deliveries.enqueue = enqueue;
    }
    expect((await deps.repo.getRun(run.run_id))?.run.outcome).toBe('succeeded');
    expect(deps.log.lines.filter((line) => line.level === 'error')).toEqual([
      expect.objectContaining({
        message: 'Run outcome message not queued: it will not be sent',
        extra: [{ run_id: run.run_id, reason: 'reported', error: 'ServiceUnavailable' }],
      }),
    ]);
  });
});

describe('round trips', () => {
  test('a progress report stays 3; a terminal one is 4 and one queue send (the deliverer reads the endpoints)', async () => {
    const { deps, receiver, endpointFor, deliveredRun, claimsOf, queue } = await setup();
    const executor = await receiver();
    await endpointFor(executor, ['knap.run']);
    const run = await deliveredRun();
    const claims = claimsOf(run.run_id);
    await reportRun(deps, claims, { type: 'running' });
    const sent = queue.queued.length;
    roundTrips.reset();
    await reportRun(deps, claims, { type: 'progress', message: 'half way' });
    expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, QueryCommand: 1, PutItemCommand: 1 });
    expect(queue.queued.length).toBe(sent);
    roundTrips.reset();
    await reportRun(deps, claims, { type: 'succeeded' });
    const counted = { ...roundTrips.byCommand };
    expect(counted).toEqual({ UpdateItemCommand: 2, QueryCommand: 1, PutItemCommand: 1 });
    expect(queue.queued.slice(sent).map((message: { runId: string }) => message.runId)).toEqual([
      outcomeJobId(run.run_id, 'reported'),
    ]);
  });

  test('the deliverer sends it with 4 reads and writes and one write per endpoint that takes it; a second copy of the job writes nothing', async () => {
    const { deps, receiver, endpointFor, deliveredRun, claimsOf, queue } = await setup();
    const executor = await receiver();
    await endpointFor(executor, ['knap.run']);
    const watchers = [await endpointFor(await receiver(), ['knap.run.succeeded']), await endpointFor(await receiver(), null)];
    const run = await deliveredRun();
    // From here the queue records and runs nothing: the job is handled by hand.
    const recording = new RecordingQueue();
    deps.deliveries = recording;
    await reportRun(deps, claimsOf(run.run_id), { type: 'succeeded' });
    expect(recording.queued).toEqual([{ runId: outcomeJobId(run.run_id, 'reported'), delaySeconds: 0 }]);

    roundTrips.reset();
    await handleDelivery(deps, outcomeJobId(run.run_id, 'reported'), undefined, queue.settings);
    // The run, the organization's endpoints (an index Query, their items), the message, a delivery per endpoint.
    expect(roundTrips.byCommand).toEqual({
      GetItemCommand: 1,
      QueryCommand: 1,
      BatchGetItemCommand: 1,
      PutItemCommand: 1,
      UpdateItemCommand: 2,
    });
    const messageId = outcomeMessageId(run.run_id);
    expect(
      recording.queued
        .slice(1)
        .map((queued) => [queued.runId, queued.endpointId])
        .sort(),
    ).toEqual(watchers.map((watcher) => [messageId, watcher.endpointId]).sort());

    roundTrips.reset();
    await handleDelivery(deps, outcomeJobId(run.run_id, 'reported'), undefined, queue.settings);
    // The same reads, the message's Put refused, its deliveries read: nothing started or queued again.
    expect(roundTrips.byCommand).toEqual({ GetItemCommand: 1, QueryCommand: 2, BatchGetItemCommand: 1, PutItemCommand: 1 });
    expect(recording.queued).toHaveLength(3);
  });
});
