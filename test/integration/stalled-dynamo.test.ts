/**
 * A DynamoDB that accepts connections and never answers: a bearer route and the token route
 * answer 503 {"detail"} with Retry-After before their Lambda timeout, in invocations X-Ray does
 * not sample and in sampled ones (whose calls go through the same client, captured by the
 * tracer): the request's deadline ends the SDK's call through its abortSignal. The token and
 * the API client are made on a real table (dynalite) first; the routes then run on the stalled
 * one, as a deployed Lambda would (its environment, the trace header Lambda sets, a UDP socket
 * standing in for the X-Ray daemon). The deliverer, an SQS consumer, returns before its timeout
 * too, with the record it could not deliver reported back (SQS delivers it again: nothing lost).
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import type { SQSEvent } from 'aws-lambda';
import { createHandler as deliverRunsHandler } from '../../functions/deliver-runs/handler.js';
import { createHandler as listKnapsHandler } from '../../functions/knaps/list-knaps.js';
import { createHandler as tokenHandler } from '../../functions/token/handler.js';
import { lambdaContext } from '../../local/http-adapter.js';
import { MESSAGES } from '../../shared/errors.js';
import type { HttpResult } from '../../shared/http/types.js';
import { tracerLoaded } from '../../shared/lambda/sampled-tracing.js';
import { createApiClient } from '../../shared/services/admin-service.js';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { context, formEvent, httpEvent } from '../support/events.js';
import { actAsLambda } from '../support/lambda-env.js';

/** The functions' Lambda timeout here: the answer must come before it. */
const TIMEOUT_MS = 1_500;
let leaveLambda: () => void;

let table: TestTable;
let silent: Server;
const sockets: Socket[] = [];
let daemon: UdpSocket;
let stalled: ReturnType<typeof createDocumentClient>;
let form: Record<string, string>;
let bearer: string;
let routes: {
  token: ReturnType<typeof tokenHandler>;
  list: ReturnType<typeof listKnapsHandler>;
  deliver: ReturnType<typeof deliverRunsHandler>;
};

beforeAll(async () => {
  table = await startTestTable();
  const client = await createApiClient(table.deps(), { orgName: 'stalled', name: 'stalled' });
  form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret };
  const granted = await tokenHandler(table.deps())(formEvent('POST /api/oauth/token', form), context());
  bearer = (JSON.parse(granted.body ?? '{}') as { access_token: string }).access_token;

  silent = createServer((socket) => {
    sockets.push(socket);
    socket.resume();
  });
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  daemon = createSocket('udp4');
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  leaveLambda = actAsLambda('knap-stalled', daemon);
  // Made as at a deployed function's init: the client waits for the tracer of a sampled invocation.
  stalled = createDocumentClient({
    endpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
    requestTimeoutMs: 2_000,
  });
  const deps = { ...table.deps(), repo: new DynamoRepository(stalled, table.tableName) };
  routes = { token: tokenHandler(deps), list: listKnapsHandler(deps), deliver: deliverRunsHandler(deps) };
});

afterAll(async () => {
  leaveLambda();
  stalled.destroy();
  for (const socket of sockets) socket.destroy();
  silent.close();
  await new Promise<void>((resolve) => daemon.close(() => resolve()));
  await table.close();
});

const expectUnavailable = (answer: HttpResult, took: number) => {
  expect(answer.statusCode).toBe(503);
  expect(JSON.parse(answer.body ?? '')).toEqual({ detail: MESSAGES.unavailable });
  expect(answer.headers?.['Retry-After']).toBe('1');
  expect(took).toBeLessThan(TIMEOUT_MS);
};

describe.each([
  ['not sampled', false],
  ['sampled by X-Ray', true],
])('a DynamoDB that never answers, invocation %s', (_name, sampled) => {
  beforeAll(() => {
    process.env._X_AMZN_TRACE_ID = `Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=${sampled ? 1 : 0}`;
  });

  test('a bearer route answers 503 {"detail"} with Retry-After before its Lambda timeout', async () => {
    const started = Date.now();
    const answer = await routes.list(
      httpEvent('GET /api/studio/knap-tools', { headers: { authorization: `Bearer ${bearer}` } }),
      lambdaContext('knap-stalled', TIMEOUT_MS),
    );
    expectUnavailable(answer, Date.now() - started);
    // Sampled: the tracer was loaded and captured the same client; unsampled: nothing loaded.
    expect(tracerLoaded()).toBe(sampled);
  });

  test('the token route answers 503 {"detail"} with Retry-After before its Lambda timeout', async () => {
    const started = Date.now();
    const answer = await routes.token(formEvent('POST /api/oauth/token', form), lambdaContext('knap-stalled', TIMEOUT_MS));
    expectUnavailable(answer, Date.now() - started);
  });

  test('the deliverer returns before its Lambda timeout, the held record reported back for SQS to deliver again', async () => {
    const started = Date.now();
    const result = await routes.deliver(
      { Records: [{ messageId: 'm-1', body: JSON.stringify({ run_id: 'run_stalled' }) }] } as SQSEvent,
      lambdaContext('knap-deliver-runs', TIMEOUT_MS),
    );
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
  });
});
