/**
 * `npm run bench -- --handlers [--requests 20000 --rounds 5]`
 *
 * The project's own CPU per request, with no socket and no DynamoDB in the timed loop: each
 * Knap route of the route bench, from the request the local server reads (a plain path,
 * `rawHeaders`, a body) through the API Gateway event, the Lambda context, the middy chain,
 * the token, the services and the store, to the answer written, sequentially, in this
 * process. The store's calls are answered from memory with what a real dynalite answered the
 * same calls before the loop (recorded once per call shape), so the store's own work
 * (commands, keys, items) is in the loop and the table's is not.
 *
 * What the route bench (bench/routes.ts) measures beside a floor over sockets and a table is
 * dominated by what both sides share (Node's HTTP, the DynamoDB wire, the kernel) and by
 * the machine's noise; this loop measures the part the floor does not have, to a few percent,
 * so that one change to it can be told from the next.
 */
import { randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { routeFor } from '../functions/routes.js';
import { ensureTable } from '../local/ensure-table.js';
import { lambdaContext, requestTarget, toHttpApiEvent, writeHttpResult } from '../local/http-adapter.js';
import { importRouteModule } from '../local/server.js';
import type { HttpEvent, HttpResult } from '../shared/http/types.js';
import { keyringFromEnv } from '../shared/keys/token-keyring.js';
import { OUTER_SCOPE } from '../shared/request-scope.js';
import { type Deps, defaultDeps } from '../shared/runtime.js';
import { createApiClient } from '../shared/services/admin-service.js';
import { createDocumentClient, type DocumentSender } from '../shared/store/dynamo-client.js';
import { DynamoRepository } from '../shared/store/dynamo-repository.js';
import { DEFAULT_TABLE_NAME } from '../shared/store/table.js';
import { ROUTE_BODIES } from './floor/routes.js';
import { startDynaliteProcess } from './processes.js';

export interface HandlerBenchOptions {
  requests: number;
  rounds: number;
  /** Only these routes (create, list, get, patch, preview). */
  only?: string[];
}

type Command = { constructor: { name: string }; input: Record<string, unknown> };

/** What identifies a call's answer: its command and the item or index it reads. */
const shapeOf = (command: Command): string => {
  const { input } = command;
  const name = command.constructor.name;
  if (name === 'PutCommand') return name;
  if (name === 'QueryCommand') return `${name} ${String(input.IndexName)} ${JSON.stringify(input.ExpressionAttributeValues)}`;
  return `${name} ${JSON.stringify(input.Key ?? input.RequestItems)}`;
};

/** Sends to the table while recording, then answers each call shape with its recorded answer. */
const recordingDocuments = (real: DocumentSender) => {
  const answers = new Map<string, unknown>();
  let replaying = false;
  const documents = {
    send: async (command: Command) => {
      const shape = shapeOf(command);
      if (replaying) {
        if (!answers.has(shape)) throw new Error(`no recorded answer for ${shape}`);
        return answers.get(shape);
      }
      const answer = await real.send(command as never);
      answers.set(shape, answer);
      return answer;
    },
  };
  return { documents: documents as unknown as DocumentSender, replay: () => (replaying = true) };
};

interface Route {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The request as the local server gets it from Node: just what the adapter reads. */
const incoming = (route: Route, path: string): IncomingMessage => {
  const request = new IncomingMessage(new Socket());
  request.method = route.method;
  request.url = path;
  request.httpVersion = '1.1';
  request.rawHeaders = ['Host', '127.0.0.1:3000', 'User-Agent', 'autocannon'];
  for (const [name, value] of Object.entries(route.headers)) request.rawHeaders.push(name, value);
  if (route.body) request.rawHeaders.push('Content-Length', String(Buffer.byteLength(route.body)));
  return request;
};

/** One request through the adapter and the handler, written to a response with no socket. */
const serve = async (deps: Deps, request: IncomingMessage, body: Buffer) => {
  const target = requestTarget(request.url ?? '/');
  if (!target) throw new Error('unreadable target');
  const matched = routeFor(request.method, target.pathname);
  if (!matched) throw new Error(`no route for ${request.method} ${target.pathname}`);
  const handler = await handlerFor(deps, matched.route);
  const event = toHttpApiEvent(
    request,
    body,
    `${matched.route.method} ${matched.route.path}`,
    matched.parameters,
    new Date(),
    target,
  );
  const context = lambdaContext(matched.route.id, 10_000);
  context[OUTER_SCOPE] = { roundTrips: { count: 0 }, functionName: matched.route.id, requestId: context.awsRequestId };
  const result = await handler(event, context);
  const response = new ServerResponse(request);
  writeHttpResult(response, result);
  return result;
};

type Handler = (event: HttpEvent, context: Context) => Promise<HttpResult>;
const handlers = new Map<string, Promise<Handler>>();
const handlerFor = (deps: Deps, route: Parameters<typeof importRouteModule>[0]) => {
  let handler = handlers.get(route.id);
  if (!handler) {
    handler = importRouteModule(route).then((module) => module.createHandler(deps));
    handlers.set(route.id, handler);
  }
  return handler;
};

const median = (numbers: number[]): number => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] as number;

export const runHandlerBench = async (options: HandlerBenchOptions, command: string) => {
  const dynalite = await startDynaliteProcess();
  const client = new DynamoDBClient({
    endpoint: dynalite.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await ensureTable(client, DEFAULT_TABLE_NAME);
    process.env.TOKEN_SIGNING_KEYS ??= randomBytes(48).toString('base64url');
    process.env.DYNAMODB_ENDPOINT = dynalite.endpoint;
    const real = createDocumentClient({ endpoint: dynalite.endpoint });
    const recording = recordingDocuments(real);
    const base = defaultDeps({ tokenKeys: keyringFromEnv });
    const deps: Deps = { ...base, repo: new DynamoRepository(recording.documents, DEFAULT_TABLE_NAME) };
    const created = await createApiClient(deps, { orgName: 'bench', name: 'handlers', rateLimit: 1_000_000 });
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: created.clientId,
      client_secret: created.clientSecret,
    });
    const tokenRoute: Route = {
      name: 'token',
      method: 'POST',
      path: '/api/oauth/token',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    };
    const granted = await serve(deps, incoming(tokenRoute, tokenRoute.path), Buffer.from(tokenRoute.body as string));
    const token = (JSON.parse(granted.body ?? '') as { access_token: string }).access_token;
    const bearer = { Authorization: `Bearer ${token}` };
    const json = { ...bearer, 'Content-Type': 'application/json' };
    const knapBody = ROUTE_BODIES.knap;
    const uuids: string[] = [];
    const createRoute: Route = { name: 'create', method: 'POST', path: '/api/studio/knap-tools', headers: json, body: knapBody };
    for (let index = 0; index < 50; index += 1) {
      const result = await serve(deps, incoming(createRoute, createRoute.path), Buffer.from(knapBody));
      uuids.push((JSON.parse(result.body ?? '') as { uuid: string }).uuid);
    }
    const uuid = uuids.at(-1) as string;
    const routes: Route[] = [
      createRoute,
      { name: 'list', method: 'GET', path: '/api/studio/knap-tools?limit=50', headers: bearer },
      { name: 'get', method: 'GET', path: `/api/studio/knap-tools/${uuid}`, headers: bearer },
      {
        name: 'patch',
        method: 'PATCH',
        path: `/api/studio/knap-tools/${uuid}`,
        headers: { ...bearer, 'Content-Type': 'application/merge-patch+json' },
        body: ROUTE_BODIES.patch,
      },
      {
        name: 'preview',
        method: 'POST',
        path: '/api/studio/schedules/preview',
        headers: json,
        body: ROUTE_BODIES.preview,
      },
    ];
    // Record each route's calls once against the table, then answer them from memory.
    for (const route of routes) {
      const result = await serve(deps, incoming(route, route.path), Buffer.from(route.body ?? ''));
      if ((result.statusCode ?? 200) >= 300) throw new Error(`${route.name} answered ${result.statusCode}`);
    }
    recording.replay();
    const rows: { route: string; us_per_request: number; range: string }[] = [];
    for (const route of routes) {
      if (options.only && !options.only.includes(route.name)) continue;
      const body = Buffer.from(route.body ?? '');
      const perRound: number[] = [];
      const request = incoming(route, route.path);
      for (let index = 0; index < options.requests / 4; index += 1) await serve(deps, request, body);
      for (let round = 0; round < options.rounds; round += 1) {
        const started = process.cpuUsage();
        for (let index = 0; index < options.requests; index += 1) {
          const result = await serve(deps, request, body);
          if ((result.statusCode ?? 200) >= 300) throw new Error(`${route.name} answered ${result.statusCode}`);
        }
        const used = process.cpuUsage(started);
        perRound.push((used.user + used.system) / options.requests);
      }
      rows.push({
        route: route.name,
        us_per_request: Math.round(median(perRound) * 10) / 10,
        range: `${Math.round(Math.min(...perRound))}-${Math.round(Math.max(...perRound))}`,
      });
    }
    console.log(`\n$ ${command}`);
    console.log(
      `${options.rounds} rounds of ${options.requests} sequential requests per route, in process, the table's answers from memory\n`,
    );
    console.log('| route | CPU us per request (median) | range |');
    console.log('|---|---|---|');
    for (const row of rows) console.log(`| ${row.route} | ${row.us_per_request} | ${row.range} |`);
    real.destroy();
    return rows;
  } finally {
    client.destroy();
    await dynalite.stop();
  }
};
