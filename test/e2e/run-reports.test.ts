/**
 * Runs that report what happened (the contract's section of that name), over HTTP against the
 * local server: input, the report token and its attackers first, then the loop (reports, the
 * run, its events as JSON and as Server-Sent Events), a webhook answer that reports at once.
 */
import { Webhook } from 'standardwebhooks';
import type { WebhookEndpoint } from '../../shared/domain/webhooks.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { key } from '../../shared/store/keys.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi, tokenOperation } from '../support/api.js';
import { type Answer, type Receiver, startReceiver, waitFor, waitForRunStatus } from '../support/deliveries.js';
import { body as json } from '../support/json.js';
import { sampleOneCharacterAway } from '../support/token-variants.js';

// Streams wait 1.5 s here (10 s deployed), reading the chain every 100 ms.
process.env.STREAM_WAIT_MS = '1500';
process.env.STREAM_POLL_MS = '100';

let api: TestApi;
let receiver: Receiver;
/** The receiver's endpoint: it takes every type (knap.run and the outcome messages too). */
let endpoint: WebhookEndpoint;
let answer: (n: number) => Answer = () => ({ status: 204 });
const client = { clientId: '', clientSecret: '' };
const tokens = { access: '', refresh: '', stranger: '' };
let stranger = { clientId: '', clientSecret: '' };

beforeAll(async () => {
  api = await startTestApi({ deliveries: {}, admins: true });
  receiver = await startReceiver((n) => answer(n));
  endpoint = await addWebhook(api.deps, { orgName: 'reports', url: receiver.url }, { allowLocalhost: true });
  Object.assign(client, await api.newClient({ orgName: 'reports', rateLimit: 100_000 }));
  stranger = await api.newClient({ orgName: 'elsewhere', rateLimit: 100_000 });
  const granted = await getToken(api.url, client);
  tokens.access = granted.access_token;
  tokens.refresh = granted.refresh_token;
  tokens.stranger = (await getToken(api.url, stranger)).access_token;
});
afterAll(async () => {
  await receiver.close();
  await api.close();
});

const studio = (path: string) => `${api.url}/api/studio${path}`;
const newKnap = async () => {
  const response = await createKnap(api.url, tokens.access, { name: 'Reporter', schedule_type: 'manual' });
  expect(response.status).toBe(201);
  return (await json(response)).uuid as string;
};
const startRun = (uuid: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(studio(`/knap-tools/${uuid}/runs`), {
    method: 'POST',
    headers: { ...bearer(tokens.access), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

/** A delivered run and the knap.run message its receiver got. */
const deliveredRun = async (input?: unknown) => {
  const uuid = await newKnap();
  const before = receiver.received.length;
  const response = await startRun(uuid, input === undefined ? undefined : { input });
  expect(response.status).toBe(202);
  const run = await json(response);
  await waitForRunStatus(api.deps.repo, run.run_id, 'delivered');
  const message = await waitFor('the message', () =>
    receiver.received.slice(before).find((received) => JSON.parse(received.body).data.run.run_id === run.run_id),
  );
  const data = JSON.parse(message.body).data;
  return { uuid, run, message: data.run as Record<string, unknown>, raw: message.body };
};
const report = (url: string, token: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const events = (runId: string, headers: Record<string, string> = {}) =>
  fetch(studio(`/runs/${runId}/events`), { headers: { ...bearer(tokens.access), ...headers } });
const sse = (runId: string, lastEventId?: number) =>
  events(runId, { accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }) });
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

describe('the report token, attacked', () => {
  test('only the exact token of this run, before it expires, reports; every other credential is a 401', async () => {
    const { message } = await deliveredRun();
    const url = message.report_url as string;
    const token = message.report_token as string;
    expect(url).toBe(`${api.url}/api/studio/runs/${message.run_id}/events`);
    expect(token).toMatch(/^knap_rpt_[A-Za-z0-9_-]+$/);
    const other = await deliveredRun();
    const admin = await api.adminToken('reports');
    const refused = [
      ...sampleOneCharacterAway(token, 150),
      token.slice(0, -8),
      `${token}${token.slice(-8)}`,
      other.message.report_token as string,
      tokens.access,
      tokens.refresh,
      admin,
      '',
    ];
    for (const credential of refused) {
      const response = await report(url, credential, { type: 'progress' });
      expect([credential.slice(0, 12), response.status]).toEqual([credential.slice(0, 12), 401]);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(response.headers.get('ratelimit-limit')).toBeNull();
    }
    // Another run's URL with this token.
    expect((await report(other.message.report_url as string, token, { type: 'progress' })).status).toBe(401);
    // The genuine one works, and carries no RateLimit headers.
    const accepted = await report(url, token, { type: 'running' });
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get('ratelimit-limit')).toBeNull();
    // Expired: 24 hours after the attempt that carried it.
    api.clock.advance(24 * 3600);
    expect((await report(url, token, { type: 'progress' })).status).toBe(401);
    api.clock.advance(-24 * 3600);
  });

  test('used anywhere else it is a 401; introspection says inactive, revocation ignores it', async () => {
    const { uuid, message } = await deliveredRun();
    const token = message.report_token as string;
    for (const path of ['/knap-tools', `/knap-tools/${uuid}`, `/runs/${message.run_id}`, `/runs/${message.run_id}/events`]) {
      expect((await fetch(studio(path), { headers: bearer(token) })).status).toBe(401);
    }
    expect((await fetch(`${api.url}/api/admin/runs`, { headers: bearer(token) })).status).toBe(401);
    const introspection = await tokenOperation(api.url, 'introspect', client, token);
    expect(await json(introspection)).toEqual({ active: false });
    expect((await tokenOperation(api.url, 'revoke', client, token)).status).toBe(200);
    // Still good for its run: revocation ignored it.
    expect((await report(message.report_url as string, token, { type: 'progress' })).status).toBe(201);
  });

  test('it appears in no API answer, no stored item other than none, and no log line', async () => {
    const { uuid, run, message } = await deliveredRun();
    const token = message.report_token as string;
    const answers = await Promise.all([
      fetch(studio(`/runs/${run.run_id}`), { headers: bearer(tokens.access) }).then((r) => r.text()),
      events(run.run_id).then((r) => r.text()),
      fetch(studio(`/knap-tools/${uuid}/runs`), { headers: bearer(tokens.access) }).then((r) => r.text()),
      fetch(`${api.url}/api/admin/runs`, { headers: bearer(await api.adminToken('reports')) }).then((r) => r.text()),
    ]);
    for (const text of answers) {
      expect(text).not.toContain(token);
      expect(text).not.toContain('report_token');
    }
    expect(JSON.stringify(await api.table.item(key.run(run.run_id)))).not.toContain('knap_rpt_');
    expect(JSON.stringify(api.deps.log.lines)).not.toContain('knap_rpt_');
  });
});

describe('input', () => {
  test('a run keeps its input, answers it, and delivers it in data.run.input; no body is no input', async () => {
    const input = { messages: [{ role: 'user', content: 'Summarize' }], chat_id: 'c1' };
    const { run, raw } = await deliveredRun(input);
    expect(run.input).toEqual(input);
    expect(JSON.parse(raw).data.run.input).toEqual(input);
    // Numbers keep their digits, as in tool_metadata.
    const uuid = await newKnap();
    const big = await startRun(uuid, '{"input": {"id": 12345678901234567890}}');
    expect(await big.text()).toContain('"input":{"id":12345678901234567890}');
    expect(run).toMatchObject({ outcome: null, output: null, error: null, finished_at: null });
    const plain = await deliveredRun();
    expect(plain.run.input).toBeNull();
  });

  test('bad input is a 400 (not an object, over 64 KB), a wrong type a 415, and nothing runs', async () => {
    const uuid = await newKnap();
    expect((await startRun(uuid, { input: [1, 2] })).status).toBe(400);
    expect((await startRun(uuid, { input: 'text' })).status).toBe(400);
    expect((await startRun(uuid, { input: { text: 'x'.repeat(65 * 1024) } })).status).toBe(400);
    expect((await startRun(uuid, '{"input": ')).status).toBe(400);
    expect((await startRun(uuid, 'input=1', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    const history = await json(await fetch(studio(`/knap-tools/${uuid}/runs`), { headers: bearer(tokens.access) }));
    expect(history.runs).toEqual([]);
  });
});

describe('the loop', () => {
  test('running, progress, succeeded: the run, its events as JSON and as a resumed stream that ends', async () => {
    const { run, message } = await deliveredRun({ topic: 'pipeline' });
    const url = message.report_url as string;
    const token = message.report_token as string;
    expect(await json(await report(url, token, { type: 'running' }))).toMatchObject({ id: 3, type: 'running' });
    // A stream from the start answers at once with what exists.
    const first = await sse(run.run_id);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const firstText = await first.text();
    expect(firstText.startsWith('retry: ')).toBe(true);
    expect(parseSse(firstText).map((event) => [event.id, event.event])).toEqual([
      [1, 'created'],
      [2, 'delivered'],
      [3, 'running'],
    ]);
    // Resumed after event 3, it waits; a report reaches it.
    const waiting = sse(run.run_id, 3);
    await waitFor('the stream to wait', async () =>
      (await api.table.item(key.streamSlots(client.clientId)))?.s0 ? true : undefined,
    );
    expect(await json(await report(url, token, { type: 'progress', message: 'half way' }))).toMatchObject({
      id: 4,
      type: 'progress',
      message: 'half way',
    });
    const resumed = parseSse(await (await waiting).text());
    expect(resumed).toEqual([
      { id: 4, event: 'progress', data: { id: 4, type: 'progress', at: expect.any(String), message: 'half way' } },
    ]);

    const done = await report(url, token, { type: 'succeeded', output: { summary: 'done' } });
    expect(done.status).toBe(201);
    const finished = await json(done);
    expect((await report(url, token, { type: 'progress' })).status).toBe(409);

    const read = await json(await fetch(studio(`/runs/${run.run_id}`), { headers: bearer(tokens.access) }));
    expect(read).toMatchObject({ run_id: run.run_id, status: 'delivered', outcome: 'succeeded', output: { summary: 'done' } });
    expect(read.finished_at).toBe(finished.at);
    expect(read.input).toEqual({ topic: 'pipeline' });

    const listed = (await json(await events(run.run_id))).events as { id: number; type: string }[];
    expect(listed.map((event) => [event.id, event.type])).toEqual([
      [1, 'created'],
      [2, 'delivered'],
      [3, 'running'],
      [4, 'progress'],
      [5, 'succeeded'],
    ]);
    const last = parseSse(await (await sse(run.run_id, 4)).text());
    expect(last.map((event) => event.event)).toEqual(['succeeded']);
    // Resumed at the terminal event: nothing more, ever.
    expect((await sse(run.run_id, 5)).status).toBe(204);
  });

  test('a stream with nothing new answers after the wait; a third waiting stream of a client is a 429', async () => {
    const { run } = await deliveredRun();
    const started = Date.now();
    const streams = [sse(run.run_id, 2), sse(run.run_id, 2)];
    await waitFor('both streams to wait', async () => {
      const slots = await api.table.item(key.streamSlots(client.clientId));
      const now = api.clock.now().getTime();
      return Number(slots?.s0) > now && Number(slots?.s1) > now ? true : undefined;
    });
    const third = await sse(run.run_id, 2);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBeTruthy();
    for (const stream of streams) {
      const response = await stream;
      expect(response.status).toBe(200);
      expect(parseSse(await response.text())).toEqual([]);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    // Slots given back: a stream may wait again.
    const again = sse(run.run_id, 2);
    expect((await again).status).toBe(200);
  });

  test('the run and its events are for whoever sees the Knap: 404 to another organization', async () => {
    const { run } = await deliveredRun();
    for (const path of [`/runs/${run.run_id}`, `/runs/${run.run_id}/events`, '/runs/run_unknown', '/runs/x/events']) {
      expect((await fetch(studio(path), { headers: bearer(tokens.stranger) })).status).toBe(404);
    }
  });

  test('a webhook answered 2xx with {"outcome": ...} reports that outcome at once', async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ outcome: 'succeeded', output: { rows: 3 } }) });
    try {
      const { run } = await deliveredRun();
      const read = await waitFor('the outcome', async () => {
        const body = await json(await fetch(studio(`/runs/${run.run_id}`), { headers: bearer(tokens.access) }));
        return body.outcome === 'succeeded' ? body : undefined;
      });
      expect(read.output).toEqual({ rows: 3 });
      const listed = (await json(await events(run.run_id))).events as { type: string }[];
      expect(listed.map((event) => event.type)).toEqual(['created', 'delivered', 'succeeded']);
      expect((await sse(run.run_id, 3)).status).toBe(204);
    } finally {
      answer = () => ({ status: 204 });
    }
  });

  test('a succeeded or failed report is announced once, as knap.run.succeeded or knap.run.failed (reason "reported")', async () => {
    for (const [outcome, body] of [
      ['succeeded', { type: 'succeeded', output: { rows: 7 } }],
      ['failed', { type: 'failed', error: 'quota exceeded upstream' }],
    ] as const) {
      const { run, message } = await deliveredRun();
      const url = message.report_url as string;
      const token = message.report_token as string;
      expect((await report(url, token, body)).status).toBe(201);
      // Retried after a lost answer: refused, and nothing more is sent.
      expect((await report(url, token, body)).status).toBe(409);
      const isOutcome = (received: Receiver['received'][number]) => {
        const parsed = JSON.parse(received.body);
        return parsed.type !== 'knap.run' && parsed.data.run.run_id === run.run_id;
      };
      const announced = await waitFor(`the knap.run.${outcome} message`, () => receiver.received.find(isOutcome));
      // Signed by the endpoint's secret; the test API's clock is fixed, so the library signs at the header's time.
      const headers = announced.headers as Record<string, string>;
      const signature = new Webhook(endpoint.secret).sign(
        headers['webhook-id'] as string,
        new Date(Number(headers['webhook-timestamp']) * 1000),
        announced.body,
      );
      expect(headers['webhook-signature']?.split(' ')).toContain(signature);
      const verified = JSON.parse(announced.body) as { type: string; data: { reason: string; run: Record<string, unknown> } };
      expect(verified.type).toBe(`knap.run.${outcome}`);
      expect(verified.data.reason).toBe('reported');
      expect(verified.data.run).toMatchObject({ run_id: run.run_id, outcome });
      expect(verified.data.run).not.toHaveProperty('report_token');
      expect(announced.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
      expect(announced.headers['webhook-id']).not.toBe(run.run_id);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received.filter(isOutcome)).toHaveLength(1);
    }
  });
});
