/**
 * `npm run bench -- --routes [--rounds 20 --duration 1.5 --warmup 2 --connections 10 --skip-bundles]`
 *
 * Each Knap route against its floor: a bare `node:http` server making exactly the same
 * DynamoDB calls with the same SDK client and configuration (bench/floor/server.ts), on the
 * same in-memory dynalite, each in its own process. Before anything is timed, one request
 * per route to each side, one at a time: the calls by command and how deep they go must be
 * the same (the project's read from `roundTrips` of an in-process server over the same
 * table, warmed by one request first, as a container is; the floor's from its own), or the
 * bench stops. Then, per route, alternating rounds (project, floor, floor, project, ...):
 * throughput and the server's CPU per request (from /proc, less its CPU at idle), and the
 * ratios project/floor as the median of the per-round ratios, as the token bench does
 * against oidc-provider.
 *
 * Routes: POST knap-tools (a manual Knap), GET knap-tools?limit=50 (50 Knaps), GET and
 * PATCH knap-tools/{uuid} (each PATCH connection on a Knap of its own, so that no write
 * races another), POST schedules/preview.
 */
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { startApiServer } from '../local/server.js';
import { createApiClient } from '../shared/services/admin-service.js';
import { roundTrips } from '../shared/store/dynamo-client.js';
import { floorConfigFor, startFloorProcess } from './floor/process.js';
import { FLOOR_ROUTES, type FloorRoute, ROUTE_BODIES } from './floor/routes.js';
import { startStackProcess, tokenForm } from './local-server.js';
import { cpuMs, pinBench, startDynaliteProcess } from './processes.js';

export interface RouteBenchOptions {
  /** Another checkout of the project to bench against this floor (see startStackProcess). */
  projectDir?: string;
  /** Give the servers under test one core, and the load and dynalite the other (see pinBench). */
  pin: boolean;
  rounds: number;
  duration: number;
  warmup: number;
  idle: number;
  connections: number;
  /** Only these routes (all when absent). */
  only?: readonly FloorRoute[];
}

interface Target {
  method: 'GET' | 'POST' | 'PATCH';
  /** Path and query, the same on both sides; `{uuid}` is a Knap of the connection's own. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RouteRound {
  requests_per_second: number;
  p50_ms: number;
  requests: number;
  errors: number;
  server_cpu_ms_per_request: number;
  dynalite_cpu_ms_per_request: number;
}

export interface Calls {
  byCommand: Record<string, number>;
  depth: number;
}

/** The value below which a fraction `at` of the numbers lie, interpolated between neighbours (0.5: the median). */
const quantile = (numbers: number[], at: number): number => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const position = (sorted.length - 1) * at;
  const below = Math.floor(position);
  const lower = sorted[below] as number;
  return lower + ((sorted[Math.min(below + 1, sorted.length - 1)] as number) - lower) * (position - below);
};
const median = (numbers: number[]): number => quantile(numbers, 0.5);
const round2 = (value: number): number => Math.round(value * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const KNAPS = 50;
const ROUTE_NAMES: Record<FloorRoute, string> = {
  create: 'POST knap-tools (manual)',
  list: `GET knap-tools (${KNAPS} Knaps)`,
  get: 'GET knap-tools/{uuid}',
  patch: 'PATCH knap-tools/{uuid}',
  preview: 'POST schedules/preview',
};

const describeCalls = (calls: Calls): string =>
  `${Object.entries(calls.byCommand)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([command, count]) => `${count} ${command.replace(/Command$/, '')}`)
    .join(', ')}; depth ${calls.depth}`;

export const runRouteBench = async (options: RouteBenchOptions, command: string) => {
  const { rounds, duration, warmup, connections } = options;
  const dynalite = await startDynaliteProcess();
  const stack = await startStackProcess(
    { COUNT_ROUND_TRIPS: 'true', DISPATCH_INTERVAL_MS: '0' },
    { dynamodbEndpoint: dynalite.endpoint, projectDir: options.projectDir },
  );
  const stops: (() => Promise<void>)[] = [() => dynalite.stop(), () => stack.stop()];
  try {
    const client = await createApiClient(stack.deps, { orgName: 'bench', name: 'routes', rateLimit: 1_000_000 });
    const granted = await fetch(`${stack.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenForm(client),
    });
    const { access_token: token } = (await granted.json()) as { access_token: string };
    const bearer = { authorization: `Bearer ${token}` };
    const json = { ...bearer, 'content-type': 'application/json' };
    const knapBody = ROUTE_BODIES.knap;

    // The Knaps the reads list and the writes change: private, manual, this client's.
    const uuids: string[] = [];
    for (let index = 0; index < KNAPS; index += 1) {
      const created = await fetch(`${stack.url}/api/studio/knap-tools`, { method: 'POST', headers: json, body: knapBody });
      if (created.status !== 201) throw new Error(`creating a Knap answered ${created.status}`);
      uuids.push(((await created.json()) as { uuid: string }).uuid);
    }

    const floor = await startFloorProcess(await floorConfigFor(token, stack.deps.tokenKeys, dynalite.endpoint, KNAPS));
    stops.push(() => floor.stop());

    const targets: Record<FloorRoute, Target> = {
      create: { method: 'POST', path: '/api/studio/knap-tools', headers: json, body: knapBody },
      list: { method: 'GET', path: `/api/studio/knap-tools?limit=${KNAPS}`, headers: bearer },
      get: { method: 'GET', path: '/api/studio/knap-tools/{uuid}', headers: bearer },
      patch: {
        method: 'PATCH',
        path: '/api/studio/knap-tools/{uuid}',
        headers: { ...bearer, 'content-type': 'application/merge-patch+json' },
        body: ROUTE_BODIES.patch,
      },
      preview: {
        method: 'POST',
        path: '/api/studio/schedules/preview',
        headers: json,
        body: ROUTE_BODIES.preview,
      },
    };
    const routeNames = (Object.keys(targets) as FloorRoute[]).filter((route) => !options.only || options.only.includes(route));
    // Each round's server has a core to itself (see pinBench).
    const pinned = options.pin && pinBench([stack.pid, floor.pid], dynalite.pid);
    const sides = {
      project: { pid: stack.pid, base: (_route: FloorRoute) => stack.url },
      floor: { pid: floor.pid, base: (route: FloorRoute) => floor.urls[route] },
    };

    const send = async (base: string, target: Target): Promise<Response> => {
      const response = await fetch(base + target.path.replace('{uuid}', uuids[0] as string), {
        method: target.method,
        headers: target.headers,
        body: target.body,
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${target.method} ${base}${target.path} answered ${response.status}`);
      return response;
    };

    // The same calls on both sides, or no bench.
    const inProcess = await startApiServer({ deps: stack.deps, countRoundTrips: true });
    const calls: Record<FloorRoute, { project: Calls; floor: Calls; header: number }> = {} as never;
    try {
      for (const route of routeNames) {
        const target = targets[route];
        const floorCalls = async () => (await (await fetch(`${floor.urls[route]}/__calls`)).json()) as Calls & { total: number };
        const compare = async () => {
          await send(inProcess.url, target); // loads the function and warms what a container keeps
          roundTrips.reset();
          await send(inProcess.url, target);
          const project = { byCommand: { ...roundTrips.byCommand }, depth: roundTrips.depth };
          const header = Number((await send(stack.url, target)).headers.get('x-dynamodb-round-trips'));
          await send(floor.urls[route], target); // the same warming
          await floorCalls();
          await send(floor.urls[route], target);
          const { byCommand, depth } = await floorCalls();
          calls[route] = { project, floor: { byCommand, depth }, header };
          const total = Object.values(project.byCommand).reduce((sum, count) => sum + count, 0);
          return isDeepStrictEqual(project, calls[route].floor) && header === total;
        };
        // A call the client retried (a dropped keep-alive connection, say) counts twice, and a
        // stack-wide minute window may open mid-request: a difference must hold three times.
        let same = await compare();
        for (let attempt = 1; !same && attempt < 3; attempt += 1) same = await compare();
        const { project, header } = calls[route];
        if (!same) {
          throw new Error(
            `${ROUTE_NAMES[route]}: the floor's calls (${describeCalls(calls[route].floor)}) are not the project's (${describeCalls(project)}, X-DynamoDB-Round-Trips ${header}); bench/floor/server.ts must follow the project`,
          );
        }
        process.stderr.write(`${ROUTE_NAMES[route]}: ${describeCalls(project)} on both sides (floor: ${FLOOR_ROUTES[route]})\n`);
      }
    } finally {
      await inProcess.close();
    }

    const load = (side: keyof typeof sides, route: FloorRoute, seconds: number) => {
      const target = targets[route];
      let next = 0;
      return autocannon({
        url: sides[side].base(route),
        connections,
        duration: seconds,
        // Each connection on a Knap of its own: PATCHes never race each other.
        setupClient: (client) => {
          const uuid = uuids[next++ % uuids.length] as string;
          client.setRequests([
            { method: target.method, path: target.path.replace('{uuid}', uuid), headers: target.headers, body: target.body },
          ] as never);
        },
      });
    };

    for (const route of routeNames) {
      await load('project', route, warmup);
      await load('floor', route, warmup);
    }

    const idleRates = new Map<number, number>();
    await sleep(1_000);
    {
      const pids = [stack.pid, floor.pid, dynalite.pid];
      const started = process.hrtime.bigint();
      const before = pids.map(cpuMs);
      await sleep(options.idle * 1000);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      pids.forEach((pid, index) => {
        idleRates.set(pid, (cpuMs(pid) - (before[index] as number)) / seconds);
      });
    }

    const measure = async (side: keyof typeof sides, route: FloorRoute): Promise<RouteRound> => {
      const { pid } = sides[side];
      const started = process.hrtime.bigint();
      const server = cpuMs(pid);
      const db = cpuMs(dynalite.pid);
      const result = await load(side, route, duration);
      const serverMs = cpuMs(pid) - server;
      const dbMs = cpuMs(dynalite.pid) - db;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const requests = Math.max(result.requests.total, 1);
      const net = (ms: number, of: number) => Math.max(0, ms - (idleRates.get(of) ?? 0) * seconds) / requests;
      return {
        requests_per_second: Math.round(result.requests.total / duration),
        p50_ms: result.latency.p50,
        requests: result.requests.total,
        errors: result.errors + result.timeouts + result.non2xx,
        server_cpu_ms_per_request: round2(net(serverMs, pid)),
        dynalite_cpu_ms_per_request: round2(net(dbMs, dynalite.pid)),
      };
    };

    const results: Record<string, unknown>[] = [];
    for (const route of routeNames) {
      const runs: { project: RouteRound[]; floor: RouteRound[] } = { project: [], floor: [] };
      for (let index = 0; index < rounds; index += 1) {
        const order = index % 2 === 0 ? (['project', 'floor'] as const) : (['floor', 'project'] as const);
        for (const side of order) {
          await sleep(500); // writes still in flight from the last round land
          const run = await measure(side, route);
          runs[side].push(run);
          process.stderr.write(
            `${ROUTE_NAMES[route]} round ${index + 1}/${rounds} ${side.padEnd(7)} ${run.requests_per_second} req/s, p50 ${run.p50_ms} ms, server ${run.server_cpu_ms_per_request} ms/req, dynalite ${run.dynalite_cpu_ms_per_request} ms/req${run.errors ? `, ${run.errors} ERRORS` : ''}\n`,
          );
        }
      }
      const ratio = (pick: (run: RouteRound) => number) =>
        round2(median(runs.project.map((run, index) => pick(run) / Math.max(pick(runs.floor[index] as RouteRound), 1e-9))));
      const per = (side: RouteRound[], pick: (run: RouteRound) => number) => round2(median(side.map(pick)));
      const cpuRatios = runs.project.map(
        (run, index) =>
          run.server_cpu_ms_per_request / Math.max((runs.floor[index] as RouteRound).server_cpu_ms_per_request, 1e-9),
      );
      results.push({
        route,
        name: ROUTE_NAMES[route],
        calls: describeCalls(calls[route].project),
        project: {
          server_cpu_ms_per_request: per(runs.project, (run) => run.server_cpu_ms_per_request),
          requests_per_second: per(runs.project, (run) => run.requests_per_second),
          p50_ms: per(runs.project, (run) => run.p50_ms),
          errors: runs.project.reduce((sum, run) => sum + run.errors, 0),
        },
        floor: {
          server_cpu_ms_per_request: per(runs.floor, (run) => run.server_cpu_ms_per_request),
          requests_per_second: per(runs.floor, (run) => run.requests_per_second),
          p50_ms: per(runs.floor, (run) => run.p50_ms),
          errors: runs.floor.reduce((sum, run) => sum + run.errors, 0),
        },
        ratios: {
          server_cpu: ratio((run) => run.server_cpu_ms_per_request),
          server_cpu_range: [round2(Math.min(...cpuRatios)), round2(Math.max(...cpuRatios))],
          // The middle half of the rounds: a round's ratio moves by ±20% on a shared machine, its median far less.
          server_cpu_middle_half: [round2(quantile(cpuRatios, 0.25)), round2(quantile(cpuRatios, 0.75))],
          throughput: ratio((run) => run.requests_per_second),
          dynalite_cpu: ratio((run) => run.dynalite_cpu_ms_per_request),
        },
        rounds: runs,
      });
    }

    console.log(`\n$ ${command}`);
    console.log(
      `${rounds} alternating rounds x ${duration} s per route (after ${warmup} s warm-up), ${connections} connections; one in-memory dynalite in its own process; ${pinned ? 'the server on CPU 0, the load and dynalite on CPU 1' : 'no CPU pinning'}`,
    );
    console.log(
      `idle CPU subtracted (ms/s): project ${Math.round(idleRates.get(stack.pid) ?? 0)}, floor ${Math.round(idleRates.get(floor.pid) ?? 0)}, dynalite ${Math.round(idleRates.get(dynalite.pid) ?? 0)}\n`,
    );
    console.log(
      '| route | DynamoDB calls (both sides) | server CPU ms/req, project / floor | CPU per request, project/floor (middle half of the rounds) | req/s, project / floor | throughput, project/floor |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const row of results as {
      name: string;
      calls: string;
      project: { server_cpu_ms_per_request: number; requests_per_second: number; errors: number };
      floor: { server_cpu_ms_per_request: number; requests_per_second: number; errors: number };
      ratios: { server_cpu: number; server_cpu_middle_half: number[]; throughput: number };
    }[]) {
      const errors = row.project.errors + row.floor.errors;
      console.log(
        `| ${row.name} | ${row.calls} | ${row.project.server_cpu_ms_per_request} / ${row.floor.server_cpu_ms_per_request} | **${row.ratios.server_cpu}x** (${row.ratios.server_cpu_middle_half.join('-')}) | ${row.project.requests_per_second} / ${row.floor.requests_per_second} | ${row.ratios.throughput}x |${errors ? ` ${errors} errors` : ''}`,
      );
    }
    console.log(
      '\nMedians over the rounds; ratios are the median of the per-round ratios (a quarter of the rounds lie below the middle half, a quarter above).',
    );
    return { command, settings: { ...options, pinned }, calls, routes: results };
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
};
