/**
 * The dispatcher as deployed (functions/dispatch-runs, shared/services/dispatcher.ts): one
 * coordinator invocation a minute that drains what little is due itself and fans the rest out
 * as dispatch-queue messages, each one worker invocation's shards; on a real local DynamoDB.
 */
import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { COORDINATED, createHandler, STOP_MARGIN_MS } from '../../functions/dispatch-runs/handler.js';
import type { Knap } from '../../shared/domain/knaps.js';
import { DUE_SHARDS, runId } from '../../shared/domain/runs.js';
import type { Deps } from '../../shared/runtime.js';
import { describeSchedule } from '../../shared/schedules/index.js';
import {
  type CoordinateResult,
  type DispatchFanOut,
  type DispatchMessage,
  type DispatchResult,
  planDispatch,
  type ShardLoad,
} from '../../shared/services/dispatcher.js';
import { dueShard } from '../../shared/store/keys.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

/** Monday 09:00 UTC, and a second after: every Knap made here is due then. */
const DUE = '2026-11-30T09:00:00Z';
const clock = { now: () => new Date('2026-11-30T09:00:01Z') };
const METRIC = 'DispatcherLagSeconds';

let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table.close());

/** Sends nothing: remembers each message, or fails (`failing`). */
class RecordingFanOut implements DispatchFanOut {
  readonly sent: DispatchMessage[] = [];
  constructor(private readonly failing = false) {}
  async send(message: DispatchMessage): Promise<void> {
    if (this.failing) throw new Error('SQS is down');
    this.sent.push(message);
  }
}

/** N active scheduled Knaps of one organization, all due at DUE, stored. */
const dueKnaps = async (orgName: string, n: number): Promise<Knap[]> => {
  const { schedule_info } = describeSchedule('every Monday at 9am', { now: new Date('2026-11-29T12:00:00Z') });
  const knaps: Knap[] = Array.from({ length: n }, (_, index) => ({
    uuid: randomUUID(),
    name: `${orgName} ${index}`,
    creation_user_id: 1,
    schedule_type: 'scheduled',
    is_active: true,
    visibility: 'private',
    can_toggle_default_active: false,
    active_by_default: true,
    tool_metadata: { schedule_description: 'every Monday at 9am' },
    creation_timestamp: '2026-11-29T12:00:00.000Z',
    updated_at: '2026-11-29T12:00:00.000Z',
    schedule_info,
    next_run_at: DUE,
  }));
  const { repo } = table.deps(clock);
  await Promise.all(knaps.map((knap) => repo.putKnap(knap, { orgName, creatorClientId: 'knap_ci_dispatch' })));
  return knaps;
};

/** Each Knap has its run and was claimed (moved on): exactly once is the derived id plus the claim. */
const expectEachRanOnce = async (orgName: string, knaps: Knap[]) => {
  const { repo } = table.deps(clock);
  for (const knap of knaps) {
    expect(await repo.getRun(runId.scheduled(knap.uuid, DUE))).toBeDefined();
    expect((await repo.getKnap(orgName, knap.uuid))?.knap.next_run_at).toBe('2026-12-07T09:00:00Z');
  }
};

/** What the event source hands a worker: one record per message. */
const sqsEvent = (...messages: DispatchMessage[]): SQSEvent =>
  ({
    Records: messages.map((message, index) => ({
      messageId: `m-${index}`,
      body: JSON.stringify(message),
      eventSource: 'aws:sqs',
    })),
  }) as unknown as SQSEvent;

/** What the coordinator's invocation did: its answer, and its plan from its log line. */
const coordinate = async (
  deps: ReturnType<TestTable['deps']>,
  settings: Parameters<typeof createHandler>[1],
  context?: { getRemainingTimeInMillis(): number },
): Promise<CoordinateResult> => {
  const answer = await createHandler(deps, settings)({ 'detail-type': 'Scheduled Event', detail: {} }, context);
  expect(Object.keys(answer).sort()).toEqual(['claimed', 'created', 'lagSeconds']);
  const logged = deps.log.lines.filter((line) => line.message === COORDINATED).at(-1)?.extra[0] as CoordinateResult | undefined;
  return { due: 0, own: [], fannedOut: [], stopped: false, ...logged, ...answer };
};

const lagsOf = (deps: ReturnType<TestTable['deps']>) =>
  deps.metrics.recorded.filter((metric) => metric.name === METRIC).map((metric) => metric.value);

describe('planDispatch', () => {
  const loads = (dues: number[]): ShardLoad[] => dues.map((due, shard) => ({ shard, due, oldest: due > 0 ? DUE : null }));

  test('little due: the coordinator drains every shard with work, nothing is sent', () => {
    expect(planDispatch(loads([3, 0, 500, 0, 497]), 2, 1_000)).toEqual({ own: [0, 2, 4], messages: [] });
    expect(planDispatch(loads(Array(DUE_SHARDS).fill(0)), 2, 1_000)).toEqual({ own: [], messages: [] });
  });

  test('much due: each busy shard goes to exactly one invocation, at most `workers` messages, balanced', () => {
    const dues = [2_000, 2_000, 10, 0, 1_500, 300, 2_000, 2_000, 0, 0, 700, 2_000, 5, 2_000, 2_000, 40];
    const plan = planDispatch(loads(dues), 2, 1_000);
    expect(plan.messages).toHaveLength(2);
    const all = [plan.own, ...plan.messages].flat().sort((a, b) => a - b);
    expect(all).toEqual(dues.flatMap((due, shard) => (due > 0 ? [shard] : [])));
    const share = (shards: number[]) => shards.reduce((sum, shard) => sum + (dues[shard] ?? 0), 0);
    const shares = [plan.own, ...plan.messages].map(share);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(2_000);
    // The coordinator keeps the lightest share.
    expect(share(plan.own)).toBe(Math.min(...shares));
    // Many workers: one shard each, and no more messages than busy shards less the coordinator's.
    const wide = planDispatch(loads(dues), 16, 1_000);
    expect(wide.messages.every((shards) => shards.length === 1)).toBe(true);
    expect(wide.messages).toHaveLength(12);
  });

  test('one busy shard is never sent, however large: a worker would drain it no faster', () => {
    expect(planDispatch(loads([0, 0, 2_000]), 2, 1_000)).toEqual({ own: [2], messages: [] });
  });
});

describe('the coordinator and its workers', () => {
  test('little due: one invocation creates every run and sends no message', async () => {
    const knaps = await dueKnaps('little', 40);
    const deps = table.deps(clock);
    const fanOut = new RecordingFanOut();
    const result = await coordinate(deps, { fanOut, workers: 2 });
    expect(result).toMatchObject({ created: 40, claimed: 40, due: 40, fannedOut: [], stopped: false, lagSeconds: 1 });
    expect(fanOut.sent).toEqual([]);
    expect(new Set(deps.deliveries.queued.map((entry) => entry.runId)).size).toBe(40);
    expect(lagsOf(deps)).toEqual([1]);
    await expectEachRanOnce('little', knaps);

    // An idle minute: one invocation, nothing found, lag 0.
    const idle = table.deps(clock);
    expect(await coordinate(idle, { fanOut, workers: 2 })).toMatchObject({ created: 0, due: 0, fannedOut: [] });
    expect(lagsOf(idle)).toEqual([0]);
  });

  test('much due: the shards are fanned out, each once; the workers claim theirs; nothing lost or doubled', async () => {
    const knaps = await dueKnaps('much', 120);
    const busy = [...new Set(knaps.map((knap) => dueShard(knap.uuid)))].sort((a, b) => a - b);
    const coordinator = table.deps(clock);
    const fanOut = new RecordingFanOut();
    const result = await coordinate(coordinator, { fanOut, workers: 2, budget: 20 });

    expect(fanOut.sent).toHaveLength(2);
    expect(result.fannedOut).toEqual(expect.arrayContaining(fanOut.sent.map((message) => message.shards)));
    // Every busy shard exactly once: the coordinator's own, or one message's.
    expect([...result.own, ...fanOut.sent.flatMap((message) => message.shards)].sort((a, b) => a - b)).toEqual(busy);
    for (const message of fanOut.sent) expect(Date.parse(message.by)).toBeGreaterThan(Date.now());
    expect(result.created).toBe(knaps.filter((knap) => result.own.includes(dueShard(knap.uuid))).length);

    // Each message is one worker invocation; it drains exactly its shards.
    const worker = table.deps(clock);
    const results = await Promise.all(fanOut.sent.map((message) => createHandler(worker, { workers: 2 })(sqsEvent(message))));
    const made = (each: DispatchResult[]) => each.reduce((sum, one) => sum + one.created, 0);
    expect(result.created + made(results)).toBe(120);
    expect(result.claimed + results.reduce((sum, one) => sum + one.claimed, 0)).toBe(120);
    const queued = [...coordinator.deliveries.queued, ...worker.deliveries.queued].map((entry) => entry.runId);
    expect(new Set(queued).size).toBe(120);
    expect(queued).toHaveLength(120);
    await expectEachRanOnce('much', knaps);
    // Done: a second minute finds nothing.
    expect(await coordinate(table.deps(clock), { fanOut, workers: 2, budget: 20 })).toMatchObject({ due: 0, created: 0 });
  });

  test('a worker that fails part-way loses nothing: its message comes back stale, the next minute finishes, none twice', async () => {
    const knaps = await dueKnaps('failing', 80);
    const fanOut = new RecordingFanOut();
    const coordinator = table.deps(clock);
    const first = await coordinate(coordinator, { fanOut, workers: 2, budget: 10 });
    expect(fanOut.sent.length).toBeGreaterThan(0);

    // The first worker dies after a few claims: each Knap's run is written before its claim, so some are written and unclaimed.
    const dying = table.deps(clock);
    let claims = 0;
    const repo = dying.repo;
    const failingRepo = Object.create(repo) as Deps['repo'];
    failingRepo.claimOccurrence = async (stored, next) => {
      claims += 1;
      if (claims > 3) throw new Error('DynamoDB went away');
      return repo.claimOccurrence(stored, next);
    };
    const [failed, ...others] = fanOut.sent as [DispatchMessage, ...DispatchMessage[]];
    await expect(createHandler({ ...dying, repo: failingRepo }, { workers: 2 })(sqsEvent(failed))).rejects.toThrow(
      'DynamoDB went away',
    );
    const worker = table.deps(clock);
    const done = await Promise.all(others.map((message) => createHandler(worker, { workers: 2 })(sqsEvent(message))));

    // SQS hands the failed message back after its visibility timeout: the pass has ended, so it is dropped.
    const redelivered = table.deps(clock);
    const stale = { ...failed, by: new Date(Date.now() - 1_000).toISOString() };
    expect(await createHandler(redelivered, { workers: 2 })(sqsEvent(stale))).toEqual({ created: 0, claimed: 0, lagSeconds: 0 });
    expect(redelivered.log.lines.map((line) => line.message)).toContainEqual(
      expect.stringMatching(/after its pass ended, dropped/),
    );

    // The next minute's coordinator sees what is still due in the failed shards and finishes it.
    const next = table.deps(clock);
    const second = await coordinate(next, { fanOut: new RecordingFanOut(), workers: 2 });
    expect(second.due).toBeGreaterThan(0);
    const claimed = [first, ...done, second].reduce((sum, one) => sum + one.claimed, 0) + 3;
    expect(claimed).toBe(80);
    const created =
      [first, ...done, second].reduce((sum, one) => sum + one.created, 0) +
      dying.deliveries.queued.length; /* the dying worker's runs were queued as created */
    expect(created).toBe(80);
    await expectEachRanOnce('failing', knaps);
    // Every run was queued for delivery at least once, whoever created it.
    const queued = new Set(
      [coordinator, dying, worker, next].flatMap((deps) => deps.deliveries.queued.map((entry) => entry.runId)),
    );
    expect(queued).toEqual(new Set(knaps.map((knap) => runId.scheduled(knap.uuid, DUE))));
  });

  test('a fan-out that cannot send: the coordinator drains those shards itself, then fails the invocation', async () => {
    const knaps = await dueKnaps('unsent', 60);
    const deps = table.deps(clock);
    await expect(createHandler(deps, { fanOut: new RecordingFanOut(true), workers: 2, budget: 10 })({})).rejects.toThrow(
      'SQS is down',
    );
    await expectEachRanOnce('unsent', knaps);
    expect(new Set(deps.deliveries.queued.map((entry) => entry.runId)).size).toBe(60);
    expect(lagsOf(deps)).toEqual([1]);
  });

  test('a pass ends before the Lambda timeout: with no time left it starts nothing, and all of it stays due', async () => {
    const knaps = await dueKnaps('late', 30);
    const hurried = table.deps(clock);
    const noTime = { getRemainingTimeInMillis: () => STOP_MARGIN_MS - 1 };
    const result = await coordinate(hurried, { workers: 2 }, noTime);
    expect(result).toMatchObject({ created: 0, claimed: 0, due: 30, stopped: true, lagSeconds: 1 });
    // A worker's message, too.
    const message = { shards: [dueShard(knaps[0]!.uuid)], by: new Date(Date.now() + 60_000).toISOString() };
    expect(await createHandler(hurried, { workers: 2 })(sqsEvent(message), noTime)).toMatchObject({ created: 0, claimed: 0 });
    // The next minute, with time, does it all.
    const next = (await createHandler(table.deps(clock), { workers: 2 })(
      {},
      { getRemainingTimeInMillis: () => 55_000 },
    )) as DispatchResult;
    expect(next).toMatchObject({ created: 30, claimed: 30 });
    await expectEachRanOnce('late', knaps);
  });

  test('a delivery queue that never answers: the invocation fails before its timeout; the next pass claims and queues', async () => {
    const knaps = await dueKnaps('stalled', 5);
    const stalled = table.deps(clock);
    const never = { ...stalled.deliveries, enqueue: () => new Promise<void>(() => {}) };
    const started = Date.now();
    const timeoutMs = STOP_MARGIN_MS + 500;
    await expect(
      createHandler({ ...stalled, deliveries: never }, { workers: 2 })(
        {},
        { getRemainingTimeInMillis: () => timeoutMs - (Date.now() - started) },
      ),
    ).rejects.toThrow(/The delivery queue did not answer before the invocation's deadline/);
    expect(Date.now() - started).toBeLessThan(timeoutMs);
    // Its runs are written, their occurrences unclaimed: still due.
    const next = table.deps(clock);
    expect(await createHandler(next, { workers: 2 })({})).toMatchObject({ created: 0, claimed: 5 });
    expect(new Set(next.deliveries.queued.map((entry) => entry.runId))).toEqual(
      new Set(knaps.map((knap) => runId.scheduled(knap.uuid, DUE))),
    );
    await expectEachRanOnce('stalled', knaps);
  });

  test('unreadable worker messages are dropped, not retried', async () => {
    const deps = table.deps(clock);
    const event = {
      Records: [
        { messageId: 'a', body: 'not json', eventSource: 'aws:sqs' },
        { messageId: 'b', body: JSON.stringify({ shards: [DUE_SHARDS], by: new Date().toISOString() }), eventSource: 'aws:sqs' },
        { messageId: 'c', body: JSON.stringify({ shards: [1] }), eventSource: 'aws:sqs' },
      ],
    };
    expect(await createHandler(deps, { workers: 2 })(event)).toEqual({ created: 0, claimed: 0, lagSeconds: 0 });
    expect(deps.log.lines.filter((line) => line.message === 'Unreadable dispatch message, dropped')).toHaveLength(3);
  });
});
