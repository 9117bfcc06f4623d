import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'aws-lambda';
import {
  type FunctionDefinition,
  functionById,
  greedyFor,
  type RouteDefinition,
  routeFor,
  routesOn,
} from '../functions/routes.js';
import { LAMBDA_SETTINGS } from '../lib/lambda-settings.js';
import { problem } from '../shared/http/responses.js';
import type { HttpEvent, HttpResult } from '../shared/http/types.js';
import { OUTER_SCOPE, REQUEST_ID_HEADER } from '../shared/request-scope.js';
import type { Deps } from '../shared/runtime.js';
import { lambdaContext, requestTarget, toHttpApiEvent, writeHttpResult } from './http-adapter.js';
import { MAX_PAYLOAD_BYTES, requestBody } from './request-body.js';

type LambdaHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

export interface HandlerModule {
  handler: LambdaHandler;
  createHandler: (deps: Deps) => LambdaHandler;
}

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
  /**
   * How long close() lets the requests under way finish (default: the functions' timeout,
   * as long as a Lambda would have); their connections are dropped after that.
   */
  drainTimeoutMs?: number;
  /**
   * Requests the server hands to something else, by path, before reading their body (the
   * local OpenID Connect provider under /oidc); made once the server's URL is known.
   */
  mount?: (url: string) => MountedApp;
}

/** An app served beside the API routes, under paths of its own. */
export interface MountedApp {
  owns(path: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

export interface ApiServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** A function's handler module, as the function table names it. */
export const importFunctionModule = (fn: FunctionDefinition): Promise<HandlerModule> =>
  import(`../${fn.entry.replace(/\.ts$/, '.js')}`) as Promise<HandlerModule>;

/** The module of the function that serves a route (deployed, the Lambda its API Gateway route calls). */
export const importRouteModule = (route: RouteDefinition): Promise<HandlerModule> => importFunctionModule(functionById(route.fn));

/**
 * The function a request goes to, as API Gateway picks it: the route of its method and path,
 * else the greedy route (`ANY <prefix>/{proxy+}`) of the function that owns the path's prefix.
 */
const targetOf = (method: string | undefined, path: string) => {
  const matched = routeFor(method, path);
  if (matched) {
    const { route, parameters } = matched;
    return { fn: functionById(route.fn), route, routeKey: `${route.method} ${route.path}`, parameters };
  }
  const greedy = greedyFor(path);
  return greedy && { ...greedy, route: undefined };
};

/** Like Lambda, a function's module loads on its first request (a cold start), and stays loaded. */
const handlerLoader = (deps: Deps | undefined) => {
  /** The handler once loaded (a warm request takes it with no await), its loading until then. */
  const loaded = new Map<FunctionDefinition, LambdaHandler | Promise<LambdaHandler>>();
  return (fn: FunctionDefinition): LambdaHandler | Promise<LambdaHandler> => {
    let handler = loaded.get(fn);
    if (!handler) {
      handler = importFunctionModule(fn).then((module) => {
        const made = deps ? module.createHandler(deps) : module.handler;
        loaded.set(fn, made);
        return made;
      });
      loaded.set(fn, handler);
    }
    return handler;
  };
};

/**
 * The API on a local port: each request becomes the API Gateway HTTP API event AWS would
 * send, dispatched through the same route table, to the same handlers.
 */
export const startApiServer = async (options: ApiServerOptions = {}): Promise<ApiServer> => {
  const handlerFor = handlerLoader(options.deps);
  const lambdaTimeoutMs = options.lambdaTimeoutMs ?? LAMBDA_TIMEOUT_MS;
  /** Set by close(): from then on nothing new runs, and every connection ends with its last answer. */
  let closing = false;
  /** The latest request taken on each connection (pipelined ones are answered in order). */
  const latest = new WeakMap<Socket, IncomingMessage>();
  let mounted: MountedApp | undefined;

  /**
   * Writes an answer. Once the server is stopping, the answer to a connection's latest
   * request says `Connection: close`, and Node closes the connection after it: a client is
   * told not to send another request on a connection about to go, rather than have it dropped.
   */
  const answer = (request: IncomingMessage, response: ServerResponse, result: HttpResult): void => {
    if (closing && latest.get(request.socket) === request) response.setHeader('Connection', 'close');
    writeHttpResult(response, result);
  };

  /**
   * One line per exchange, on stdout: when, the method and the path only (a client may put
   * credentials in the query string), the status, how long, the function that served it (named
   * as the deployed function's log group is), its route and the request id the caller got
   * (X-Request-Id).
   */
  const logAccess = (
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    started: number,
    served?: { fn: FunctionDefinition; route?: RouteDefinition },
    requestId?: unknown,
  ) => {
    if (!options.accessLog) return;
    const by = served ? ` fn=${served.fn.id}${served.route ? ` route=${served.route.id}` : ''}` : '';
    console.log(
      `${new Date(started).toISOString()} ${request.method} ${path} ${response.statusCode} ${Date.now() - started}ms${by}${typeof requestId === 'string' ? ` request_id=${requestId}` : ''}`,
    );
  };

  const dispatch = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const started = Date.now();
    const target = requestTarget(request.url ?? '/');
    const path = target?.pathname ?? '-';
    if (closing) {
      // Arrived on a connection that was busy when the stop began (or behind a request on it):
      // refused, with no handler run and no body read, rather than run and cut off.
      answer(request, response, problem(503, 'The server is stopping; send the request again once it is back'));
      logAccess(request, response, path, started);
      return;
    }
    if (!target) {
      answer(request, response, problem(400, 'The request target is not a path this server can read'));
      logAccess(request, response, path, started);
      return;
    }
    if (mounted?.owns(path)) {
      // The provider may answer after handle() resolves: the line waits for the answer sent
      // (or the connection gone), so it shows the status the browser got, not Node's default.
      const sent = new Promise<void>((resolve) => {
        if (response.writableFinished) return resolve();
        response.once('finish', resolve);
        response.once('close', resolve);
      });
      await mounted.handle(request, response);
      await sent;
      logAccess(request, response, path, started);
      return;
    }
    const matched = targetOf(request.method, path);
    let requestId: unknown;
    const body = await requestBody(request);
    if (body === null) {
      answer(request, response, problem(413, `Request body exceeds ${MAX_PAYLOAD_BYTES} bytes`));
    } else if (!matched) {
      const allow = routesOn(path)
        .map((candidate) => candidate.route.method)
        .join(', ');
      answer(
        request,
        response,
        allow
          ? problem(405, `Method ${request.method} is not allowed on ${path}`, { Allow: allow })
          : problem(404, `No route for ${request.method} ${path}`),
      );
    } else {
      const { fn, routeKey, parameters } = matched;
      const found = handlerFor(fn);
      const handler = typeof found === 'function' ? found : await found;
      const event = toHttpApiEvent(request, body, routeKey, parameters, new Date(started), target);
      const calls = { count: 0 };
      const context = lambdaContext(fn.id, lambdaTimeoutMs);
      // One process runs every function: each line says which one, whatever ran before it
      // (apiHandler adds these to the request's scope).
      context[OUTER_SCOPE] = {
        roundTrips: calls,
        functionName: fn.id,
        functionArn: context.invokedFunctionArn,
        requestId: context.awsRequestId,
      };
      const result = await handler(event, context);
      if (options.countRoundTrips) {
        // Copied, then set (a spread then a new key is slow on Node.js 20).
        const headers = Object.assign({}, result.headers);
        headers['X-DynamoDB-Round-Trips'] = String(calls.count);
        result.headers = headers;
      }
      answer(request, response, result);
      requestId = result.headers?.[REQUEST_ID_HEADER];
    }
    logAccess(request, response, path, started, matched, requestId);
  };

  /** Exchanges under way: each is done once its handler has returned and its answer is written (or its connection gone). */
  let inFlight = 0;
  /** Woken, and forgotten, the next time nothing is under way. */
  const onIdle: (() => void)[] = [];
  const idle = (): Promise<void> => (inFlight === 0 ? Promise.resolve() : new Promise((resolve) => onIdle.push(resolve)));
  const exchangeDone = (): void => {
    inFlight -= 1;
    if (inFlight === 0) for (const wake of onIdle.splice(0)) wake();
  };
  /**
   * Per connection, the exchanges whose answer is not written yet. An answer queued behind
   * another on a connection that closes gets neither 'finish' nor 'close' (Node drops it): the
   * connection's own close ends it then. One listener per connection, not one per request.
   */
  const unwritten = new WeakMap<Socket, Set<Exchange>>();

  /** The handler's part of an exchange, its failures answered here (none reach Node). */
  const serve = async (request: IncomingMessage, response: ServerResponse, exchange: Exchange): Promise<void> => {
    try {
      await dispatch(request, response);
    } catch (error) {
      // The connection went away while the body was coming (a client gone, or a stop that
      // waited long enough): nobody to answer, and no handler failed.
      if (request.socket.destroyed && request.errored) return;
      // A handler that throws past middy would be a 502 from API Gateway; say so the same way.
      console.error('Handler failed outside its error handling:', error);
      if (!response.headersSent) answer(request, response, problem(502, 'Bad gateway'));
      else response.destroy();
    } finally {
      exchange.partDone();
    }
  };

  const server = createServer((request, response) => {
    const { socket } = request;
    latest.set(socket, request);
    inFlight += 1;
    const waiting = unwritten.get(socket);
    const exchange = new Exchange(exchangeDone, waiting);
    // The listener stays on the response, which is done with then (removing it costs more).
    response.on('close', () => exchange.written());
    waiting?.add(exchange);
    void serve(request, response, exchange);
  });
  server.on('connection', (socket: Socket) => {
    const waiting = new Set<Exchange>();
    unwritten.set(socket, waiting);
    socket.once('close', () => {
      for (const exchange of [...waiting]) exchange.written();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  mounted = options.mount?.(`http://${address}:${port}`);

  /** Resolves once nothing is under way (requests that arrive meanwhile included), or after timeoutMs. */
  const drain = async (timeoutMs: number): Promise<void> => {
    const cancel = new AbortController();
    const expired = sleep(timeoutMs, 'expired' as const, { signal: cancel.signal }).catch(() => 'cancelled' as const);
    try {
      await Promise.race([idle(), expired]);
    } finally {
      cancel.abort();
    }
  };

  return {
    url: `http://${address}:${port}`,
    server,
    /**
     * A graceful stop: accept no connection, close the idle ones, refuse (503, `Connection:
     * close`) whatever arrives on the others, and let the requests under way finish, each
     * answer closing its connection. Only then, or after drainTimeoutMs, is every connection
     * left dropped: idle ones, and ones whose next request was never read.
     */
    close: async () => {
      closing = true;
      const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      server.closeIdleConnections();
      await drain(options.drainTimeoutMs ?? lambdaTimeoutMs);
      server.closeAllConnections();
      await closed;
      // Handlers whose connection was dropped at the deadline: their own deadline ends them.
      await idle();
    },
  };
};

/**
 * One request and its answer, in two parts: its handler has returned, and its answer is written
 * (or its connection gone). A class rather than closures per request: under `npm start`, tsx
 * names every named function expression as it is made, a defineProperty each.
 */
class Exchange {
  private parts = 2;
  private isWritten = false;

  constructor(
    private readonly done: () => void,
    private readonly waiting: Set<Exchange> | undefined,
  ) {}

  /** The answer is written, or its connection gone: once only ('close' and the connection's own close may both come). */
  written(): void {
    if (this.isWritten) return;
    this.isWritten = true;
    this.waiting?.delete(this);
    this.partDone();
  }

  partDone(): void {
    this.parts -= 1;
    if (this.parts === 0) this.done();
  }
}
