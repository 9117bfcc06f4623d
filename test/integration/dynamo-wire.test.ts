/**
 * The store's calls over DynamoWire answer exactly what the SDK answers (same items, same
 * exceptions), on the same table, and keep the SDK's retries, timeouts, deadline and counting.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ConditionalCheckFailedException,
  DescribeTableCommand,
  DynamoDBServiceException,
  ProvisionedThroughputExceededException,
  ResourceNotFoundException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { SWEEP_MS } from '../../shared/deadlines.js';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '../../shared/store/commands.js';
import {
  createDocumentClient,
  DeadlineExceededError,
  roundTrips,
  scopedDocuments,
  wireTarget,
} from '../../shared/store/dynamo-client.js';
import { asOwnException } from '../../shared/store/dynamo-wire.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { type FaultProxy, forwardTo, startFaultProxy } from '../support/fault-proxy.js';

let table: TestTable;
let proxy: FaultProxy;
let wire: ReturnType<typeof createDocumentClient>;
let sdk: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  table = await startTestTable();
  proxy = await startFaultProxy(table.endpoint);
  wire = createDocumentClient({ endpoint: table.endpoint });
  sdk = createDocumentClient({ endpoint: table.endpoint, transport: 'sdk' });
});
afterAll(async () => {
  wire.destroy();
  sdk.destroy();
  await proxy.close();
  await table.close();
});
afterEach(() => {
  proxy.mode = 'up';
});

const withoutMetadata = <T extends object>(output: T): Omit<T, '$metadata'> => {
  const { $metadata: _metadata, ...rest } = output as T & { $metadata?: unknown };
  return rest;
};

/** Runs `call` with the wire, then on a twin key with the SDK, and returns both answers. */
const both = async <T extends object>(call: (client: typeof wire, prefix: string) => Promise<T>) => {
  const viaWire = await call(wire, 'W');
  const viaSdk = await call(sdk, 'S');
  return { viaWire: withoutMetadata(viaWire), viaSdk: withoutMetadata(viaSdk) };
};

const rich = {
  text: 'naïve ✓',
  count: 42,
  fraction: -0.5,
  yes: true,
  nothing: null,
  list: [1, 'two', { three: [3] }],
  map: { nested: { deep: 'value' }, empty: {} },
  tags: new Set(['a', 'b']),
  numbers: new Set([1, 2]),
  bytes: new Uint8Array([0, 1, 254, 255]),
  buffer: Buffer.from('a buffer'),
  byteSet: new Set([Buffer.from('one'), new Uint8Array([2])]),
  skipped: undefined,
};

describe('the same answers as the SDK', () => {
  test('put, get, update, delete: every attribute type comes back as the SDK gives it', async () => {
    const { viaWire, viaSdk } = await both(async (client, prefix) => {
      const key = { pk: `${prefix}#rich`, sk: 'A' };
      await client.send(new PutCommand({ TableName: table.tableName, Item: { ...key, ...rich } }));
      const got = await client.send(new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }));
      const updated = await client.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: key,
          UpdateExpression: 'SET #count = #count + :one, #map.nested.deep = :deep',
          ExpressionAttributeNames: { '#count': 'count', '#map': 'map' },
          ExpressionAttributeValues: { ':one': 1, ':deep': ['changed'] },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const deleted = await client.send(new DeleteCommand({ TableName: table.tableName, Key: key, ReturnValues: 'ALL_OLD' }));
      const gone = await client.send(new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }));
      const strip = (item: Record<string, unknown> | undefined) => item && { ...item, pk: '', sk: '' };
      return { got: strip(got.Item), updated: strip(updated.Attributes), deleted: strip(deleted.Attributes), gone: gone.Item };
    });
    expect(viaWire).toEqual(viaSdk);
    expect(viaWire.got).toMatchObject({ count: 42, bytes: new Uint8Array([0, 1, 254, 255]), tags: new Set(['a', 'b']) });
    expect(viaWire.got).not.toHaveProperty('skipped');
    expect(viaWire.updated).toMatchObject({ count: 43, map: { nested: { deep: ['changed'] } } });
    expect(viaWire.gone).toBeUndefined();
  });

  test('query pages, scan filters, batch writes and reads', async () => {
    const { viaWire, viaSdk } = await both(async (client, prefix) => {
      const pk = `${prefix}#many`;
      await client.send(
        new BatchWriteCommand({
          RequestItems: {
            [table.tableName]: Array.from({ length: 5 }, (_, index) => ({
              PutRequest: { Item: { pk, sk: `S#${index}`, index, type: 'wire-test' } },
            })),
          },
        }),
      );
      const first = await client.send(
        new QueryCommand({
          TableName: table.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          Limit: 2,
          ConsistentRead: true,
        }),
      );
      const second = await client.send(
        new QueryCommand({
          TableName: table.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ExclusiveStartKey: first.LastEvaluatedKey,
          ConsistentRead: true,
        }),
      );
      const scanned = await client.send(
        new ScanCommand({
          TableName: table.tableName,
          FilterExpression: 'pk = :pk AND #index >= :two',
          ExpressionAttributeNames: { '#index': 'index' },
          ExpressionAttributeValues: { ':pk': pk, ':two': 2 },
          ConsistentRead: true,
        }),
      );
      const batch = await client.send(
        new BatchGetCommand({
          RequestItems: {
            [table.tableName]: {
              Keys: [
                { pk, sk: 'S#1' },
                { pk, sk: 'S#9' },
              ],
              ConsistentRead: true,
            },
          },
        }),
      );
      const plain = (items: Record<string, unknown>[] | undefined) => (items ?? []).map(({ pk: _pk, ...item }) => item);
      return {
        first: plain(first.Items),
        next: first.LastEvaluatedKey?.sk,
        second: plain(second.Items),
        scanned: plain(scanned.Items).sort((a, b) => Number(a.index) - Number(b.index)),
        batch: plain(batch.Responses?.[table.tableName]),
        unprocessed: batch.UnprocessedKeys,
      };
    });
    expect(viaWire).toEqual(viaSdk);
    expect(viaWire.first).toHaveLength(2);
    expect(viaWire.second).toHaveLength(3);
    expect(viaWire.scanned.map((item) => item.index)).toEqual([2, 3, 4]);
    expect(viaWire.batch).toEqual([{ sk: 'S#1', index: 1, type: 'wire-test' }]);
  });

  test('a failed condition is the SDK exception, with the item where the engine sends it', async () => {
    const refusal = async (client: typeof wire) => {
      const key = { pk: 'CCF', sk: 'A' };
      await client.send(new PutCommand({ TableName: table.tableName, Item: { ...key, kept: 'yes' } }));
      try {
        await client.send(
          new PutCommand({
            TableName: table.tableName,
            Item: key,
            ConditionExpression: 'attribute_not_exists(pk)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
      } catch (error) {
        return error as ConditionalCheckFailedException;
      }
      throw new Error('the condition held');
    };
    const viaWire = await refusal(wire);
    const viaSdk = await refusal(sdk);
    expect(viaWire).toBeInstanceOf(ConditionalCheckFailedException);
    expect(viaWire.name).toBe(viaSdk.name);
    expect(viaWire.message).toBe(viaSdk.message);
    expect(viaWire.Item).toEqual(viaSdk.Item);
    expect(viaWire.$metadata.httpStatusCode).toBe(400);
  });

  test('a refused expression is the same exception with the same message', async () => {
    const refusal = (client: typeof wire) =>
      client
        .send(new GetCommand({ TableName: table.tableName, Key: { pk: 'x' } }))
        .then(() => new Error('accepted'))
        .catch((error: Error) => error);
    const [viaWire, viaSdk] = [await refusal(wire), await refusal(sdk)];
    expect(viaWire.name).toBe('ValidationException');
    expect(viaWire.constructor).toBe(viaSdk.constructor);
    expect(viaWire.message).toBe(viaSdk.message);
  });

  test("a missing table is the SDK's ResourceNotFoundException", async () => {
    const refusal = (client: typeof wire) =>
      client
        .send(new GetCommand({ TableName: `${table.tableName}-missing`, Key: { pk: 'a', sk: 'b' } }))
        .then(() => new Error('accepted'))
        .catch((error: Error) => error);
    const [viaWire, viaSdk] = [await refusal(wire), await refusal(sdk)];
    expect(viaWire).toBeInstanceOf(ResourceNotFoundException);
    expect(viaSdk).toBeInstanceOf(ResourceNotFoundException);
    expect(viaWire.message).toBe(viaSdk.message);
  });

  test('what the wire does not speak goes to the SDK', async () => {
    const described = await wire.send(new DescribeTableCommand({ TableName: table.tableName }));
    expect(described.Table?.TableName).toBe(table.tableName);
  });
});

describe('over the wire, by default; through the SDK when asked', () => {
  const recordHeaders = async () => {
    const seen: IncomingHttpHeaders[] = [];
    const target = new URL(table.endpoint);
    const server = createServer((request, response) => {
      seen.push(request.headers);
      request.pipe(forwardTo(target, request, response));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { seen, endpoint, close: () => new Promise((resolve) => server.close(resolve)) };
  };

  test.each(['wire', 'sdk'] as const)('transport %s', async (transport) => {
    const recorder = await recordHeaders();
    const client = createDocumentClient({ endpoint: recorder.endpoint, transport });
    try {
      await client.send(new GetCommand({ TableName: table.tableName, Key: { pk: 'none', sk: 'none' } }));
      expect(recorder.seen).toHaveLength(1);
      expect(recorder.seen[0]?.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/us-east-1\/dynamodb\/aws4_request/,
      );
      // The SDK names each invocation; the wire has no middleware that would.
      expect(Boolean(recorder.seen[0]?.['amz-sdk-invocation-id'])).toBe(transport === 'sdk');
    } finally {
      client.destroy();
      await recorder.close();
    }
  });
});

describe('failures, as the SDK would meet them', () => {
  test('throttling: retried, three attempts counted, then the SDK exception', async () => {
    const client = createDocumentClient({ endpoint: proxy.endpoint });
    proxy.mode = 'throttle';
    roundTrips.reset();
    await expect(client.send(new GetCommand({ TableName: table.tableName, Key: { pk: 'a', sk: 'b' } }))).rejects.toBeInstanceOf(
      ProvisionedThroughputExceededException,
    );
    expect(roundTrips.byCommand).toEqual({ GetItemCommand: 3 });
    client.destroy();
  });

  test('a dropped connection: retried, then the network error', async () => {
    const client = createDocumentClient({ endpoint: proxy.endpoint });
    proxy.mode = 'down';
    roundTrips.reset();
    await expect(client.send(new GetCommand({ TableName: table.tableName, Key: { pk: 'a', sk: 'b' } }))).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    expect(roundTrips.byCommand).toEqual({ GetItemCommand: 3 });
    client.destroy();
  });

  test('no answer: each attempt times out, and the call fails', async () => {
    const client = createDocumentClient({ endpoint: proxy.endpoint, requestTimeoutMs: 100 });
    proxy.mode = 'hang';
    const started = Date.now();
    await expect(client.send(new GetCommand({ TableName: table.tableName, Key: { pk: 'a', sk: 'b' } }))).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    client.destroy();
  });

  test.each(['wire', 'sdk'] as const)(
    "%s: the request's deadline ends the call, retries included, no attempt starts after it, and its calls count",
    async (transport) => {
      const client = createDocumentClient({ endpoint: proxy.endpoint, transport });
      // A command per call, as the store makes them: one sent again is the last request's.
      const get = () => new GetCommand({ TableName: table.tableName, Key: { pk: 'a', sk: 'b' } });
      proxy.mode = 'hang';
      const started = Date.now();
      await expect(scopedDocuments(client, { deadline: Date.now() + 150 }).send(get())).rejects.toBeInstanceOf(
        DeadlineExceededError,
      );
      expect(Date.now() - started).toBeLessThan(2_000);
      proxy.mode = 'up';
      roundTrips.reset();
      await expect(scopedDocuments(client, { deadline: Date.now() - 1 }).send(get())).rejects.toBeInstanceOf(
        DeadlineExceededError,
      );
      expect(roundTrips.total).toBe(0);
      // The request's own counter, and only its calls: another request's and unscoped ones are not.
      const mine = { count: 0 };
      const other = { count: 0 };
      const scoped = scopedDocuments(client, { deadline: Date.now() + 5_000, roundTrips: mine });
      await scoped.send(get());
      await scoped.send(new GetCommand({ TableName: table.tableName, Key: { pk: 'c', sk: 'd' } }));
      await scopedDocuments(client, { roundTrips: other }).send(get());
      await client.send(get());
      expect([mine.count, other.count]).toEqual([2, 1]);
      client.destroy();
    },
  );

  test('a deadline a second or more away ends the call, never early', async () => {
    const client = createDocumentClient({ endpoint: proxy.endpoint });
    proxy.mode = 'hang';
    const started = Date.now();
    await expect(
      scopedDocuments(client, { deadline: started + 1_050 }).send(
        new GetCommand({ TableName: table.tableName, Key: { pk: 'a', sk: 'b' } }),
      ),
    ).rejects.toBeInstanceOf(DeadlineExceededError);
    // Never early; late by up to a sweep, and by whatever else a busy machine runs first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_050);
    expect(Date.now() - started).toBeLessThan(2_500);
    client.destroy();
  });

  test("calls under way arm no timer of their own: one sweep for every request's deadline, stopped once none is under way", async () => {
    const client = createDocumentClient({ endpoint: proxy.endpoint });
    const get = (sk: string) => new GetCommand({ TableName: table.tableName, Key: { pk: 'a', sk } });
    await client.send(get('warm')); // credentials settled: the calls below start at once
    // An earlier test's sweep has stopped: nothing it watched is still under way. (A wait the
    // spies below do not see: node:timers/promises does not call the global setTimeout.)
    await sleep(2 * SWEEP_MS);
    // The timers the store's code sets (Node's own HTTP internals keep theirs elsewhere).
    const armed = jest.spyOn(globalThis, 'setTimeout');
    const sweeps = jest.spyOn(globalThis, 'setInterval');
    const stopped = jest.spyOn(globalThis, 'clearInterval');
    try {
      proxy.mode = 'hang';
      const started = Date.now();
      const failedAt = (call: Promise<unknown>) =>
        call.then(
          () => 'answered',
          (error: unknown) => (error instanceof DeadlineExceededError ? Date.now() - started : error),
        );
      const first = scopedDocuments(client, { deadline: started + 300 });
      const second = scopedDocuments(client, { deadline: started + 600 });
      const firstCalls = [first.send(get('1')), first.send(get('2')), first.send(get('3'))].map(failedAt);
      const secondCall = failedAt(second.send(get('4')));
      await new Promise((resolve) => setImmediate(resolve));
      expect(armed).not.toHaveBeenCalled();
      expect(sweeps).toHaveBeenCalledTimes(1);
      // Each call ends at its own request's deadline, never before (how late exactly: test/unit/deadlines.test.ts).
      for (const at of await Promise.all(firstCalls)) {
        expect(typeof at).toBe('number');
        expect(at).toBeGreaterThanOrEqual(300);
        expect(at).toBeLessThan(2_000);
      }
      const secondEnded = await secondCall;
      expect(typeof secondEnded).toBe('number');
      expect(secondEnded).toBeGreaterThanOrEqual(600);
      expect(secondEnded).toBeLessThan(2_300);

      // Answered calls leave nothing behind: the sweep stops at its next turn.
      proxy.mode = 'up';
      const third = scopedDocuments(client, { deadline: Date.now() + 5_000 });
      await Promise.all([third.send(get('5')), third.send(get('6'))]);
      await sleep(3 * SWEEP_MS);
      expect(armed).not.toHaveBeenCalled();
      expect(stopped).toHaveBeenCalledWith(sweeps.mock.results.at(-1)?.value);
    } finally {
      armed.mockRestore();
      sweeps.mockRestore();
      stopped.mockRestore();
    }
    client.destroy();
  });
});

/** A DynamoDB stand-in that gives every call the same canned answer, counting them. */
const cannedServer = async (answer: (response: import('node:http').ServerResponse) => void) => {
  let calls = 0;
  const server = createServer((request, response) => {
    calls += 1;
    request.resume();
    request.on('end', () => answer(response));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
};

describe('answers the SDK classifies', () => {
  const getFrom = async (endpoint: string) => {
    const client = createDocumentClient({ endpoint });
    try {
      return await client
        .send(new GetCommand({ TableName: 'knap', Key: { pk: 'a', sk: 'b' } }))
        .then(() => new Error('answered'))
        .catch((error: Error) => error);
    } finally {
      client.destroy();
    }
  };

  test('429 with no error type: throttling, retried', async () => {
    const server = await cannedServer((response) => response.writeHead(429).end());
    const error = await getFrom(server.endpoint);
    expect(server.calls()).toBe(3);
    expect((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode).toBe(429);
    await server.close();
  });

  test('an error type in the x-amzn-errortype header only, with a suffix: the SDK class, retried', async () => {
    const server = await cannedServer((response) =>
      response.writeHead(400, { 'x-amzn-errortype': 'ProvisionedThroughputExceededException:http://internal.amazon.com/' }).end(),
    );
    expect(await getFrom(server.endpoint)).toBeInstanceOf(ProvisionedThroughputExceededException);
    expect(server.calls()).toBe(3);
    await server.close();
  });

  test('a known error keeps its own name and fault whatever its body says; its fields come along', async () => {
    const server = await cannedServer((response) =>
      response
        .writeHead(400, { 'content-type': 'application/x-amz-json-1.0' })
        .end(
          '{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","Message":"Transaction cancelled","CancellationReasons":[{"Code":"ConditionalCheckFailed"}],"name":"Other","$fault":"server"}',
        ),
    );
    const error = (await getFrom(server.endpoint)) as TransactionCanceledException;
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect(error.name).toBe('TransactionCanceledException');
    expect(error.$fault).toBe('client');
    expect(error.message).toBe('Transaction cancelled');
    expect(error.Message).toBe('Transaction cancelled');
    expect(error.CancellationReasons).toEqual([{ Code: 'ConditionalCheckFailed' }]);
    expect(server.calls()).toBe(1);
    await server.close();
  });

  test('a 501 is not retried; an error body cannot change what the error is', async () => {
    const server = await cannedServer((response) =>
      response
        .writeHead(501, { 'content-type': 'application/x-amz-json-1.0' })
        .end('{"__type":"com.amazon#Odd","message":"no","__proto__":{"polluted":true},"$fault":"client"}'),
    );
    const error = await getFrom(server.endpoint);
    expect(server.calls()).toBe(1);
    expect(error).toBeInstanceOf(DynamoDBServiceException);
    expect(error.name).toBe('Odd');
    expect((error as unknown as { polluted?: boolean }).polluted).toBeUndefined();
    expect((error as DynamoDBServiceException).$fault).toBe('server');
    await server.close();
  });

  test("an answer that trickles in is cut at the request's deadline, not at its last idle gap", async () => {
    const server = await cannedServer((response) => {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      const drip = setInterval(() => {
        if (response.destroyed) return clearInterval(drip);
        response.write(' ');
      }, 20);
      response.on('close', () => clearInterval(drip));
    });
    const client = createDocumentClient({ endpoint: server.endpoint });
    const started = Date.now();
    await expect(
      scopedDocuments(client, { deadline: Date.now() + 200 }).send(
        new GetCommand({ TableName: 'knap', Key: { pk: 'a', sk: 'b' } }),
      ),
    ).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(Date.now() - started).toBeLessThan(1_500);
    client.destroy();
    await server.close();
  });
});

describe('where the SDK makes the call', () => {
  test("TransactWriteItems (its retries need the SDK's one ClientRequestToken)", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = await cannedServer((response) =>
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}'),
    );
    const recorder = createServer((request, response) => {
      seen.push(request.headers);
      request.pipe(forwardTo(new URL(server.endpoint), request, response));
    });
    recorder.listen(0, '127.0.0.1');
    await once(recorder, 'listening');
    const client = createDocumentClient({ endpoint: `http://127.0.0.1:${(recorder.address() as AddressInfo).port}` });
    await client.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'knap', Item: { pk: 'a', sk: 'b' } } }] }));
    expect(seen[0]?.['amz-sdk-invocation-id']).toBeTruthy();
    client.destroy();
    recorder.closeAllConnections();
    await new Promise((resolve) => recorder.close(resolve));
    await server.close();
  });

  test('a Lambda whose environment names an endpoint (AWS_ENDPOINT_URL_DYNAMODB, read by the SDK)', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const recorder = createServer((request, response) => {
      seen.push(request.headers);
      request.pipe(forwardTo(new URL(table.endpoint), request, response));
    });
    recorder.listen(0, '127.0.0.1');
    await once(recorder, 'listening');
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_LAMBDA_FUNCTION_NAME: 'knap-test',
      AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_REGION: 'us-east-1',
    });
    const client = createDocumentClient({ region: 'us-east-1' });
    try {
      await client.send(new GetCommand({ TableName: table.tableName, Key: { pk: 'none', sk: 'none' } }));
      expect(seen).toHaveLength(1);
      expect(seen[0]?.['amz-sdk-invocation-id']).toBeTruthy();
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
      client.destroy();
      recorder.closeAllConnections();
      await new Promise((resolve) => recorder.close(resolve));
    }
  });

  test('a Lambda whose environment holds no credentials: the SDK, whose chain looks further', async () => {
    const lambda = { AWS_LAMBDA_FUNCTION_NAME: 'knap-test', AWS_REGION: 'eu-central-1' };
    expect(wireTarget({ region: 'eu-central-1' }, lambda)).toBeUndefined();
    const target = wireTarget({ region: 'eu-central-1' }, { ...lambda, AWS_ACCESS_KEY_ID: 'ASIA1', AWS_SECRET_ACCESS_KEY: 's' });
    expect(target?.url.href).toBe('https://dynamodb.eu-central-1.amazonaws.com/');
    expect(await target?.credentials()).toEqual({ accessKeyId: 'ASIA1', secretAccessKey: 's' });
    // Not a Lambda: a laptop's profile may name an endpoint or credentials.
    expect(wireTarget({ region: 'eu-central-1' }, { AWS_ACCESS_KEY_ID: 'ASIA1', AWS_SECRET_ACCESS_KEY: 's' })).toBeUndefined();
    // An endpoint given: the environment's credentials, or any a local DynamoDB takes.
    expect(await wireTarget({ endpoint: 'http://127.0.0.1:8000' }, {})?.credentials()).toEqual({
      accessKeyId: 'local',
      secretAccessKey: 'local',
    });
    expect(wireTarget({ endpoint: 'http://127.0.0.1:8000' }, { AWS_ACCESS_KEY_ID: 'ASIA1' })).toBeUndefined();
  });
});

describe("errors of the SDK's path, deployed beside the bundle with its own exception classes", () => {
  /** What the SDK in sdk-clients.mjs throws: the same names and fields, another class. */
  class ConditionalCheckFailedCopy extends Error {
    override readonly name = 'ConditionalCheckFailedException';
    readonly $fault = 'client';
    readonly $metadata = { httpStatusCode: 400, requestId: 'R1', attempts: 1, totalRetryDelay: 0 };
    readonly Item = { pk: { S: 'a' } };
  }

  test("a DynamoDB answer becomes this bundle's class: instanceof holds, fields and stack kept", () => {
    const copy = new ConditionalCheckFailedCopy('The conditional request failed');
    const own = asOwnException(copy);
    expect(own).toBeInstanceOf(ConditionalCheckFailedException);
    expect(own).toBeInstanceOf(DynamoDBServiceException);
    expect(own).toMatchObject({
      name: 'ConditionalCheckFailedException',
      message: 'The conditional request failed',
      $fault: 'client',
      $metadata: copy.$metadata,
      Item: copy.Item,
      stack: copy.stack,
    });
  });

  test('an error DynamoDB does not name here keeps its name, as a DynamoDBServiceException', () => {
    const copy = Object.assign(new Error('slow down'), {
      name: 'SomeNewException',
      $fault: 'server',
      $metadata: { httpStatusCode: 500 },
    });
    expect(asOwnException(copy)).toMatchObject({ name: 'SomeNewException', $fault: 'server', message: 'slow down' });
    expect(asOwnException(copy)).toBeInstanceOf(DynamoDBServiceException);
  });

  test("no DynamoDB answer (a timeout), or already this bundle's class: as it is", () => {
    const timeout = Object.assign(new Error('no answer'), { name: 'TimeoutError' });
    expect(asOwnException(timeout)).toBe(timeout);
    const own = new ConditionalCheckFailedException({ message: 'failed', $metadata: {} });
    expect(asOwnException(own)).toBe(own);
    expect(asOwnException('a string')).toBe('a string');
  });
});
