/**
 * Issue 23, defect 1: under npm start a run made by a request is retried after that request
 * has been answered, on the contract's local schedule (about 1, 2, 4, 8 s ... between
 * attempts), on the real clock. Before the fix the attempts ran inside the request's async
 * context and died at its deadline (~9 s): "DynamoDB did not answer GetItemCommand before
 * the request deadline", the run left `pending` for good.
 *
 * The two runs go side by side, so the file takes about as long as the slower one (~15 s).
 */
import { randomBytes } from 'node:crypto';
import { type LocalStack, startLocalStack } from '../../local/stack.js';
import { defaultDeps } from '../../shared/runtime.js';
import { createApiClient } from '../../shared/services/admin-service.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { bearer, createKnap, getToken } from '../support/api.js';
import { type Receiver, startReceiver, waitForRunStatus } from '../support/deliveries.js';
import { body as json } from '../support/json.js';

let stack: LocalStack;
const receivers: Receiver[] = [];
beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    tableName: `knap-request-retries-${randomBytes(4).toString('hex')}`,
    accessLog: false,
    dispatchIntervalMs: false,
  });
});
afterAll(async () => {
  await stack.close();
  for (const receiver of receivers) await receiver.close();
});

/** An organization with one webhook endpoint (the receiver) and a token of one of its clients. */
const organization = async (name: string, receiver: Receiver) => {
  const deps = defaultDeps();
  await addWebhook(deps, { orgName: name, url: receiver.url }, { allowLocalhost: true });
  const client = await createApiClient(deps, { orgName: name, name: 'retries', rateLimit: 1000 });
  return (await getToken(stack.api.url, client)).access_token;
};

const newKnap = async (token: string, body: Record<string, unknown>): Promise<string> => {
  const response = await createKnap(stack.api.url, token, body);
  expect(response.status).toBe(201);
  return (await json(response)).uuid as string;
};

test.concurrent('a manual run whose receiver fails four times is delivered on its fifth attempt, about 1, 2, 4, 8 s apart', async () => {
  const receiver = await startReceiver((n) => (n <= 4 ? { status: 500, body: `down ${n}` } : { status: 204 }));
  receivers.push(receiver);
  const token = await organization('retried-after-the-request', receiver);
  const uuid = await newKnap(token, { name: 'Flaky receiver', schedule_type: 'manual' });

  const response = await fetch(`${stack.api.url}/api/studio/knap-tools/${uuid}/runs`, { method: 'POST', headers: bearer(token) });
  expect(response.status).toBe(202);
  const { run_id: runId } = await json(response);

  // The fifth attempt comes 7.5 to 15 s after the first; generous slack for a busy machine.
  const stored = await waitForRunStatus(defaultDeps().repo, runId, 'delivered', 40_000);
  expect(stored.run.attempts).toBe(5);
  expect(receiver.received).toHaveLength(5);
  for (const request of receiver.received) expect(request.headers['webhook-id']).toBe(runId);
  const at = receiver.received.map((request) => request.at);
  const gaps = at.slice(1).map((time, index) => time - (at[index] as number));
  // Nominal waits of 1, 2, 4 and 8 s, each drawn from its upper half (jitter); the upper bound
  // leaves a loaded CI machine seconds of slack, and the doubling still shows in the lower one.
  [1000, 2000, 4000, 8000].forEach((nominal, index) => {
    expect(gaps[index]).toBeGreaterThanOrEqual(nominal / 2 - 50);
    expect(gaps[index]).toBeLessThan(nominal + 5000);
  });
}, 60_000);

test.concurrent('a meeting run whose receiver hangs past the 10 s limit records that attempt and is delivered on the next', async () => {
  const receiver = await startReceiver((n) => (n === 1 ? 'hang' : { status: 204 }));
  receivers.push(receiver);
  const token = await organization('hung-receiver', receiver);
  const uuid = await newKnap(token, { name: 'Meeting notes', schedule_type: 'post_meeting_transcription' });

  const response = await fetch(`${stack.api.url}/api/studio/meeting-transcriptions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ meeting_id: `meeting-${randomBytes(4).toString('hex')}` }),
  });
  expect(response.status).toBe(202);
  const { runs } = await json(response);
  expect(runs).toHaveLength(1);
  expect(runs[0].knap_uuid).toBe(uuid);

  // 10 s for the hung attempt, then a retry about 1 s later.
  const stored = await waitForRunStatus(defaultDeps().repo, runs[0].run_id, 'delivered', 40_000);
  expect(stored.run.attempts).toBe(2);
  expect(receiver.received).toHaveLength(2);
}, 60_000);
