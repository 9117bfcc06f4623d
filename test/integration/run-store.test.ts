/**
 * The run store's organization listing, attempt log and redelivery (shared/store/run-store.ts)
 * on a real local DynamoDB, including runs as earlier versions stored them.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ATTEMPT_LOG_SIZE, newRun, runId, type StoredRun } from '../../shared/domain/runs.js';
import { listOrgRuns } from '../../shared/services/org-runs.js';
import { createDocumentClient, roundTrips } from '../../shared/store/dynamo-client.js';
import { key } from '../../shared/store/keys.js';
import { runToItem } from '../../shared/store/run-items.js';
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
    {
      at: '2026-11-20T09:00:00Z',
      endpoint_id: null,
      status: 'failed',
      error: 'HTTP 500',
      response_status: null,
      duration_ms: null,
      response_body: null,
      http_status: null,
    },
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
        entries: [
          {
            at,
            endpoint_id: 'we_1',
            status: 'failed',
            error: `HTTP ${number}`,
            response_status: 500,
            duration_ms: null,
            response_body: null,
            http_status: 500,
          },
        ],
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

describe("filtering an organization's runs (GET /api/admin/runs)", () => {
  const KNAP_A = '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c00a1';
  const KNAP_B = '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c00b2';
  /** Run n of 30, a minute apart: every 7th failed, every 3rd of Knap B, every 5th reported succeeded. */
  const runs: StoredRun[] = Array.from({ length: 30 }, (_, n) => {
    const base = storedRun('filtering', new Date(Date.UTC(2026, 10, 20, 8, n)).toISOString().replace('.000', ''));
    return {
      ...base,
      knapName: n % 3 === 0 ? 'Knap B' : 'Knap A',
      run: {
        ...base.run,
        knap_uuid: n % 3 === 0 ? KNAP_B : KNAP_A,
        status: n % 7 === 0 ? 'failed' : 'delivered',
        outcome: n % 5 === 0 ? 'succeeded' : null,
      },
    };
  });
  const newestFirst = (kept: (stored: StoredRun) => boolean) =>
    runs
      .filter(kept)
      .map((stored) => stored.run.run_id)
      .reverse();

  beforeAll(async () => {
    for (const stored of runs) await repo().putRun(stored);
    // A run of Knap B in another organization (a Knap's uuid never crosses organizations; a guessed one must not leak).
    await repo().putRun({ ...storedRun('elsewhere', '2026-11-20T09:00:00Z'), run: { ...runs[0]!.run, run_id: runId.manual() } });
  });

  /** Every page of a filter, following next_cursor: the ids in order, and the round trips of each page. */
  const allPages = async (limit: number, filter: Parameters<ReturnType<typeof repo>['listRunsByOrg']>[2]) => {
    const ids: string[] = [];
    const trips: number[] = [];
    let cursor: string | undefined;
    do {
      roundTrips.reset();
      const page = await repo().listRunsByOrg('filtering', { limit, ...(cursor ? { cursor } : {}) }, filter);
      trips.push(roundTrips.total);
      expect(page.runs.length).toBeLessThanOrEqual(limit);
      ids.push(...page.runs.map((stored) => stored.run.run_id));
      cursor = page.next ?? undefined;
    } while (cursor);
    return { ids, trips };
  };

  test('each filter, alone and together, lists exactly its runs, newest first, once each across pages', async () => {
    const cases = [
      { filter: { status: 'failed' as const }, kept: (s: StoredRun) => s.run.status === 'failed' },
      { filter: { outcome: 'succeeded' as const }, kept: (s: StoredRun) => s.run.outcome === 'succeeded' },
      { filter: { knapUuid: KNAP_B }, kept: (s: StoredRun) => s.run.knap_uuid === KNAP_B },
      {
        filter: { knapUuid: KNAP_A, status: 'delivered' as const, outcome: 'succeeded' as const },
        kept: (s: StoredRun) => s.run.knap_uuid === KNAP_A && s.run.status === 'delivered' && s.run.outcome === 'succeeded',
      },
    ];
    for (const { filter, kept } of cases) {
      for (const limit of [1, 2, 4, 100]) {
        const { ids } = await allPages(limit, filter);
        expect({ filter, limit, ids }).toEqual({ filter, limit, ids: newestFirst(kept) });
      }
    }
  });

  test('a page reads a bounded number of runs: at most 4 Queries of `limit`, then a shorter page with a cursor', async () => {
    // 5 failed runs of 30: with limit 2 a page reads at most 8 runs, so a page may find none and still go on.
    const { ids, trips } = await allPages(2, { status: 'failed' });
    expect(ids).toEqual(newestFirst((s) => s.run.status === 'failed'));
    expect(Math.max(...trips)).toBeLessThanOrEqual(4);
    expect(trips.length).toBeGreaterThan(Math.ceil(ids.length / 2));
    // Unfiltered and filtered by Knap alone: one Query a page.
    roundTrips.reset();
    const plain = await repo().listRunsByOrg('filtering', { limit: 10 });
    expect(plain.runs).toHaveLength(10);
    expect(roundTrips.total).toBe(1);
    roundTrips.reset();
    const ofKnap = await repo().listRunsByOrg('filtering', { limit: 5 }, { knapUuid: KNAP_B });
    expect(ofKnap.runs).toHaveLength(5);
    expect(roundTrips.total).toBe(1);
  });

  test("the Knap's name comes with each run (no read of the Knap); a Knap of another organization lists nothing", async () => {
    const page = await listOrgRuns(table.deps(), admin('filtering'), { limit: 3 });
    expect(page.runs.map((run) => run.knap_name)).toEqual(
      runs
        .slice(-3)
        .reverse()
        .map((stored) => stored.knapName),
    );
    expect((await repo().listRunsByOrg('elsewhere', { limit: 10 }, { knapUuid: KNAP_B })).runs).toHaveLength(1);
    const elsewhere = await repo().listRunsByOrg('nobody', { limit: 10 }, { knapUuid: KNAP_B });
    expect(elsewhere.runs).toEqual([]);
    // A cursor of one filter's listing is refused by another's partition.
    const first = await repo().listRunsByOrg('filtering', { limit: 1 }, { knapUuid: KNAP_A });
    await expect(
      repo().listRunsByOrg('filtering', { limit: 1, cursor: first.next as string }, { knapUuid: KNAP_B }),
    ).rejects.toThrow('Invalid cursor');
    // A run stored before runs kept the name reads null.
    const older = storedRun('filtering-old', '2026-11-19T08:00:00Z');
    await putEarlierRun(older, { gsi2pk: 'ORG#filtering-old#RUNS', gsi2sk: `2026-11-19T08:00:00Z#${older.run.run_id}` });
    const old = await listOrgRuns(table.deps(), admin('filtering-old'), { limit: 3 });
    expect(old.runs.map((run) => run.knap_name)).toEqual([null]);
  });
});
