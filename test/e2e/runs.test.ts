/** Runs, as the contract's "Runs" section fixes them: scheduled, manual and after-meeting, and their history. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { runId } from '../../shared/domain/runs.js';
import { dispatchDueRuns } from '../../shared/services/dispatcher.js';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { key } from '../../shared/store/keys.js';
import { bearer, createKnap, postToken, startTestApi, type TestApi } from '../support/api.js';
import type { RecordingQueue } from '../support/dynamo.js';
import { body as json } from '../support/json.js';

let api: TestApi;
type Credentials = { clientId: string; clientSecret: string };
const clients = {} as Record<'me' | 'colleague' | 'stranger', Credentials>;
const tokens = { me: '', colleague: '', stranger: '', readOnly: '' };

const grant = async (client: Credentials, scope?: string) => {
  const response = await postToken(api.url, {
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    ...(scope ? { scope } : {}),
  });
  expect(response.status).toBe(200);
  return (await json(response)).access_token as string;
};

/** Moves the clock forward and grants tokens valid at the new time. */
const clockAt = async (time: string) => {
  api.clock.set(time);
  tokens.me = await grant(clients.me);
  tokens.colleague = await grant(clients.colleague);
  tokens.stranger = await grant(clients.stranger);
  tokens.readOnly = await grant(clients.me, 'read:knaps');
};

beforeAll(async () => {
  api = await startTestApi();
  clients.me = await api.newClient({ orgName: 'runs', rateLimit: 100_000 });
  clients.colleague = await api.newClient({ orgName: 'runs', rateLimit: 100_000 });
  clients.stranger = await api.newClient({ orgName: 'elsewhere', rateLimit: 100_000 });
  await clockAt('2026-11-23T10:00:05Z');
});
afterAll(() => api.close());

const queued = () => (api.deps.deliveries as RecordingQueue).queued.map((entry) => entry.runId);
const dispatch = () => dispatchDueRuns(api.deps);

const newKnap = async (body: Record<string, unknown>, token = tokens.me) => {
  const response = await createKnap(api.url, token, body);
  expect(response.status).toBe(201);
  return await json(response);
};
const scheduled = (description: string, extra: Record<string, unknown> = {}) => ({
  name: description,
  schedule_type: 'scheduled',
  ...extra,
  tool_metadata: { schedule_description: description, ...((extra.tool_metadata as object) ?? {}) },
});
const knapUrl = (uuid: string) => `${api.url}/api/studio/knap-tools/${uuid}`;
const getKnap = async (uuid: string) => json(await fetch(knapUrl(uuid), { headers: bearer(tokens.me) }));
const history = async (uuid: string, query = '', token = tokens.me) =>
  fetch(`${knapUrl(uuid)}/runs${query}`, { headers: bearer(token) });
const runsOf = async (uuid: string) => (await json(await history(uuid, '?limit=100'))).runs as Record<string, unknown>[];
const patch = (uuid: string, body: unknown) =>
  fetch(knapUrl(uuid), {
    method: 'PATCH',
    headers: { ...bearer(tokens.me), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('scheduled runs', () => {
  test('a due occurrence becomes one pending run, queued for delivery; next_run_at moves on', async () => {
    await clockAt('2026-11-23T10:30:00Z');
    const knap = await newKnap(scheduled('every day at 11:00 UTC'));
    expect(knap.next_run_at).toBe('2026-11-23T11:00:00Z');
    expect(await dispatch()).toEqual({ created: 0, claimed: 0, lagSeconds: 0 });
    await clockAt('2026-11-23T11:00:00Z');
    await dispatch();
    const runs = await runsOf(knap.uuid);
    expect(runs).toEqual([
      {
        run_id: expect.stringMatching(/^run_/),
        knap_uuid: knap.uuid,
        trigger: 'scheduled',
        scheduled_for: '2026-11-23T11:00:00Z',
        created_at: '2026-11-23T11:00:00Z',
        status: 'pending',
        attempts: 0,
        last_attempt_at: null,
        last_error: null,
        meeting_id: null,
        meeting: null,
        input: null,
        outcome: null,
        output: null,
        error: null,
        finished_at: null,
      },
    ]);
    expect(queued()).toContain(runs[0]?.run_id);
    expect((await getKnap(knap.uuid)).next_run_at).toBe('2026-11-24T11:00:00Z');
    // The next pass finds nothing more to do.
    await dispatch();
    expect(await runsOf(knap.uuid)).toHaveLength(1);
  });

  test('two dispatchers racing over 30 due Knaps: exactly one run per occurrence', async () => {
    await clockAt('2026-11-24T12:30:00Z');
    // Made one at a time: 30 creations at once on a loaded machine can outlast a request's
    // DynamoDB deadline (a 503, rightly), and the race under test is the dispatchers'.
    const knaps: Awaited<ReturnType<typeof newKnap>>[] = [];
    for (let i = 0; i < 30; i += 1) knaps.push(await newKnap(scheduled(`every day at 13:00 UTC`, { name: `k${i}` })));
    await clockAt('2026-11-24T13:00:30Z');
    const results = await Promise.all([dispatch(), dispatch(), dispatch()]);
    // Knaps of the tests before are due too: every run made was claimed once, no more.
    const created = results.reduce((sum, result) => sum + result.created, 0);
    expect(results.reduce((sum, result) => sum + result.claimed, 0)).toBe(created);
    expect(created).toBeGreaterThanOrEqual(30);
    for (const knap of knaps) expect(await runsOf(knap.uuid)).toHaveLength(1);
    expect((await Promise.all([dispatch(), dispatch()])).map((result) => result.created)).toEqual([0, 0]);
  });

  test('occurrences missed while down collapse into one run, then the schedule goes on from now', async () => {
    await clockAt('2026-11-25T08:00:00Z');
    const knap = await newKnap(scheduled('every day at 9am'));
    await clockAt('2026-11-28T15:00:00Z'); // three days down
    await dispatch();
    const runs = await runsOf(knap.uuid);
    expect(runs.map((run) => run.scheduled_for)).toEqual(['2026-11-25T09:00:00Z']);
    expect((await getKnap(knap.uuid)).next_run_at).toBe('2026-11-29T09:00:00Z');
  });

  test('inactive Knaps do not run; activated again, they restart from now', async () => {
    await clockAt('2026-11-29T10:00:00Z');
    const knap = await newKnap(scheduled('every day at 11am'));
    expect((await patch(knap.uuid, { is_active: false })).status).toBe(200);
    await clockAt('2026-12-02T12:00:00Z');
    await dispatch();
    expect(await runsOf(knap.uuid)).toEqual([]);
    const resumed = await json(await patch(knap.uuid, { is_active: true }));
    expect(resumed.next_run_at).toBe('2026-12-03T11:00:00Z');
    await dispatch();
    expect(await runsOf(knap.uuid)).toEqual([]);
  });

  test('a PATCH of the schedule restarts it from now; a deleted Knap never runs', async () => {
    await clockAt('2026-12-03T10:00:00Z');
    const moved = await newKnap(scheduled('every day at 11am'));
    const doomed = await newKnap(scheduled('every day at 11am'));
    const changed = await json(await patch(moved.uuid, { tool_metadata: { schedule_description: 'every day at 3pm' } }));
    expect(changed.next_run_at).toBe('2026-12-03T15:00:00Z');
    expect((await fetch(knapUrl(doomed.uuid), { method: 'DELETE', headers: bearer(tokens.me) })).status).toBe(200);
    await clockAt('2026-12-03T11:00:30Z');
    await dispatch();
    expect(await runsOf(moved.uuid)).toEqual([]);
    expect(queued()).not.toContain(runId.scheduled(doomed.uuid, '2026-12-03T11:00:00Z'));
    expect(queued()).not.toContain(runId.scheduled(moved.uuid, '2026-12-03T11:00:00Z'));
    await clockAt('2026-12-03T15:00:01Z');
    await dispatch();
    expect((await runsOf(moved.uuid)).map((run) => run.scheduled_for)).toEqual(['2026-12-03T15:00:00Z']);
  });

  test('daylight saving in Europe/Berlin: 09:00 local stays 09:00 across the last Sundays of March and October', async () => {
    await clockAt('2027-03-26T12:00:00Z');
    const knap = await newKnap(scheduled('every day at 9am Europe/Berlin'));
    const days = ['2027-03-27', '2027-03-28', '2027-03-29', '2027-10-29', '2027-10-30', '2027-10-31', '2027-11-01'];
    const expected = [
      '2027-03-27T08:00:00Z', // CET, UTC+1
      '2027-03-28T07:00:00Z', // CEST from 02:00 that night
      '2027-03-29T07:00:00Z',
      '2027-10-29T07:00:00Z',
      '2027-10-30T07:00:00Z',
      '2027-10-31T08:00:00Z', // CET again from 03:00 that night
      '2027-11-01T08:00:00Z',
    ];
    const seen: string[] = [];
    for (const [index, day] of days.entries()) {
      if (index === 3) {
        // Skip the summer: one run for the missed months, then back on the daily track.
        await clockAt('2027-10-28T12:00:00Z');
        await dispatch();
      }
      await clockAt(`${day}T12:00:00Z`);
      await dispatch();
      const latest = (await runsOf(knap.uuid))[0];
      seen.push(String(latest?.scheduled_for));
    }
    expect(seen).toEqual(expected);
  });

  test('Knaps stored before the due index existed run after the backfill, which is idempotent', async () => {
    await clockAt('2027-11-02T08:00:00Z');
    const knap = await newKnap(scheduled('every day at 9am'));
    const documents = createDocumentClient({ endpoint: api.table.endpoint });
    await documents.send(
      new UpdateCommand({
        TableName: api.table.tableName,
        Key: key.knap('runs', knap.uuid),
        UpdateExpression: 'REMOVE gsi3pk, gsi3sk, version',
      }),
    );
    documents.destroy();
    await clockAt('2027-11-02T09:00:10Z');
    await dispatch();
    expect(await runsOf(knap.uuid)).toEqual([]);
    expect(await api.deps.repo.backfillDueIndex()).toBeGreaterThanOrEqual(1);
    expect(await api.deps.repo.backfillDueIndex()).toBe(0);
    await dispatch();
    expect((await runsOf(knap.uuid)).map((run) => run.scheduled_for)).toEqual(['2027-11-02T09:00:00Z']);
  });
});

describe('schedules that end: a one-off, a count, an end date', () => {
  /** The Knap as stored: its next run, and whether the dispatcher's due index still holds it. */
  const stored = async (uuid: string) => {
    const documents = createDocumentClient({ endpoint: api.table.endpoint });
    try {
      const { Item } = await documents.send(new GetCommand({ TableName: api.table.tableName, Key: key.knap('runs', uuid) }));
      return { next_run_at: Item?.next_run_at ?? null, due: Item?.gsi3pk !== undefined };
    } finally {
      documents.destroy();
    }
  };

  test('a one-off runs once, then leaves the due index; later passes make nothing', async () => {
    await clockAt('2028-03-01T08:00:00Z');
    const knap = await newKnap(scheduled('on 3 March 2028 at 14:00', { tool_metadata: { timezone: 'UTC' } }));
    expect(knap.schedule_info).toMatchObject({ schedule_type: 'once' });
    await clockAt('2028-03-03T14:00:10Z');
    await dispatch();
    expect((await runsOf(knap.uuid)).map((run) => run.scheduled_for)).toEqual(['2028-03-03T14:00:00Z']);
    expect(await stored(knap.uuid)).toEqual({ next_run_at: null, due: false });
    expect((await getKnap(knap.uuid)).next_run_at).toBeNull();
    // (The other tests' Knaps of this table run meanwhile: only this one's runs are counted.)
    await clockAt('2028-03-10T14:00:10Z');
    await dispatch();
    expect(await runsOf(knap.uuid)).toHaveLength(1);
  });

  test('"3 times" runs exactly three times, whatever passes come and go, missed ones included', async () => {
    await clockAt('2028-04-01T08:00:00Z');
    const knap = await newKnap(scheduled('every day at 9am, 3 times', { tool_metadata: { timezone: 'UTC' } }));
    expect(knap.schedule_info).toMatchObject({ count: 3, until: '2028-04-03T09:00:00Z' });
    for (const at of ['2028-04-01T09:00:05Z', '2028-04-01T09:00:30Z', '2028-04-02T09:00:05Z']) {
      await clockAt(at);
      await dispatch();
    }
    // A restart: the dispatcher has no memory of its own, the table counts for it.
    await clockAt('2028-04-05T12:00:00Z');
    await dispatch();
    await dispatch();
    expect((await runsOf(knap.uuid)).map((run) => run.scheduled_for).sort()).toEqual([
      '2028-04-01T09:00:00Z',
      '2028-04-02T09:00:00Z',
      '2028-04-03T09:00:00Z',
    ]);
    expect(await stored(knap.uuid)).toEqual({ next_run_at: null, due: false });
  });
});

describe('manual runs: POST /api/studio/knap-tools/{uuid}/runs', () => {
  const start = (uuid: string, token = tokens.me) => fetch(`${knapUrl(uuid)}/runs`, { method: 'POST', headers: bearer(token) });

  test('202 with the pending run, any schedule type; it is queued and in the history', async () => {
    const knap = await newKnap({ name: 'by hand' });
    const response = await start(knap.uuid);
    expect(response.status).toBe(202);
    const run = await json(response);
    expect(run).toMatchObject({ knap_uuid: knap.uuid, trigger: 'manual', scheduled_for: null, status: 'pending', attempts: 0 });
    expect(queued()).toContain(run.run_id);
    expect((await runsOf(knap.uuid)).map((entry) => entry.run_id)).toEqual([run.run_id]);
    const scheduledKnap = await newKnap(scheduled('every Monday'));
    expect((await start(scheduledKnap.uuid)).status).toBe(202);
  });

  test('an inactive Knap: 409; one the caller cannot see: 404; a shared one: 202; scope write:knaps', async () => {
    const inactive = await newKnap({ name: 'off', is_active: false });
    expect((await start(inactive.uuid)).status).toBe(409);
    const secret = await newKnap({ name: 'theirs' }, tokens.colleague);
    expect((await start(secret.uuid)).status).toBe(404);
    const shared = await newKnap({ name: 'shared', visibility: 'runs' }, tokens.colleague);
    expect((await start(shared.uuid)).status).toBe(202);
    expect((await start(shared.uuid, tokens.stranger)).status).toBe(404);
    expect((await start(shared.uuid, tokens.readOnly)).status).toBe(403);
  });
});

describe('after a meeting: POST /api/studio/meeting-transcriptions', () => {
  const report = (body: unknown, token = tokens.me) =>
    fetch(`${api.url}/api/studio/meeting-transcriptions`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  let mine: { uuid: string };
  let shared: { uuid: string };
  beforeAll(async () => {
    await clockAt('2027-12-01T10:00:00Z');
    mine = (await newKnap({ name: 'notes to CRM', schedule_type: 'post_meeting_transcription' })) as { uuid: string };
    shared = (await newKnap(
      { name: 'team summary', schedule_type: 'post_meeting_transcription', visibility: 'runs' },
      tokens.colleague,
    )) as { uuid: string };
    await newKnap({ name: 'paused', schedule_type: 'post_meeting_transcription', is_active: false });
    await newKnap({ name: 'colleague private', schedule_type: 'post_meeting_transcription' }, tokens.colleague);
    await newKnap({ name: 'stranger', schedule_type: 'post_meeting_transcription', visibility: 'public' }, tokens.stranger);
    await newKnap({ name: 'manual', schedule_type: 'manual' });
  });

  test('202: one run for each active after-meeting Knap the caller sees', async () => {
    const response = await report({ meeting_id: 'm-1', title: 'Weekly sync', occurred_at: '2027-12-01T09:00:00Z', user_id: 7 });
    expect(response.status).toBe(202);
    const body = await json(response);
    expect(body.meeting_id).toBe('m-1');
    expect(body.runs.map((run: { knap_uuid: string }) => run.knap_uuid).sort()).toEqual([mine.uuid, shared.uuid].sort());
    for (const run of body.runs)
      expect(run).toMatchObject({ trigger: 'post_meeting_transcription', meeting_id: 'm-1', status: 'pending' });
  });

  test('the same meeting again, or from a colleague, or 20 at once: the same runs, never a second per Knap', async () => {
    const first = await json(await report({ meeting_id: 'm-2' }));
    const queuedBefore = queued().length;
    const again = await json(await report({ meeting_id: 'm-2' }));
    expect(again.runs).toEqual(first.runs);
    expect(queued().length).toBe(queuedBefore);
    const fromColleague = await json(await report({ meeting_id: 'm-2' }, tokens.colleague));
    const sharedRun = first.runs.find((run: { knap_uuid: string }) => run.knap_uuid === shared.uuid);
    expect(fromColleague.runs).toContainEqual(sharedRun);
    const burst = await Promise.all(Array.from({ length: 20 }, () => report({ meeting_id: 'm-3' })));
    expect(burst.map((response) => response.status)).toEqual(Array(20).fill(202));
    const bodies = await Promise.all(burst.map((response) => json(response)));
    const ids = new Set(bodies.flatMap((body) => body.runs.map((run: { run_id: string }) => run.run_id)));
    expect(ids.size).toBe(2);
    expect(await runsOf(mine.uuid)).toHaveLength(3);
  });

  test.each<[string, unknown]>([
    ['no meeting_id', { title: 'x' }],
    ['an empty meeting_id', { meeting_id: '' }],
    ['a 256-character meeting_id', { meeting_id: 'm'.repeat(256) }],
    ['an http transcript_url', { meeting_id: 'x', transcript_url: 'http://example.com/t' }],
    ['a bad occurred_at', { meeting_id: 'x', occurred_at: 'yesterday' }],
    ['a string user_id', { meeting_id: 'x', user_id: '7' }],
  ])('%s: 400', async (_label, body) => {
    const response = await report(body);
    expect(response.status).toBe(400);
    expect(Object.keys(await json(response))).toEqual(['detail']);
  });
});

describe('history: GET /api/studio/knap-tools/{uuid}/runs', () => {
  test('newest first, paged with limit and next_cursor; edited cursors 400; invisible Knaps 404', async () => {
    await clockAt('2028-01-03T10:00:00Z');
    const knap = await newKnap({ name: 'busy' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      api.clock.advance(1);
      const response = await fetch(`${knapUrl(knap.uuid)}/runs`, { method: 'POST', headers: bearer(tokens.me) });
      ids.push((await json(response)).run_id);
    }
    const first = await json(await history(knap.uuid, '?limit=2'));
    expect(first.runs.map((run: { run_id: string }) => run.run_id)).toEqual([ids[2], ids[1]]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await json(await history(knap.uuid, `?limit=2&cursor=${first.next_cursor}`));
    expect(second.runs.map((run: { run_id: string }) => run.run_id)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeNull();
    const edited = Buffer.from(JSON.stringify({ pk: 'RUN#x', sk: 'RUN', gsi1pk: 'KNAPRUNS#other', gsi1sk: 'x' })).toString(
      'base64url',
    );
    expect((await history(knap.uuid, `?cursor=${edited}`)).status).toBe(400);
    expect((await history(knap.uuid, '', tokens.stranger)).status).toBe(404);
    expect((await history(knap.uuid, '', tokens.readOnly)).status).toBe(200);
  });
});
