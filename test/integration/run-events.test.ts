/**
 * A run's event chain on a real local DynamoDB (shared/services/run-events.ts and the store's
 * run-event-store.ts): ids dense and in stored order under concurrent writers, one conditional
 * write per event, the round trips of a report, the caps, and runs as earlier versions stored them.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { sealReportToken } from '../../shared/domain/report-tokens.js';
import { MAX_REPORTS_PER_RUN, MAX_REPORTS_PER_WINDOW } from '../../shared/domain/run-events.js';
import type { StoredRun } from '../../shared/domain/runs.js';
import { ApiError } from '../../shared/errors.js';
import { appendRunEvent, authenticateReport, eventsSince, reportRun } from '../../shared/services/run-events.js';
import { type RunWatcher, streamRunEvents } from '../../shared/services/run-watch.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { key } from '../../shared/store/keys.js';
import { runToItem } from '../../shared/store/run-items.js';
import { FakeClock } from '../support/clock.js';
import { putPendingRun, putTestKnap, waitFor } from '../support/deliveries.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
const clock = new FakeClock(new Date('2026-11-23T10:00:00Z'));
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table.close());

const deps = () => table.deps(clock);
const isoNow = () =>
  clock
    .now()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
const newRun = async () => {
  const knap = await putTestKnap(deps().repo);
  return putPendingRun(deps().repo, knap.uuid);
};
const claimsOf = (runId: string) => ({ runId, orgName: 'acme', expiresAt: Math.floor(clock.now().getTime() / 1000) + 3600 });
const statusOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 201;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
};

// Each writer loses a slot only to another writer's win, so 12 writers never need more than
// the 16 tries appendRunEvent makes: the outcome cannot depend on timing.
test('concurrent writers get dense ids, in stored order, each event once', async () => {
  const run = await newRun();
  const writers = Array.from({ length: 12 }, (_, index) =>
    appendRunEvent(deps(), run.run_id, { type: 'delivered', at: '2026-11-23T10:00:00Z', endpoint_id: `we_${index}` }),
  );
  const results = await Promise.all(writers);
  const ids = results.map((result) => (typeof result === 'string' ? -1 : result.event.id)).sort((a, b) => a - b);
  expect(ids).toEqual(Array.from({ length: 12 }, (_, index) => index + 2));
  const stored = await deps().repo.getRun(run.run_id);
  const { events } = await eventsSince(deps(), stored!, 0);
  expect(events.map((event) => event.id)).toEqual(Array.from({ length: 13 }, (_, index) => index + 1));
  expect(events[0]).toEqual({ id: 1, type: 'created', at: run.created_at });
  expect(new Set(events.slice(1).map((event) => (event as { endpoint_id: string }).endpoint_id)).size).toBe(12);
});

test('a progress report costs 3 round trips (meter, last event, one conditional Put); the first running one writes the outcome too', async () => {
  clock.advance(60);
  const run = await newRun();
  const claims = claimsOf(run.run_id);
  roundTrips.reset();
  const running = await reportRun(deps(), claims, { type: 'running', message: 'started' });
  expect(running).toEqual({ id: 2, type: 'running', at: expect.any(String), message: 'started' });
  expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 2, QueryCommand: 1, PutItemCommand: 1 });
  clock.advance(1);
  roundTrips.reset();
  await reportRun(deps(), claims, { type: 'progress', message: 'half way' });
  expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, QueryCommand: 1, PutItemCommand: 1 });
  const item = await table.item(key.run(run.run_id));
  expect(item).toMatchObject({ outcome: 'running' });
  expect(JSON.stringify(item)).not.toContain('half way'); // the run item never grows with events
});

test('succeeded closes the run: outcome, output and finished_at on the run; any later report is refused', async () => {
  clock.advance(60);
  const run = await newRun();
  const claims = claimsOf(run.run_id);
  const output = { summary: 'done', rows: [1, 2, 3] };
  const event = await reportRun(deps(), claims, { type: 'succeeded', output });
  expect(event).toMatchObject({ id: 2, type: 'succeeded', output });
  const stored = await deps().repo.getRun(run.run_id);
  expect(stored?.run).toMatchObject({ outcome: 'succeeded', output, error: null, finished_at: event.at });
  for (const type of ['running', 'progress', 'succeeded', 'failed'] as const) {
    expect(await statusOf(reportRun(deps(), claims, { type }))).toBe(409);
  }
  expect(await appendRunEvent(deps(), run.run_id, { type: 'expired', at: event.at })).toBe('terminal');
  expect((await eventsSince(deps(), stored!, 0)).events.map((e) => e.type)).toEqual(['created', 'succeeded']);
});

test('at most 100 reported events (then 409), a terminal one still taken; too many in one second is a 429', async () => {
  clock.advance(60);
  const run = await newRun();
  const claims = claimsOf(run.run_id);
  for (let index = 0; index < MAX_REPORTS_PER_WINDOW; index += 1) {
    expect(await statusOf(reportRun(deps(), claims, { type: 'progress', message: `${index}` }))).toBe(201);
  }
  expect(await statusOf(reportRun(deps(), claims, { type: 'progress' }))).toBe(429);
  let sent = MAX_REPORTS_PER_WINDOW;
  while (sent < MAX_REPORTS_PER_RUN) {
    clock.advance(1);
    for (let index = 0; index < MAX_REPORTS_PER_WINDOW && sent < MAX_REPORTS_PER_RUN; index += 1, sent += 1) {
      expect(await statusOf(reportRun(deps(), claims, { type: 'progress' }))).toBe(201);
    }
  }
  clock.advance(1);
  expect(await statusOf(reportRun(deps(), claims, { type: 'progress' }))).toBe(409);
  expect(await statusOf(reportRun(deps(), claims, { type: 'failed', error: 'gave up' }))).toBe(201);
  expect((await deps().repo.getRun(run.run_id))?.run).toMatchObject({ outcome: 'failed', error: 'gave up', output: null });
});

test("an organization's reports are metered per minute: over the limit is a 429", async () => {
  clock.set('2026-11-23T11:00:00Z');
  const run = await newRun();
  const claims = { ...claimsOf(run.run_id), orgName: 'metered-org' };
  expect(await statusOf(reportRun(deps(), claims, { type: 'progress' }, 2))).toBe(201);
  expect(await statusOf(reportRun(deps(), claims, { type: 'progress' }, 2))).toBe(201);
  expect(await statusOf(reportRun(deps(), claims, { type: 'progress' }, 2))).toBe(429);
  clock.advance(60);
  expect(await statusOf(reportRun(deps(), claims, { type: 'progress' }, 2))).toBe(201);
});

test('the report token is checked for the run of the URL, with no I/O', async () => {
  const run = await newRun();
  const token = await sealReportToken(claimsOf(run.run_id), table.deps().tokenKeys);
  roundTrips.reset();
  expect(await authenticateReport(deps(), `Bearer ${token}`, run.run_id)).toMatchObject({ runId: run.run_id });
  expect(await statusOf(authenticateReport(deps(), `Bearer ${token}`, 'run_A7Lx2VbN9cRt4KwZ8mPa1sYd6FhJ3uGe'))).toBe(401);
  expect(await statusOf(authenticateReport(deps(), `Bearer ${token}x`, run.run_id))).toBe(401);
  expect(roundTrips.total).toBe(0);
});

test('runs stored by earlier versions read with null input and outcome, and a run that failed then is over', async () => {
  const run = await newRun();
  const {
    input_json: _i,
    outcome: _o,
    output_json: _p,
    error: _e,
    finished_at: _f,
    ...item
  } = runToItem({
    run: { ...run, run_id: 'run_earlier0000000000000000000000000', status: 'failed' },
    orgName: 'acme',
    deliveredTo: [],
  });
  await table.documents.send(new PutCommand({ TableName: table.tableName, Item: item }));
  const stored = await deps().repo.getRun('run_earlier0000000000000000000000000');
  expect(stored?.run).toMatchObject({ input: null, outcome: null, output: null, error: null, finished_at: null });
  expect(await eventsSince(deps(), stored!, 0)).toEqual({
    events: [{ id: 1, type: 'created', at: run.created_at }],
    terminal: true,
    lastId: 1,
  });
});

test('a waiting stream wakes when this process stores an event of its run, not at its next read', async () => {
  const run = await newRun();
  const watcher: RunWatcher = {
    readRun: async (d, runId) => (await d.repo.getRun(runId)) as StoredRun,
    slotOwner: 'wake-test',
    slotHolder: 'test',
  };
  // One read at the start, the next 15 s later: only the signal can answer sooner.
  const settings = { waitMs: 20_000, pollMs: 15_000, retryMs: 1_000, slots: 2 };
  const waiting = streamRunEvents(deps(), watcher, run.run_id, 1, Date.now() + 60_000, settings);
  await waitFor('the stream to wait', async () => ((await table.item(key.streamSlots('wake-test')))?.s0 ? true : undefined));
  const reported = await appendRunEvent(deps(), run.run_id, { type: 'progress', at: isoNow(), message: 'now' });
  const since = Date.now();
  const answer = await waiting;
  expect(answer).toEqual({ kind: 'events', terminal: false, events: [expect.objectContaining({ id: 2, type: 'progress' })] });
  expect(typeof reported === 'string' ? reported : reported.event.id).toBe(2);
  expect(Date.now() - since).toBeLessThan(settings.pollMs - 1_000);
}, 30_000);
