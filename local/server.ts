import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { matchPath, type RouteDefinition, routes } from '../functions/routes.js';
import { LAMBDA_SETTINGS } from '../lib/lambda-settings.js';
import { problem } from '../shared/http/responses.js';
import type { HttpEvent, HttpResult } from '../shared/http/types.js';
import type { Deps } from '../shared/runtime.js';
import { requestRoundTrips } from '../shared/store/dynamo-client.js';
import { lambdaContext, toHttpApiEvent, writeHttpResult } from './http-adapter.js';

type LambdaHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

export interface HandlerModule {
  handler: LambdaHandler;
  createHandler: (deps: Deps) => LambdaHandler;
}

/** API Gateway's own payload limit; larger requests never reach a Lambda. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
const LAMBDA_TIMEOUT_MS = LAMBDA_SETTINGS.timeoutSeconds * 1000;

export interface ApiServerOptions {
  port?: number;
  host?: string;
  /** Build the handlers with these dependencies (tests inject a clock or a failing store); default: the modules' own. */
  deps?: Deps;
  /** One line per request on stdout. */
  accessLog?: boolean;
  /** The functions' timeout, as in Lambda (default 10 s). */
  lambdaTimeoutMs?: number;
  /** Add `X-DynamoDB-Round-Trips` to each response (benchmarks); the count is made by an SDK middleware. */
  countRoundTrips?: boolean;
}

export interface ApiServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** The route's handler module, as the route table names it. */
export const importRouteModule = (route: RouteDefinition): Promise<HandlerModule> =>
  import(`../${route.entry.replace(/\.ts$/, '.js')}`) as Promise<HandlerModule>;

/** Like Lambda, a function's module loads on its first request (a cold start), and stays loaded. */
const handlerLoader = (deps: Deps | undefined) => {
  const loaded = new Map<RouteDefinition, Promise<LambdaHandler>>();
  return (route: RouteDefinition): Promise<LambdaHandler> => {
    let handler = loaded.get(route);
    if (!handler) {
      handler = importRouteModule(route).then((module) => (deps ? module.createHandler(deps) : module.handler));
      loaded.set(route, handler);
    }
    return handler;
  };
};

const readBody = async (request: IncomingMessage): Promise<Buffer | null> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
};

/**
 * The API on a local port: each request becomes the API Gateway HTTP API event AWS would
 * send, dispatched through the same route table, to the same handlers.
 */
export const startApiServer = async (options: ApiServerOptions = {}): Promise<ApiServer> => {
  const handlerFor = handlerLoader(options.deps);

  const dispatch = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const started = Date.now();
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const onPath = routes.flatMap((candidate) => {
      const parameters = matchPath(candidate, path);
      return parameters ? [{ route: candidate, parameters }] : [];
    });
    const matched = onPath.find((candidate) => candidate.route.method === request.method);
    const body = await readBody(request);
    if (body === null) {
      writeHttpResult(response, problem(413, `Request body exceeds ${MAX_PAYLOAD_BYTES} bytes`));
    } else if (!matched) {
      const allow = onPath.map((candidate) => candidate.route.method).join(', ');
      writeHttpResult(
        response,
        allow
          ? problem(405, `Method ${request.method} is not allowed on ${path}`, { Allow: allow })
          : problem(404, `No route for ${request.method} ${path}`),
      );
    } else {
      const { route, parameters } = matched;
      const handler = await handlerFor(route);
      const event = toHttpApiEvent(request, body, `${route.method} ${route.path}`, parameters);
      const calls = { count: 0 };
      const result = await requestRoundTrips.run(calls, () =>
        handler(event, lambdaContext(route.id, options.lambdaTimeoutMs ?? LAMBDA_TIMEOUT_MS)),
      );
      if (options.countRoundTrips) result.headers = { ...result.headers, 'X-DynamoDB-Round-Trips': String(calls.count) };
      writeHttpResult(response, result);
    }
    // The path only: a client may put credentials in the query string, and the log is stdout.
    if (options.accessLog) console.log(`${request.method} ${path} ${response.statusCode} ${Date.now() - started}ms`);
  };

  const inFlight = new Set<Promise<void>>();
  const server = createServer((request, response) => {
    const done = dispatch(request, response)
      .catch((error: unknown) => {
        // A handler that throws past middy would be a 502 from API Gateway; say so the same way.
        console.error('Handler failed outside its error handling:', error);
        if (!response.headersSent) writeHttpResult(response, problem(502, 'Bad gateway'));
        else response.destroy();
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  });
  server.keepAliveTimeout = 5_000;
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    server,
    // Stop accepting, let requests under way finish (their DynamoDB calls too), then drop idle connections.
    close: async () => {
      const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      server.closeIdleConnections();
      await Promise.allSettled([...inFlight]);
      server.closeAllConnections();
      await closed;
    },
  };
};
