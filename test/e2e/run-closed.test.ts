/**
 * A run that ended stays ended: a queue retry to an endpoint still waiting, a duplicate queue
 * message, and an admin's redelivery send the run again but append nothing to its events and
 * change nothing of its outcome, whatever the endpoints answer; a report with any token, the
 * fresh ones of those messages included, is a 409. And a run left open 24 hours after its last
 * delivery attempt gets `expired` when it is read.
 */
import { deliverToEndpoint } from '../../shared/services/delivery.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { type Answer, type Receiver, startReceiver, waitFor, waitForRunStatus } from '../support/deliveries.js';
import { body as json } from '../support/json.js';

// Streams wait 1.5 s here (10 s deployed), reading the chain every 100 ms.
process.env.STREAM_WAIT_MS = '1500';
process.env.STREAM_POLL_MS = '100';

const ORG = 'closing';
let api: TestApi;
/** Takes every message. */
let first: Receiver;
/** Refuses (503) until told otherwise, then answers as `secondAnswer` says. */
let second: Receiver;
let secondAnswer: Answer = { status: 503 };
let secondEndpoint = '';
let access = '';
let client = { clientId: '', clientSecret: '' };
/** A new access token, issued at the test clock's now (the old one expires as the clock moves). */
const freshToken = async () => {
  access = (await getToken(api.url, client)).access_token;
};

beforeAll(async () => {
  // Retries are queued an hour out (scaled to 6-12 minutes): none comes by itself during a
  // test; the test hands the deliverer the queue's message itself, when it chooses.
  api = await startTestApi({
    deliveries: { timeScale: 1 / 300, settings: { retry: { maxAttempts: 8, baseSeconds: 3600, factor: 1, capSeconds: 3600 } } },
    admins: true,
  });
  first = await startReceiver();
  second = await startReceiver(() => secondAnswer);
  await addWebhook(api.deps, { orgName: ORG, url: first.url }, { allowLocalhost: true });
  secondEndpoint = (await addWebhook(api.deps, { orgName: ORG, url: second.url }, { allowLocalhost: true })).endpointId;
  client = await api.newClient({ orgName: ORG, rateLimit: 100_000 });
  await freshToken();
});
afterAll(async () => {
  await first.close();
  await second.close();
  await api.close();
});

const studio = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${api.url}/api/studio${path}`, { headers: { ...bearer(access), ...headers } });

/** A run, its first attempt made: taken by the first endpoint, refused by the second (a retry queued). */
const startRun = async (): Promise<string> => {
  const created = await createKnap(api.url, access, { name: 'Closing', schedule_type: 'manual' });
  const uuid = (await json(created)).uuid as string;
  const started = await fetch(`${api.url}/api/studio/knap-tools/${uuid}/runs`, { method: 'POST', headers: bearer(access) });
  expect(started.status).toBe(202);
  const runId = (await json(started)).run_id as string;
  await waitFor('the first attempt at each endpoint', async () =>
    ((await api.deps.repo.getRun(runId))?.run.attempts ?? 0) >= 2 ? true : undefined,
  );
  await waitFor('the delivered event', async () => ((await api.deps.repo.runChainHead(runId)).lastId >= 2 ? true : undefined));
  return runId;
};

/** Every knap.run message `receiver` got for the run: its report URL and token. */
const messages = (receiver: Receiver, runId: string) =>
  receiver.received
    .filter((received) => received.headers['webhook-id'] === runId)
    .map((received) => JSON.parse(received.body).data.run as { report_url: string; report_token: string });

const report = (message: { report_url: string; report_token: string }, body: unknown) =>
  fetch(message.report_url, {
    method: 'POST',
    headers: { authorization: `Bearer ${message.report_token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const eventTypes = async (runId: string): Promise<string[]> =>
  ((await json(await studio(`/runs/${runId}/events`))).events as { type: string }[]).map((event) => event.type);

test('a queue retry, a duplicate message and a redelivery after the end reopen nothing and take no report', async () => {
  secondAnswer = { status: 503 };
  const runId = await startRun();
  expect((await api.deps.repo.getRun(runId))?.run.status).toBe('pending');
  const [taken] = messages(first, runId);
  expect((await report(taken as never, { type: 'succeeded', output: { rows: 7 } })).status).toBe(201);
  const ended = await json(await studio(`/runs/${runId}`));
  expect(ended).toMatchObject({ outcome: 'succeeded', output: { rows: 7 } });
  const closed = ['created', 'delivered', 'succeeded'];
  expect(await eventTypes(runId)).toEqual(closed);

  // The queue's retry: the second endpoint takes it now, and answers that the run failed.
  secondAnswer = { status: 200, body: JSON.stringify({ outcome: 'failed', error: 'too late' }) };
  await deliverToEndpoint(api.deps, runId, secondEndpoint, api.deliveries?.settings);
  expect((await api.deps.repo.getRun(runId))?.run.status).toBe('delivered');
  expect(messages(second, runId)).toHaveLength(2);
  // The same message again (SQS delivers at least once): nothing is sent, nothing appended.
  await deliverToEndpoint(api.deps, runId, secondEndpoint, api.deliveries?.settings);
  expect(messages(second, runId)).toHaveLength(2);

  // An admin sends it again: both endpoints get it, with fresh report tokens.
  const admin = await api.adminToken(ORG);
  const redelivered = await fetch(`${api.url}/api/admin/runs/${runId}/redeliver`, { method: 'POST', headers: bearer(admin) });
  expect(redelivered.status).toBe(202);
  await waitForRunStatus(api.deps.repo, runId, 'delivered');
  await waitFor('the redelivered messages', () =>
    messages(first, runId).length === 2 && messages(second, runId).length === 3 ? true : undefined,
  );

  expect(await eventTypes(runId)).toEqual(closed);
  expect(await json(await studio(`/runs/${runId}`))).toMatchObject({
    outcome: 'succeeded',
    output: { rows: 7 },
    error: null,
    finished_at: ended.finished_at,
  });
  for (const message of [...messages(first, runId), ...messages(second, runId)]) {
    for (const type of ['running', 'progress', 'failed']) expect((await report(message, { type })).status).toBe(409);
  }
  expect(await eventTypes(runId)).toEqual(closed);
  const resumed = await studio(`/runs/${runId}/events`, { accept: 'text/event-stream', 'last-event-id': '3' });
  expect(resumed.status).toBe(204);
});

test('a run open 24 hours after its last attempt gets expired when read, and then takes no report', async () => {
  secondAnswer = { status: 204 };
  const runId = await startRun();
  await waitForRunStatus(api.deps.repo, runId, 'delivered');
  const [message] = messages(first, runId);
  expect((await report(message as never, { type: 'running' })).status).toBe(201);

  api.clock.advance(24 * 3600 - 1);
  await freshToken();
  expect(await eventTypes(runId)).toEqual(['created', 'delivered', 'delivered', 'running']);
  api.clock.advance(1);
  await freshToken();
  // The window is closed: reading the run writes the event that ends it, once.
  expect((await studio(`/runs/${runId}`)).status).toBe(200);
  const events = (await json(await studio(`/runs/${runId}/events`))).events as { id: number; type: string; at: string }[];
  expect(events.map((event) => event.type)).toEqual(['created', 'delivered', 'delivered', 'running', 'expired']);
  expect(events.at(-1)?.at).toBe(
    api.clock
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z'),
  );
  expect((await studio(`/runs/${runId}/events`, { accept: 'text/event-stream', 'last-event-id': '5' })).status).toBe(204);

  // A redelivery (what the admin route does; an admin's sign-in follows the real clock) hands
  // out fresh tokens, which report nothing to a run that ended.
  expect(await api.deps.repo.redeliverRun(runId, ORG)).toBe('redelivering');
  await api.deps.deliveries.enqueue(runId, 0);
  await waitFor('the redelivered message', () => (messages(first, runId).length === 2 ? true : undefined));
  await waitForRunStatus(api.deps.repo, runId, 'delivered');
  expect((await report(messages(first, runId)[1] as never, { type: 'succeeded' })).status).toBe(409);
  // Read again a day later: still one expired event, and nothing after it.
  api.clock.advance(25 * 3600);
  await freshToken();
  expect(await eventTypes(runId)).toEqual(['created', 'delivered', 'delivered', 'running', 'expired']);
  api.clock.advance(-49 * 3600);
  await freshToken();
});
