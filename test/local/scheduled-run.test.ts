/**
 * A scheduled Knap fires under npm start with the real clock: the run is created within
 * 10 s of next_run_at and reaches a webhook receiver, signed. Waits for the next minute
 * boundary, so this test takes up to about 70 s.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { type LocalStack, startLocalStack } from '../../local/stack.js';
import { defaultDeps } from '../../shared/runtime.js';
import { createApiClient } from '../../shared/services/admin-service.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { createKnap, getToken } from '../support/api.js';
import { type Receiver, startReceiver, waitFor } from '../support/deliveries.js';
import { body as json } from '../support/json.js';

let stack: LocalStack;
let receiver: Receiver;
beforeAll(async () => {
  stack = await startLocalStack({ port: 0, tableName: `knap-scheduled-${randomBytes(4).toString('hex')}`, accessLog: false });
  receiver = await startReceiver(() => ({ status: 204 }));
});
afterAll(async () => {
  await stack.close();
  await receiver.close();
});

/** HH:MM UTC of the next minute that starts at least 15 s from now. */
const nextMinute = (): { at: Date; hhmm: string } => {
  const at = new Date(Math.ceil((Date.now() + 15_000) / 60_000) * 60_000);
  return { at, hhmm: at.toISOString().slice(11, 16) };
};

test('every day at <the next minute> UTC: one run within 10 s of next_run_at, delivered signed', async () => {
  const deps = defaultDeps();
  const org = 'clockwork';
  const endpoint = await addWebhook(deps, { orgName: org, url: receiver.url }, { allowLocalhost: true });
  const client = await createApiClient(deps, { orgName: org, name: 'real clock', rateLimit: 1000 });
  const { access_token: token } = await getToken(stack.api.url, client);
  const { at, hhmm } = nextMinute();
  const response = await createKnap(stack.api.url, token, {
    name: 'Minute hand',
    schedule_type: 'scheduled',
    tool_metadata: { schedule_description: `every day at ${hhmm} UTC` },
  });
  expect(response.status).toBe(201);
  const knap = await json(response);
  expect(knap.next_run_at).toBe(at.toISOString().replace('.000Z', 'Z'));

  const delivery = await waitFor('the webhook', () => receiver.received[0], Math.max(0, at.getTime() - Date.now()) + 20_000);
  const runs = (
    await json(
      await fetch(`${stack.api.url}/api/studio/knap-tools/${knap.uuid}/runs`, { headers: { authorization: `Bearer ${token}` } }),
    )
  ).runs;
  expect(runs).toHaveLength(1);
  const [run] = runs;
  expect(run.scheduled_for).toBe(knap.next_run_at);
  expect(Date.parse(run.created_at) - at.getTime()).toBeLessThanOrEqual(10_000);
  expect(delivery.at - at.getTime()).toBeLessThanOrEqual(15_000);
  const payload = new Webhook(endpoint.secret).verify(delivery.body, delivery.headers as Record<string, string>) as {
    type: string;
    data: { run: { run_id: string }; knap: { uuid: string } };
  };
  expect(payload.type).toBe('knap.run');
  expect(payload.data.run.run_id).toBe(run.run_id);
  expect(delivery.headers['webhook-id']).toBe(run.run_id);
  expect(payload.data.knap.uuid).toBe(knap.uuid);
}, 120_000);
