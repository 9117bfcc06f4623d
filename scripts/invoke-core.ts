/**
 * SAM-style local invocation: what `npm run invoke` and test/invoke share.
 *
 * An invoke environment is a DynamoDB (an in-memory dynalite, or DYNAMODB_ENDPOINT), the
 * table (created as the stack and `npm start` create it) and the fixtures of
 * scripts/fixtures.ts. Functions are then loaded as Lambda loads them, from their module in
 * the route table, and called with an API Gateway HTTP API event and a Lambda context.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { matchPath, type RouteDefinition, routes } from '../functions/routes.js';
import { LAMBDA_SETTINGS } from '../lib/lambda-settings.js';
import { lambdaContext as localLambdaContext } from '../local/http-adapter.js';
import { openLocalTable } from '../local/local-table.js';
import { type HandlerModule, importRouteModule } from '../local/server.js';
import { createDocumentClient } from '../shared/store/dynamo-client.js';
import { DynamoRepository } from '../shared/store/dynamo-repository.js';
import { DEFAULT_TABLE_NAME } from '../shared/store/table.js';
import { assertLocalEndpoint, primeRateLimits, resetFixtureKnap, seedFixtures } from './fixtures.js';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const EVENTS_DIR = join(PROJECT_ROOT, 'events');

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

/** Function modules loaded so far, by route id: loaded once per process, like a warm Lambda container. */
const loaded = new Map<string, Promise<LambdaHandler>>();

export interface InvokeEnvironment {
  endpoint: string;
  tableName: string;
  region: string;
  /** Uses up the rate-limited fixture client's minute again (see fixtures.ts). */
  primeRateLimits(): Promise<void>;
  /** Puts the fixture Knap with this uuid back as seeded (see fixtures.ts); false when it is no fixture's. */
  resetFixtureKnap(uuid: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface InvokeEnvironmentOptions {
  /** An existing DynamoDB; default: DYNAMODB_ENDPOINT, else an in-memory dynalite. */
  endpoint?: string;
  /** Default: TABLE_NAME, else `knap-invoke` on an external endpoint, `knap` in memory. */
  tableName?: string;
}

/**
 * Starts DynamoDB if needed, creates the table if missing, seeds the fixtures, and sets the
 * environment the Lambda runtime would set (before any function module is loaded: the
 * modules read TABLE_NAME and DYNAMODB_ENDPOINT when they load, as in Lambda).
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
  process.env.POWERTOOLS_SERVICE_NAME ??= LAMBDA_SETTINGS.serviceName;
  process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ??= String(LAMBDA_SETTINGS.memoryMb);
  process.env.AWS_LAMBDA_FUNCTION_VERSION ??= '$LATEST';

  const documents = createDocumentClient({ endpoint, region });
  const repo = new DynamoRepository(documents, tableName);
  try {
    await seedFixtures(repo, endpoint);
  } catch (error) {
    documents.destroy();
    await table.close();
    throw error;
  }
  return {
    endpoint,
    tableName,
    region,
    primeRateLimits: () => primeRateLimits(repo),
    resetFixtureKnap: (uuid) => resetFixtureKnap(repo, uuid),
    close: async () => {
      documents.destroy();
      await table.close();
    },
  };
};

export const routeById = (id: string): RouteDefinition => {
  const route = routes.find((candidate) => candidate.id === id);
  if (!route) throw new Error(`Unknown function "${id}". Known: ${routes.map((known) => known.id).join(', ')}`);
  return route;
};

/** The route's `handler` export, loaded once per process like a warm Lambda container. */
export const loadHandler = (route: RouteDefinition): Promise<LambdaHandler> => {
  let handler = loaded.get(route.id);
  if (!handler) {
    handler = importRouteModule(route).then((module: Partial<HandlerModule>) => {
      if (typeof module.handler !== 'function') throw new Error(`${route.entry} does not export a handler`);
      return module.handler;
    });
    loaded.set(route.id, handler);
  }
  return handler;
};

/** What the Lambda runtime passes as the context, with the stack's memory and timeout. */
export const lambdaContext = (route: RouteDefinition, region = process.env.AWS_REGION || 'us-east-1'): Context => {
  const functionName = `KnapApi-${route.id}`;
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '/');
  return {
    ...localLambdaContext(functionName, LAMBDA_SETTINGS.timeoutSeconds * 1000),
    invokedFunctionArn: `arn:aws:lambda:${region}:123456789012:function:${functionName}`,
    logStreamName: `${day}/[$LATEST]${randomBytes(16).toString('hex')}`,
  };
};

export const readEvent = async (file: string): Promise<APIGatewayProxyEventV2> =>
  JSON.parse(await readFile(file, 'utf8')) as APIGatewayProxyEventV2;

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
  route: RouteDefinition;
  file: string;
  expected: number | null;
  status: number;
  result: unknown;
  durationMs: number;
}

/**
 * Runs one event file through its function, in this process. Logs written to stdout by
 * the function (Powertools) are moved to stderr while it runs, as `sam local invoke`
 * does, so stdout carries only results.
 *
 * Each event finds the fixtures it names as seeded, whatever ran before it: a 429 event
 * uses up the limited client's minute again, and an event on one Knap (pathParameters.uuid)
 * puts that fixture Knap back first, so a rename or a delete earlier in the run changes
 * no status.
 */
export const invokeFile = async (env: InvokeEnvironment, routeId: string, file: string): Promise<Invocation> => {
  const route = routeById(routeId);
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
  const uuid = event.pathParameters?.uuid;
  if (uuid !== undefined) await env.resetFixtureKnap(uuid);
  const handler = await loadHandler(route);
  const started = performance.now();
  const result = await withStdoutOnStderr(() => handler(event, lambdaContext(route, env.region)));
  return { route, file, expected, status: statusOf(result), result, durationMs: performance.now() - started };
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

/** Every `events/<function id>/*.json`, sorted, with the function it belongs to. */
export const listEventFiles = async (root = EVENTS_DIR): Promise<{ routeId: string; file: string }[]> => {
  const found: { routeId: string; file: string }[] = [];
  for (const route of routes) {
    const folder = join(root, route.id);
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.filter((entry) => entry.endsWith('.json')).sort()) {
      found.push({ routeId: route.id, file: join(folder, name) });
    }
  }
  return found;
};

/** The function an event file belongs to, from its folder (`events/<id>/...`). */
export const routeIdOfFile = (file: string): string | undefined => {
  const folder = basename(dirname(resolve(file)));
  return routes.some((route) => route.id === folder) ? folder : undefined;
};
