/**
 * SAM-style local invocation: what `npm run invoke` and test/invoke share.
 *
 * An invoke environment is a DynamoDB (an in-memory dynalite, or DYNAMODB_ENDPOINT), the
 * table (created as the stack and `npm start` create it) and the fixtures of
 * scripts/fixtures.ts. Functions are then loaded as Lambda loads them, from their module in
 * the route table (functions/routes.ts) or the job list (functions/jobs.ts), and called with
 * the event AWS would send (an API Gateway HTTP API event, an EventBridge Scheduled Event, an
 * SQS batch) and a Lambda context.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context, SQSEvent } from 'aws-lambda';
import { type JobDefinition, jobs } from '../functions/jobs.js';
import { matchPath, type RouteDefinition, routes } from '../functions/routes.js';
import { LAMBDA_SETTINGS } from '../lib/lambda-settings.js';
import { lambdaContext as localLambdaContext } from '../local/http-adapter.js';
import { openLocalTable } from '../local/local-table.js';
import { type HandlerModule, importRouteModule } from '../local/server.js';
import type { MeetingFanOut } from '../shared/domain/runs.js';
import type { DeliveryQueue } from '../shared/domain/webhooks.js';
import { useLocalDeliveryQueue } from '../shared/runtime.js';
import { PutCommand } from '../shared/store/commands.js';
import { createDocumentClient } from '../shared/store/dynamo-client.js';
import { DynamoRepository } from '../shared/store/dynamo-repository.js';
import { runToItem } from '../shared/store/run-items.js';
import { DEFAULT_TABLE_NAME } from '../shared/store/table.js';
import {
  assertLocalEndpoint,
  FIXTURE_ADMIN_AUDIENCE,
  FIXTURE_ADMIN_ISSUER,
  FIXTURE_ADMIN_JWKS,
  FIXTURE_ADMIN_ORG_CLAIM,
  FIXTURE_TOKENS_UNTIL,
  INVOKE_TOKEN_KEY,
  primeRateLimits,
  type RunWriter,
  resetDueFixtureKnaps,
  resetFixtureClient,
  resetFixtureKnap,
  resetFixtureRun,
  resetFixtureWebhook,
  seedFixtures,
} from './fixtures.js';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const EVENTS_DIR = join(PROJECT_ROOT, 'events');

type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

/** A function that can be invoked: an HTTP route's, or a job's (started by EventBridge or SQS). */
export type InvokableFunction =
  | { kind: 'route'; id: string; entry: string; route: RouteDefinition }
  | { kind: 'job'; id: string; entry: string; job: JobDefinition };

/** Every function, routes first, in the order of functions/routes.ts and functions/jobs.ts. */
export const FUNCTIONS: readonly InvokableFunction[] = [
  ...routes.map((route): InvokableFunction => ({ kind: 'route', id: route.id, entry: route.entry, route })),
  ...jobs.map((job): InvokableFunction => ({ kind: 'job', id: job.id, entry: job.entry, job })),
];

/** Function modules loaded so far, by function id: loaded once per process, like a warm Lambda container. */
const loaded = new Map<string, Promise<LambdaHandler>>();

/** A delivery a function asked for. */
export interface QueuedDelivery {
  runId: string;
  delaySeconds: number;
}

/**
 * The delivery queue of the invoke environment: it records what the functions queue and
 * delivers nothing (events/deliver-runs is how a delivery is invoked). Deployed, it is SQS;
 * under `npm start`, timers that deliver.
 */
class RecordingDeliveryQueue implements DeliveryQueue {
  readonly queued: QueuedDelivery[] = [];

  /** The rest of meeting reports over 100 Knaps (recorded, never made here). */
  readonly fanOuts: MeetingFanOut[] = [];

  async enqueue(runId: string, delaySeconds: number): Promise<void> {
    this.queued.push({ runId, delaySeconds });
  }

  async enqueueMeetingFanOut(task: MeetingFanOut): Promise<void> {
    this.fanOuts.push(task);
  }
}

export interface InvokeEnvironment {
  endpoint: string;
  tableName: string;
  region: string;
  /** Every delivery queued so far, oldest first (nothing is delivered). */
  readonly queued: readonly QueuedDelivery[];
  /** Uses up the rate-limited fixture client's minute again (see fixtures.ts). */
  primeRateLimits(): Promise<void>;
  /** Puts the fixture Knap with this uuid back as seeded (see fixtures.ts); false when it is no fixture's. */
  resetFixtureKnap(uuid: string): Promise<boolean>;
  /** Makes the scheduled fixture Knaps due again, as seeded (see fixtures.ts). */
  resetDueKnaps(): Promise<void>;
  /** Puts the fixture run with this id back as seeded (pending); false when it is no fixture's. */
  resetFixtureRun(runId: string): Promise<boolean>;
  /** Puts the fixture client with this id back as seeded (see fixtures.ts); false when it is no fixture's. */
  resetFixtureClient(clientId: string): Promise<boolean>;
  /** Puts the fixture webhook endpoint with this id back (see fixtures.ts); false when it is no fixture's. */
  resetFixtureWebhook(endpointId: string): Promise<boolean>;
  /** Where the fixture admin issuer's keys are published while the environment runs (ADMIN_JWKS_URI). */
  adminJwksUri: string;
  close(): Promise<void>;
}

export interface InvokeEnvironmentOptions {
  /** An existing DynamoDB; default: DYNAMODB_ENDPOINT, else an in-memory dynalite. */
  endpoint?: string;
  /** Default: TABLE_NAME, else `knap-invoke` on an external endpoint, `knap` in memory. */
  tableName?: string;
}

/** The fixture admin issuer's keys (public halves only), served on 127.0.0.1 on a port of the system's choosing. */
export const serveFixtureJwks = async (): Promise<{ uri: string; close: () => Promise<void> }> => {
  const body = JSON.stringify(FIXTURE_ADMIN_JWKS);
  const server: Server = createServer((request, response) => {
    const found = request.method === 'GET' && request.url === '/.well-known/jwks.json';
    response.writeHead(found ? 200 : 404, { 'content-type': found ? 'application/jwk-set+json' : 'text/plain' });
    response.end(found ? body : 'Not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // Nothing but the functions of this process reads it: it must not keep the process alive.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The verifier's fetch keeps its connection alive; it ends with the environment.
        server.closeAllConnections();
      }),
  };
};

/**
 * Starts DynamoDB if needed, creates the table if missing, seeds the fixtures, and sets the
 * environment the Lambda runtime would set (before any function module is loaded: the
 * modules read TABLE_NAME and DYNAMODB_ENDPOINT when they load, as in Lambda). Runs that the
 * functions create are queued on a recording queue, never on SQS (DELIVERY_QUEUE_URL is
 * cleared). The admin functions verify the fixture admin tokens (scripts/fixtures.ts) as they
 * verify any admin's, by the issuer's JWKS: a small HTTP server on 127.0.0.1 publishes the
 * fixture key's public half, and ADMIN_ISSUER, ADMIN_AUDIENCE, ADMIN_ORG_CLAIM and
 * ADMIN_JWKS_URI name it (whatever the shell set: the fixture tokens are the admins here).
 */
export const startInvokeEnvironment = async (options: InvokeEnvironmentOptions = {}): Promise<InvokeEnvironment> => {
  const external = options.endpoint ?? (process.env.DYNAMODB_ENDPOINT || undefined);
  const tableName = options.tableName ?? (process.env.TABLE_NAME || (external ? 'knap-invoke' : DEFAULT_TABLE_NAME));
  if (loaded.size > 0) {
    // Like a warm container, a loaded function keeps the table it was loaded with.
    throw new Error('Functions are already loaded in this process: start one invoke environment per process');
  }
  // Before any call: never create a table or seed known credentials on AWS itself.
  if (external) assertLocalEndpoint(external);
  const region = process.env.AWS_REGION || 'us-east-1';
  const table = await openLocalTable({ tableName, endpoint: external, region });
  const { endpoint } = table;

  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.TABLE_NAME = tableName;
  process.env.AWS_REGION = region;
  process.env.DYNAMODB_TIMEOUT_MS ??= String(LAMBDA_SETTINGS.dynamodbTimeoutMs);
  // Tokens granted by the token events are sealed with a key known only to local invocation.
  process.env.TOKEN_SIGNING_KEYS ??= INVOKE_TOKEN_KEY;
  // The fixtures' bearer events carry fixed tokens of the stored format (scripts/fixtures.ts).
  process.env.STORED_TOKENS_UNTIL ??= FIXTURE_TOKENS_UNTIL;
  process.env.POWERTOOLS_SERVICE_NAME ??= LAMBDA_SETTINGS.serviceName;
  process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ??= String(LAMBDA_SETTINGS.memoryMb);
  process.env.AWS_LAMBDA_FUNCTION_VERSION ??= '$LATEST';
  // Runs go to the recording queue below: a DELIVERY_QUEUE_URL in the shell must not reach SQS.
  delete process.env.DELIVERY_QUEUE_URL;
  let jwks: Awaited<ReturnType<typeof serveFixtureJwks>>;
  try {
    jwks = await serveFixtureJwks();
  } catch (error) {
    await table.close();
    throw error;
  }
  // Organization admins are the fixture admins, whose tokens the fixture key signs.
  process.env.ADMIN_ISSUER = FIXTURE_ADMIN_ISSUER;
  process.env.ADMIN_AUDIENCE = FIXTURE_ADMIN_AUDIENCE;
  process.env.ADMIN_ORG_CLAIM = FIXTURE_ADMIN_ORG_CLAIM;
  process.env.ADMIN_JWKS_URI = jwks.uri;

  const documents = createDocumentClient({ endpoint, region });
  const repo = new DynamoRepository(documents, tableName);
  // The repository only creates runs; putting a delivered fixture run back takes a plain put.
  const writeRun: RunWriter = async (stored) => {
    await documents.send(new PutCommand({ TableName: tableName, Item: runToItem(stored) }));
  };
  try {
    await seedFixtures(repo, endpoint, writeRun);
  } catch (error) {
    documents.destroy();
    await jwks.close();
    await table.close();
    throw error;
  }
  const deliveries = new RecordingDeliveryQueue();
  useLocalDeliveryQueue(deliveries);
  return {
    endpoint,
    tableName,
    region,
    queued: deliveries.queued,
    primeRateLimits: () => primeRateLimits(repo),
    resetFixtureKnap: (uuid) => resetFixtureKnap(repo, uuid),
    resetDueKnaps: () => resetDueFixtureKnaps(repo),
    resetFixtureRun: (runId) => resetFixtureRun(repo, runId, writeRun),
    resetFixtureClient: (clientId) => resetFixtureClient(repo, clientId),
    resetFixtureWebhook: (endpointId) => resetFixtureWebhook(repo, endpointId),
    adminJwksUri: jwks.uri,
    close: async () => {
      useLocalDeliveryQueue(undefined);
      documents.destroy();
      await jwks.close();
      await table.close();
    },
  };
};

const knownIds = (): string => FUNCTIONS.map((known) => known.id).join(', ');

/** A route or a job, by id. */
export const functionById = (id: string): InvokableFunction => {
  const found = FUNCTIONS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`Unknown function "${id}". Known: ${knownIds()}`);
  return found;
};

export const routeById = (id: string): RouteDefinition => {
  const found = functionById(id);
  if (found.kind !== 'route') throw new Error(`"${id}" is a job, not a route`);
  return found.route;
};

export const jobById = (id: string): JobDefinition => {
  const found = functionById(id);
  if (found.kind !== 'job') throw new Error(`"${id}" is a route, not a job`);
  return found.job;
};

/** A job's module, as Lambda loads it (the same import as a route's, local/server.ts). */
const importJobModule = (job: JobDefinition): Promise<Partial<HandlerModule>> =>
  import(`../${job.entry.replace(/\.ts$/, '.js')}`) as Promise<Partial<HandlerModule>>;

/** The function's `handler` export, loaded once per process like a warm Lambda container. */
export const loadHandler = (fn: InvokableFunction): Promise<LambdaHandler> => {
  let handler = loaded.get(fn.id);
  if (!handler) {
    const module: Promise<Partial<HandlerModule>> = fn.kind === 'route' ? importRouteModule(fn.route) : importJobModule(fn.job);
    handler = module.then((exports) => {
      if (typeof exports.handler !== 'function') throw new Error(`${fn.entry} does not export a handler`);
      return exports.handler as LambdaHandler;
    });
    loaded.set(fn.id, handler);
  }
  return handler;
};

/**
 * The jobs' timeouts in the stack (lib/runs.ts): the dispatcher must end before the next
 * minute's pass; the deliverer has room for endpoints that take their full 10 s.
 */
const JOB_TIMEOUT_SECONDS: Readonly<Record<JobDefinition['trigger'], number>> = { schedule: 55, queue: 30 };

/** What the Lambda runtime passes as the context, with the stack's memory and timeout. */
export const lambdaContext = (fn: InvokableFunction, region = process.env.AWS_REGION || 'us-east-1'): Context => {
  const functionName = `KnapApi-${fn.id}`;
  const timeoutSeconds = fn.kind === 'job' ? JOB_TIMEOUT_SECONDS[fn.job.trigger] : LAMBDA_SETTINGS.timeoutSeconds;
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '/');
  return localLambdaContext(functionName, timeoutSeconds * 1000, {
    invokedFunctionArn: `arn:aws:lambda:${region}:123456789012:function:${functionName}`,
    logStreamName: `${day}/[$LATEST]${randomBytes(16).toString('hex')}`,
  });
};

export const readEvent = async (file: string): Promise<APIGatewayProxyEventV2> =>
  JSON.parse(await readFile(file, 'utf8')) as APIGatewayProxyEventV2;

/** A job's event file, as parsed JSON (checked against its trigger by invokeFile). */
export const readJobEvent = async (file: string): Promise<unknown> => JSON.parse(await readFile(file, 'utf8')) as unknown;

/** `events/token/401-wrong-secret.json` -> 401; null when the name does not start with a status. */
export const expectedStatus = (file: string): number | null => {
  const match = /^(\d{3})-/.exec(basename(file));
  return match ? Number(match[1]) : null;
};

/** The status API Gateway would answer with: a bare (non-structured) result is a 200. */
export const statusOf = (result: unknown): number =>
  typeof result === 'object' && result !== null && 'statusCode' in result
    ? Number((result as APIGatewayProxyStructuredResultV2).statusCode ?? 200)
    : 200;

export interface Invocation {
  fn: InvokableFunction;
  file: string;
  /** A route event's status, from its file name; null for a job's event. */
  expected: number | null;
  /** The HTTP status API Gateway would answer with; null for a job. */
  status: number | null;
  result: unknown;
  /**
   * Why the result is not what the event promises: a route's status other than its file
   * name's, a job's result other than its contract (see checkJobResult); null when it is.
   */
  problem: string | null;
  /** The deliveries the function queued (recorded, not delivered). */
  queued: QueuedDelivery[];
  durationMs: number;
}

/**
 * Runs one event file through its function, in this process. Logs written to stdout by
 * the function (Powertools) are moved to stderr while it runs, as `sam local invoke`
 * does, so stdout carries only results.
 *
 * Each event finds the fixtures it names as seeded, whatever ran before it: a 429 event
 * uses up the limited client's minute again, an event on one Knap (pathParameters.uuid)
 * puts that fixture Knap back first, so a rename or a delete earlier in the run changes
 * no status; a dispatcher event finds the scheduled fixture Knap due again, and a delivery
 * event finds the fixture runs it names pending again. In the same way, an admin event on one
 * client, webhook endpoint or run (pathParameters client_id, endpoint_id, run_id) finds that
 * fixture as seeded: a revoked client active again, a removed endpoint back, a redelivered run
 * failed again.
 */
export const invokeFile = async (env: InvokeEnvironment, functionId: string, file: string): Promise<Invocation> => {
  const fn = functionById(functionId);
  const from = env.queued.length;
  const run = async (event: unknown): Promise<{ result: unknown; durationMs: number }> => {
    const handler = await loadHandler(fn);
    const started = performance.now();
    const result = await withStdoutOnStderr(() => handler(event, lambdaContext(fn, env.region)));
    return { result, durationMs: performance.now() - started };
  };
  if (fn.kind === 'job') {
    const event = await readJobEvent(file);
    await prepareJobEvent(env, fn.job, event, file);
    const { result, durationMs } = await run(event);
    const problem = checkJobResult(fn.job, result);
    return { fn, file, expected: null, status: null, result, problem, queued: env.queued.slice(from), durationMs };
  }
  const { route } = fn;
  const event = await readEvent(file);
  if (event.routeKey !== `${route.method} ${route.path}`) {
    throw new Error(
      `${relative(PROJECT_ROOT, file)} is for "${event.routeKey}", not ${route.id} (${route.method} ${route.path})`,
    );
  }
  checkPath(route, event, file);
  const expected = expectedStatus(file);
  if (expected === 429) await env.primeRateLimits();
  // An event on one Knap finds it as seeded, whatever ran before it (a rename, a delete).
  const { uuid, client_id: clientId, endpoint_id: endpointId, run_id: runId } = event.pathParameters ?? {};
  if (uuid !== undefined) await env.resetFixtureKnap(uuid);
  if (clientId !== undefined) await env.resetFixtureClient(clientId);
  if (endpointId !== undefined) await env.resetFixtureWebhook(endpointId);
  if (runId !== undefined) await env.resetFixtureRun(runId);
  const { result, durationMs } = await run(event);
  const status = statusOf(result);
  const problem = expected === status ? null : `EXPECTED ${expected ?? 'a status in the file name'}`;
  return { fn, file, expected, status, result, problem, queued: env.queued.slice(from), durationMs };
};

/**
 * What a job must return for its event to pass:
 * - a queue job (deliver-runs) reports no failed record: `{"batchItemFailures": []}` (the
 *   partial batch response SQS reads; a failure there means the store or the queue failed,
 *   since an endpoint's failure is recorded on the run instead);
 * - dispatch-runs: `{"created", "claimed", "lagSeconds"}`, counts (how many depends on what is due)
 *   and the pass's lag in whole seconds.
 */
export const checkJobResult = (job: JobDefinition, result: unknown): string | null => {
  if (job.trigger === 'queue') {
    return isDeepStrictEqual(result, { batchItemFailures: [] }) ? null : 'EXPECTED {"batchItemFailures":[]}';
  }
  if (job.id === 'dispatch-runs') {
    const counts = result as Record<string, unknown> | null;
    const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
    const fits =
      typeof counts === 'object' &&
      counts !== null &&
      Object.keys(counts).sort().join() === 'claimed,created,lagSeconds' &&
      isCount(counts.created) &&
      isCount(counts.claimed) &&
      isCount(counts.lagSeconds);
    return fits ? null : 'EXPECTED {"created": <count>, "claimed": <count>, "lagSeconds": <seconds>}';
  }
  return null;
};

/** The md5 of an SQS message body, as SQS reports it (md5OfBody). */
export const md5Of = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

const ACCOUNT = /^\d{12}$/;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What EventBridge and SQS guarantee and a hand-edited event may break: a Scheduled Event's
 * fixed fields and its rule; an SQS batch of 1 to 10 records (the event source's batch size),
 * each with its own message id and the md5 of its body. Then the fixtures the event names are
 * put back: the scheduled Knaps made due again, the fixture runs made pending again.
 */
const prepareJobEvent = async (env: InvokeEnvironment, job: JobDefinition, event: unknown, file: string): Promise<void> => {
  const where = relative(PROJECT_ROOT, file);
  const refuse = (why: string): never => {
    throw new Error(`${where}: ${why}`);
  };
  if (!isObject(event)) refuse('not a JSON object');
  const fields = event as Record<string, unknown>;
  if (job.trigger === 'schedule') {
    if (fields.version !== '0' || fields['detail-type'] !== 'Scheduled Event' || fields.source !== 'aws.events') {
      refuse('not an EventBridge Scheduled Event (version "0", detail-type "Scheduled Event", source "aws.events")');
    }
    if (typeof fields.account !== 'string' || !ACCOUNT.test(fields.account)) refuse('account is not a 12-digit account id');
    if (typeof fields.time !== 'string' || Number.isNaN(Date.parse(fields.time))) refuse('time is not a timestamp');
    const rule = /^arn:aws:events:[a-z0-9-]+:\d{12}:rule\/[A-Za-z0-9._-]+$/;
    const resources = fields.resources;
    if (!Array.isArray(resources) || resources.length !== 1 || !rule.test(String(resources[0]))) {
      refuse('resources must hold the ARN of the one rule that started it');
    }
    if (!isDeepStrictEqual(fields.detail, {})) refuse("a Scheduled Event's detail is {}");
    await env.resetDueKnaps();
    return;
  }
  const records = fields.Records;
  if (!Array.isArray(records) || records.length < 1 || records.length > 10) refuse('Records must hold 1 to 10 SQS messages');
  const ids = new Set<string>();
  for (const [index, record] of (records as unknown[]).entries()) {
    if (!isObject(record) || record.eventSource !== 'aws:sqs') refuse(`Records[${index}] is not an SQS message`);
    const message = record as SQSEvent['Records'][number];
    if (typeof message.messageId !== 'string' || ids.has(message.messageId)) {
      refuse(`Records[${index}].messageId is missing or repeated (a failed record is named by it)`);
    }
    ids.add(message.messageId);
    if (typeof message.body !== 'string') refuse(`Records[${index}].body is not a string`);
    if (message.md5OfBody !== md5Of(message.body)) refuse(`Records[${index}].md5OfBody is not the md5 of its body`);
    if (!/^arn:aws:sqs:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]+$/.test(String(message.eventSourceARN))) {
      refuse(`Records[${index}].eventSourceARN is not a queue ARN`);
    }
  }
  for (const record of records as SQSEvent['Records']) {
    const runId = runIdOf(record.body);
    if (runId !== undefined) await env.resetFixtureRun(runId);
  }
};

/** The run a delivery message names, if it is readable at all (the deliverer judges the rest). */
const runIdOf = (body: string): string | undefined => {
  try {
    const message = JSON.parse(body) as unknown;
    return isObject(message) && typeof message.run_id === 'string' ? message.run_id : undefined;
  } catch {
    return undefined;
  }
};

/**
 * What API Gateway guarantees and a hand-edited event may break: rawPath fits the route's
 * template, and pathParameters are what it holds (absent when the template has none).
 */
const checkPath = (route: RouteDefinition, event: APIGatewayProxyEventV2, file: string): void => {
  const parameters = matchPath(route, event.rawPath);
  const where = relative(PROJECT_ROOT, file);
  if (!parameters) throw new Error(`${where}: rawPath ${event.rawPath} does not fit ${route.path}`);
  const given = event.pathParameters ?? {};
  const same =
    Object.keys(given).length === Object.keys(parameters).length &&
    Object.entries(parameters).every(([name, value]) => given[name] === value);
  if (!same) {
    const found = JSON.stringify(event.pathParameters ?? null);
    throw new Error(
      `${where}: pathParameters ${found} are not those of rawPath ${event.rawPath} (${JSON.stringify(parameters)})`,
    );
  }
};

const withStdoutOnStderr = async <T>(run: () => Promise<T>): Promise<T> => {
  const write = process.stdout.write;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  try {
    return await run();
  } finally {
    process.stdout.write = write;
  }
};

/** Every `events/<function id>/*.json`, sorted, with the function it belongs to (routes first, then jobs). */
export const listEventFiles = async (root = EVENTS_DIR): Promise<{ functionId: string; file: string }[]> => {
  const found: { functionId: string; file: string }[] = [];
  for (const fn of FUNCTIONS) {
    const folder = join(root, fn.id);
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.filter((entry) => entry.endsWith('.json')).sort()) {
      found.push({ functionId: fn.id, file: join(folder, name) });
    }
  }
  return found;
};

/** The function an event file belongs to, from its folder (`events/<id>/...`). */
export const functionIdOfFile = (file: string): string | undefined => {
  const folder = basename(dirname(resolve(file)));
  return FUNCTIONS.some((fn) => fn.id === folder) ? folder : undefined;
};
