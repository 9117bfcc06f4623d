/**
 * Issue 42: a meeting report reads only the Knaps that run after meetings (their entries in
 * the meeting index), never every Knap the client sees; and every write of a Knap over HTTP
 * (create, PATCH of activation, visibility or kind, DELETE) keeps its entry right, so a
 * report runs exactly the active after-meeting Knaps the caller sees.
 */
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { putTestKnap } from '../support/deliveries.js';
import { body as json } from '../support/json.js';

const ORG = 'meeting-index';

let api: TestApi;
const tokens = { me: '', colleague: '', stranger: '' };
let meId = '';

beforeAll(async () => {
  api = await startTestApi();
  const me = await api.newClient({ orgName: ORG, rateLimit: 10_000 });
  const colleague = await api.newClient({ orgName: ORG, rateLimit: 10_000 });
  const stranger = await api.newClient({ orgName: 'meeting-index-elsewhere', rateLimit: 10_000 });
  meId = me.clientId;
  tokens.me = (await getToken(api.url, me)).access_token;
  tokens.colleague = (await getToken(api.url, colleague)).access_token;
  tokens.stranger = (await getToken(api.url, stranger)).access_token;
});
afterAll(() => api.close());

const newKnap = async (token: string, fields: Record<string, unknown>): Promise<string> => {
  const response = await createKnap(api.url, token, {
    name: 'After the meeting',
    schedule_type: 'post_meeting_transcription',
    tool_metadata: { action_description: 'Summarize the meeting' },
    ...fields,
  });
  expect(response.status).toBe(201);
  return (await json(response)).uuid as string;
};

const patch = async (token: string, uuid: string, fields: Record<string, unknown>) => {
  const response = await fetch(`${api.url}/api/studio/knap-tools/${uuid}`, {
    method: 'PATCH',
    headers: { ...bearer(token), 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify(fields),
  });
  expect(response.status).toBe(200);
};

let meetings = 0;
/** The uuids of the Knaps a new meeting's report runs, sorted. */
const reportRuns = async (token: string): Promise<string[]> => {
  meetings += 1;
  const response = await fetch(`${api.url}/api/studio/meeting-transcriptions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ meeting_id: `meeting-${meetings}` }),
  });
  expect(response.status).toBe(202);
  const answer = await json(response);
  expect(answer.runs_pending).toBeUndefined();
  return (answer.runs as { knap_uuid: string }[]).map((run) => run.knap_uuid).sort();
};

test('a report runs each active after-meeting Knap the caller sees once, in two queries whatever else the organization has', async () => {
  const minePrivate = await newKnap(tokens.me, { name: 'Minutes to the team' });
  const mineShared = await newKnap(tokens.me, { visibility: ORG });
  const theirsPublic = await newKnap(tokens.colleague, { visibility: 'public' });
  const theirsPrivate = await newKnap(tokens.colleague, {});
  await newKnap(tokens.me, { is_active: false });
  await newKnap(tokens.stranger, { visibility: 'public' });
  // Shared Knaps of other kinds, each ~50 KB: the listing must not read them.
  const big = 'x'.repeat(50_000);
  for (let index = 0; index < 40; index += 1) {
    await putTestKnap(
      api.deps.repo,
      { orgName: ORG, creatorClientId: meId },
      { schedule_type: 'manual', visibility: ORG, tool_metadata: { action_description: big } },
    );
  }

  roundTrips.reset();
  expect(await reportRuns(tokens.me)).toEqual([minePrivate, mineShared, theirsPublic].sort());
  // Authentication (metering, revocations), the meeting index's two partitions (own, then the
  // organization's), the names of the Knaps that run, one conditional put per run: nothing
  // grows with the other Knaps.
  expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 1, BatchGetItemCommand: 2, QueryCommand: 2, PutItemCommand: 3 });
  // Each run keeps its Knap's name, which admins see in the runs listing.
  const { runs } = await api.deps.repo.listRunsByOrg(ORG, { limit: 10 });
  const mine = runs.find((stored) => stored.run.knap_uuid === minePrivate);
  expect(mine?.knapName).toBe('Minutes to the team');
  expect(runs.every((stored) => stored.knapName === 'Minutes to the team' || stored.knapName === 'After the meeting')).toBe(true);

  expect(await reportRuns(tokens.colleague)).toEqual([mineShared, theirsPrivate, theirsPublic].sort());
  expect(await reportRuns(tokens.stranger)).toHaveLength(1);
});

test('create, PATCH (activation, kind) and DELETE keep the Knap in the meeting index exactly when it runs', async () => {
  // visibility is fixed at creation (issue 45): a private Knap and a shared one, each changed in turn.
  const uuid = await newKnap(tokens.me, { is_active: false, visibility: 'private' });
  const runsOf = async (token: string, knap = uuid) => (await reportRuns(token)).includes(knap);
  expect([await runsOf(tokens.me), await runsOf(tokens.colleague)]).toEqual([false, false]);

  await patch(tokens.me, uuid, { is_active: true });
  expect([await runsOf(tokens.me), await runsOf(tokens.colleague)]).toEqual([true, false]);

  await patch(tokens.me, uuid, { name: 'Renamed' });
  expect([await runsOf(tokens.me), await runsOf(tokens.colleague)]).toEqual([true, false]);

  await patch(tokens.me, uuid, { schedule_type: 'manual' });
  expect([await runsOf(tokens.me), await runsOf(tokens.colleague)]).toEqual([false, false]);

  await patch(tokens.me, uuid, { schedule_type: 'post_meeting_transcription' });
  expect([await runsOf(tokens.me), await runsOf(tokens.colleague)]).toEqual([true, false]);

  const shared = await newKnap(tokens.me, { is_active: false, visibility: ORG });
  expect([await runsOf(tokens.me, shared), await runsOf(tokens.colleague, shared)]).toEqual([false, false]);
  await patch(tokens.me, shared, { is_active: true });
  expect([await runsOf(tokens.me, shared), await runsOf(tokens.colleague, shared)]).toEqual([true, true]);
  await patch(tokens.me, shared, { schedule_type: 'manual' });
  expect([await runsOf(tokens.me, shared), await runsOf(tokens.colleague, shared)]).toEqual([false, false]);
  await patch(tokens.me, shared, { schedule_type: 'post_meeting_transcription', visibility: ORG });
  expect([await runsOf(tokens.me, shared), await runsOf(tokens.colleague, shared)]).toEqual([true, true]);

  await patch(tokens.me, uuid, { is_active: false });
  expect([await runsOf(tokens.me), await runsOf(tokens.colleague)]).toEqual([false, false]);

  await patch(tokens.me, uuid, { is_active: true });
  expect([await runsOf(tokens.me), await runsOf(tokens.colleague)]).toEqual([true, false]);

  const deleted = await fetch(`${api.url}/api/studio/knap-tools/${uuid}`, { method: 'DELETE', headers: bearer(tokens.me) });
  expect(deleted.status).toBe(200);
  expect([await runsOf(tokens.me), await runsOf(tokens.colleague)]).toEqual([false, false]);
});
