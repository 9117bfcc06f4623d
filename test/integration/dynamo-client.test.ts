/**
 * The store's one DynamoDB client (the SDK's, shared/store/dynamo-client.ts): its answers and
 * exceptions on a real table (dynalite), and the bounds it keeps on a DynamoDB that throttles,
 * drops connections, never answers or trickles: retries, per-attempt timeouts that really end
 * the attempt, the request's deadline through the SDK's abortSignal, and round-trip counting.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ConditionalCheckFailedException,
  DescribeTableCommand,
  ProvisionedThroughputExceededException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '../../shared/store/commands.js';
import {
  createDocumentClient,
  DeadlineExceededError,
  dynamoSettingsFromEnv,
  roundTrips,
  scopedDocuments,
} from '../../shared/store/dynamo-client.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';

let table: TestTable;
let proxy: FaultProxy;
let client: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  table = await startTestTable();
  proxy = await startFaultProxy(table.endpoint);
  client = createDocumentClient({ endpoint: table.endpoint });
});
afterAll(async () => {
  client.destroy();
  await proxy.close();
  await table.close();
});
afterEach(() => {
  proxy.mode = 'up';
});

const get = (sk = 'b') => new GetCommand({ TableName: table.tableName, Key: { pk: 'a', sk } });

/** A DynamoDB that takes TCP connections and never answers: counts the connections it took. */
const silentDynamo = async () => {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => {
    sockets.push(socket);
    socket.resume();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => sockets.length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
};

/** A DynamoDB stand-in that gives every call the same answer. */
const cannedServer = async (answer: (response: ServerResponse) => void) => {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => answer(response));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
};

describe("the SDK's answers, as the store meets them", () => {
  test('a failed condition is the SDK exception, with the item the engine sends', async () => {
    const key = { pk: 'CCF', sk: 'A' };
    await client.send(new PutCommand({ TableName: table.tableName, Item: { ...key, kept: 'yes' } }));
    const refusal = await client
      .send(
        new PutCommand({
          TableName: table.tableName,
          Item: key,
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      )
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConditionalCheckFailedException);
    expect((refusal as ConditionalCheckFailedException).$metadata.httpStatusCode).toBe(400);
  });

  test("a missing table is the SDK's ResourceNotFoundException; a table call goes through the same client", async () => {
    await expect(
      client.send(new GetCommand({ TableName: `${table.tableName}-missing`, Key: { pk: 'a', sk: 'b' } })),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
    const described = await client.send(new DescribeTableCommand({ TableName: table.tableName }));
    expect(described.Table?.TableName).toBe(table.tableName);
  });

  test('DYNAMODB_TRANSPORT is not read: there is one client', () => {
    expect(dynamoSettingsFromEnv({ DYNAMODB_TRANSPORT: 'wire', DYNAMODB_TIMEOUT_MS: '1500' })).toEqual({
      endpoint: undefined,
      region: 'us-east-1',
      requestTimeoutMs: 1500,
    });
  });
});

describe('failures: retried within bounds, every attempt counted', () => {
  test('throttling: three attempts counted, then the SDK exception', async () => {
    const throttled = createDocumentClient({ endpoint: proxy.endpoint });
    proxy.mode = 'throttle';
    roundTrips.reset();
    await expect(throttled.send(get())).rejects.toBeInstanceOf(ProvisionedThroughputExceededException);
    expect(roundTrips.byCommand).toEqual({ GetItemCommand: 3 });
    throttled.destroy();
  });

  test('a dropped connection: retried, then the network error', async () => {
    const dropped = createDocumentClient({ endpoint: proxy.endpoint });
    proxy.mode = 'down';
    roundTrips.reset();
    // The SDK's wrapper, whose text the error handler reads as a network failure (a 503).
    await expect(dropped.send(get())).rejects.toThrow(/socket hang up/);
    expect(roundTrips.byCommand).toEqual({ GetItemCommand: 3 });
    dropped.destroy();
  });

  test('no answer, no deadline: each attempt really times out (throwOnRequestTimeout), three in all, then a TimeoutError', async () => {
    const silent = await silentDynamo();
    const stalled = createDocumentClient({ endpoint: silent.endpoint, requestTimeoutMs: 150 });
    roundTrips.reset();
    const started = Date.now();
    await expect(stalled.send(get())).rejects.toMatchObject({ name: 'TimeoutError' });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(3 * 150);
    expect(took).toBeLessThan(3_000);
    expect(roundTrips.byCommand).toEqual({ GetItemCommand: 3 });
    stalled.destroy();
    await silent.close();
  });
});

describe("the request's deadline", () => {
  test('ends the call, retries included; a call past it is never sent; its calls count against it alone', async () => {
    const hanging = createDocumentClient({ endpoint: proxy.endpoint });
    proxy.mode = 'hang';
    const started = Date.now();
    await expect(scopedDocuments(hanging, { deadline: Date.now() + 150 }).send(get())).rejects.toBeInstanceOf(
      DeadlineExceededError,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    proxy.mode = 'up';
    roundTrips.reset();
    await expect(scopedDocuments(hanging, { deadline: Date.now() - 1 }).send(get())).rejects.toBeInstanceOf(
      DeadlineExceededError,
    );
    expect(roundTrips.total).toBe(0);
    const mine = { count: 0 };
    const other = { count: 0 };
    const scoped = scopedDocuments(hanging, { deadline: Date.now() + 5_000, roundTrips: mine });
    await scoped.send(get());
    await scoped.send(get('d'));
    await scopedDocuments(hanging, { roundTrips: other }).send(get());
    await hanging.send(get());
    expect([mine.count, other.count]).toEqual([2, 1]);
    expect(roundTrips.total).toBe(4);
    hanging.destroy();
  });

  test('a deadline shorter than the attempt timeout aborts the attempt: no retry reaches DynamoDB after it', async () => {
    const silent = await silentDynamo();
    const stalled = createDocumentClient({ endpoint: silent.endpoint, requestTimeoutMs: 2_000 });
    const started = Date.now();
    await expect(scopedDocuments(stalled, { deadline: started + 300 }).send(get())).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(1_500);
    // The attempt's socket was destroyed by the abort, and no retry followed.
    await sleep(500);
    expect(silent.connections()).toBe(1);
    stalled.destroy();
    await silent.close();
  });

  test("an answer that trickles in is cut at the request's deadline", async () => {
    const server = await cannedServer((response) => {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      const drip = setInterval(() => {
        if (response.destroyed) return clearInterval(drip);
        response.write(' ');
      }, 20);
      response.on('close', () => clearInterval(drip));
    });
    const trickled = createDocumentClient({ endpoint: server.endpoint });
    const started = Date.now();
    await expect(
      scopedDocuments(trickled, { deadline: Date.now() + 200 }).send(
        new GetCommand({ TableName: 'knap', Key: { pk: 'a', sk: 'b' } }),
      ),
    ).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(Date.now() - started).toBeLessThan(1_500);
    trickled.destroy();
    await server.close();
  });
});

describe('an answer too large to hold', () => {
  test('over 512 MiB: that call fails, the process goes on and the next call is answered', async () => {
    const MiB = Buffer.alloc(1024 * 1024, 0x20);
    const CHUNKS = 513;
    const server = await cannedServer((response) => {
      response.writeHead(200, {
        'content-type': 'application/x-amz-json-1.0',
        'content-length': String(CHUNKS * MiB.length + 2),
      });
      response.write('{');
      let sent = 0;
      const more = (): void => {
        while (sent < CHUNKS) {
          sent += 1;
          if (!response.write(MiB)) return void response.once('drain', more);
        }
        response.end('}');
      };
      more();
    });
    const huge = createDocumentClient({ endpoint: server.endpoint, requestTimeoutMs: 20_000 });
    const failure = await scopedDocuments(huge, { deadline: Date.now() + 30_000 })
      .send(new GetCommand({ TableName: 'knap', Key: { pk: 'a', sk: 'b' } }))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    huge.destroy();
    await server.close();
    // The process is still here, and its client still answers.
    expect((await client.send(get('after'))).Item).toBeUndefined();
  }, 60_000);
});
