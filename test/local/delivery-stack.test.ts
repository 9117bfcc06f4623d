import { randomBytes } from 'node:crypto';
import { type LocalStack, startLocalStack } from '../../local/stack.js';
import type { KnapLogger } from '../../shared/logger.js';
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

test('each log line names the function that did the work, not the last one invoked', async () => {
  const deps = defaultDeps();
  const org = 'local-stack-logs';
  await addWebhook(deps, { orgName: org, url: target.url }, { allowLocalhost: true });
  const knap = await putTestKnap(deps.repo, { ...OWNER, orgName: org });
  const run = await putPendingRun(deps.repo, knap.uuid, org);
  // Tests keep the logger silent; this one reads its lines.
  const { powertools } = deps.log as KnapLogger;
  powertools.setLogLevel('INFO');
  const written: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  try {
    // A request first (the shared logger then holds its context), then the delivery.
    const answer = await fetch(`${stack.api.url}/api/studio/knap-tools`, { headers: { authorization: 'Bearer nope' } });
    expect(answer.status).toBe(401);
    await deps.deliveries.enqueue(run.run_id, 0);
    await waitForRunStatus(deps.repo, run.run_id, 'delivered', 10_000);
  } finally {
    process.stdout.write = write;
    powertools.setLogLevel('SILENT');
  }
  const lines = written
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const attempt = lines.find((line) => line.message === 'Delivery attempt' && line.run_id === run.run_id);
  // Its name and ARN, not those of the route that ran before it (whose context the shared logger holds).
  expect(attempt).toMatchObject({
    function_name: 'deliver-runs',
    function_arn: 'arn:aws:lambda:local:000000000000:function:deliver-runs',
    timestamp: expect.any(String),
  });
  expect(attempt?.function_request_id).toEqual(expect.any(String));
});
