import { randomBytes } from 'node:crypto';
import { type LocalStack, startLocalStack } from '../../local/stack.js';
import { defaultDeps } from '../../shared/runtime.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { OWNER, putPendingRun, putTestKnap, type Receiver, startReceiver, waitForRunStatus } from '../support/deliveries.js';

/**
 * The local stack as npm start runs it (in memory here): the handlers' own deps, from the
 * environment the stack sets, reach its delivery queue.
 */
let stack: LocalStack;
let target: Receiver;
beforeAll(async () => {
  stack = await startLocalStack({ port: 0, tableName: `knap-deliveries-${randomBytes(4).toString('hex')}`, accessLog: false });
  target = await startReceiver((n) => (n === 1 ? { status: 500 } : { status: 200 }));
});
afterAll(async () => {
  await stack.close();
  await target.close();
});

test('under npm start a run is first tried at once, and retried after about a second', async () => {
  const deps = defaultDeps();
  expect(process.env.WEBHOOKS_ALLOW_LOCALHOST).toBe('true');
  const org = 'local-stack-org';
  await addWebhook(deps, { orgName: org, url: target.url }, { allowLocalhost: true });
  const knap = await putTestKnap(deps.repo, { ...OWNER, orgName: org });
  const run = await putPendingRun(deps.repo, knap.uuid, org);
  const created = Date.now();
  // What the run endpoints and the dispatcher do after putRun.
  await deps.deliveries.enqueue(run.run_id, 0);

  const stored = await waitForRunStatus(deps.repo, run.run_id, 'delivered', 10_000);
  expect(stored.run.attempts).toBe(2);
  const [first, second] = target.received;
  expect((first?.at ?? Infinity) - created).toBeLessThan(5000);
  // The deployed 30 s first retry, 30 times faster: 0.5 to 1 s (and some slack for a busy machine).
  const gap = (second?.at ?? 0) - (first?.at ?? 0);
  expect(gap).toBeGreaterThanOrEqual(450);
  expect(gap).toBeLessThan(3000);
});
