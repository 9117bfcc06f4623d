/**
 * The admins' side of runs that report what happened, over HTTP against the local server: the
 * runs listing's filters and Knap names (and its DynamoDB round trips), one run with its
 * events and attempts, and its events as JSON and as Server-Sent Events, the same answers as
 * the studio's route; another organization's run is a 404 everywhere.
 */
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { type Receiver, startReceiver, waitFor, waitForRunStatus } from '../support/deliveries.js';
import { body as json } from '../support/json.js';

// Streams wait 1.5 s here (10 s deployed), reading the chain every 100 ms.
process.env.STREAM_WAIT_MS = '1500';
process.env.STREAM_POLL_MS = '100';

let api: TestApi;
let receiver: Receiver;
let access = '';
let admin = '';
let stranger = '';
const allowLocalhost = process.env.WEBHOOKS_ALLOW_LOCALHOST;

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_LOCALHOST = 'true';
  api = await startTestApi({ deliveries: {}, admins: true, countRoundTrips: true });
  receiver = await startReceiver();
  admin = await api.adminToken('watchers', 'ada@watchers.example');
  stranger = await api.adminToken('strangers', 'eve@strangers.example');
  const added = await adminCall(admin, '/api/admin/webhooks', { method: 'POST', body: { url: receiver.url } });
  expect(added.status).toBe(201);
  const client = await api.newClient({ orgName: 'watchers', rateLimit: 100_000 });
  access = (await getToken(api.url, client)).access_token;
});
afterAll(async () => {
  if (allowLocalhost === undefined) delete process.env.WEBHOOKS_ALLOW_LOCALHOST;
  else process.env.WEBHOOKS_ALLOW_LOCALHOST = allowLocalhost;
  await receiver?.close();
  await api?.close();
});

interface Answer {
  status: number;
  text: string;
  body: Record<string, unknown>;
  headers: Headers;
  /** DynamoDB calls the request made (X-DynamoDB-Round-Trips). */
  trips: number;
}

async function adminCall(
  token: string,
  path: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  roundTrips.reset();
  const response = await fetch(`${api.url}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.startsWith('application/json') ?? false;
  return {
    status: response.status,
    text,
    body: isJson && text !== '' ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: response.headers,
    trips: Number(response.headers.get('x-dynamodb-round-trips')),
  };
}

const studioEvents = async (runId: string) =>
  json(await fetch(`${api.url}/api/studio/runs/${runId}/events`, { headers: bearer(access) }));

const parseSse = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.startsWith('id:'))
    .map((block) => {
      const lines = Object.fromEntries(
        block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      return { id: Number(lines.id), event: lines.event, data: JSON.parse(lines.data as string) };
    });

/** A Knap named `name`, run once with `input`, delivered; its knap.run message's report URL and token. */
const deliveredRun = async (name: string, input: Record<string, unknown> = { topic: name }) => {
  // A minute apart, so that newest first is one order (runs of one second are ordered by id).
  api.clock.advance(60);
  const created = await createKnap(api.url, access, { name, schedule_type: 'manual' });
  expect(created.status).toBe(201);
  const uuid = (await json(created)).uuid as string;
  const started = await fetch(`${api.url}/api/studio/knap-tools/${uuid}/runs`, {
    method: 'POST',
    headers: { ...bearer(access), 'content-type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  expect(started.status).toBe(202);
  const runId = (await json(started)).run_id as string;
  await waitForRunStatus(api.deps.repo, runId, 'delivered');
  const message = await waitFor('the message', () =>
    receiver.received.find((received) => received.headers['webhook-id'] === runId),
  );
  // The attempt's `delivered` event is written after the attempt: wait for it too.
  await waitFor('the delivered event', async () => ((await api.deps.repo.runChainHead(runId)).lastId >= 2 ? true : undefined));
  const run = JSON.parse(message.body).data.run as { report_url: string; report_token: string };
  const report = async (body: Record<string, unknown>) => {
    const response = await fetch(run.report_url, {
      method: 'POST',
      headers: { authorization: `Bearer ${run.report_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(201);
  };
  return { uuid, runId, report };
};

let succeeded: Awaited<ReturnType<typeof deliveredRun>>;
let failed: Awaited<ReturnType<typeof deliveredRun>>;
let quiet: Awaited<ReturnType<typeof deliveredRun>>;

describe('GET /api/admin/runs: filters and Knap names', () => {
  beforeAll(async () => {
    succeeded = await deliveredRun('Daily digest');
    await succeeded.report({ type: 'running' });
    await succeeded.report({ type: 'progress', message: 'Read 120 of 300 messages' });
    await succeeded.report({ type: 'succeeded', output: { summary: '3 new leads' } });
    failed = await deliveredRun('CRM sync');
    await failed.report({ type: 'failed', error: 'CRM said 401' });
    quiet = await deliveredRun('Quiet one');
  }, 60_000);

  test("each run names its Knap, with its outcome and each attempt's HTTP status; a Query a page, and one a run", async () => {
    const page = await adminCall(admin, '/api/admin/runs?limit=10');
    expect(page.status).toBe(200);
    // The admin's request counted, the page, then each run's endpoint deliveries (their
    // attempts live there, not on the run).
    expect(page.trips).toBe(2 + (page.body.runs as unknown[]).length);
    const runs = page.body.runs as Record<string, unknown>[];
    expect(runs.map((run) => [run.run_id, run.knap_name, run.outcome])).toEqual([
      [quiet.runId, 'Quiet one', null],
      [failed.runId, 'CRM sync', 'failed'],
      [succeeded.runId, 'Daily digest', 'succeeded'],
    ]);
    const attempt = (runs[2]?.delivery_attempts as Record<string, unknown>[] | undefined)?.[0];
    expect(attempt).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
      endpoint_id: expect.stringMatching(/^we_/),
      status: 'delivered',
      error: null,
      response_status: 204,
      duration_ms: expect.any(Number),
      response_body: expect.any(String),
      http_status: 204,
    });
    expect(runs[2]).toMatchObject({ input: { topic: 'Daily digest' }, output: { summary: '3 new leads' } });
  });

  test('knap_uuid, status and outcome keep only the runs that match; bounded reads', async () => {
    const ids = async (query: string) => {
      const answer = await adminCall(admin, `/api/admin/runs?${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 200 });
      expect(answer.trips).toBeLessThanOrEqual(5);
      return (answer.body.runs as { run_id: string }[]).map((run) => run.run_id);
    };
    expect(await ids(`knap_uuid=${failed.uuid}`)).toEqual([failed.runId]);
    expect(await ids(`knap_uuid=${failed.uuid.toUpperCase()}`)).toEqual([failed.runId]);
    expect(await ids('outcome=succeeded')).toEqual([succeeded.runId]);
    expect(await ids('outcome=failed')).toEqual([failed.runId]);
    expect(await ids('outcome=running')).toEqual([]);
    expect(await ids('status=delivered')).toEqual([quiet.runId, failed.runId, succeeded.runId]);
    expect(await ids('status=failed')).toEqual([]);
    expect(await ids(`status=delivered&outcome=succeeded&knap_uuid=${succeeded.uuid}`)).toEqual([succeeded.runId]);
    expect(await ids(`outcome=succeeded&knap_uuid=${failed.uuid}`)).toEqual([]);
    // Another organization's admin filtering by this organization's Knap finds nothing.
    const theirs = await adminCall(stranger, `/api/admin/runs?knap_uuid=${succeeded.uuid}`);
    expect(theirs.body).toEqual({ runs: [], next_cursor: null });
  });

  test('bad filter values are a 400 with a detail, never a 5xx', async () => {
    for (const [query, detail] of [
      ['status=exploded', 'status must be one of pending, delivered, failed, no_endpoint'],
      ['outcome=maybe', 'outcome must be one of running, succeeded, failed'],
      ['outcome=', 'outcome must be one of running, succeeded, failed'],
      ['knap_uuid=not-a-uuid', 'knap_uuid must be a UUID'],
      [`knap_uuid=${'a'.repeat(5000)}`, 'knap_uuid must be a UUID'],
      ['limit=0&status=failed', 'limit must be a whole number from 1 to 100'],
    ] as const) {
      const answer = await adminCall(admin, `/api/admin/runs?${query}`);
      expect({ query: query.slice(0, 40), status: answer.status, body: answer.body }).toEqual({
        query: query.slice(0, 40),
        status: 400,
        body: { detail },
      });
      // Only the admin's request counted: nothing read.
      expect(answer.trips).toBe(1);
    }
  });
});

describe('one run, and its events', () => {
  test('GET /api/admin/runs/{run_id}: the run with its attempts and every event; four round trips', async () => {
    const answer = await adminCall(admin, `/api/admin/runs/${succeeded.runId}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    // The admin's request counted, the run, then its events and its endpoint deliveries at once.
    expect(answer.trips).toBe(4);
    expect(answer.body).toMatchObject({
      run_id: succeeded.runId,
      knap_name: 'Daily digest',
      outcome: 'succeeded',
      output: { summary: '3 new leads' },
      delivery_attempts: [expect.objectContaining({ status: 'delivered', http_status: 204 })],
    });
    expect(answer.body.events).toEqual((await studioEvents(succeeded.runId)).events);
    expect((answer.body.events as { type: string }[]).map((event) => event.type)).toEqual([
      'created',
      'delivered',
      'running',
      'progress',
      'succeeded',
    ]);
    expect(JSON.stringify(answer.body)).not.toContain('knap_rpt_');
  });

  test('.../events: the JSON (three round trips) and the Server-Sent Events of the studio route, resumed and ended the same way', async () => {
    const listed = await adminCall(admin, `/api/admin/runs/${succeeded.runId}/events`);
    expect(listed.status).toBe(200);
    expect(listed.trips).toBe(3);
    expect(listed.body).toEqual(await studioEvents(succeeded.runId));

    const stream = await adminCall(admin, `/api/admin/runs/${succeeded.runId}/events`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.text).toMatch(/^retry: \d+\n\n/);
    expect(parseSse(stream.text).map((event) => [event.id, event.event])).toEqual([
      [1, 'created'],
      [2, 'delivered'],
      [3, 'running'],
      [4, 'progress'],
      [5, 'succeeded'],
    ]);
    const resumed = await adminCall(admin, `/api/admin/runs/${succeeded.runId}/events`, {
      headers: { accept: 'text/event-stream', 'last-event-id': '3' },
    });
    expect(parseSse(resumed.text).map((event) => event.data)).toEqual(
      ((await studioEvents(succeeded.runId)).events as { id: number }[]).filter((event) => event.id > 3),
    );
    const ended = await adminCall(admin, `/api/admin/runs/${succeeded.runId}/events`, {
      headers: { accept: 'text/event-stream', 'last-event-id': '5' },
    });
    expect(ended.status).toBe(204);
    const bad = await adminCall(admin, `/api/admin/runs/${succeeded.runId}/events`, {
      headers: { accept: 'text/event-stream', 'last-event-id': 'soon' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toEqual(expect.any(String));
  });

  test('a waiting stream answers as soon as the executor reports, and ends after the terminal event', async () => {
    const head = (await api.deps.repo.runChainHead(quiet.runId)).lastId;
    const waiting = adminCall(admin, `/api/admin/runs/${quiet.runId}/events`, {
      headers: { accept: 'text/event-stream', 'last-event-id': String(head) },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await quiet.report({ type: 'succeeded', output: { done: true } });
    const answer = await waiting;
    expect(parseSse(answer.text).map((event) => [event.id, event.event, event.data.output])).toEqual([
      [head + 1, 'succeeded', { done: true }],
    ]);
    const after = await adminCall(admin, `/api/admin/runs/${quiet.runId}/events`, {
      headers: { accept: 'text/event-stream', 'last-event-id': String(head + 1) },
    });
    expect(after.status).toBe(204);
  });

  test("another organization's run, an unknown one or an API client's token: 404 or 401, with a detail", async () => {
    for (const path of [`/api/admin/runs/${succeeded.runId}`, `/api/admin/runs/${succeeded.runId}/events`]) {
      const theirs = await adminCall(stranger, path);
      expect({ path, status: theirs.status }).toEqual({ path, status: 404 });
      expect(theirs.body.detail).toBe(`No run with id ${succeeded.runId} in your organization`);
      const streamed = await adminCall(stranger, path, { headers: { accept: 'text/event-stream' } });
      expect(streamed.status).toBe(404);
      const unknown = await adminCall(admin, path.replace(succeeded.runId, 'run_00000000000000000000000000000000'));
      expect(unknown.status).toBe(404);
      const client = await adminCall(access, path);
      expect(client.status).toBe(401);
      expect(client.body.detail).toEqual(expect.any(String));
    }
    const long = await adminCall(admin, `/api/admin/runs/run_${'x'.repeat(3000)}`);
    expect(long.status).toBe(404);
    expect(long.trips).toBe(1);
  });
});
