/**
 * An invocation with `{"shards": [..]}` (a person invoking the dispatcher for some shards)
 * drains those shards of the due index and no other; any other event is the coordinator, which,
 * with no fan-out (as here and under `npm start`), drains them all; a malformed list fails the
 * invocation. The deployed coordinator and its workers: test/integration/dispatch-coordinator.test.ts.
 */
import { createHandler } from '../../functions/dispatch-runs/handler.js';
import { DUE_SHARDS } from '../../shared/domain/runs.js';
import { dueShard } from '../../shared/store/keys.js';
import { createKnap, startTestApi, type TestApi, tokenAt } from '../support/api.js';
import type { RecordingQueue } from '../support/dynamo.js';
import { body as json } from '../support/json.js';

let api: TestApi;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  const client = await api.newClient({ orgName: 'shards', rateLimit: 100_000 });
  token = await tokenAt(api, client, '2026-11-23T10:30:00Z');
});
afterAll(() => api.close());

const queued = () => (api.deps.deliveries as RecordingQueue).queued.length;

/**
 * Scheduled Knaps due at 11:00, until they are in at least two shards: their uuids (so their
 * shards) are the server's to choose, and two may share a shard, so they are counted by shard.
 */
const knapsInTwoShards = async (): Promise<Map<number, string[]>> => {
  const byShard = new Map<number, string[]>();
  while (byShard.size < 2) {
    const response = await createKnap(api.url, token, {
      name: 'daily',
      schedule_type: 'scheduled',
      tool_metadata: { schedule_description: 'every day at 11:00 UTC' },
    });
    expect(response.status).toBe(201);
    const { uuid } = await json(response);
    byShard.set(dueShard(uuid), [...(byShard.get(dueShard(uuid)) ?? []), uuid]);
  }
  return byShard;
};

test('an invocation for some shards runs the Knaps due there and leaves the others', async () => {
  const byShard = await knapsInTwoShards();
  const [[shard, here], [otherShard]] = [...byShard] as [[number, string[]], [number, string[]]];
  const total = [...byShard.values()].flat().length;
  api.clock.set('2026-11-23T11:00:00Z');
  const dispatch = createHandler(api.deps);
  const before = queued();

  expect(await dispatch({ shards: [shard] })).toMatchObject({ created: here.length, claimed: here.length });
  expect(queued() - before).toBe(here.length);
  expect(await dispatch({ shards: [shard] })).toMatchObject({ created: 0, claimed: 0 });

  // A Scheduled Event without shards (a local invocation) drains every shard: the rest.
  const rest = total - here.length;
  expect(await dispatch({ 'detail-type': 'Scheduled Event', detail: {} })).toMatchObject({ created: rest, claimed: rest });
  expect(await dispatch({ shards: [otherShard] })).toMatchObject({ created: 0, claimed: 0 });
  expect(queued() - before).toBe(total);
});

test.each([[[]], [[DUE_SHARDS]], [[-1]], [[1.5]], [['1']], [[2, 2]], ['all']])(
  'shards %j fail the invocation',
  async (shards) => {
    await expect(createHandler(api.deps)({ shards })).rejects.toThrow(/"shards" must list/);
  },
);
