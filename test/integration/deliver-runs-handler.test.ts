import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { createHandler } from '../../functions/deliver-runs/handler.js';
import { systemClock } from '../../shared/domain/clock.js';
import type { Repository } from '../../shared/domain/repository.js';
import { deliverySettingsFromEnv } from '../../shared/services/delivery.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { FakeClock } from '../support/clock.js';
import { OWNER, putPendingRun, putTestKnap, type Receiver, startReceiver } from '../support/deliveries.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

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
  new Proxy(repo, {
    get: (inner, property) => {
      if (property === 'getRun') {
        return (id: string) => (id === badRunId ? Promise.reject(new Error('ProvisionedThroughputExceeded')) : inner.getRun(id));
      }
      const value = Reflect.get(inner, property, inner);
      return typeof value === 'function' ? value.bind(inner) : value;
    },
  });

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
      const result = await createHandler(deps, settings)(event(record('m-1', JSON.stringify({ run_id: run.run_id }))));
      expect(result).toEqual({ batchItemFailures: [] });
      expect((await deps.repo.getRun(run.run_id))?.run).toMatchObject({ status: 'pending', attempts: 1 });
      expect(deps.deliveries.queued).toEqual([{ runId: run.run_id, delaySeconds: expect.any(Number) }]);
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
});
