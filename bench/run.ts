/**
 * `npm run bench [-- --rounds 3 --duration 4 --warmup 2 --connections 10 --skip-bundles --token-only]`
 *
 * One in-memory dynalite in a process of its own; on it, the project (`npm start` with
 * DYNAMODB_ENDPOINT) and the anchor peer (oidc-provider 9.13 + a DynamoDB adapter + the same
 * conditional limiter write, bench/peer/), each in its own process. Then, with autocannon:
 *
 * - token grant (client_credentials), project and peer in alternating rounds: req/s, p50,
 *   the API server's CPU per request and dynalite's (CPU time deltas of each process over
 *   the round, from /proc, less what each burns at idle: `npm start` runs the schedule
 *   dispatcher every second), and project/peer ratios (median of the per-round ratios: each
 *   round pairs two neighbouring runs, which share whatever else the machine was doing);
 * - the project's other routes (create Knap, list Knaps, get one Knap) the same way;
 * - DynamoDB round trips per request (X-DynamoDB-Round-Trips, counted by the project's HTTP
 *   handler and the peer's SDK middleware) and new items per request (the table's item count
 *   before and after);
 * - each Lambda bundle's size and cold import time (skip with --skip-bundles).
 *
 * Prints the tables and writes everything to bench/results.json (--out).
 *
 * `--routes`: each Knap route against its floor instead (bench/routes.ts, bench/floor/), in
 * 20 alternating rounds of 1.5 s by default, written to bench/routes.json; the servers get a
 * core of their own (`--no-pin`: not);
 * `--project-dir DIR` benches another checkout (an earlier commit) against this floor.
 * `--fairness [--minutes 5] [--knaps 1500] [--project-dir DIR]`: only the fairness bench
 * (bench/fairness.ts): another organization's lateness beside one's hot minute.
 * `--fairness --stalled [--minutes 2] [--knaps 20] [--stall accept,read,reset] [--every 5]`:
 * Y's deliveries beside X's 20 stalled endpoints, against a baseline in the same run
 * (bench/stalled.ts; written to bench/stalled.json, --out).
 * `--handlers`: each Knap route's own CPU per request in process, the table's answers from
 * memory (bench/handlers.ts; `--requests N`, `--route get,patch`).
 * After the token bench, the latency from a run's report to a waiting stream and the reads of
 * a waiting stream, under `npm start` (bench/run-stream.ts; `--stream-reports N`, default 200;
 * `--run-stream` runs only that, `--skip-run-stream` leaves it out).
 */
import '../local/quiet-sdk-warning.js';
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createApiClient } from '../shared/services/admin-service.js';
import { ScanCommand } from '../shared/store/commands.js';
import { createDocumentClient } from '../shared/store/dynamo-client.js';
import { DEFAULT_TABLE_NAME } from '../shared/store/table.js';
import { measureBundles } from './bundles.js';
import { runFairnessBench } from './fairness.js';
import { FLOOR_ROUTES, type FloorRoute } from './floor/routes.js';
import { runHandlerBench } from './handlers.js';
import { startStackProcess, tokenForm } from './local-server.js';
import { startPeerProcess } from './peer/process.js';
import { cpuMs, startDynaliteProcess } from './processes.js';
import { runRouteBench } from './routes.js';
import { printStreamBench, runStreamBench, type StreamBenchReport } from './run-stream.js';
import { printStalledBench, runStalledBench, STALL_KINDS, type StallKind } from './stalled.js';

const { values } = parseArgs({
  options: {
    /** Default 3 (--routes: 20). */
    rounds: { type: 'string' },
    /** Seconds per round; default 4 (--routes: 1.5). */
    duration: { type: 'string' },
    warmup: { type: 'string', default: '2' },
    idle: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    out: { type: 'string' },
    'skip-bundles': { type: 'boolean', default: false },
    'token-only': { type: 'boolean', default: false },
    /** Each Knap route against its floor (bench/routes.ts) instead of the token bench. */
    routes: { type: 'boolean', default: false },
    /** --routes: leave the processes wherever the scheduler puts them. */
    'no-pin': { type: 'boolean', default: false },
    /** --routes: bench another checkout of the project (its own node_modules) against this floor. */
    'project-dir': { type: 'string' },
    /** The project's own CPU per request of each Knap route, in process, the table's answers from memory (bench/handlers.ts). */
    handlers: { type: 'boolean', default: false },
    requests: { type: 'string', default: '20000' },
    /** --handlers, --routes: only these routes, comma-separated (create, list, get, patch, preview). */
    route: { type: 'string' },
    /** Only the fairness bench (bench/fairness.ts): Y's lateness beside X's hot minute. */
    fairness: { type: 'boolean', default: false },
    /** --fairness: minutes to watch (default 5; --stalled: 2 per phase), X's every-minute Knaps (1500; --stalled: 20). */
    minutes: { type: 'string' },
    knaps: { type: 'string' },
    /** --fairness: X's 20 endpoints stalled beside Y's healthy one instead (bench/stalled.ts). */
    stalled: { type: 'boolean', default: false },
    /** --stalled: the kinds of X's receiver, each a phase after the healthy baseline (accept, read, reset). */
    stall: { type: 'string', default: STALL_KINDS.join(',') },
    /** --stalled: seconds between Y's manual runs. */
    every: { type: 'string', default: '5' },
    /** The peer's table: its own by default; the project's (`knap`) shows what that table's indexes cost dynalite. */
    'peer-table': { type: 'string' },
    /** Only the report-to-stream bench (bench/run-stream.ts). */
    'run-stream': { type: 'boolean', default: false },
    'skip-run-stream': { type: 'boolean', default: false },
    'stream-reports': { type: 'string', default: '200' },
  },
});
// The route bench takes many short rounds: its ratios are within a few percent of 1.2, and a
// round's ratio moves by ±20% on a shared machine (docs/performance.md, "Twenty short rounds").
const rounds = Number(values.rounds ?? (values.routes ? 20 : 3));
const duration = Number(values.duration ?? (values.routes ? 1.5 : 4));
const warmup = Number(values.warmup);
const idleSeconds = Number(values.idle);
const connections = Number(values.connections);
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const peerVersion = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve('oidc-provider/package.json'), 'utf8')) as { version: string }
).version;

/** --route's names, each one of the Knap routes. */
const only = values.route?.split(',') as FloorRoute[] | undefined;
const unknownRoute = only?.find((name) => !(name in FLOOR_ROUTES));
if (unknownRoute !== undefined) throw new Error(`--route: ${Object.keys(FLOOR_ROUTES).join(', ')}, not "${unknownRoute}"`);

const streamReports = Number(values['stream-reports']);
if (!Number.isInteger(streamReports) || streamReports < 1) throw new Error('--stream-reports: a whole number of reports');

if (values['run-stream']) {
  const report = await runStreamBench({ reports: streamReports });
  console.log(`\n$ ${command}`);
  printStreamBench(report);
  const out = values.out ?? 'bench/results.json';
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ when: new Date().toISOString(), command, machine: { cpus: cpus().length, node: process.version }, report_to_stream: report }, null, 2)}\n`,
  );
  console.log(`Written to ${out}`);
  process.exit(0);
}

if (values.handlers) {
  await runHandlerBench({ rounds, requests: Number(values.requests), only }, command);
  process.exit(0);
}

if (values.routes) {
  const report = await runRouteBench(
    { rounds, duration, warmup, idle: idleSeconds, connections, pin: !values['no-pin'], projectDir: values['project-dir'], only },
    command,
  );
  const bundles = values['skip-bundles'] ? [] : await measureBundles();
  if (bundles.length > 0) console.table(bundles);
  const out = values.out ?? 'bench/routes.json';
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ when: new Date().toISOString(), machine: { cpus: cpus().length, node: process.version }, ...report, bundles }, null, 2)}\n`,
  );
  console.log(`Written to ${out}`);
  process.exit(0);
}

interface Target {
  name: string;
  /** The server process whose CPU is counted. */
  pid: number;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A function: a new body per request (a client assertion's jti is used once). */
  body?: string | (() => string);
  /** The table whose item count tells how many items a request adds. */
  tableName: string;
}

interface Round {
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  errors: number;
  /** Net of the process's CPU at idle over the same time (see `idleRates`). */
  server_cpu_ms_per_request: number;
  dynalite_cpu_ms_per_request: number;
  /** The CPU deltas as read. */
  server_cpu_ms_raw: number;
  dynalite_cpu_ms_raw: number;
}

interface Probe {
  dynamodb_round_trips: number;
  new_items_per_request: number;
}

const median = (numbers: number[]): number => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const round2 = (value: number): number => Math.round(value * 100) / 100;

if (values.fairness && values.stalled) {
  const kinds = values.stall.split(',') as StallKind[];
  const unknownKind = kinds.find((kind) => !STALL_KINDS.includes(kind));
  if (unknownKind !== undefined) throw new Error(`--stall: ${STALL_KINDS.join(', ')}, not "${unknownKind}"`);
  const result = await runStalledBench({
    minutes: Number(values.minutes ?? 2),
    knaps: Number(values.knaps ?? 20),
    kinds,
    every: Number(values.every),
    projectDir: values['project-dir'],
  });
  const out = values.out ?? 'bench/stalled.json';
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ when: new Date().toISOString(), command, machine: { cpus: cpus().length, node: process.version }, ...result }, null, 2)}\n`,
  );
  printStalledBench(result, command);
  console.log(`Written to ${out}`);
  process.exit(0);
}

if (values.fairness) {
  const result = await runFairnessBench({
    minutes: Number(values.minutes ?? 5),
    knaps: Number(values.knaps ?? 1500),
    projectDir: values['project-dir'],
  });
  console.log(JSON.stringify({ command, ...result }, null, 2));
  console.log(
    `\nY's lateness over ${result.minutes} minute(s) beside X's ${result.xKnaps} every-minute Knaps (${result.checkout}): run created median ${result.creationMedianSeconds} s, worst ${result.creationWorstSeconds} s; message received median ${result.medianSeconds} s, worst ${result.worstSeconds} s (${result.yMessages} message(s))`,
  );
  process.exit(0);
}

const dynalite = await startDynaliteProcess();
const documents = createDocumentClient({ endpoint: dynalite.endpoint });
// The dispatcher off: deployed it is a Lambda of its own, no part of a request.
const stack = await startStackProcess(
  { COUNT_ROUND_TRIPS: 'true', DISPATCH_INTERVAL_MS: '0' },
  { dynamodbEndpoint: dynalite.endpoint },
);
const peer = await startPeerProcess({ dynamodbEndpoint: dynalite.endpoint, tableName: values['peer-table'] });

const countItems = async (tableName: string): Promise<number> => {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(new ScanCommand({ TableName: tableName, Select: 'COUNT', ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
};

const send = async (target: Target): Promise<Response> => {
  const body = typeof target.body === 'function' ? target.body() : target.body;
  const response = await fetch(target.url, { method: target.method, headers: target.headers, body });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${target.name}: ${target.method} ${target.url} answered ${response.status}`);
  return response;
};

/** Sequential requests, one at a time: the round trips each makes and the items it adds. */
const probe = async (target: Target, requests = 20): Promise<Probe> => {
  // Requests still in flight when a load ends finish their writes after it: let them land.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const before = await countItems(target.tableName);
  let trips = 0;
  for (let i = 0; i < requests; i += 1) trips += Number((await send(target)).headers.get('x-dynamodb-round-trips'));
  const after = await countItems(target.tableName);
  return { dynamodb_round_trips: trips / requests, new_items_per_request: (after - before) / requests };
};

const load = (target: Target, seconds: number) =>
  autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    ...(typeof target.body === 'function'
      ? { requests: [{ setupRequest: (request) => ({ ...request, body: (target.body as () => string)() }) }] }
      : { body: target.body }),
    connections,
    duration: seconds,
  });

/**
 * CPU ms per second of each process while nothing is sent: `npm start` runs the schedule
 * dispatcher every second (its queries cost dynalite too), which is no part of a request
 * (deployed, it is a Lambda of its own). Subtracted from each round, pro rata.
 */
const idleRates = new Map<number, number>();
const measureIdle = async (pids: number[]): Promise<void> => {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const started = process.hrtime.bigint();
  const before = pids.map(cpuMs);
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  pids.forEach((pid, index) => {
    idleRates.set(pid, (cpuMs(pid) - (before[index] as number)) / seconds);
  });
};

const measure = async (target: Target): Promise<Round> => {
  const started = process.hrtime.bigint();
  const server = cpuMs(target.pid);
  const db = cpuMs(dynalite.pid);
  const result = await load(target, duration);
  const serverMs = cpuMs(target.pid) - server;
  const dbMs = cpuMs(dynalite.pid) - db;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const requests = Math.max(result.requests.total, 1);
  const net = (ms: number, pid: number) => Math.max(0, ms - (idleRates.get(pid) ?? 0) * seconds) / requests;
  return {
    requests_per_second: Math.round(result.requests.total / duration),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    server_cpu_ms_per_request: round2(net(serverMs, target.pid)),
    dynalite_cpu_ms_per_request: round2(net(dbMs, dynalite.pid)),
    server_cpu_ms_raw: Math.round(serverMs),
    dynalite_cpu_ms_raw: Math.round(dbMs),
  };
};

const summarize = (runs: Round[]) => ({
  requests_per_second: Math.round(median(runs.map((run) => run.requests_per_second))),
  p50_ms: median(runs.map((run) => run.p50_ms)),
  p99_ms: median(runs.map((run) => run.p99_ms)),
  server_cpu_ms_per_request: round2(median(runs.map((run) => run.server_cpu_ms_per_request))),
  dynalite_cpu_ms_per_request: round2(median(runs.map((run) => run.dynalite_cpu_ms_per_request))),
  errors: runs.reduce((sum, run) => sum + run.errors, 0),
});

/** Median of the per-round ratios project/peer of one measure. */
const pairedRatio = (project: Round[], anchor: Round[], pick: (round: Round) => number): number =>
  round2(median(project.map((round, index) => pick(round) / Math.max(pick(anchor[index] as Round), 1e-9))));

try {
  // A limit far above what the run can reach: this measures the API, not the limiter's 429s.
  const client = await createApiClient(stack.deps, { orgName: 'bench', name: 'bench', rateLimit: 1_000_000 });
  const form = tokenForm(client);
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
  const projectGrant: Target = {
    name: 'project',
    pid: stack.pid,
    url: `${stack.url}/api/oauth/token`,
    method: 'POST',
    headers: formHeaders,
    body: form,
    tableName: DEFAULT_TABLE_NAME,
  };
  const peerGrant: Target = {
    name: `oidc-provider ${peerVersion} + limiter`,
    pid: peer.pid,
    url: peer.tokenUrl,
    method: 'POST',
    headers: formHeaders,
    body: tokenForm(peer),
    tableName: peer.tableName,
  };

  // Both answer a grant before anything is timed.
  const grantProbes = { project: await probe(projectGrant), peer: await probe(peerGrant) };
  await load(projectGrant, warmup);
  await load(peerGrant, warmup);
  await measureIdle([stack.pid, peer.pid, dynalite.pid]);
  const idle = {
    project_server_ms_per_s: Math.round(idleRates.get(stack.pid) ?? 0),
    peer_server_ms_per_s: Math.round(idleRates.get(peer.pid) ?? 0),
    dynalite_ms_per_s: Math.round(idleRates.get(dynalite.pid) ?? 0),
  };
  const grantRounds: { project: Round[]; peer: Round[] } = { project: [], peer: [] };
  for (let index = 0; index < rounds; index += 1) {
    // Alternate who goes first, so a drift of the machine's load favours neither.
    const order = index % 2 === 0 ? (['project', 'peer'] as const) : (['peer', 'project'] as const);
    for (const side of order) {
      const run = await measure(side === 'project' ? projectGrant : peerGrant);
      grantRounds[side].push(run);
      process.stderr.write(
        `round ${index + 1}/${rounds} ${side.padEnd(7)} ${run.requests_per_second} req/s, p50 ${run.p50_ms} ms, server ${run.server_cpu_ms_per_request} ms/req, dynalite ${run.dynalite_cpu_ms_per_request} ms/req\n`,
      );
    }
  }
  const grant = {
    project: { ...summarize(grantRounds.project), ...grantProbes.project },
    peer: { ...summarize(grantRounds.peer), ...grantProbes.peer },
    ratios: {
      throughput: pairedRatio(grantRounds.project, grantRounds.peer, (run) => run.requests_per_second),
      p50: pairedRatio(grantRounds.project, grantRounds.peer, (run) => run.p50_ms),
      server_cpu: pairedRatio(grantRounds.project, grantRounds.peer, (run) => run.server_cpu_ms_per_request),
      dynalite_cpu: pairedRatio(grantRounds.project, grantRounds.peer, (run) => run.dynalite_cpu_ms_per_request),
    },
    rounds: grantRounds,
  };

  // The same grant authenticated by private_key_jwt (RFC 7523): a fresh ES256 assertion per
  // request, signed here with node:crypto (the server verifies with jose), beside the secret's.
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  await stack.deps.repo.putClientJwks(client.clientId, {
    keys: [{ ...(publicKey.export({ format: 'jwk' }) as Record<string, string>), kid: 'bench' }],
    updatedAt: new Date().toISOString(),
  });
  const assertionForm = () => {
    const now = Math.floor(Date.now() / 1000);
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${part({ alg: 'ES256', kid: 'bench' })}.${part({
      iss: client.clientId,
      sub: client.clientId,
      aud: `${stack.url}/api/oauth/token`,
      jti: randomUUID(),
      iat: now,
      exp: now + 60,
    })}`;
    const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    return new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: `${input}.${signature}`,
    }).toString();
  };
  const assertionGrant: Target = { ...projectGrant, name: 'project, private_key_jwt', body: assertionForm };
  const assertionProbe = await probe(assertionGrant);
  await load(assertionGrant, warmup);
  const assertionRounds: Round[] = [];
  const secretRounds: Round[] = [];
  for (let index = 0; index < rounds; index += 1) {
    // Paired with a secret grant round right beside it, for the ratio.
    secretRounds.push(await measure(projectGrant));
    assertionRounds.push(await measure(assertionGrant));
  }
  const privateKeyJwt = {
    ...summarize(assertionRounds),
    ...assertionProbe,
    secret_grant_server_cpu_ms_per_request: summarize(secretRounds).server_cpu_ms_per_request,
    server_cpu_ratio_to_secret: pairedRatio(assertionRounds, secretRounds, (run) => run.server_cpu_ms_per_request),
  };

  // The project's other routes, with a token of its own.
  const scenarios: (Probe & ReturnType<typeof summarize> & { scenario: string })[] = [];
  if (!values['token-only']) {
    const { access_token: token } = (await (
      await fetch(projectGrant.url, { method: 'POST', headers: formHeaders, body: form })
    ).json()) as { access_token: string };
    const bearer = { authorization: `Bearer ${token}` };
    const knapBody = JSON.stringify({
      name: 'Bench',
      schedule_type: 'scheduled',
      visibility: 'public',
      tool_metadata: { schedule_description: 'every weekday at 9am' },
    });
    const created = await fetch(`${stack.url}/api/studio/knap-tools`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: knapBody,
    });
    const { uuid } = (await created.json()) as { uuid: string };
    const routes: Target[] = [
      {
        name: 'create Knap (scheduled)',
        pid: stack.pid,
        url: `${stack.url}/api/studio/knap-tools`,
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: knapBody,
        tableName: DEFAULT_TABLE_NAME,
      },
      {
        name: 'list Knaps (limit=20)',
        pid: stack.pid,
        url: `${stack.url}/api/studio/knap-tools?limit=20`,
        method: 'GET',
        headers: bearer,
        tableName: DEFAULT_TABLE_NAME,
      },
      {
        name: 'get one Knap',
        pid: stack.pid,
        url: `${stack.url}/api/studio/knap-tools/${uuid}`,
        method: 'GET',
        headers: bearer,
        tableName: DEFAULT_TABLE_NAME,
      },
    ];
    for (const route of routes) {
      const probed = await probe(route);
      await load(route, warmup);
      const runs: Round[] = [];
      for (let index = 0; index < rounds; index += 1) runs.push(await measure(route));
      scenarios.push({ scenario: route.name, ...summarize(runs), ...probed });
      process.stderr.write(`${route.name}: ${runs.map((run) => run.requests_per_second).join(', ')} req/s\n`);
    }
  }

  // Its own npm start, on the same dynalite, through a proxy that counts its calls.
  let reportToStream: StreamBenchReport | undefined;
  if (!values['skip-run-stream'] && !values['token-only']) {
    reportToStream = await runStreamBench({ reports: streamReports, dynamodbEndpoint: dynalite.endpoint });
  }

  const bundles = values['skip-bundles'] ? [] : await measureBundles();
  const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version };
  const report = {
    when: new Date().toISOString(),
    command,
    machine,
    settings: { rounds, duration_s: duration, warmup_s: warmup, connections, peer: `oidc-provider ${peerVersion}` },
    idle_cpu: idle,
    token_grant: grant,
    private_key_jwt_grant: privateKeyJwt,
    scenarios,
    report_to_stream: reportToStream,
    bundles,
  };

  const { project, peer: anchor, ratios } = grant;
  const cell = (value: number | string) => String(value);
  const rows: [string, string, string, string][] = [
    ['throughput (req/s)', cell(project.requests_per_second), cell(anchor.requests_per_second), `${ratios.throughput}x`],
    ['p50 latency (ms)', cell(project.p50_ms), cell(anchor.p50_ms), `${ratios.p50}x`],
    [
      'API server CPU per request (ms, dynalite excluded)',
      cell(project.server_cpu_ms_per_request),
      cell(anchor.server_cpu_ms_per_request),
      `${ratios.server_cpu}x`,
    ],
    [
      'dynalite CPU per request (ms)',
      cell(project.dynalite_cpu_ms_per_request),
      cell(anchor.dynalite_cpu_ms_per_request),
      `${ratios.dynalite_cpu}x`,
    ],
    ['DynamoDB round trips per request', cell(project.dynamodb_round_trips), cell(anchor.dynamodb_round_trips), ''],
    ['new items per request', cell(project.new_items_per_request), cell(anchor.new_items_per_request), ''],
    ['errors (non-2xx, timeouts)', cell(project.errors), cell(anchor.errors), ''],
    [
      'CPU at idle, subtracted above (ms/s): server, dynalite',
      `${idle.project_server_ms_per_s}, ${idle.dynalite_ms_per_s}`,
      `${idle.peer_server_ms_per_s}, ${idle.dynalite_ms_per_s}`,
      '',
    ],
  ];
  console.log(`\n$ ${command}`);
  console.log(
    `${rounds} alternating rounds x ${duration} s (after ${warmup} s warm-up), ${connections} connections; ${machine.cpus} cores (${machine.cpu}), Node ${machine.node}; one in-memory dynalite in its own process`,
  );
  console.log(
    "The project's DynamoDB calls and the peer's: through the AWS SDK v3 (the project's bounded, see shared/store/dynamo-client.ts)\n",
  );
  console.log(`| per token grant (client_credentials) | project | oidc-provider ${peerVersion} + limiter | project/peer |`);
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log('\nMedians over the rounds; ratios are the median of the per-round ratios.');
  console.log(
    `\nThe same grant with private_key_jwt (ES256 assertion, jti once): ${privateKeyJwt.requests_per_second} req/s, server CPU ${privateKeyJwt.server_cpu_ms_per_request} ms/req (with a secret, in the rounds beside it: ${privateKeyJwt.secret_grant_server_cpu_ms_per_request} ms/req; ${privateKeyJwt.server_cpu_ratio_to_secret}x), dynalite ${privateKeyJwt.dynalite_cpu_ms_per_request} ms/req, ${privateKeyJwt.dynamodb_round_trips} round trips, ${privateKeyJwt.errors} errors`,
  );
  if (scenarios.length > 0) {
    console.log('\nThe project on its other routes (medians over the rounds):');
    console.table(scenarios);
  }
  if (reportToStream) printStreamBench(reportToStream);
  if (bundles.length > 0) console.table(bundles);
  const out = values.out ?? 'bench/results.json';
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Written to ${out}`);
} finally {
  documents.destroy();
  await peer.stop();
  await stack.stop();
  await dynalite.stop();
}
