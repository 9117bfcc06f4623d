/**
 * The area functions (functions/area.ts): the route table's routes of an area behind
 * @middy/http-router, answering what API Gateway sends them, by a route of their own or by the
 * area's greedy route (`ANY /api/studio/{proxy+}`).
 */
import type { Context } from 'aws-lambda';
import { type AreaModule, areaFunction, type RouteModule, type RouteModuleLoader } from '../../functions/area.js';
import { FUNCTIONS, greedyFor, routes, routesOf } from '../../functions/routes.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import type { Deps } from '../../shared/runtime.js';

/** A route module's loader; the module answers which route ran, with the path parameters it was given. */
const echo = (id: string, via: string[]): RouteModuleLoader => {
  const handler = async (event: HttpEvent): Promise<HttpResult> => {
    via.push(id);
    return { statusCode: 200, body: JSON.stringify({ id, parameters: event.pathParameters ?? null }) };
  };
  const module: RouteModule = { handler, createHandler: () => handler };
  return () => Promise.resolve(module);
};

const knaps = (): { area: AreaModule; ran: string[] } => {
  const ran: string[] = [];
  const modules = Object.fromEntries(routesOf('knaps').map((route) => [route.id, echo(route.id, ran)]));
  return { area: areaFunction('knaps', modules), ran };
};

/** The event API Gateway sends: by the route's own key, or (routeKey omitted) by the greedy route of the path. */
const event = (
  method: string,
  path: string,
  options: { routeKey?: string; stage?: string; domainName?: string } = {},
): HttpEvent => {
  const stage = options.stage ?? '$default';
  const domainName = options.domainName ?? 'k7n2p4x9qa.execute-api.eu-west-1.amazonaws.com';
  const full = stage === '$default' || !domainName.endsWith('.amazonaws.com') ? path : `/${stage}${path}`;
  const greedy = greedyFor(path);
  return {
    version: '2.0',
    routeKey: options.routeKey ?? greedy?.routeKey ?? '$default',
    rawPath: full,
    rawQueryString: '',
    headers: {},
    pathParameters: options.routeKey ? undefined : greedy?.parameters,
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName,
      domainPrefix: 'example',
      http: { method, path: full, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: 'r',
      routeKey: options.routeKey ?? greedy?.routeKey ?? '$default',
      stage,
      time: '',
      timeEpoch: 0,
    },
  };
};

const context = {} as Context;
const body = (result: HttpResult) => JSON.parse(String(result.body)) as Record<string, unknown>;

describe('an area function', () => {
  test('dispatches each of its routes by method and path, with the parameters API Gateway gives a route of its own', async () => {
    const { area, ran } = knaps();
    const got = await area.handler(event('GET', '/api/studio/knap-tools/abc%20d/runs'), context);
    expect(body(got)).toEqual({ id: 'list-runs', parameters: { uuid: 'abc d' } });
    expect(body(await area.handler(event('PATCH', '/api/studio/knap-tools/k1'), context))).toEqual({
      id: 'update-knap',
      parameters: { uuid: 'k1' },
    });
    expect(body(await area.handler(event('GET', '/api/studio/knap-tools'), context))).toEqual({
      id: 'list-knaps',
      parameters: null,
    });
    expect(ran).toEqual(['list-runs', 'update-knap', 'list-knaps']);
  });

  test('a path of its area that no route serves: 404 with a detail, from the function', async () => {
    const { area, ran } = knaps();
    const got = await area.handler(event('GET', '/api/studio/nothing-here'), context);
    expect(got.statusCode).toBe(404);
    expect(body(got)).toEqual({ detail: 'No route for GET /api/studio/nothing-here' });
    // The request id every answer carries: API Gateway's, to quote to support.
    expect(got.headers?.['X-Request-Id']).toBe('r');
    expect(ran).toEqual([]);
  });

  test("a method no route of the path has: 405 with Allow naming those that do, the other functions' too", async () => {
    const { area } = knaps();
    const post = await area.handler(event('POST', '/api/studio/knap-tools/k1'), context);
    expect(post.statusCode).toBe(405);
    expect(post.headers?.Allow).toBe('GET, PATCH, PUT, DELETE');
    expect(body(post)).toEqual({ detail: 'Method POST is not allowed on /api/studio/knap-tools/k1' });
    // POST /api/studio/knap-tools is Knap creation's own function; the list is this one's.
    const put2 = await area.handler(event('PUT', '/api/studio/knap-tools'), context);
    expect(put2.headers?.Allow).toBe('POST, GET');
  });

  test('under a named stage, the stage in front of the path is not part of the route', async () => {
    const { area } = knaps();
    const got = await area.handler(event('GET', '/api/studio/knap-tools/k2', { stage: 'prod' }), context);
    expect(body(got)).toEqual({ id: 'get-knap', parameters: { uuid: 'k2' } });
    // On a custom domain the mapping took the stage away: a stage named `api` leaves `/api` alone.
    const mapped = await area.handler(
      event('GET', '/api/studio/knap-tools/k3', { stage: 'api', domainName: 'api.example.com' }),
      context,
    );
    expect(body(mapped)).toEqual({ id: 'get-knap', parameters: { uuid: 'k3' } });
  });

  test('a segment that does not decode fits no template, as with API Gateway: 404', async () => {
    const { area, ran } = knaps();
    const got = await area.handler(event('GET', '/api/studio/knap-tools/%E0'), context);
    expect(got.statusCode).toBe(404);
    expect(ran).toEqual([]);
  });

  test('createHandler builds a route with the deps given, from its module loaded by its first request', async () => {
    const built: string[] = [];
    const loaded: string[] = [];
    const modules = Object.fromEntries(
      routesOf('oauth').map((route) => [
        route.id,
        () => {
          loaded.push(route.id);
          return Promise.resolve({
            handler: async () => ({ statusCode: 500 }),
            createHandler: (deps: Deps) => {
              built.push(`${route.id}:${String((deps as unknown as { marker: string }).marker)}`);
              return async () => ({ statusCode: 204 });
            },
          });
        },
      ]),
    );
    const area = areaFunction('oauth', modules);
    const handler = area.createHandler({ marker: 'test' } as unknown as Deps);
    expect(loaded).toEqual([]);
    expect((await handler(event('POST', '/api/oauth/revoke'), context)).statusCode).toBe(204);
    expect((await handler(event('POST', '/api/oauth/revoke'), context)).statusCode).toBe(204);
    expect(loaded).toEqual(['revoke-token']);
    expect(built).toEqual(['revoke-token:test']);
  });

  test('a route whose module failed to load is loaded again by its next request', async () => {
    const ran: string[] = [];
    const modules = Object.fromEntries(routesOf('oauth').map((route) => [route.id, echo(route.id, ran)]));
    let failures = 1;
    const revoke = modules['revoke-token'] as RouteModuleLoader;
    modules['revoke-token'] = () => (failures-- > 0 ? Promise.reject(new Error('EMFILE')) : revoke());
    const area = areaFunction('oauth', modules);
    await expect(area.handler(event('POST', '/api/oauth/revoke'), context)).rejects.toThrow('EMFILE');
    expect((await area.handler(event('POST', '/api/oauth/revoke'), context)).statusCode).toBe(200);
    expect(ran).toEqual(['revoke-token']);
  });

  test('refuses to load with other modules than the route table gives the area', () => {
    const ran: string[] = [];
    const modules = Object.fromEntries(routesOf('oauth').map((route) => [route.id, echo(route.id, ran)]));
    expect(() => areaFunction('oauth', { ...modules, 'get-knap': echo('get-knap', ran) })).toThrow(
      /Function "oauth" is given routes \[.*get-knap.*\], the route table says/,
    );
    const { 'revoke-token': _left, ...missing } = modules;
    expect(() => areaFunction('oauth', missing)).toThrow(/the route table says/);
  });
});

describe('the function table', () => {
  test('every route belongs to a function of the table, and every function serves a route', () => {
    for (const fn of FUNCTIONS) expect(routesOf(fn.id).length).toBeGreaterThan(0);
    for (const route of routes) expect(FUNCTIONS.map((fn) => fn.id)).toContain(route.fn);
    // The design card's two keep functions of their own.
    expect(routesOf('token').map((route) => route.id)).toEqual(['token']);
    expect(routesOf('create-knap').map((route) => route.id)).toEqual(['create-knap']);
  });

  test('greedy prefixes: one character or more after the prefix, the rest as `proxy`', () => {
    expect(greedyFor('/api/admin')).toBeUndefined();
    expect(greedyFor('/api/admin/')).toBeUndefined();
    expect(greedyFor('/api/admin/x/y')).toMatchObject({
      fn: { id: 'admin' },
      routeKey: 'ANY /api/admin/{proxy+}',
      parameters: { proxy: 'x/y' },
    });
    expect(greedyFor('/api/administrators')).toBeUndefined();
    expect(greedyFor('/console/x')).toBeUndefined();
  });
});
