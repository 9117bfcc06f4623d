/**
 * Every call bounded under `npm start` too: a DynamoDB that takes connections and never answers
 * (a proxy in front of dynalite that stops passing anything on, then starts again) must not stop
 * scheduled work for good. The dispatch timer's passes fail at their deadline and keep coming,
 * the delivery queue tries an attempt again, both work again once DynamoDB answers, and close()
 * (SIGTERM) is not held up by a call that will never be answered.
 */
import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { LocalDeliveryQueue } from '../../local/delivery-queue.js';
import { STOP_GRACE_MS, startDispatchTimer } from '../../local/dispatch-timer.js';
import { freePort } from '../../local/ports.js';
import { scopedDeps } from '../../shared/scoped-deps.js';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { type Spawned, spawnStart, tempDir } from './processes.js';

/** A TCP proxy to `target` that, while `stalled`, passes nothing on in either direction: DynamoDB taking requests and never answering. */
const stallingProxy = async (target: string) => {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let forwarded = 0;
  const state = { stalled: false };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', (chunk) => {
      if (state.stalled) return;
      forwarded += 1;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!state.stalled) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    forwarded: () => forwarded,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
};

/** Polls `check` until it holds, failing after `timeoutMs`. */
const waitUntil = async (what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
};

let table: TestTable;
let proxy: Awaited<ReturnType<typeof stallingProxy>>;
let documents: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  table = await startTestTable();
  proxy = await stallingProxy(table.endpoint);
  // Attempts far longer than the work's deadlines: what ends a stalled call here is the deadline.
  documents = createDocumentClient({ endpoint: proxy.endpoint, requestTimeoutMs: 20_000 });
});
afterAll(async () => {
  documents.destroy();
  await proxy.close();
  await table.close();
});
afterEach(() => {
  proxy.state.stalled = false;
});

const stalledDeps = () => ({ ...table.deps(), repo: new DynamoRepository(documents, table.tableName) });

test('the dispatch timer: passes fail at their deadline while DynamoDB is stalled, keep coming, and succeed once it answers; close() is not held up', async () => {
  const errors: unknown[] = [];
  let passes = 0;
  const deps = stalledDeps();
  // A deadline a loaded machine's answered pass stays well within.
  const deadlineMs = 2_000;
  const timer = startDispatchTimer({
    deps: () => deps,
    intervalMs: 50,
    passDeadlineMs: deadlineMs,
    onError: (error) => errors.push(error),
    onPass: () => {
      passes += 1;
    },
  });
  try {
    // The first pass (with the upkeep) and another, both answered.
    await waitUntil('two passes', () => passes >= 2);
    expect(errors).toEqual([]);

    proxy.state.stalled = true;
    const stalledAt = Date.now();
    await waitUntil('three failed passes', () => errors.length >= 3);
    // Each pass ended at its deadline, and the next came an interval later.
    expect(Date.now() - stalledAt).toBeLessThan(3 * (deadlineMs + 50) + 1_500);
    for (const error of errors) expect(error).toMatchObject({ name: 'TimeoutError' });

    proxy.state.stalled = false;
    const forwarded = proxy.forwarded();
    // A pass that had started in the stall may still fail; once one is answered, every one is.
    const answered = passes;
    await waitUntil('a pass answered', () => passes > answered);
    const failed = errors.length;
    const after = passes;
    await waitUntil('two more passes', () => passes >= after + 2);
    expect(errors.length).toBe(failed);
    expect(proxy.forwarded()).toBeGreaterThan(forwarded);

    // A stop while a pass waits on a stalled DynamoDB: close() ends it after a short grace.
    proxy.state.stalled = true;
    await sleep(100);
    const closing = Date.now();
    await timer.close();
    expect(Date.now() - closing).toBeLessThan(STOP_GRACE_MS + 1_000);
  } finally {
    await timer.close();
  }
});

test('the delivery queue: an attempt held by a stalled DynamoDB fails at its deadline, is tried again, and is done once DynamoDB answers', async () => {
  const deps = stalledDeps();
  const errors: unknown[] = [];
  let delivered = 0;
  const queue = new LocalDeliveryQueue({
    // As the stack makes an attempt: deps of its own, with a deadline.
    deliver: async (runId) => {
      await scopedDeps(deps, { deadline: Date.now() + 300 }).repo.getRun(runId);
      delivered += 1;
    },
    // A thrown attempt's 30 s wait passes in 60 ms.
    timeScale: 0.002,
    onError: (_runId, error) => errors.push(error),
  });
  try {
    proxy.state.stalled = true;
    await queue.enqueue('run_stalled', 0);
    await waitUntil('two failed attempts', () => errors.length >= 2);
    for (const error of errors) expect(error).toMatchObject({ name: 'TimeoutError' });
    expect(delivered).toBe(0);
    proxy.state.stalled = false;
    await waitUntil('the attempt done', () => delivered === 1);
  } finally {
    await queue.close();
  }
});

describe('npm start over a DynamoDB that stalls', () => {
  let server: Spawned | undefined;
  const folder = tempDir('knap-stalled-');
  afterAll(() => {
    server?.kill();
    folder.remove();
  });

  test('the dispatcher keeps failing in bounded time while it is stalled, works again after, and SIGTERM still stops the server', async () => {
    server = spawnStart({
      PORT: String(await freePort()),
      DYNAMODB_ENDPOINT: proxy.endpoint,
      TABLE_NAME: `knap-stalled-${Date.now()}`,
      DATA_DIR: folder.path,
      DISPATCH_INTERVAL_MS: '100',
      // Each attempt 300 ms, three in all: a stalled call fails within about a second.
      DYNAMODB_TIMEOUT_MS: '300',
      ACCESS_LOG: 'false',
    });
    await server.waitForStdout(/listening on/, 90_000);
    const failures = () => (server?.stderr().match(/Dispatching due runs failed/g) ?? []).length;
    await sleep(500);
    expect(failures()).toBe(0);

    proxy.state.stalled = true;
    await waitUntil('two failed dispatcher passes', () => failures() >= 2, 15_000);

    proxy.state.stalled = false;
    await sleep(2_000);
    const failed = failures();
    await sleep(1_500);
    expect(failures()).toBe(failed);

    // SIGTERM while the dispatcher waits on a stalled DynamoDB: the server still stops, promptly.
    proxy.state.stalled = true;
    await sleep(200);
    const stopping = Date.now();
    process.kill(server.pid, 'SIGTERM');
    expect(await server.exited(15_000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopping).toBeLessThan(5_000);
  }, 150_000);
});
