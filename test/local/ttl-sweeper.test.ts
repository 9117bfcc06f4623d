import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { type AttributeValue, DynamoDBClient, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { type LocalTable, openLocalTable } from '../../local/local-table.js';
import { type LocalStack, startLocalStack } from '../../local/stack.js';
import { createTtlSweeper } from '../../local/ttl-sweeper.js';
import { TABLE_KEYS, TTL_ATTRIBUTE } from '../../shared/store/table.js';

const NOW_MS = Date.parse('2026-11-23T10:00:00Z');
const NOW = NOW_MS / 1000;

const localClient = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

const put = (client: DynamoDBClient, tableName: string, id: string, ttl?: AttributeValue) =>
  client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: {
        [TABLE_KEYS.partition]: { S: `TEST#${id}` },
        [TABLE_KEYS.sort]: { S: 'ITEM' },
        ...(ttl ? { [TTL_ATTRIBUTE]: ttl } : {}),
      },
    }),
  );

const remaining = async (client: DynamoDBClient, tableName: string): Promise<string[]> => {
  const { Items = [] } = await client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
  return Items.map((item) => String(item[TABLE_KEYS.partition]?.S).replace('TEST#', '')).sort();
};

/** Seven expired items (more than a few pages), and the ones that must stay. */
const seed = async (client: DynamoDBClient, tableName: string, now: number) => {
  for (let i = 0; i < 7; i += 1) await put(client, tableName, `expired-${i}`, { N: String(now - 1 - i * 3600) });
  await put(client, tableName, 'live', { N: String(now + 3600) });
  await put(client, tableName, 'expires-this-second', { N: String(now) });
  await put(client, tableName, 'no-ttl');
  await put(client, tableName, 'ttl-not-a-number', { S: String(now - 100) });
};
const KEPT = ['expires-this-second', 'live', 'no-ttl', 'ttl-not-a-number'];

describe('TTL sweeper on a real dynalite', () => {
  let table: LocalTable;
  let client: DynamoDBClient;
  const tableName = `knap-ttl-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    table = await openLocalTable({ tableName });
    client = localClient(table.endpoint);
  });
  afterAll(async () => {
    client.destroy();
    await table.close();
  });

  test('sweepOnce deletes every item whose TTL has passed, page by page, and keeps the rest', async () => {
    await seed(client, tableName, NOW);
    let now = NOW_MS;
    const sweeper = createTtlSweeper({ client, tableName, pageSize: 2, pauseMs: 0, now: () => now });

    expect(await sweeper.sweepOnce()).toBe(7);
    expect(await remaining(client, tableName)).toEqual(KEPT);
    expect(await sweeper.sweepOnce()).toBe(0);

    now = NOW_MS + 2 * 3600 * 1000;
    expect(await sweeper.sweepOnce()).toBe(2);
    expect(await remaining(client, tableName)).toEqual(['no-ttl', 'ttl-not-a-number']);
    await sweeper.close();
    expect(await sweeper.sweepOnce()).toBe(0);
  });

  test('start() sweeps every interval; close() stops it', async () => {
    const counted = localClient(table.endpoint);
    let scans = 0;
    counted.middlewareStack.add(
      (next) => (args) => {
        scans += 1;
        return next(args);
      },
      { step: 'initialize' },
    );
    const sweeper = createTtlSweeper({ client: counted, tableName, intervalMs: 5, pageSize: 100, now: () => NOW_MS });
    try {
      sweeper.start();
      const deadline = Date.now() + 10_000;
      while (scans < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(scans).toBeGreaterThanOrEqual(3);
      await sweeper.close();
      const afterClose = scans;
      // Ten intervals: a sweeper that kept running would have scanned again.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(scans).toBe(afterClose);
    } finally {
      await sweeper.close();
      counted.destroy();
    }
  });
});

test('a sweep that close() cuts short is not reported as a failure', async () => {
  // A DynamoDB that takes the connection and never answers: the sweep is under way at close().
  const sockets: Socket[] = [];
  const silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const client = localClient(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
  const errors: unknown[] = [];
  let accepted = false;
  silent.once('connection', () => {
    accepted = true;
  });
  const sweeper = createTtlSweeper({ client, tableName: 'knap', intervalMs: 60_000, onError: (error) => errors.push(error) });
  try {
    sweeper.start();
    const deadline = Date.now() + 10_000;
    while (!accepted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(accepted).toBe(true);
    await sweeper.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).toEqual([]);
  } finally {
    await sweeper.close();
    client.destroy();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});

describe('npm start sweeps expired items in the background', () => {
  let stack: LocalStack;
  let client: DynamoDBClient;
  const tableName = `knap-ttl-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    stack = await startLocalStack({ tableName, ttlSweepIntervalMs: 20 });
    client = localClient(stack.dynamodbEndpoint);
  });
  afterAll(async () => {
    client.destroy();
    await stack.close();
  });

  test('expired items disappear without anyone asking; the others stay', async () => {
    expect(stack.ttlSweeper).toBeDefined();
    await seed(client, tableName, Math.floor(Date.now() / 1000) - 60);
    const deadline = Date.now() + 10_000;
    let left = await remaining(client, tableName);
    while (left.some((id) => id.startsWith('expired') || id === 'expires-this-second') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      left = await remaining(client, tableName);
    }
    // Seeded a minute in the past, so the one "expiring this second" has expired too by now.
    expect(left).toEqual(['live', 'no-ttl', 'ttl-not-a-number']);
  });
});

test('a given DYNAMODB_ENDPOINT is not swept unless asked: it is not ours to clean', async () => {
  const embedded = await openLocalTable({ tableName: 'knap-ttl-external' });
  const stack = await startLocalStack({ tableName: 'knap-ttl-external', dynamodbEndpoint: embedded.endpoint });
  try {
    expect(stack.ttlSweeper).toBeUndefined();
  } finally {
    await stack.close();
    await embedded.close();
  }
});
