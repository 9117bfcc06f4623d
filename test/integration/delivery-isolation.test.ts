/**
 * The audit's delivery findings (issue 44), each reproduced against real DynamoDB: URL
 * secrets quoted in errors and attempt records, a run item that outgrows DynamoDB's 400 KB,
 * redelivery that sends to every endpoint again, and one organization's stalled endpoints
 * holding every socket. Under `npm run test:dynamodb-local` the size limit is DynamoDB's own.
 */

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { MAX_PER_LANE } from '../../local/delivery-queue.js';
import type { ApiClient } from '../../shared/domain/clients.js';
import { systemClock } from '../../shared/domain/clock.js';
import { adminRunView } from '../../shared/services/org-runs.js';
import { startManualRun } from '../../shared/services/runs.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { RETRY_POLICY } from '../../shared/webhooks/retry.js';
import {
  type Answer,
  type DeliveringQueue,
  deliverWith,
  OWNER,
  putPendingRun,
  putTestKnap,
  type Receiver,
  startReceiver,
  type TestDeliveryOptions,
  waitFor,
  waitForRunStatus,
} from '../support/deliveries.js';
import { tableForFile } from '../support/dynamo.js';
import { overriding } from '../support/failing-repo.js';

const file = tableForFile();

const setup = (options: TestDeliveryOptions = {}) => {
  const deps = file.table.deps(systemClock);
  const queue: DeliveringQueue = deliverWith(deps, options);
  file.cleanup(() => queue.close());
  return { deps, queue, repo: deps.repo };
};

const receiver = async (answer?: (n: number) => Answer): Promise<Receiver> => {
  const started = await startReceiver(answer);
  file.cleanup(() => started.close());
  return started;
};

let orgs = 0;
const newOrg = () => `isolation-org-${++orgs}`;

/** Everything stored about a run that a user could read: its item, its delivery items, the admin view. */
const storedText = async (runId: string): Promise<string> => {
  const run = await file.table.item({ pk: `RUN#${runId}`, sk: 'RUN' });
  const stored = await file.table.deps().repo.getRun(runId);
  const deliveries = await file.table.deps().repo.runDeliveries(runId);
  return JSON.stringify([run, stored && adminRunView(stored, deliveries)]);
};

describe('URL secrets stay in the endpoint item', () => {
  test('errors, attempt records and log lines name the scheme, host and port, never the path or query', async () => {
    const { deps, repo } = setup({ settings: { timeoutMs: 300, retry: { ...RETRY_POLICY, maxAttempts: 1 } } });
    const org = newOrg();
    const failing = await receiver(() => ({ status: 500 }));
    const hanging = await receiver(() => 'hang');
    // A port nobody listens on: the connection is refused.
    const closed = await startReceiver();
    await closed.close();
    const secretPath = '/services/T0000/B0000/XXXXslackSECRETpath';
    for (const target of [failing, hanging, closed]) {
      const url = new URL(target.url);
      await addWebhook(deps, { orgName: org, url: `${url.origin}${secretPath}?token=QUERYsecret` }, { allowLocalhost: true });
    }
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const run = await putPendingRun(repo, knap.uuid, org);
    await deps.deliveries.enqueue(run.run_id, 0);
    const stored = await waitForRunStatus(repo, run.run_id, 'failed');

    const everything = (await storedText(run.run_id)) + JSON.stringify(deps.log.lines);
    expect(everything).not.toContain('XXXXslackSECRETpath');
    expect(everything).not.toContain('QUERYsecret');
    expect(everything).not.toContain('/services/');
    // What is said instead: where, at most scheme, host and port.
    expect(stored.run.last_error).toContain(new URL(failing.url).origin);
  });
});

describe('a run item stays bounded', () => {
  test('20 endpoints of 1,900-character URLs, failing, then redelivered: the run is failed twice and its item small', async () => {
    // Two attempts each (earlier versions kept every attempt's error, URL and all, on the run item).
    const retry = { ...RETRY_POLICY, maxAttempts: 2 };
    const { deps, repo } = setup({ timeScale: 1 / 100_000, settings: { retry } });
    const org = newOrg();
    const target = await receiver(() => ({ status: 500 }));
    const origin = new URL(target.url).origin;
    for (let index = 0; index < 20; index += 1) {
      const path = `/${String(index).padStart(2, '0')}/${'p'.repeat(1890)}`;
      await addWebhook(deps, { orgName: org, url: `${origin}${path}` }, { allowLocalhost: true });
    }
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const run = await putPendingRun(repo, knap.uuid, org);
    await deps.deliveries.enqueue(run.run_id, 0);
    await waitForRunStatus(repo, run.run_id, 'failed', 120_000);

    expect(await repo.redeliverRun(run.run_id, org)).toBe('redelivering');
    await deps.deliveries.enqueue(run.run_id, 0);
    let seen = '';
    const again = await waitFor(
      'the redelivery to fail for good',
      async () => {
        const current = await repo.getRun(run.run_id);
        seen = `${current?.run.status} after ${current?.run.attempts} attempts`;
        return current?.run.status === 'failed' && current.run.attempts === 2 * 20 * retry.maxAttempts ? current : undefined;
      },
      120_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: the run is ${seen}`);
    });
    expect(again.run.status).toBe('failed');
    const item = await file.table.item({ pk: `RUN#${run.run_id}`, sk: 'RUN' });
    expect(JSON.stringify(item).length).toBeLessThan(4_000);
    // Every attempt is still there to read, each endpoint's last ones on its own item, none quoting a path.
    const view = adminRunView(again, await repo.runDeliveries(run.run_id));
    expect(view.delivery_attempts).toHaveLength(2 * 20 * retry.maxAttempts);
    expect(JSON.stringify(view)).not.toContain('pppp');
  }, 300_000);
});

describe('redelivery', () => {
  test('sends only to the endpoints that did not take the run', async () => {
    const { deps, repo } = setup({ settings: { retry: { ...RETRY_POLICY, maxAttempts: 1 } } });
    const org = newOrg();
    const ok = await receiver();
    const bad = await receiver((n) => (n === 1 ? { status: 500 } : { status: 204 }));
    await addWebhook(deps, { orgName: org, url: ok.url }, { allowLocalhost: true });
    await addWebhook(deps, { orgName: org, url: bad.url }, { allowLocalhost: true });
    const knap = await putTestKnap(repo, { ...OWNER, orgName: org });
    const run = await putPendingRun(repo, knap.uuid, org);
    await deps.deliveries.enqueue(run.run_id, 0);
    await waitForRunStatus(repo, run.run_id, 'failed');

    expect(await repo.redeliverRun(run.run_id, org)).toBe('redelivering');
    await deps.deliveries.enqueue(run.run_id, 0);
    await waitForRunStatus(repo, run.run_id, 'delivered');
    expect(bad.received).toHaveLength(2);
    expect(ok.received).toHaveLength(1);
  });
});

/** A receiver that never answers and counts the connections it holds open at once. */
const stallingServer = async () => {
  let open = 0;
  let most = 0;
  let requests = 0;
  const server: Server = createServer(() => {
    requests += 1;
  });
  server.on('connection', (socket) => {
    open += 1;
    most = Math.max(most, open);
    socket.on('close', () => {
      open -= 1;
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  file.cleanup(async () => {
    server.closeAllConnections();
    server.close();
  });
  return { origin: `http://127.0.0.1:${port}`, stats: () => ({ open, most, requests }) };
};

describe('isolation', () => {
  test("one organization's stalled endpoints hold a bounded number of sockets, and another's deliveries go on", async () => {
    const { deps, queue, repo } = setup({
      settings: { timeoutMs: 5_000, retry: { ...RETRY_POLICY, maxAttempts: 1 } },
      maxPerLane: 4,
    });
    const stalled = await stallingServer();
    const x = newOrg();
    for (let index = 0; index < 30; index += 1)
      await repo.putWebhookEndpoint({
        endpointId: `we_stall_${x}_${index}`,
        orgName: x,
        url: `${stalled.origin}/hook/${index}`,
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        createdAt: '2026-11-23T10:00:00Z',
      });
    const knapX = await putTestKnap(repo, { ...OWNER, orgName: x });
    const runX = await putPendingRun(repo, knapX.uuid, x);
    await deps.deliveries.enqueue(runX.run_id, 0);
    await waitFor('the stalled sends', () => (stalled.stats().requests >= 4 ? true : undefined));

    const y = newOrg();
    const healthy = await receiver();
    await addWebhook(deps, { orgName: y, url: healthy.url }, { allowLocalhost: true });
    const knapY = await putTestKnap(repo, { ...OWNER, orgName: y });
    const runY = await putPendingRun(repo, knapY.uuid, y);
    await deps.deliveries.enqueue(runY.run_id, 0);
    await waitForRunStatus(repo, runY.run_id, 'delivered', 3_000);
    expect(stalled.stats().most).toBeLessThanOrEqual(4);
    expect(queue.queue.size.running).toBeLessThanOrEqual(5);
  });
});

/**
 * X's receiver that takes connections and never answers: `read` reads each request, `accept`
 * never reads it. Counts the connections and how many are open.
 */
const neverAnswering = async (kind: 'read' | 'accept') => {
  const sockets = new Set<Socket>();
  let connections = 0;
  const track = (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const server =
    kind === 'accept'
      ? createTcpServer({ pauseOnConnect: true }, track)
      : createServer((request) => request.resume()).on('connection', track);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  file.cleanup(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { origin: `http://127.0.0.1:${port}`, stats: () => ({ connections, open: sockets.size }) };
};

describe("one organization's stalled endpoints beside another's healthy one (the local queue's default bounds)", () => {
  // No timing is measured: X's attempts cannot end while the test runs (a 10-minute timeout), so
  // Y's run can only be delivered if its attempt is not queued behind any of X's.
  test.each(['read', 'accept'] as const)(
    "X's 20 endpoints stalled (%s) with a backlog of attempts: Y's run is delivered while every one of X's still hangs",
    async (kind) => {
      const { deps, queue, repo } = setup({ settings: { timeoutMs: 600_000 } });
      const stalled = await neverAnswering(kind);
      const x = newOrg();
      // Its quota's 20 endpoints, added the way an admin adds them.
      for (let index = 0; index < 20; index += 1)
        await addWebhook(deps, { orgName: x, url: `${stalled.origin}/hook/${index}` }, { allowLocalhost: true });
      const knapX = await putTestKnap(repo, { ...OWNER, orgName: x });
      for (let n = 0; n < 3; n += 1) await deps.deliveries.enqueue((await putPendingRun(repo, knapX.uuid, x)).run_id, 0);
      // Every slot X may hold is held, and the rest of its attempts wait behind them.
      await waitFor("X's stalled sends", () => (stalled.stats().open >= MAX_PER_LANE ? true : undefined), 60_000);
      await waitFor("X's backlog", () => (queue.queue.size.waiting >= 2 * 20 ? true : undefined), 60_000);

      const y = newOrg();
      const healthy = await receiver();
      await addWebhook(deps, { orgName: y, url: healthy.url }, { allowLocalhost: true });
      const knapY = await putTestKnap(repo, { ...OWNER, orgName: y });
      const runY = await putPendingRun(repo, knapY.uuid, y);
      await deps.deliveries.enqueue(runY.run_id, 0);
      await waitForRunStatus(repo, runY.run_id, 'delivered', 60_000);

      expect(healthy.received).toHaveLength(1);
      // None of X's attempts ended, and X never held more than its lane's slots.
      expect(stalled.stats()).toEqual({ connections: MAX_PER_LANE, open: MAX_PER_LANE });
      expect(queue.queue.size.waiting).toBeGreaterThanOrEqual(2 * 20);
    },
    120_000,
  );
});

describe("a run's start (the message with no endpoint yet) under the local queue", () => {
  test("X's starts that never end hold up no start of Y's: each organization's wait in its own lane", async () => {
    const { deps, repo } = setup();
    const x = newOrg();
    const y = newOrg();
    // X's runs hang on the store when their delivery reads them (until the test ends); Y's are served.
    const release: (() => void)[] = [];
    deps.repo = overriding(repo, (inner) => ({
      getRun: async (id: string) => {
        const stored = await inner.getRun(id);
        return stored?.orgName === x ? new Promise((resolve) => release.push(() => resolve(null))) : stored;
      },
    }));
    file.cleanup(async () => {
      for (const end of release) end();
    }, 'first');
    const caller = (orgName: string) => ({
      client: { clientId: `knap_ci_${orgName}`, orgName } as ApiClient,
      scopes: ['write:knaps'],
    });
    const healthy = await receiver();
    await addWebhook(deps, { orgName: x, url: healthy.url }, { allowLocalhost: true });
    await addWebhook(deps, { orgName: y, url: healthy.url }, { allowLocalhost: true });
    const knapX = await putTestKnap(repo, { orgName: x, creatorClientId: `knap_ci_${x}` });
    const knapY = await putTestKnap(repo, { orgName: y, creatorClientId: `knap_ci_${y}` });
    // More of X's runs than one lane starts at once, made the way the run endpoint makes them.
    for (let n = 0; n < MAX_PER_LANE + 5; n += 1) await startManualRun(deps, caller(x), knapX.uuid);
    await waitFor("X's starts under way", () => (release.length === MAX_PER_LANE ? true : undefined), 30_000);

    const runY = await startManualRun(deps, caller(y), knapY.uuid);
    await waitForRunStatus(repo, runY.run_id, 'delivered', 30_000);
    // X's starts still hang, no more of them under way than its lane allows.
    expect(release).toHaveLength(MAX_PER_LANE);
    expect(healthy.received).toHaveLength(1);
  }, 90_000);
});
