/**
 * A stream with nothing new waits as long as its function may, and no longer: its last read
 * and the release of its slot end before the request's DynamoDB deadline (1 s before the
 * function's end), so it answers 200 with nothing, never a 503, and gives its slot back.
 * Before, the wait ran to 0.75 s before the end: a read begun in its last quarter second was
 * past the DynamoDB deadline (with a 100 ms poll, always), so the answer was a 503 "DynamoDB
 * unavailable" and the slot stayed taken until its lease ended.
 */
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { key } from '../../shared/store/keys.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { type Receiver, startReceiver, waitForRunStatus } from '../support/deliveries.js';
import { body as json } from '../support/json.js';

// The deployed wait (10 s), past this test's function timeout; the chain read every 100 ms.
process.env.STREAM_WAIT_MS = '10000';
process.env.STREAM_POLL_MS = '100';

/** Short, so the wait meets the function's end quickly; the margins are the deployed ones. */
const LAMBDA_TIMEOUT_MS = 3_000;

let api: TestApi;
let receiver: Receiver;
let access = '';
let clientId = '';

beforeAll(async () => {
  api = await startTestApi({ deliveries: {}, lambdaTimeoutMs: LAMBDA_TIMEOUT_MS });
  receiver = await startReceiver();
  await addWebhook(api.deps, { orgName: 'deadline', url: receiver.url }, { allowLocalhost: true });
  const client = await api.newClient({ orgName: 'deadline', rateLimit: 100_000 });
  clientId = client.clientId;
  access = (await getToken(api.url, client)).access_token;
});
afterAll(async () => {
  await receiver.close();
  await api.close();
});

test('a stream with nothing new answers 200 before its function ends, and gives its slot back', async () => {
  const created = await createKnap(api.url, access, { name: 'Quiet', schedule_type: 'manual' });
  const uuid = (await json(created)).uuid as string;
  const started = await fetch(`${api.url}/api/studio/knap-tools/${uuid}/runs`, { method: 'POST', headers: bearer(access) });
  const runId = (await json(started)).run_id as string;
  await waitForRunStatus(api.deps.repo, runId, 'delivered');
  const listed = (await json(await fetch(`${api.url}/api/studio/runs/${runId}/events`, { headers: bearer(access) })))
    .events as unknown[];

  for (let round = 0; round < 2; round += 1) {
    const answer = await fetch(`${api.url}/api/studio/runs/${runId}/events`, {
      headers: { ...bearer(access), accept: 'text/event-stream', 'last-event-id': String(listed.length) },
    });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).toMatch(/^retry: \d+\n/);
    expect(text).not.toContain('id:');
    const slots = await api.table.item(key.streamSlots(clientId));
    expect([slots?.s0 ?? 0, slots?.s1 ?? 0]).toEqual([0, 0]);
  }
}, 30_000);
