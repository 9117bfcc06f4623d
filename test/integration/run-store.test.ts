/**
 * The run store's organization listing, attempt log and redelivery (shared/store/run-store.ts)
 * on a real local DynamoDB, including runs as earlier versions stored them.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ATTEMPT_LOG_SIZE, newRun, runId, type StoredRun } from '../../shared/domain/runs.js';
import { listOrgRuns } from '../../shared/services/org-runs.js';
import { createDocumentClient, roundTrips } from '../../shared/store/dynamo-client.js';
import { runToItem } from '../../shared/store/items.js';
import { key } from '../../shared/store/keys.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
let documents: ReturnType<typeof createDocumentClient>;
beforeAll(async () => {
  table = await startTestTable();
  documents = createDocumentClient({ endpoint: table.endpoint });
});
afterAll(async () => {
  documents.destroy();
  await table.close();
});

const repo = () => table.deps().repo;
const admin = (orgName: string) => ({ orgName, actor: { name: 'test', sourceIp: null } });

const storedRun = (orgName: string, createdAt: string): StoredRun => ({
  run: newRun({
    run_id: runId.manual(),
    knap_uuid: '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0001',
    trigger: 'manual',
    scheduled_for: null,
    meeting_id: null,
    created_at: createdAt,
  }),
  orgName,
  deliveredTo: [],
});

/** A run item as versions before the organization index and the attempt log wrote it. */
const putEarlierRun = async (stored: StoredRun, fields: Record<string, unknown> = {}) => {
  const { gsi2pk: _pk, gsi2sk: _sk, ...item } = runToItem(stored);
  await documents.send(new PutCommand({ TableName: table.tableName, Item: { ...item, ...fields } }));
};

test("an organization's runs, newest first, paged; runs of earlier versions listed once backfilled (idempotent)", async () => {
  const older = storedRun('listing', '2026-11-20T08:00:00Z');
  const newer = storedRun('listing', '2026-11-21T08:00:00Z');
  await repo().putRun(newer);
  await putEarlierRun(older, { status: 'failed', attempts: 3, last_attempt_at: '2026-11-20T09:00:00Z', last_error: 'HTTP 500' });
  await repo().putRun(storedRun('elsewhere', '2026-11-22T08:00:00Z'));
  expect((await repo().listRunsByOrg('listing', { limit: 10 })).runs.map((r) => r.run.run_id)).toEqual([newer.run.run_id]);

  expect(await repo().backfillOrgRunsIndex()).toBeGreaterThanOrEqual(1);
  expect(await repo().backfillOrgRunsIndex()).toBe(0);
  const first = await repo().listRunsByOrg('listing', { limit: 1 });
  expect(first.runs.map((r) => r.run.run_id)).toEqual([newer.run.run_id]);
  const second = await repo().listRunsByOrg('listing', { limit: 1, cursor: first.next as string });
  expect(second.runs.map((r) => r.run.run_id)).toEqual([older.run.run_id]);

  // An earlier run kept only its last attempt's outcome: shown as one attempt without an endpoint.
  const page = await listOrgRuns(table.deps(), admin('listing'), { limit: 10 });
  expect(page.runs.find((run) => run.run_id === older.run.run_id)?.delivery_attempts).toEqual([
    { at: '2026-11-20T09:00:00Z', endpoint_id: null, status: 'failed', error: 'HTTP 500' },
  ]);
  // Another organization's cursor is refused, not followed.
  await expect(repo().listRunsByOrg('elsewhere', { limit: 1, cursor: first.next as string })).rejects.toThrow('Invalid cursor');
});

test(`the attempt log keeps the last ${ATTEMPT_LOG_SIZE} attempts, oldest first, in a bounded item`, async () => {
  const stored = storedRun('ring', '2026-11-21T08:00:00Z');
  await repo().putRun(stored);
  const total = ATTEMPT_LOG_SIZE + 6;
  for (let number = 1; number <= total; number += 1) {
    const at = new Date(Date.UTC(2026, 10, 21, 9, 0, number)).toISOString().replace('.000', '');
    const recorded = await repo().recordDeliveryAttempt(
      stored.run.run_id,
      {
        number,
        id: `attempt-${number}`,
        at,
        deliveredTo: [],
        error: `HTTP ${number}`,
        entries: [{ at, endpoint_id: 'we_1', status: 'failed', error: `HTTP ${number}` }],
      },
      'pending',
    );
    expect(recorded?.run.attempts).toBe(number);
  }
  const read = await repo().getRun(stored.run.run_id);
  expect(read?.attemptLog?.map((entry) => entry.error)).toEqual(
    Array.from({ length: ATTEMPT_LOG_SIZE }, (_, index) => `HTTP ${total - ATTEMPT_LOG_SIZE + index + 1}`),
  );
  const item = await table.item(key.run(stored.run.run_id));
  expect(Object.keys(item ?? {}).filter((name) => name.startsWith('da_'))).toHaveLength(ATTEMPT_LOG_SIZE);
});

test('redelivery: one conditional write; a pending run is left alone; another organization finds nothing', async () => {
  const stored = storedRun('redeliver', '2026-11-21T08:00:00Z');
  await repo().putRun(stored);
  expect(await repo().redeliverRun(stored.run.run_id, 'redeliver')).toBe('pending');
  await repo().recordDeliveryAttempt(
    stored.run.run_id,
    { number: 1, id: 'a1', at: '2026-11-21T08:00:01Z', deliveredTo: ['we_1'], error: null },
    'delivered',
  );
  expect(await repo().redeliverRun(stored.run.run_id, 'other')).toBe('not_found');
  expect(await repo().redeliverRun('run_missing', 'redeliver')).toBe('not_found');
  roundTrips.reset();
  expect(await repo().redeliverRun(stored.run.run_id, 'redeliver')).toBe('redelivering');
  expect(roundTrips.total).toBe(1);
  const read = await repo().getRun(stored.run.run_id);
  expect(read).toMatchObject({ deliveredTo: [], retryBase: 1, run: { status: 'pending', attempts: 1 } });
  expect(await repo().redeliverRun(stored.run.run_id, 'redeliver')).toBe('pending');
});
