/**
 * Issue 23's run defects, as the contract's "Runs" section fixes them: a meeting run carries
 * its meeting (in the API and in the webhook), and run ids have one format for every trigger.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { runId } from '../../shared/domain/runs.js';
import { dispatchDueRuns } from '../../shared/services/dispatcher.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { key } from '../../shared/store/keys.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { type Receiver, startReceiver, waitForRunStatus } from '../support/deliveries.js';
import { body as json } from '../support/json.js';

const ORG = 'run-defects';
/** The one run-id format: `run_` and 32 base64url characters. */
const RUN_ID = /^run_[A-Za-z0-9_-]{32}$/;

let api: TestApi;
let receiver: Receiver;
let client: { clientId: string; clientSecret: string };
let token: string;

/** Moves the clock and takes a token valid at the new time. */
const clockAt = async (time: string) => {
  api.clock.set(time);
  token = (await getToken(api.url, client)).access_token;
};

beforeAll(async () => {
  api = await startTestApi({ deliveries: {} });
  receiver = await startReceiver();
  await addWebhook(api.deps, { orgName: ORG, url: receiver.url }, { allowLocalhost: true });
  client = await api.newClient({ orgName: ORG, rateLimit: 100_000 });
  await clockAt('2027-12-01T10:00:00Z');
});
afterAll(async () => {
  await api.close();
  await receiver.close();
});

const newKnap = async (body: Record<string, unknown>) => {
  const response = await createKnap(api.url, token, body);
  expect(response.status).toBe(201);
  return (await json(response)) as { uuid: string };
};
const knapUrl = (uuid: string) => `${api.url}/api/studio/knap-tools/${uuid}`;
const history = async (uuid: string) =>
  (await json(await fetch(`${knapUrl(uuid)}/runs?limit=100`, { headers: bearer(token) }))).runs as Record<string, unknown>[];
const report = (body: unknown) =>
  fetch(`${api.url}/api/studio/meeting-transcriptions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const startRun = async (uuid: string) => {
  const response = await fetch(`${knapUrl(uuid)}/runs`, { method: 'POST', headers: bearer(token) });
  expect(response.status).toBe(202);
  return (await json(response)) as Record<string, unknown> & { run_id: string };
};
/**
 * The message the receiver got for a run (its first one). The test clock is in the future, so
 * the signature's timestamp is not checked here (test/integration/delivery.test.ts does).
 */
const delivered = async (id: string) => {
  await waitForRunStatus(api.deps.repo, id, 'delivered');
  const message = receiver.received.find((entry) => entry.headers['webhook-id'] === id);
  if (!message) throw new Error(`no delivery of ${id}`);
  return JSON.parse(message.body) as { type: string; data: { run: Record<string, unknown> } };
};

describe('defect 2: a meeting run carries its meeting, in the API and in the webhook', () => {
  let knap: { uuid: string };
  beforeAll(async () => {
    knap = await newKnap({ name: 'meeting notes', schedule_type: 'post_meeting_transcription' });
  });

  test('every field given: in the 202, in the history and in data.run', async () => {
    const meeting = {
      meeting_id: 'weekly-2027-12-01',
      title: 'Weekly pipeline review',
      occurred_at: '2027-12-01T09:00:00Z',
      transcript_url: 'https://meetings.example.com/transcripts/83920475561',
      user_id: 42,
    };
    const response = await report(meeting);
    expect(response.status).toBe(202);
    const [run] = (await json(response)).runs as Record<string, unknown>[];
    expect(run).toMatchObject({ trigger: 'post_meeting_transcription', meeting_id: meeting.meeting_id, meeting });
    expect(Object.keys(run?.meeting as object)).toEqual(['meeting_id', 'title', 'occurred_at', 'transcript_url', 'user_id']);
    // Delivery starts at once, so the history may already show an attempt: compare what cannot change.
    const settled = ({ status: _s, attempts: _a, last_attempt_at: _at, last_error: _e, ...rest }: Record<string, unknown>) =>
      rest;
    const listed = (await history(knap.uuid)).find((entry) => entry.run_id === run?.run_id);
    expect(settled(listed ?? {})).toEqual(settled(run ?? {}));
    const message = await delivered(run?.run_id as string);
    expect(message.type).toBe('knap.run');
    expect(message.data.run.meeting).toEqual(meeting);
    expect(message.data.run.meeting_id).toBe(meeting.meeting_id);
  });

  test('fields not given are null; a report again answers the run with the details it was made with', async () => {
    const response = await report({ meeting_id: 'standup-7', title: 'Standup' });
    const [run] = (await json(response)).runs as Record<string, unknown>[];
    const meeting = { meeting_id: 'standup-7', title: 'Standup', occurred_at: null, transcript_url: null, user_id: null };
    expect(run?.meeting).toEqual(meeting);
    expect((await delivered(run?.run_id as string)).data.run.meeting).toEqual(meeting);
    const again = (await json(await report({ meeting_id: 'standup-7', title: 'Renamed', user_id: 9 }))).runs;
    expect(again).toEqual([{ ...run, status: 'delivered', attempts: 1, last_attempt_at: expect.any(String) }]);
  });

  test('manual and scheduled runs have meeting null, in the API and in data.run', async () => {
    const manual = await startRun((await newKnap({ name: 'by hand' })).uuid);
    expect(manual).toMatchObject({ meeting_id: null, meeting: null });
    expect((await delivered(manual.run_id)).data.run).toMatchObject({ meeting_id: null, meeting: null });

    const daily = await newKnap({
      name: 'daily',
      schedule_type: 'scheduled',
      tool_metadata: { schedule_description: 'every day at 11:00 UTC' },
    });
    await clockAt('2027-12-01T11:00:01Z');
    await dispatchDueRuns(api.deps);
    const [scheduled] = await history(daily.uuid);
    expect(scheduled).toMatchObject({ trigger: 'scheduled', meeting_id: null, meeting: null });
    expect((await delivered(scheduled?.run_id as string)).data.run).toMatchObject({ meeting: null });
  });

  test('runs stored before `meeting` existed read back with it: from meeting_id, or null', async () => {
    const knapUuid = (await newKnap({ name: 'old runs' })).uuid;
    /** A run item as earlier versions wrote it: no `meeting` attribute, and a legacy id. */
    const oldItem = (id: string, createdAt: string, meetingId: string | null) => ({
      ...key.run(id),
      type: 'run',
      gsi1pk: key.knapRuns(knapUuid),
      gsi1sk: `${createdAt}#${id}`,
      org_name: ORG,
      delivered_to: [],
      expires_at: Math.floor(Date.parse(createdAt) / 1000) + 86_400,
      run_id: id,
      knap_uuid: knapUuid,
      trigger: meetingId ? 'post_meeting_transcription' : 'manual',
      scheduled_for: null,
      created_at: createdAt,
      status: 'delivered',
      attempts: 1,
      last_attempt_at: createdAt,
      last_error: null,
      meeting_id: meetingId,
    });
    const hexId = 'run_0b6f1c523f0e4c1a9a576d1f0b0c0a99';
    const oddId = 'run_legacy.id:with-other-characters';
    for (const item of [oldItem(hexId, '2027-12-01T08:00:00Z', null), oldItem(oddId, '2027-12-01T08:30:00Z', 'old-meeting')]) {
      await api.table.documents.send(new PutCommand({ TableName: api.table.tableName, Item: item }));
    }
    const runs = await history(knapUuid);
    expect(runs.map((run) => [run.run_id, run.meeting])).toEqual([
      [oddId, { meeting_id: 'old-meeting', title: null, occurred_at: null, transcript_url: null, user_id: null }],
      [hexId, null],
    ]);
    // Ids are opaque: an old one is found by its id as it is.
    expect((await api.deps.repo.getRun(oddId))?.run.meeting).toEqual(runs[0]?.meeting);
    expect((await api.deps.repo.getRun(hexId))?.run).toEqual(runs[1]);
  });
});

describe('defect 4: one run-id format for every trigger', () => {
  test('manual runs: `run_` and 32 base64url characters drawn at random, not hex', async () => {
    const knap = await newKnap({ name: 'many manual runs' });
    const ids: string[] = [];
    for (let i = 0; i < 16; i += 1) ids.push((await startRun(knap.uuid)).run_id);
    for (const id of ids) expect(id).toMatch(RUN_ID);
    expect(new Set(ids).size).toBe(ids.length);
    // 16 x 32 random base64url characters all from [0-9a-f]: a chance of 4^-512.
    expect(ids.every((id) => /^run_[0-9a-f]{32}$/.test(id))).toBe(false);
  });

  test('scheduled and meeting runs: the same format, derived, so a retry writes the same run', async () => {
    await clockAt('2027-12-02T10:00:00Z');
    const daily = await newKnap({
      name: 'daily',
      schedule_type: 'scheduled',
      tool_metadata: { schedule_description: 'every day at 11:00 UTC' },
    });
    const meetingKnap = await newKnap({ name: 'after meetings', schedule_type: 'post_meeting_transcription' });
    await clockAt('2027-12-02T11:00:01Z');
    await dispatchDueRuns(api.deps);
    const [scheduled] = await history(daily.uuid);
    expect(scheduled?.run_id).toMatch(RUN_ID);
    expect(scheduled?.run_id).toBe(runId.scheduled(daily.uuid, '2027-12-02T11:00:00Z'));
    const runs = (await json(await report({ meeting_id: 'format-check' }))).runs as { knap_uuid: string; run_id: string }[];
    const meetingRun = runs.find((run) => run.knap_uuid === meetingKnap.uuid);
    expect(meetingRun?.run_id).toMatch(RUN_ID);
    expect(meetingRun?.run_id).toBe(runId.meeting(meetingKnap.uuid, 'format-check'));
  });

  test('derived ids are exactly 32 base64url characters and unchanged from earlier versions', () => {
    const uuid = '6f1c523f-0e4c-4a9a-976d-1f0b0c0a0b01';
    const ids = [
      runId.scheduled(uuid, '2026-11-23T09:00:00Z'),
      runId.meeting(uuid, 'm'.repeat(255)),
      runId.meeting(uuid, 'weekly\nsync'),
      runId.manual(),
    ];
    for (const id of ids) expect(id).toMatch(RUN_ID);
    // Pinned: a run written before an upgrade and retried after it must get the same id.
    expect(runId.scheduled(uuid, '2026-11-23T09:00:00Z')).toBe('run__H0qeaHZ8aueefWUpFQFHDNDQvffDmh8');
    expect(runId.meeting(uuid, 'weekly')).toBe('run_5HcGifT60NEkBfNnA4ew5M8vCIdmiWjR');
    expect(runId.meeting(uuid, 'weekly')).not.toBe(runId.meeting(uuid, 'weekly '));
    expect(runId.scheduled(uuid, '2026-11-23T09:00:00Z')).not.toBe(runId.meeting(uuid, '2026-11-23T09:00:00Z'));
  });
});
