/**
 * The route floor: for each Knap route of the route bench, a bare `node:http` server making
 * exactly the DynamoDB calls the project makes for it, as the store's commands, with the
 * same client and its configuration (`createDocumentClient`, middleware included) on the
 * same dynalite, and nothing else: no middy, no API Gateway event, no validation, no token
 * to open (the client, token and grant ids come from the bench). What the project spends
 * above this is what its own code costs. Run by the bench as its own process:
 *
 *   FLOOR_CONFIG='{"endpoint":...}' node --import tsx bench/floor/server.ts
 *
 * It prints `floor listening {"create":"http://...",...}`, one server per route.
 * `GET /__calls` on any of them answers (and resets) the calls made since the last one,
 * by command, and how deep they went (`roundTrips` of shared/store/dynamo-client.ts), which
 * the bench compares with the project's for one sequential request per route.
 *
 * The shape of each route (what goes beside what) is in FLOOR_ROUTES (bench/floor/routes.ts); it must follow
 * the project's: the bench refuses to run when the calls differ.
 */
import '../../local/quiet-sdk-warning.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { requestBody } from '../../local/request-body.js';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '../../shared/store/commands.js';
import { createDocumentClient, dynamoSettingsFromEnv, roundTrips } from '../../shared/store/dynamo-client.js';
import type { FloorRoute } from './routes.js';

export interface FloorConfig {
  endpoint: string;
  tableName: string;
  clientId: string;
  orgName: string;
  generation: number;
  /** The ids a sealed access token's standing is read by (its token id and its grant id). */
  revocationIds: string[];
  /** Knaps this client created, each PATCH connection takes its own (see the bench). */
  limit: number;
}

const config = JSON.parse(process.env.FLOOR_CONFIG ?? '{}') as FloorConfig;
// The project's client and settings, so the floor makes its calls exactly as the project does.
const db = createDocumentClient({ ...dynamoSettingsFromEnv(), endpoint: config.endpoint });
const TableName = config.tableName;
type Item = Record<string, unknown>;

// ---- the calls, as the project sends them ----

let openWindow = -1;
/** The metering write: the client's conditional UpdateItem (its own limit), opening a window once a minute. */
const meter = async (): Promise<void> => {
  const seconds = Math.floor(Date.now() / 1000);
  const window = seconds - (seconds % 60);
  const open = window !== openWindow;
  try {
    await db.send(
      new UpdateCommand({
        TableName,
        Key: { pk: `CLIENT#${config.clientId}`, sk: 'CLIENT' },
        UpdateExpression: open
          ? 'SET rl_window = :window, rl_count = :one, last_used_at = :now'
          : 'SET last_used_at = :now ADD rl_count :one',
        ConditionExpression: `#status = :active AND generation = :guard AND ${
          open ? '(attribute_not_exists(rl_window) OR rl_window < :window)' : 'rl_window = :window AND rl_count < rate_limit'
        }`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':active': 'active',
          ':window': window,
          ':one': 1,
          ':now': new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'),
          ':guard': config.generation,
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    openWindow = window;
  } catch (error) {
    // Another request opened the window first: continue it (the project does the same).
    if (!(error instanceof ConditionalCheckFailedException) || !open) throw error;
    openWindow = window;
    await meter();
  }
};

/** The token's standing: its revocation items, beside the metering write. */
const standing = async (): Promise<void> => {
  const result = await db.send(
    new BatchGetCommand({
      RequestItems: {
        [TableName]: { Keys: config.revocationIds.map((id) => ({ pk: `REVOKED#${id}`, sk: 'REVOKED' })), ConsistentRead: true },
      },
    }),
  );
  if ((result.Responses?.[TableName] ?? []).length > 0) throw new Error('revoked');
};

const knapKey = (uuid: string) => ({ pk: `ORG#${config.orgName}`, sk: `KNAP#${uuid}` });

const getKnap = async (uuid: string): Promise<Item> => {
  const { Item } = await db.send(new GetCommand({ TableName, Key: knapKey(uuid), ConsistentRead: true }));
  if (!Item) throw new Error(`no Knap ${uuid}`);
  return Item;
};

const listing = (index: 'gsi1' | 'gsi2', partition: string) =>
  db.send(
    new QueryCommand({
      TableName,
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': partition },
      ScanIndexForward: false,
      Limit: config.limit,
    }),
  );

/** The Knap's own fields, as the API answers them (the item less its keys and bookkeeping). */
const knapOf = (item: Item): Item => {
  const { pk, sk, type, org_name, creator_client_id, gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk, version, ...knap } = item;
  knap.tool_metadata = JSON.parse(String(knap.tool_metadata ?? '{}'));
  return knap;
};

// ---- the routes ----

/** Authenticate (the metering write beside the token's standing), then the route's own calls. */
const authenticated = async (beside?: () => Promise<Item>): Promise<Item | undefined> => {
  const read = beside?.();
  read?.catch(() => {});
  await Promise.all([meter(), standing()]);
  return read;
};

type Route = (request: IncomingMessage, body: string) => Promise<{ status: number; body: unknown }>;

const uuidOf = (request: IncomingMessage): string => (request.url ?? '').split('/').pop() ?? '';

const routes: Record<FloorRoute, Route> = {
  create: async (_request, text) => {
    const input = JSON.parse(text) as Item;
    await authenticated();
    const now = new Date().toISOString();
    const uuid = randomUUID();
    const knap: Item = {
      uuid,
      creation_user_id: 1,
      name: input.name,
      schedule_type: input.schedule_type ?? 'manual',
      is_active: true,
      visibility: 'private',
      can_toggle_default_active: false,
      active_by_default: false,
      tool_metadata: input.tool_metadata ?? {},
      creation_timestamp: now,
      updated_at: now,
      schedule_info: null,
      next_run_at: null,
    };
    await db.send(
      new PutCommand({
        TableName,
        // A plain key first: a literal that starts with a spread is slow on Node.js 20, in the
        // floor as in the project (docs/performance.md).
        Item: {
          type: 'knap',
          ...knapKey(uuid),
          org_name: config.orgName,
          creator_client_id: config.clientId,
          gsi1pk: `CREATOR#${config.clientId}`,
          gsi1sk: `${now}#${uuid}`,
          ...knap,
          tool_metadata: JSON.stringify(knap.tool_metadata),
          version: 1,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return { status: 201, body: knap };
  },
  list: async () => {
    await authenticated();
    const [mine, shared] = await Promise.all([
      listing('gsi1', `CREATOR#${config.clientId}`),
      listing('gsi2', `ORG#${config.orgName}#SHARED`),
    ]);
    const sharedKnaps = (shared.Items ?? []).map(knapOf);
    return {
      status: 200,
      body: {
        my_knaps: (mine.Items ?? []).map(knapOf),
        organization_knaps: [],
        public_knaps: sharedKnaps,
        next_cursor: null,
      },
    };
  },
  get: async (request) => {
    const uuid = uuidOf(request);
    const item = (await authenticated(() => getKnap(uuid))) as Item;
    return { status: 200, body: knapOf(item) };
  },
  patch: async (request, text) => {
    const patch = JSON.parse(text) as Item;
    const uuid = uuidOf(request);
    const item = (await authenticated(() => getKnap(uuid))) as Item;
    const version = Number(item.version);
    const changed = { ...item, ...patch, updated_at: new Date().toISOString(), version: version + 1 };
    await db.send(
      new PutCommand({
        TableName,
        Item: changed,
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': version },
      }),
    );
    return { status: 200, body: knapOf(changed) };
  },
  preview: async (_request, text) => {
    const input = JSON.parse(text) as Item;
    await authenticated();
    // No parser: the answer's shape, of about the same size.
    return {
      status: 200,
      body: {
        description: input.schedule_description,
        timezone: input.timezone ?? 'UTC',
        schedule_info: { kind: 'weekly', description: String(input.schedule_description), timezone: input.timezone ?? 'UTC' },
        next_runs: Array.from({ length: Number(input.count ?? 5) }, (_, day) =>
          new Date(Date.UTC(2030, 0, day + 1, 9)).toISOString(),
        ),
      },
    };
  },
};

/** The body, read as the project's local server reads it: nothing when the request says it has none. */
const readBody = async (request: IncomingMessage): Promise<string> => {
  const body = await requestBody(request);
  if (body === null) throw new Error('a body over 10 MB');
  return body.toString('utf8');
};

/**
 * To price what an async context costs by itself: FLOOR_ASYNC_CONTEXT=1 runs each request
 * inside an AsyncLocalStorage of its own (the project carries its request scope explicitly,
 * with none: shared/request-scope.ts).
 */
const asyncContext = process.env.FLOOR_ASYNC_CONTEXT === '1' ? new AsyncLocalStorage<object>() : undefined;

const serve = (route: Route) => async (request: IncomingMessage, response: ServerResponse) => {
  if (asyncContext) return asyncContext.run({}, () => handle(route, request, response));
  return handle(route, request, response);
};

const handle = async (route: Route, request: IncomingMessage, response: ServerResponse) => {
  try {
    if (request.url === '/__calls') {
      const calls = { byCommand: roundTrips.byCommand, depth: roundTrips.depth, total: roundTrips.total };
      roundTrips.reset();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(calls));
      return;
    }
    const answer = await route(request, await readBody(request));
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  } catch (error) {
    response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: String(error) }));
  }
};

const urls: Record<string, string> = {};
for (const [name, route] of Object.entries(routes)) {
  const server = createServer(serve(route));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
process.on('SIGTERM', () => {
  db.destroy();
  process.exit(0);
});
process.stdout.write(`floor listening ${JSON.stringify(urls)}\n`);
