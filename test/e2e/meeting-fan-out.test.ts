/**
 * Issue 23, defect 3: one meeting report does bounded work whatever the number of Knaps. The
 * 202 lists the runs of the first 100 Knaps and says `runs_pending` for the rest, which the
 * queue makes after the answer, a page per message; still one run per Knap per meeting,
 * however many reports of it come and however their pages interleave.
 */
import type { Knap, KnapOwnership } from '../../shared/domain/knaps.js';
import { MEETING_FAN_OUT_PAGE, type MeetingFanOut } from '../../shared/domain/runs.js';
import { continueMeetingFanOut } from '../../shared/services/meeting-fan-out.js';
import { bearer, getToken, startTestApi, type TestApi } from '../support/api.js';
import { putTestKnap } from '../support/deliveries.js';
import { body as json } from '../support/json.js';

const ORG = 'fan-out';

let api: TestApi;
let token: string;
/** The caller's Knaps that run after a meeting, and its organization's shared ones. */
const eligible: string[] = [];
/** Knaps the caller does not run after a meeting: inactive, manual, or another's private one. */
const others: string[] = [];

const putKnap = async (ownership: KnapOwnership, fields: Partial<Knap>): Promise<string> =>
  (await putTestKnap(api.deps.repo, ownership, { schedule_type: 'post_meeting_transcription', ...fields })).uuid;

/** `count` Knaps, 25 writes at a time. */
const putKnaps = async (count: number, make: () => Promise<string>, into: string[]) => {
  for (let done = 0; done < count; done += 25) {
    into.push(...(await Promise.all(Array.from({ length: Math.min(25, count - done) }, make))));
  }
};

const report = (meetingId: string, as = token) =>
  fetch(`${api.url}/api/studio/meeting-transcriptions`, {
    method: 'POST',
    headers: { ...bearer(as), 'content-type': 'application/json' },
    body: JSON.stringify({ meeting_id: meetingId, title: 'Quarterly review' }),
  });

const queue = () => api.deps.deliveries;

/**
 * Runs every queued fan-out message, as the queue's consumer would, each page's messages all
 * at once (two reports' pages interleave), until none is left; how many were run.
 */
const drainFanOut = async (): Promise<number> => {
  let handled = 0;
  while (queue().fanOuts.length > 0) {
    const batch = queue().fanOuts.splice(0);
    handled += batch.length;
    await Promise.all(batch.map((task: MeetingFanOut) => continueMeetingFanOut(api.deps, task)));
  }
  return handled;
};

/** The runs of a Knap for a meeting, as stored. */
const runsOf = async (uuid: string, meetingId: string) =>
  (await api.deps.repo.listRuns(uuid, { limit: 100 })).runs.filter((run) => run.meeting_id === meetingId);

/** Run ids queued for delivery so far. */
const deliveriesQueued = () => queue().queued.map((entry) => entry.runId);

beforeAll(async () => {
  api = await startTestApi();
  const client = await api.newClient({ orgName: ORG, rateLimit: 100_000 });
  const colleague = await api.newClient({ orgName: ORG, rateLimit: 100_000 });
  token = (await getToken(api.url, client)).access_token;
  const mine: KnapOwnership = { orgName: ORG, creatorClientId: client.clientId };
  const theirs: KnapOwnership = { orgName: ORG, creatorClientId: colleague.clientId };
  // 225 Knaps run after a meeting: 180 private, 5 of the caller's shared (seen both as its
  // own and as shared, listed once), 40 a colleague shares.
  await putKnaps(180, () => putKnap(mine, {}), eligible);
  await putKnaps(5, () => putKnap(mine, { visibility: ORG }), eligible);
  await putKnaps(40, () => putKnap(theirs, { visibility: ORG }), eligible);
  await putKnaps(10, () => putKnap(mine, { is_active: false }), others);
  await putKnaps(10, () => putKnap(mine, { schedule_type: 'manual' }), others);
  await putKnaps(10, () => putKnap(theirs, {}), others);
}, 60_000);
afterAll(async () => {
  await api.close();
});

test('the 202 lists the runs of 100 Knaps and says runs_pending for the rest; the queue makes those, once each', async () => {
  const started = Date.now();
  const response = await report('all-hands');
  expect(response.status).toBe(202);
  const answer = await json(response);
  expect(answer.meeting_id).toBe('all-hands');
  expect(answer.runs).toHaveLength(MEETING_FAN_OUT_PAGE);
  expect(MEETING_FAN_OUT_PAGE).toBe(100);
  expect(answer.runs_pending).toBe(eligible.length - 100);
  expect(new Set(answer.runs.map((run: { knap_uuid: string }) => run.knap_uuid)).size).toBe(100);
  for (const run of answer.runs) expect(eligible).toContain(run.knap_uuid);
  // Only the first 100 runs are written (and queued for delivery) before the answer.
  expect(deliveriesQueued()).toHaveLength(100);
  expect(queue().fanOuts).toHaveLength(1);
  // Bounded work: seconds at most (all of them used to take ~9 s and a 503), with room for a loaded machine.
  expect(Date.now() - started).toBeLessThan(8_000);

  // 125 left: a page of 100, which queues the next, of 25.
  expect(await drainFanOut()).toBe(2);
  for (const uuid of eligible) expect(await runsOf(uuid, 'all-hands')).toHaveLength(1);
  for (const uuid of others) expect(await runsOf(uuid, 'all-hands')).toHaveLength(0);
  expect(deliveriesQueued().sort()).toEqual(
    (await Promise.all(eligible.map(async (uuid) => (await runsOf(uuid, 'all-hands'))[0]?.run_id))).sort(),
  );

  // Reported again: the same 100 runs, the rest pending again but made no second time.
  const again = await json(await report('all-hands'));
  expect(again.runs.map((run: { run_id: string }) => run.run_id)).toEqual(
    answer.runs.map((run: { run_id: string }) => run.run_id),
  );
  expect(again.runs_pending).toBe(eligible.length - 100);
  await drainFanOut();
  for (const uuid of eligible) expect(await runsOf(uuid, 'all-hands')).toHaveLength(1);
  expect(deliveriesQueued()).toHaveLength(eligible.length);
}, 60_000);

test('two reports of a meeting at once, their pages interleaved: one run per Knap, queued once', async () => {
  queue().queued.splice(0);
  const [first, second] = await Promise.all([report('standup'), report('standup')]);
  expect([first.status, second.status]).toEqual([202, 202]);
  const [a, b] = [await json(first), await json(second)];
  expect(a.runs).toHaveLength(100);
  expect(b.runs.map((run: { run_id: string }) => run.run_id)).toEqual(a.runs.map((run: { run_id: string }) => run.run_id));
  expect([a.runs_pending, b.runs_pending]).toEqual([eligible.length - 100, eligible.length - 100]);
  expect(queue().fanOuts).toHaveLength(2);
  await drainFanOut();
  for (const uuid of eligible) expect(await runsOf(uuid, 'standup')).toHaveLength(1);
  const queued = deliveriesQueued();
  expect(queued).toHaveLength(eligible.length);
  expect(new Set(queued).size).toBe(eligible.length);
}, 60_000);

test('a page of the queue makes the runs of at most 100 Knaps and queues the next page', async () => {
  queue().queued.splice(0);
  await report('weekly');
  const page = async () => {
    const [task] = queue().fanOuts.splice(0);
    if (!task) throw new Error('no fan-out queued');
    await continueMeetingFanOut(api.deps, task);
  };
  await page();
  expect(deliveriesQueued()).toHaveLength(200);
  expect(queue().fanOuts).toHaveLength(1);
  await page();
  expect(deliveriesQueued()).toHaveLength(eligible.length);
  expect(queue().fanOuts).toHaveLength(0);
});

test('up to 100 Knaps: every run in the 202, no runs_pending, nothing left for the queue', async () => {
  const client = await api.newClient({ orgName: 'fan-out-small', rateLimit: 100_000 });
  const small = (await getToken(api.url, client)).access_token;
  const uuids: string[] = [];
  await putKnaps(3, () => putKnap({ orgName: 'fan-out-small', creatorClientId: client.clientId }, {}), uuids);
  queue().fanOuts.splice(0);
  const answer = await json(await report('small', small));
  expect(answer.runs.map((run: { knap_uuid: string }) => run.knap_uuid).sort()).toEqual(uuids.sort());
  expect(answer).not.toHaveProperty('runs_pending');
  expect(queue().fanOuts).toHaveLength(0);
});
