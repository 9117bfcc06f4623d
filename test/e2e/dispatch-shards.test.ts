/**
 * The deployed dispatcher runs once per shard group each minute (lib/runs.ts): an invocation
 * with `{"shards": [..]}` drains those shards of the due index and no other; any other event
 * drains them all; a malformed list fails the invocation.
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

/** Scheduled Knaps due at 11:00, until two of them are in different shards. */
const knapsInTwoShards = async (): Promise<[string, string]> => {
  const byShard = new Map<number, string>();
  while (byShard.size < 2) {
    const response = await createKnap(api.url, token, {
      name: 'daily',
      schedule_type: 'scheduled',
      tool_metadata: { schedule_description: 'every day at 11:00 UTC' },
    });
    expect(response.status).toBe(201);
    const { uuid } = await json(response);
    byShard.set(dueShard(uuid), uuid);
  }
  return [...byShard.values()] as [string, string];
};

test('an invocation for some shards runs the Knaps due there and leaves the others', async () => {
  const [first, second] = await knapsInTwoShards();
  api.clock.set('2026-11-23T11:00:00Z');
  const dispatch = createHandler(api.deps);
  const before = queued();

  expect(await dispatch({ shards: [dueShard(first)] })).toMatchObject({ created: 1, claimed: 1 });
  expect(queued() - before).toBe(1);
  expect(await dispatch({ shards: [dueShard(first)] })).toMatchObject({ created: 0, claimed: 0 });

  // A Scheduled Event without shards (a local invocation) drains every shard: the rest.
  expect(await dispatch({ 'detail-type': 'Scheduled Event', detail: {} })).toMatchObject({ created: 1, claimed: 1 });
  expect(await dispatch({ shards: [dueShard(second)] })).toMatchObject({ created: 0, claimed: 0 });
  expect(queued() - before).toBe(2);
});

test.each([[[]], [[DUE_SHARDS]], [[-1]], [[1.5]], [['1']], [[2, 2]], ['all']])(
  'shards %j fail the invocation',
  async (shards) => {
    await expect(createHandler(api.deps)({ shards })).rejects.toThrow(/"shards" must list/);
  },
);
