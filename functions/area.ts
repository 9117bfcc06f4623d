import httpRouterHandler, { type Route, type RouteNotFoundResponseFn } from '@middy/http-router';
import type { Context } from 'aws-lambda';
import { problem } from '../shared/http/responses.js';
import { correlationId } from '../shared/http/telemetry.js';
import type { HttpEvent, HttpResult } from '../shared/http/types.js';
import { REQUEST_ID_HEADER } from '../shared/request-scope.js';
import type { Deps } from '../shared/runtime.js';
import { type FunctionId, matchPath, type RouteDefinition, routesOf, routesOn } from './routes.js';

export type RouteHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/** What each route's module (functions/<route>/handler.ts) exports. */
export interface RouteModule {
  handler: RouteHandler;
  createHandler: (deps: Deps) => RouteHandler;
}

/** Loads a route's module: a dynamic `import()`, so that its code is a file of its own in the bundle. */
export type RouteModuleLoader = () => Promise<RouteModule>;

/** What an area's module exports: as a route module, for the whole area. */
export interface AreaModule {
  handler: RouteHandler;
  createHandler: (deps: Deps) => RouteHandler;
}

/**
 * The request's path as the route table writes it: on its execute-api host, API Gateway puts a
 * named stage in front (`/prod/api/...`); the `$default` stage adds nothing, and neither does a
 * custom domain, whose mapping takes the stage away (a stage named `api` must not eat `/api`).
 */
const routedPath = (event: HttpEvent): string => {
  const { path } = event.requestContext.http;
  const { stage, domainName } = event.requestContext;
  const staged = stage && stage !== '$default' && domainName?.endsWith('.amazonaws.com');
  return staged && path.startsWith(`/${stage}/`) ? path.slice(stage.length + 1) : path;
};

/**
 * 405 with Allow when another method serves the path (the whole table's routes), else 404: both
 * `{"detail"}`, with the X-Request-Id every other answer carries.
 */
const noRoute = (event: HttpEvent, context: Context, path: string): HttpResult => {
  const { method } = event.requestContext.http;
  const allow = [...new Set(routesOn(path).map(({ route }) => route.method))].join(', ');
  const requestId = { [REQUEST_ID_HEADER]: correlationId(event, context) };
  return allow
    ? problem(405, `Method ${method} is not allowed on ${path}`, { Allow: allow, ...requestId })
    : problem(404, `No route for ${method} ${path}`, requestId);
};

/** What the router's not-found hook returns: no route of this function has the method and path. */
const NOT_FOUND = Symbol('no route');

/**
 * One route behind the router: its path parameters as API Gateway gives them to a route of
 * its own (decoded, by the route's template), also when the request came by a greedy route
 * (`{proxy+}`), so that the route's handler reads the same event either way.
 */
const routed =
  (route: RouteDefinition, handler: RouteHandler): RouteHandler =>
  (event, context) => {
    const parameters = matchPath(route, routedPath(event));
    // The router matched this route's template, so the path fits it; a segment that does not
    // decode (`%E0`) fits no template here, as API Gateway's own matching would say.
    if (!parameters) return Promise.resolve(noRoute(event, context, routedPath(event)));
    event.pathParameters = Object.keys(parameters).length > 0 ? parameters : undefined;
    return handler(event, context);
  };

/**
 * A route's handler, made from its module the first time the route is asked for. A load that
 * fails is tried again by the next request.
 */
const lazily = (load: () => Promise<RouteHandler>): RouteHandler => {
  let loading: Promise<RouteHandler> | undefined;
  return (event, context) => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading.then((handler) => handler(event, context));
  };
};

/**
 * An area's function: its routes of the route table (functions/routes.ts), each to its own
 * route module, dispatched by @middy/http-router on method and path. Each module is loaded by
 * the first request for its route (in the bundle, a file beside `index.mjs`): a cold start
 * reads only what every route needs, which the area's module imports itself. The modules
 * given must be exactly the area's routes, so the table and the bundle never disagree
 * (checked at load).
 */
export const areaFunction = (id: FunctionId, modules: Readonly<Record<string, RouteModuleLoader>>): AreaModule => {
  const table = routesOf(id);
  const given = Object.keys(modules).sort();
  const expected = table.map((route) => route.id).sort();
  if (given.join() !== expected.join()) {
    throw new Error(`Function "${id}" is given routes [${given.join(', ')}], the route table says [${expected.join(', ')}]`);
  }
  const build = (handlerOf: (module: RouteModule) => RouteHandler): RouteHandler => {
    const routes: Route<HttpEvent, HttpResult>[] = table.map((route) => ({
      method: route.method,
      path: route.path,
      handler: routed(
        route,
        lazily(async () => handlerOf(await (modules[route.id] as RouteModuleLoader)())),
      ),
    }));
    const router = httpRouterHandler({
      routes,
      // Typed as throwing (middy's default throws a 404 error); what it returns the router returns,
      // synchronously: a mark answered below, where the event is at hand.
      notFoundResponse: (() => NOT_FOUND) as unknown as RouteNotFoundResponseFn,
    }) as unknown as (event: HttpEvent, context: Context) => Promise<HttpResult> | typeof NOT_FOUND;
    return (event, context) => {
      const path = routedPath(event);
      // The router reads requestContext.http.path: without a named stage's prefix.
      if (path !== event.requestContext.http.path) {
        event = { ...event, requestContext: { ...event.requestContext, http: { ...event.requestContext.http, path } } };
      }
      const routedTo = router(event, context);
      return routedTo === NOT_FOUND ? Promise.resolve(noRoute(event, context, path)) : routedTo;
    };
  };
  return {
    handler: build((module) => module.handler),
    createHandler: (deps) => build((module) => module.createHandler(deps)),
  };
};
