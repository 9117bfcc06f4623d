/**
 * npm start's delivery queue is timers in the server process: a run that waited for a retry
 * when the server stopped has none left. The next start finds it pending and tries it at once.
 * In a file of its own: the handlers' deps are made once per process, from the first stack.
 */
import { type LocalStack, startLocalStack } from '../../local/stack.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { OWNER, putPendingRun, putTestKnap, type Receiver, startReceiver, waitForRunStatus } from '../support/deliveries.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

describe('npm start after a stop that left runs pending', () => {
  let table: TestTable;
  let later: LocalStack | undefined;
  let receiver: Receiver;
  beforeAll(async () => {
    table = await startTestTable();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await later?.close();
    await receiver.close();
    await table.close();
  });

  test('delivers each pending run at once, and sends nothing for a run already delivered', async () => {
    // Written as an earlier server left them: no timer waits for any of them any more.
    const { repo } = table.deps();
    const org = 'restarted-org';
    await addWebhook(table.deps(), { orgName: org, url: receiver.url }, { allowLocalhost: true });
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const pending = [await putPendingRun(repo, knap.uuid, org), await putPendingRun(repo, knap.uuid, org)];
    const delivered = await putPendingRun(repo, knap.uuid, org);
    await repo.recordDeliveryAttempt(
      delivered.run_id,
      { number: 1, id: 'attempt-1', at: delivered.created_at, deliveredTo: [], error: null },
      'delivered',
    );
    expect((await repo.pendingRunIds()).sort()).toEqual(pending.map((run) => run.run_id).sort());

    later = await startLocalStack({
      port: 0,
      tableName: table.tableName,
      dynamodbEndpoint: table.endpoint,
      accessLog: false,
      dispatchIntervalMs: false,
    });
    expect(later.resumedRuns).toBe(2);
    for (const run of pending) expect((await waitForRunStatus(repo, run.run_id, 'delivered')).run.attempts).toBe(1);
    expect(receiver.received.map((request) => request.headers['webhook-id']).sort()).toEqual(
      pending.map((run) => run.run_id).sort(),
    );
    expect(await repo.pendingRunIds()).toEqual([]);
  });
});
