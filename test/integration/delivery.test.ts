import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { systemClock } from '../../shared/domain/clock.js';
import { openReportToken, REPORT_TOKEN_SECONDS } from '../../shared/domain/report-tokens.js';
import { DELIVERY_LOG_SIZE } from '../../shared/domain/webhooks.js';
import { deliverRun, deliverToEndpoint, KNAP_DELETED, NO_ENDPOINT } from '../../shared/services/delivery.js';
import { adminRunView } from '../../shared/services/org-runs.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { createDynamoClient, sdkDocuments } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';
import { delayBounds, RETRY_POLICY } from '../../shared/webhooks/retry.js';
import {
  type Answer,
  type DeliveringQueue,
  deliverWith,
  OWNER,
  putPendingRun,
  putTestKnap,
  type Receiver,
  startReceiver,
  type TestDeliveryOptions,
  waitFor,
  waitForRunStatus,
} from '../support/deliveries.js';
import { tableForFile } from '../support/dynamo.js';

const file = tableForFile();

/** Deps over the test table with the real local queue (waits 1000 times shorter unless said). */
const setup = (options: TestDeliveryOptions = {}) => {
  const deps = file.table.deps(systemClock);
  const queue: DeliveringQueue = deliverWith(deps, options);
  file.cleanup(() => queue.close());
  return { deps, queue, repo: deps.repo };
};

const receiver = async (answer?: (n: number) => Answer): Promise<Receiver> => {
  const started = await startReceiver(answer);
  file.cleanup(() => started.close());
  return started;
};

/** Where a receiver is, as errors name it: scheme, host and port, never the path. */
const origin = (target: Receiver): string => new URL(target.url).origin;

/** The endpoints that took a run. */
const deliveredTo = async (repo: ReturnType<typeof setup>['repo'], runId: string): Promise<string[]> =>
  (await repo.runDeliveries(runId)).filter((delivery) => delivery.status === 'delivered').map((delivery) => delivery.endpointId);

/** Starts a run's delivery to one endpoint, without queueing its attempt (the test makes it). */
const startWithoutSending = async (deps: ReturnType<typeof setup>['deps'], runId: string, endpointId: string) => {
  const stored = await deps.repo.getRun(runId);
  const started = await deps.repo.startDeliveries(
    { runId, orgName: stored?.orgName as string, round: 1, all: false, now: new Date().toISOString(), expiresAt: 2_000_000_000 },
    [endpointId],
  );
  expect(started).toEqual([endpointId]);
};

let orgs = 0;
const newOrg = () => `delivery-org-${++orgs}`;

/** A pending run of a new organization whose one webhook endpoint answers with `answer` (204 by default). */
const pendingRunFor = async (deps: ReturnType<typeof setup>['deps'], answer?: (n: number) => Answer) => {
  const org = newOrg();
  const target = await receiver(answer);
  const endpoint = await addWebhook(deps, { orgName: org, url: target.url }, { allowLocalhost: true });
  const knap = await putTestKnap(deps.repo, { ...OWNER, orgName: org });
  return { org, target, endpoint, knap, run: await putPendingRun(deps.repo, knap.uuid, org) };
};

describe('run delivery', () => {
  test('each run is POSTed as a Standard Webhooks message that Webhook.verify accepts', async () => {
    const { deps, queue, repo } = setup();
    const { target, endpoint, knap, run } = await pendingRunFor(deps);

    await deps.deliveries.enqueue(run.run_id, 0);
    const stored = await waitForRunStatus(repo, run.run_id, 'delivered');

    expect(stored.run).toMatchObject({ status: 'delivered', attempts: 1, last_error: null });
    expect(Date.parse(stored.run.last_attempt_at as string)).not.toBeNaN();
    expect(await deliveredTo(repo, run.run_id)).toEqual([endpoint.endpointId]);
    expect(target.received).toHaveLength(1);
    const [delivery] = target.received;
    const headers = delivery?.headers as Record<string, string>;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe(run.run_id);
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    const payload = new Webhook(endpoint.secret).verify(delivery?.body as string, headers) as Record<string, unknown>;
    expect(payload).toEqual({
      type: 'knap.run',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      data: {
        run: {
          ...run,
          status: 'pending',
          report_url: `http://127.0.0.1:3000/api/studio/runs/${run.run_id}/events`,
          report_token: expect.stringMatching(/^knap_rpt_/),
        },
        knap,
      },
    });
    // Signed with that endpoint's secret and no other; and the body cannot be changed.
    const other = await addWebhook(deps, { orgName: newOrg(), url: target.url }, { allowLocalhost: true });
    expect(() => new Webhook(other.secret).verify(delivery?.body as string, headers)).toThrow('No matching signature found');
    expect(() => new Webhook(endpoint.secret).verify(`${delivery?.body} `, headers)).toThrow();
    // The run's start, then its one endpoint's attempt.
    expect(queue.queued).toEqual([
      { runId: run.run_id, delaySeconds: 0 },
      { runId: run.run_id, delaySeconds: 0, endpointId: endpoint.endpointId },
    ]);
  });

  test('a receiver that fails twice gets the run three times, with the same webhook-id, then it is delivered', async () => {
    const { deps, queue, repo } = setup();
    const { target, endpoint, run } = await pendingRunFor(deps, (n) => (n <= 2 ? { status: 500 } : { status: 200 }));

    await deps.deliveries.enqueue(run.run_id, 0);
    const stored = await waitForRunStatus(repo, run.run_id, 'delivered');

    expect(stored.run).toMatchObject({ attempts: 3, last_error: null });
    expect(target.received.map((r) => r.headers['webhook-id'])).toEqual([run.run_id, run.run_id, run.run_id]);
    for (const delivery of target.received) {
      expect(() => new Webhook(endpoint.secret).verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow();
    }
    // Each attempt carries a report token of its own, good for 24 hours from that attempt.
    const reportTokens = target.received.map((r) => JSON.parse(r.body).data.run.report_token as string);
    expect(reportTokens).toHaveLength(3);
    for (const [index, token] of reportTokens.entries()) {
      const claims = await openReportToken(token, deps.tokenKeys);
      const sentAt = Number(target.received[index]?.headers['webhook-timestamp']);
      expect(claims).toEqual({ runId: run.run_id, orgName: expect.any(String), expiresAt: sentAt + REPORT_TOKEN_SECONDS });
    }
    // What each attempt said about the run: attempts 0, 1, 2 before it.
    expect(target.received.map((r) => (JSON.parse(r.body) as { data: { run: { attempts: number } } }).data.run.attempts)).toEqual(
      [0, 1, 2],
    );
    // Queued once by its creator, once for its endpoint, then after each failure with a backoff inside the schedule's bounds.
    const [first, toEndpoint, retry1, retry2, ...more] = queue.queued;
    expect(first).toEqual({ runId: run.run_id, delaySeconds: 0 });
    expect(toEndpoint).toEqual({ runId: run.run_id, delaySeconds: 0, endpointId: endpoint.endpointId });
    expect(more).toEqual([]);
    for (const [retry, attempts] of [
      [retry1, 1],
      [retry2, 2],
    ] as const) {
      const [shortest, longest] = delayBounds(attempts);
      expect(retry?.delaySeconds).toBeGreaterThanOrEqual(shortest);
      expect(retry?.delaySeconds).toBeLessThanOrEqual(longest);
    }
  });

  test('the attempt between failures is recorded: pending, attempts and last_error', async () => {
    // A queue whose waits are long (deployed speed): the first failure stays recorded for us to read.
    const { deps, queue, repo } = setup({ timeScale: 1 });
    const { target, run } = await pendingRunFor(deps, () => ({ status: 503 }));

    await deps.deliveries.enqueue(run.run_id, 0);
    // The attempt is stored before its job queues the retry and ends: wait for both.
    const stored = await waitFor('the first attempt, its job ended', async () => {
      const current = await repo.getRun(run.run_id);
      return current && current.run.attempts === 1 && queue.queue.size.running === 0 ? current : undefined;
    });
    expect(stored.run).toMatchObject({ status: 'pending', attempts: 1, last_error: `HTTP 503 from ${origin(target)}` });
    expect(queue.queue.size).toEqual({ waiting: 1, running: 0 });
    expect(queue.queued[2]?.delaySeconds).toBeGreaterThanOrEqual(delayBounds(1)[0]);
  });

  test('after the last attempt the run is failed; last_error never holds the answer body', async () => {
    const leak = 'Traceback: secret=whsec_FAKEbody0123456789 token=knap_at_fake';
    const { deps, queue, repo } = setup({ timeScale: 1 / 100_000 });
    const { target, endpoint, knap, run } = await pendingRunFor(deps, () => ({ status: 500, body: leak }));

    await deps.deliveries.enqueue(run.run_id, 0);
    const stored = await waitForRunStatus(repo, run.run_id, 'failed');

    expect(stored.run).toMatchObject({
      status: 'failed',
      attempts: RETRY_POLICY.maxAttempts,
      last_error: `HTTP 500 from ${origin(target)}`,
    });
    expect(await deliveredTo(repo, run.run_id)).toEqual([]);
    expect(target.received).toHaveLength(RETRY_POLICY.maxAttempts);
    // The run's start, its endpoint's first attempt, one per failure but the last, and its
    // knap.run.failed message (queued once the run's chain has ended).
    await waitFor('the outcome message', () => (queue.queued.length > RETRY_POLICY.maxAttempts + 1 ? true : undefined));
    expect(queue.queued).toHaveLength(RETRY_POLICY.maxAttempts + 2);
    expect(queue.queued.at(-1)).toEqual({ runId: `outcome.delivery_failed.${run.run_id}`, delaySeconds: 0 });
    const everything = JSON.stringify([stored, (await repo.listRuns(knap.uuid, { limit: 10 })).runs, deps.log.lines]);
    expect(everything).not.toContain('Traceback');
    expect(everything).not.toContain('whsec_');
    expect(everything).not.toContain(endpoint.secret);
    // A failed run is left alone by a late message (the queue delivers at least once).
    await deliverRun(deps, run.run_id, queue.settings);
    await deliverToEndpoint(deps, run.run_id, endpoint.endpointId, queue.settings);
    expect(target.received).toHaveLength(RETRY_POLICY.maxAttempts);
  });

  test('a failed run redelivered gets its retries afresh, each attempt logged per endpoint', async () => {
    const { deps, repo } = setup({ timeScale: 1 / 100_000 });
    const { endpoint, org, run } = await pendingRunFor(deps, () => ({ status: 500 }));
    await deps.deliveries.enqueue(run.run_id, 0);
    await waitForRunStatus(repo, run.run_id, 'failed');

    expect(await repo.redeliverRun(run.run_id, org)).toBe('redelivering');
    await deps.deliveries.enqueue(run.run_id, 0);
    const again = await waitFor('the redelivery to fail for good', async () => {
      const current = await repo.getRun(run.run_id);
      return current?.run.status === 'failed' && current.run.attempts === 2 * RETRY_POLICY.maxAttempts ? current : undefined;
    });
    const logged = adminRunView(again, await repo.runDeliveries(run.run_id)).delivery_attempts;
    expect(logged).toHaveLength(Math.min(2 * RETRY_POLICY.maxAttempts, DELIVERY_LOG_SIZE));
    expect(logged.every((entry) => entry.endpoint_id === endpoint.endpointId && entry.status === 'failed')).toBe(true);
  });

  test('a slow endpoint holds up neither the other endpoints of the run nor other runs', async () => {
    const { deps, repo } = setup({ settings: { timeoutMs: 4000, retry: { ...RETRY_POLICY, maxAttempts: 2 } } });
    const org = newOrg();
    const slow = await receiver((n) => (n === 1 ? 'hang' : { status: 200 }));
    const fast = await receiver();
    await addWebhook(deps, { orgName: org, url: slow.url }, { allowLocalhost: true });
    const fastEndpoint = await addWebhook(deps, { orgName: org, url: fast.url }, { allowLocalhost: true });
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const stuck = await putPendingRun(repo, knap.uuid, org);
    await deps.deliveries.enqueue(stuck.run_id, 0);
    await waitFor('the slow endpoint to hang', () => (slow.received.length === 1 ? true : undefined));

    // The fast endpoint of the same run has it already, while the slow one still hangs ...
    await waitFor('the fast endpoint', () => (fast.received.length === 1 ? true : undefined), 2000);
    // ... and another run (another organization, only a fast endpoint) is delivered meanwhile.
    const otherOrg = newOrg();
    const otherTarget = await receiver();
    await addWebhook(deps, { orgName: otherOrg, url: otherTarget.url }, { allowLocalhost: true });
    const otherKnap = await putTestKnap(repo, { ...OWNER, orgName: otherOrg });
    const other = await putPendingRun(repo, otherKnap.uuid, otherOrg);
    await deps.deliveries.enqueue(other.run_id, 0);
    await waitForRunStatus(repo, other.run_id, 'delivered', 2000);
    // Proof of "meanwhile": the slow endpoint's first attempt can end only at the 4 s timeout.
    expect((await repo.getRun(stuck.run_id))?.run).toMatchObject({ status: 'pending', attempts: 1 });

    // The slow endpoint times out; the retry goes to it alone, and the run is delivered.
    const done = await waitForRunStatus(repo, stuck.run_id, 'delivered');
    expect(done.run.attempts).toBe(3);
    expect(fast.received).toHaveLength(1);
    expect(slow.received).toHaveLength(2);
    const took = await deliveredTo(repo, stuck.run_id);
    expect(took).toContain(fastEndpoint.endpointId);
    expect(took).toHaveLength(2);
  });

  test('a timed-out attempt is recorded as such', async () => {
    const { deps, repo } = setup({ settings: { timeoutMs: 200, retry: { ...RETRY_POLICY, maxAttempts: 1 } } });
    const { target, run } = await pendingRunFor(deps, () => 'hang');
    await deps.deliveries.enqueue(run.run_id, 0);
    const stored = await waitForRunStatus(repo, run.run_id, 'failed');
    expect(stored.run.last_error).toBe(`timed out after 0.2 s (${origin(target)})`);
  });

  test('no endpoint in the organization: no_endpoint, and no retry', async () => {
    const { deps, queue, repo } = setup();
    const org = newOrg();
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const run = await putPendingRun(repo, knap.uuid, org);
    await deps.deliveries.enqueue(run.run_id, 0);
    const stored = await waitForRunStatus(repo, run.run_id, 'no_endpoint');
    expect(stored.run).toMatchObject({ attempts: 1, last_error: NO_ENDPOINT });
    expect(queue.queued).toHaveLength(1);
  });

  test('a Knap deleted before delivery never runs: failed, and nothing is sent', async () => {
    const { deps, queue, repo } = setup();
    const { org, target, knap, run } = await pendingRunFor(deps);
    const stored = await repo.getKnap(org, knap.uuid);
    expect(await repo.deleteKnap(org, knap.uuid, stored?.version as number)).toBe(true);

    await deps.deliveries.enqueue(run.run_id, 0);
    const failed = await waitForRunStatus(repo, run.run_id, 'failed');
    expect(failed.run).toMatchObject({ attempts: 1, last_error: KNAP_DELETED });
    expect(target.received).toHaveLength(0);
    expect(queue.queued).toHaveLength(1);
  });

  test('the same message twice (at-least-once) delivers once', async () => {
    const { deps, queue, repo } = setup({ timeScale: 1 });
    const { target, endpoint, run } = await pendingRunFor(deps);
    // Two copies of the run's start queue one attempt; two copies of that attempt send once.
    await deliverRun(deps, run.run_id, queue.settings);
    await deliverRun(deps, run.run_id, queue.settings);
    expect(queue.queued.filter((entry) => entry.endpointId)).toHaveLength(1);
    await waitForRunStatus(repo, run.run_id, 'delivered');
    await deliverToEndpoint(deps, run.run_id, endpoint.endpointId, queue.settings);
    expect(target.received).toHaveLength(1);
    expect((await repo.getRun(run.run_id))?.run).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await deliverRun(deps, 'run_does_not_exist', queue.settings)).toBeNull();
  });

  test('the same attempt twice at once records one attempt and queues one retry', async () => {
    // Deployed waits: the one retry stays queued for us to count.
    const { deps, queue, repo } = setup({ timeScale: 1 });
    // Neither request is answered until both have arrived, so both deliveries read the delivery first.
    const { target, endpoint, run } = await pendingRunFor(deps, () => 'hang');
    await startWithoutSending(deps, run.run_id, endpoint.endpointId);

    const attempt = () => deliverToEndpoint(deps, run.run_id, endpoint.endpointId, queue.settings);
    const both = Promise.all([attempt(), attempt()]);
    await waitFor('both requests', () => (target.received.length === 2 ? true : undefined));
    await target.close();
    const results = await both;

    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect((await repo.getRun(run.run_id))?.run).toMatchObject({ status: 'pending', attempts: 1 });
    expect(queue.queued.filter((entry) => entry.endpointId)).toHaveLength(1);
    expect(queue.queue.size).toEqual({ waiting: 1, running: 0 });
  });

  test('an attempt whose write landed but whose answer was lost is recorded once, and the next is queued', async () => {
    const { deps, queue, repo } = setup({ timeScale: 1 });
    const { endpoint, run } = await pendingRunFor(deps, () => ({ status: 503 }));
    await startWithoutSending(deps, run.run_id, endpoint.endpointId);
    // The first UpdateItem reaches the table, then its answer is lost: the SDK tries it again.
    const client = createDynamoClient({ endpoint: file.table.endpoint });
    let lost = 0;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (context.commandName !== 'UpdateItemCommand' || lost > 0) return result;
        lost += 1;
        throw Object.assign(new Error('The answer was lost'), { name: 'TimeoutError' });
      },
      // Inside the SDK's retry middleware, after the request was answered.
      { step: 'deserialize', name: 'loseFirstAnswer' },
    );
    file.cleanup(async () => client.destroy());
    const lossy = {
      ...deps,
      repo: new DynamoRepository(sdkDocuments(DynamoDBDocumentClient.from(client)), file.table.tableName),
    };

    const stored = await deliverToEndpoint(lossy, run.run_id, endpoint.endpointId, queue.settings);
    expect(lost).toBe(1);
    expect(stored).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await repo.getRun(run.run_id))?.run).toMatchObject({ status: 'pending', attempts: 1 });
    expect(queue.queued.filter((entry) => entry.endpointId)).toHaveLength(1);
  });

  test('deployed (localhost not allowed) a loopback or private endpoint is refused and never reached', async () => {
    const { deps, repo } = setup({ settings: { allowLocalhost: false, retry: { ...RETRY_POLICY, maxAttempts: 1 } } });
    const org = newOrg();
    const target = await receiver();
    // Written past the admin CLI's check, as if DNS had changed since: the delivery checks again.
    await repo.putWebhookEndpoint({
      endpointId: 'we_loopback',
      orgName: org,
      url: target.url.replace('http:', 'https:'),
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      createdAt: '2026-11-23T10:00:00Z',
    });
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const run = await putPendingRun(repo, knap.uuid, org);
    await deps.deliveries.enqueue(run.run_id, 0);
    const stored = await waitForRunStatus(repo, run.run_id, 'failed');
    expect(stored.run.last_error).toBe(
      "refused: The URL's host 127.0.0.1 is a loopback address; webhooks go to public addresses only",
    );
    expect(target.received).toHaveLength(0);

    // A host name is resolved at delivery time, and a private answer is refused.
    const resolved = setup({
      settings: {
        allowLocalhost: false,
        retry: { ...RETRY_POLICY, maxAttempts: 1 },
        resolve: async () => [{ address: '10.20.30.40', family: 4 }],
      },
    });
    const org2 = newOrg();
    await resolved.repo.putWebhookEndpoint({
      endpointId: 'we_private',
      orgName: org2,
      url: 'https://hooks.internal.test/knap',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      createdAt: '2026-11-23T10:00:00Z',
    });
    const knap2 = await putTestKnap(resolved.repo, { ...OWNER, orgName: org2 });
    const run2 = await putPendingRun(resolved.repo, knap2.uuid, org2);
    await resolved.deps.deliveries.enqueue(run2.run_id, 0);
    expect((await waitForRunStatus(resolved.repo, run2.run_id, 'failed')).run.last_error).toBe(
      'refused: hooks.internal.test resolves to a private address',
    );
  });

  test('the errors of several endpoints are all named in last_error', async () => {
    const { deps, repo } = setup({ settings: { retry: { ...RETRY_POLICY, maxAttempts: 1 } } });
    const org = newOrg();
    const ok = await receiver();
    const bad = await receiver(() => ({ status: 404 }));
    const worse = await receiver(() => ({ status: 502 }));
    const endpoints: string[] = [];
    for (const target of [ok, bad, worse]) {
      endpoints.push((await addWebhook(deps, { orgName: org, url: target.url }, { allowLocalhost: true })).endpointId);
    }
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const run = await putPendingRun(repo, knap.uuid, org);
    await deps.deliveries.enqueue(run.run_id, 0);
    const stored = await waitForRunStatus(repo, run.run_id, 'failed');
    const deliveries = await repo.runDeliveries(run.run_id);
    // In the organization's endpoint order (by creation; these were made in the same second).
    // With each endpoint's delivery beside it, so that a failure says which one went astray.
    expect({
      lastError: stored.run.last_error?.split('; ').sort(),
      deliveries: deliveries.map((delivery) => [delivery.endpointId, delivery.status]).sort(),
      received: [ok, bad, worse].map((target) => target.received.length),
    }).toEqual({
      lastError: [`HTTP 404 from ${origin(bad)}`, `HTTP 502 from ${origin(worse)}`].sort(),
      deliveries: [
        [endpoints[0], 'delivered'],
        [endpoints[1], 'failed'],
        [endpoints[2], 'failed'],
      ].sort(),
      received: [1, 1, 1],
    });
  });
});
