/**
 * X-Ray is loaded by a container's first sampled invocation, not at init
 * (shared/lambda/sampled-tracing.ts). The token handler runs here as in a deployed Lambda: its
 * environment, the trace header Lambda sets for each invocation, and a UDP socket standing in
 * for the X-Ray daemon. Unsampled invocations load nothing and send nothing; the first sampled
 * one loads the tracer, and its DynamoDB call reaches the daemon as a subsegment of its trace.
 */
import { createSocket, type Socket } from 'node:dgram';
import { createHandler as tokenHandler } from '../../functions/token/handler.js';
import { tracerLoaded } from '../../shared/lambda/sampled-tracing.js';
import { createApiClient } from '../../shared/services/admin-service.js';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { context, formEvent } from '../support/events.js';
import { actAsLambda } from '../support/lambda-env.js';

interface Subsegment {
  name: string;
  trace_id: string;
  parent_id: string;
  aws?: { operation?: string; table_name?: string };
}

let table: TestTable;
let daemon: Socket;
const received: Subsegment[] = [];
let leaveLambda: () => void;
let grant: () => Promise<number | undefined>;

beforeAll(async () => {
  table = await startTestTable();
  daemon = createSocket('udp4');
  // Each datagram is the X-Ray header line, then one segment document.
  daemon.on('message', (message) => received.push(JSON.parse(message.toString('utf8').split('\n')[1] ?? '{}')));
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  leaveLambda = actAsLambda('knap-token', daemon);
  // The client is made as at init in Lambda: it waits for the tracer.
  const deps = {
    ...table.deps(),
    repo: new DynamoRepository(createDocumentClient({ endpoint: table.endpoint }), table.tableName),
  };
  const client = await createApiClient(deps, { orgName: 'traced', name: 'sampled' });
  const token = tokenHandler(deps);
  const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret };
  grant = async () => (await token(formEvent('POST /api/oauth/token', form), context())).statusCode;
});

afterAll(async () => {
  leaveLambda();
  await new Promise<void>((resolve) => daemon.close(() => resolve()));
  await table.close();
});

const traceHeader = (root: string, sampled: boolean) => `Root=${root};Parent=53995c3f42cd8ad8;Sampled=${sampled ? 1 : 0}`;
/** Gives datagrams already sent time to arrive (loopback: well under this). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
/** Waits for `count` datagrams, however slow the machine. */
const receivedAtLeast = async (count: number) => {
  for (let waited = 0; received.length < count && waited < 10_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await settle();
};

test('an unsampled invocation loads no tracer and sends nothing', async () => {
  process.env._X_AMZN_TRACE_ID = traceHeader('1-67891233-abcdef012345678912345678', false);
  expect(await grant()).toBe(200);
  await settle();
  expect(tracerLoaded()).toBe(false);
  expect(received).toEqual([]);
});

test('the first sampled invocation loads it: its DynamoDB calls are subsegments of its trace', async () => {
  const root = '1-67891234-abcdef012345678912345678';
  process.env._X_AMZN_TRACE_ID = traceHeader(root, true);
  expect(await grant()).toBe(200);
  await receivedAtLeast(2);
  expect(tracerLoaded()).toBe(true);
  // The client's metering write, then the refresh token's grant.
  expect(received.map((segment) => [segment.name, segment.trace_id, segment.aws?.operation]).sort()).toEqual([
    ['DynamoDB', root, 'PutItem'],
    ['DynamoDB', root, 'UpdateItem'],
  ]);
  for (const segment of received) {
    expect(segment.parent_id).toBe('53995c3f42cd8ad8');
    expect(segment.aws?.table_name).toBe(table.tableName);
  }
});

test('later unsampled invocations send nothing, later sampled ones are traced', async () => {
  received.length = 0;
  process.env._X_AMZN_TRACE_ID = traceHeader('1-67891235-abcdef012345678912345678', false);
  expect(await grant()).toBe(200);
  await settle();
  expect(received).toEqual([]);
  const root = '1-67891236-abcdef012345678912345678';
  process.env._X_AMZN_TRACE_ID = traceHeader(root, true);
  expect(await grant()).toBe(200);
  await receivedAtLeast(2);
  expect(received.map((segment) => [segment.name, segment.trace_id])).toEqual([
    ['DynamoDB', root],
    ['DynamoDB', root],
  ]);
});
