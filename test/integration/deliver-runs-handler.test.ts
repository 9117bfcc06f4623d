import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { createHandler } from '../../functions/deliver-runs/handler.js';
import { systemClock } from '../../shared/domain/clock.js';
import type { Repository } from '../../shared/domain/repository.js';
import { runId } from '../../shared/domain/runs.js';
import { deliverySettingsFromEnv } from '../../shared/services/delivery.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { FakeClock } from '../support/clock.js';
import { OWNER, putPendingRun, putTestKnap, type Receiver, startReceiver } from '../support/deliveries.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { failingRepo, overriding } from '../support/failing-repo.js';

let table: TestTable;
let target: Receiver;
beforeAll(async () => {
  table = await startTestTable();
  target = await startReceiver();
});
afterAll(async () => {
  await target.close();
  await table.close();
});

const record = (messageId: string, body: string): SQSRecord => ({ messageId, body }) as SQSRecord;
const event = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
const settings = { ...deliverySettingsFromEnv({}), allowLocalhost: true };

/** The store, with getRun failing for one run, as a throttled or unreachable table would. */
const failingFor = (repo: Repository, badRunId: string): Repository =>
  overriding(repo, (inner) => ({
    getRun: (id: string) => (id === badRunId ? Promise.reject(new Error('ProvisionedThroughputExceeded')) : inner.getRun(id)),
  }));

describe('deliver-runs Lambda (SQS consumer)', () => {
  test('delivers a batch and reports only the records whose delivery threw', async () => {
    const deps = table.deps(systemClock);
    const org = 'handler-org';
    await addWebhook(deps, { orgName: org, url: target.url }, { allowLocalhost: true });
    const knap = await putTestKnap(deps.repo, { ...OWNER, orgName: org });
    const good = await putPendingRun(deps.repo, knap.uuid, org);
    const broken = await putPendingRun(deps.repo, knap.uuid, org);
    const handler = createHandler({ ...deps, repo: failingFor(deps.repo, broken.run_id) }, settings);

    const result = await handler(
      event(
        record('m-good', JSON.stringify({ run_id: good.run_id })),
        record('m-broken', JSON.stringify({ run_id: broken.run_id })),
        record('m-garbage', 'not json'),
      ),
    );

    // The unreadable message can never succeed: dropped (and logged), not retried.
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-broken' }] });
    // The run's start queued one message per endpoint: that one delivers it.
    const [toEndpoint] = deps.deliveries.queued;
    expect(toEndpoint).toEqual({ runId: good.run_id, delaySeconds: 0, endpointId: expect.stringMatching(/^we_/) });
    await handler(event(record('m-endpoint', JSON.stringify({ run_id: good.run_id, endpoint_id: toEndpoint?.endpointId }))));
    expect((await deps.repo.getRun(good.run_id))?.run.status).toBe('delivered');
    expect((await deps.repo.getRun(broken.run_id))?.run).toMatchObject({ status: 'pending', attempts: 0 });
    expect(deps.log.lines.map((line) => line.message)).toEqual(
      expect.arrayContaining(['Unreadable delivery message, dropped', 'Delivery failed; SQS will try again']),
    );
  });

  test('an endpoint that answers 500 is a recorded attempt and a new message, not a batch failure', async () => {
    const failing = await startReceiver(() => ({ status: 500 }));
    try {
      const deps = table.deps(systemClock);
      const org = 'handler-org-500';
      await addWebhook(deps, { orgName: org, url: failing.url }, { allowLocalhost: true });
      const knap = await putTestKnap(deps.repo, { ...OWNER, orgName: org });
      const run = await putPendingRun(deps.repo, knap.uuid, org);
      const handler = createHandler(deps, settings);
      expect(await handler(event(record('m-1', JSON.stringify({ run_id: run.run_id }))))).toEqual({ batchItemFailures: [] });
      const endpointId = deps.deliveries.queued[0]?.endpointId;
      const result = await handler(event(record('m-2', JSON.stringify({ run_id: run.run_id, endpoint_id: endpointId }))));
      expect(result).toEqual({ batchItemFailures: [] });
      expect((await deps.repo.getRun(run.run_id))?.run).toMatchObject({ status: 'pending', attempts: 1 });
      expect(deps.deliveries.queued).toEqual([
        { runId: run.run_id, delaySeconds: 0, endpointId },
        { runId: run.run_id, delaySeconds: expect.any(Number), endpointId },
      ]);
    } finally {
      await failing.close();
    }
  });

  test('a message whose not_before is still ahead goes back to the queue for the rest of the wait', async () => {
    const clock = new FakeClock(new Date('2026-11-23T10:00:00Z'));
    const deps = table.deps(clock);
    const knap = await putTestKnap(deps.repo, { ...OWNER, orgName: 'handler-org-wait' });
    const run = await putPendingRun(deps.repo, knap.uuid, 'handler-org-wait');
    const body = JSON.stringify({ run_id: run.run_id, not_before: '2026-11-23T10:25:00.000Z' });
    expect(await createHandler(deps, settings)(event(record('m-1', body)))).toEqual({ batchItemFailures: [] });
    expect(deps.deliveries.queued).toEqual([{ runId: run.run_id, delaySeconds: 1500 }]);
    expect((await deps.repo.getRun(run.run_id))?.run.attempts).toBe(0);

    clock.set('2026-11-23T10:25:00Z');
    await createHandler(deps, settings)(event(record('m-2', body)));
    expect((await deps.repo.getRun(run.run_id))?.run).toMatchObject({ status: 'no_endpoint', attempts: 1 });
  });

  test('a meeting_fan_out message makes the runs of its page and queues their deliveries; a store failure is retried', async () => {
    const deps = table.deps(systemClock);
    const org = 'handler-org-fan-out';
    const viewer = { clientId: 'knap_ci_fan_out', orgName: org };
    const uuids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const knap = await putTestKnap(
        deps.repo,
        { orgName: org, creatorClientId: viewer.clientId },
        { schedule_type: 'post_meeting_transcription' },
      );
      uuids.push(knap.uuid);
    }
    const first = await deps.repo.listMeetingKnaps(viewer, { limit: 1 });
    const task = {
      meeting: { meeting_id: 'm-1', title: null, occurred_at: null, transcript_url: null, user_id: null },
      client_id: viewer.clientId,
      org_name: org,
      cursor: first.next as string,
    };
    const body = JSON.stringify({ meeting_fan_out: task });

    const broken = createHandler({ ...deps, repo: failingRepo(deps.repo, 'listMeetingKnaps') }, settings);
    expect(await broken(event(record('m-broken', body)))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-broken' }] });

    expect(await createHandler(deps, settings)(event(record('m-1', body), record('m-1-again', body)))).toEqual({
      batchItemFailures: [],
    });
    const rest = uuids.filter((uuid) => uuid !== first.uuids[0]);
    const made = rest.map((uuid) => runId.meeting(uuid, 'm-1'));
    expect(deps.deliveries.queued.map((entry) => entry.runId).sort()).toEqual(made.sort());
    for (const id of made) expect((await deps.repo.getRun(id))?.run).toMatchObject({ status: 'pending', meeting_id: 'm-1' });
    expect(await deps.repo.getRun(runId.meeting(first.uuids[0] as string, 'm-1'))).toBeNull();
    expect(deps.deliveries.fanOuts).toEqual([]);
  });
});
