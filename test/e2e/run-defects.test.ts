/**
 * Issue 23's run defects, as the contract's "Runs" section fixes them: run ids have one format
 * for every trigger.
 */
import { runId } from '../../shared/domain/runs.js';
import { dispatchDueRuns } from '../../shared/services/dispatcher.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { type Receiver, startReceiver } from '../support/deliveries.js';
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
