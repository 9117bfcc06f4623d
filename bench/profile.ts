/**
 * `npm run bench:profile [-- --duration 10 --connections 10 --top 10 --route token --keep FILE]`
 *
 * Runs the project's server (`npm start`, over a dynalite in its own process) under
 * `node --cpu-prof`, loads one route with autocannon for N seconds, stops the server (which
 * writes the profile) and prints where the server's own CPU went while under load: the top
 * functions by self time (summed per function name + script + line) and the same by package.
 * Start-up and warm-up are left out (samples outside the load window); dynalite is not in
 * the profile. The temporary files are removed.
 *
 * Routes: token (client_credentials grant), create (manual), list (50 Knaps), get, patch, preview; `peer`: the benchmark's anchor
 * (bench/peer/, oidc-provider + limiter) under the same token load, to compare profiles.
 */
import '../local/quiet-sdk-warning.js';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createApiClient } from '../shared/services/admin-service.js';
import { type CpuProfile, summarizeProfile } from './cpu-profile.js';
import { floorConfigFor, type RunningFloor, startFloorProcess } from './floor/process.js';
import { type FloorRoute, ROUTE_BODIES } from './floor/routes.js';
import { startStackProcess, tokenForm } from './local-server.js';
import { startPeerProcess } from './peer/process.js';
import { cpuMs, pinBench, startDynaliteProcess } from './processes.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    top: { type: 'string', default: '10' },
    route: { type: 'string', default: 'token' },
    json: { type: 'boolean', default: false },
    /** Copy the server's .cpuprofile here (to open in Chrome DevTools or read its call tree). */
    keep: { type: 'string' },
    /** Profile the route's floor (bench/floor/) under the same load instead of the project. */
    floor: { type: 'boolean', default: false },
    /** Leave the processes wherever the scheduler puts them (by default the server gets a core of its own). */
    'no-pin': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const route = values.route as string;
if (!['token', 'create', 'list', 'get', 'patch', 'preview', 'peer'].includes(route))
  throw new Error(`--route: token, create, list, get, patch, preview or peer, not ${route}`);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const command = `npm run bench:profile${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;

const profileDir = mkdtempSync(join(tmpdir(), 'knap-cpu-prof-'));
const dynalite = await startDynaliteProcess();
// 1 ms sampling (the default) over seconds of load is thousands of samples per core.
const profiled = ['--cpu-prof', '--cpu-prof-dir', profileDir];
if (values.floor && (route === 'token' || route === 'peer')) throw new Error('--floor: one of the Knap routes');
const peer = route === 'peer' ? await startPeerProcess({ dynamodbEndpoint: dynalite.endpoint, nodeArgs: profiled }) : undefined;
// As the route bench starts it, so that a profile explains that bench: no dispatcher ticking
// beside the load, and the round-trip count on every answer.
const stack = await startStackProcess(
  { COUNT_ROUND_TRIPS: 'true', DISPATCH_INTERVAL_MS: '0' },
  { dynamodbEndpoint: dynalite.endpoint, ...(peer || values.floor ? {} : { nodeArgs: profiled }) },
);
let floor: RunningFloor | undefined;
let server: { pid: number; stop(): Promise<void> } = peer ?? stack;
let stopped = false;
try {
  const client = await createApiClient(stack.deps, { orgName: 'bench', name: 'profile', rateLimit: 1_000_000 });
  const form = tokenForm(client);
  /** The Knaps made for the Knap routes; the last is the one read. */
  const uuids: string[] = [];
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
  const target: { url: string; method: 'GET' | 'POST' | 'PATCH'; headers: Record<string, string>; body?: string } = {
    url: peer ? peer.tokenUrl : `${stack.url}/api/oauth/token`,
    method: 'POST',
    headers: formHeaders,
    body: peer ? tokenForm(peer) : form,
  };
  if (route !== 'token' && route !== 'peer') {
    const granted = await fetch(target.url, { method: 'POST', headers: formHeaders, body: form });
    const { access_token: token } = (await granted.json()) as { access_token: string };
    const bearer = { authorization: `Bearer ${token}` };
    // As the route bench (bench/routes.ts): manual Knaps, 50 of them listed, one read and patched.
    const knapBody = ROUTE_BODIES.knap;
    const knaps = `${stack.url}/api/studio/knap-tools`;
    const json = { ...bearer, 'content-type': 'application/json' };
    for (let index = 0; index < 50; index += 1) {
      const created = await fetch(knaps, { method: 'POST', headers: json, body: knapBody });
      uuids.push(((await created.json()) as { uuid: string }).uuid);
    }
    const uuid = uuids.at(-1) as string;
    if (route === 'create') Object.assign(target, { url: knaps, headers: json, body: knapBody });
    if (route === 'list') Object.assign(target, { url: `${knaps}?limit=50`, method: 'GET', headers: bearer, body: undefined });
    if (route === 'get') Object.assign(target, { url: `${knaps}/${uuid}`, method: 'GET', headers: bearer, body: undefined });
    // Each connection PATCHes a Knap of its own (see load), so that no PATCH meets a conflict.
    if (route === 'patch')
      Object.assign(target, {
        url: `${knaps}/${uuid}`,
        method: 'PATCH',
        headers: { ...bearer, 'content-type': 'application/merge-patch+json' },
        body: ROUTE_BODIES.patch,
      });
    if (route === 'preview')
      Object.assign(target, {
        url: `${stack.url}/api/studio/schedules/preview`,
        headers: json,
        body: ROUTE_BODIES.preview,
      });
  }
  if (values.floor) {
    const token = target.headers.authorization?.replace('Bearer ', '') ?? '';
    floor = await startFloorProcess(await floorConfigFor(token, stack.deps.tokenKeys, dynalite.endpoint, 50), profiled);
    target.url = target.url.replace(stack.url, floor.urls[route as FloorRoute]);
    server = floor;
  }
  // As the route bench: the profiled server on a core of its own, the load and dynalite on the other.
  if (!values['no-pin']) pinBench([server.pid], dynalite.pid);
  const load = (seconds: number) => {
    let next = 0;
    return autocannon({
      ...target,
      connections,
      duration: seconds,
      setupClient: (client) => {
        if (route !== 'patch') return;
        const own = new URL(target.url.replace(uuids.at(-1) as string, uuids[next++ % uuids.length] as string));
        client.setRequests([{ method: target.method, path: own.pathname, headers: target.headers, body: target.body }] as never);
      },
    });
  };
  await load(Number(values.warmup));
  // The profile's timestamps are on the same monotonic clock as process.hrtime.
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  const cpuBefore = cpuMs(server.pid);
  const result = await load(duration);
  const cpuDuring = cpuMs(server.pid) - cpuBefore;
  const toUs = Number(process.hrtime.bigint() / 1000n);
  await server.stop();
  stopped = true;

  // One profile per thread (the tsx loader's too): the main thread's, busy under load, is the largest.
  const file = readdirSync(profileDir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(profileDir, b)).size - statSync(join(profileDir, a)).size)[0];
  if (!file) throw new Error(`the server wrote no .cpuprofile into ${profileDir}`);
  if (values.keep) copyFileSync(join(profileDir, file), values.keep);
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
  const inWindow = profile.startTime <= fromUs && profile.endTime >= toUs;
  const summary = summarizeProfile(profile, {
    repoRoot,
    top: Number(values.top),
    ...(inWindow ? { fromUs, toUs } : {}),
  });
  const requests = result.requests.total;
  const cpuPerRequest = Math.round((100 * cpuDuring) / Math.max(requests, 1)) / 100;
  if (values.json) {
    console.log(
      // The window's bounds (the profile's clock, in us) let a kept profile be read over the load alone.
      JSON.stringify(
        { command, route, requests, cpu_ms_per_request: cpuPerRequest, window: inWindow ? { fromUs, toUs } : false, ...summary },
        null,
        2,
      ),
    );
  } else {
    console.log(`\n$ ${command}`);
    console.log(
      `${route}: ${requests} requests in ${duration} s (${Math.round(requests / duration)} req/s, ${result.non2xx + result.errors} errors), ${connections} connections`,
    );
    console.log(
      `server process CPU (/proc, all threads): ${Math.round(cpuDuring)} ms, ${cpuPerRequest} ms per request (with the profiler on)`,
    );
    // The sampler ticks on wall time: on a loaded machine a thread waiting for a core still
    // counts as busy, so read the shares, not the milliseconds.
    console.log(
      `main thread sampled ${inWindow ? 'during the load' : 'over the whole run (the load window could not be placed)'}: ${summary.busyMs} ms not idle, ${summary.idleMs} ms idle (${summary.samples} samples)\n`,
    );
    console.log(`Top ${values.top} functions by self time:`);
    console.log('| # | function | where | self ms | % of busy |');
    console.log('|---|---|---|---|---|');
    summary.functions.forEach((row, index) => {
      console.log(`| ${index + 1} | ${row.function} | ${row.where || '(native)'} | ${row.self_ms} | ${row.percent} |`);
    });
    console.log('\nSelf time by package (top 12):');
    console.log('| package | self ms | % of busy |');
    console.log('|---|---|---|');
    for (const row of summary.packages.slice(0, 12)) console.log(`| ${row.package} | ${row.self_ms} | ${row.percent} |`);
    const share = (test: (pkg: string) => boolean) =>
      Math.round(summary.packages.filter((row) => test(row.package)).reduce((sum, row) => sum + row.percent, 0));
    console.log(
      `\nAWS SDK (@aws-sdk/*, @smithy/*): ${share((pkg) => /^@(aws-sdk|smithy)\//.test(pkg))} %, Node.js modules: ${share((pkg) => pkg.startsWith('node:'))} %, native: ${share((pkg) => pkg.startsWith('native'))} %, the project's code: ${share((pkg) => pkg.startsWith('project:'))} %, other packages: ${share((pkg) => !/^(@aws-sdk\/|@smithy\/|node:|native|project:)/.test(pkg))} %`,
    );
  }
} finally {
  if (!stopped) await server.stop();
  if (peer || floor) await stack.stop();
  await dynalite.stop();
  rmSync(profileDir, { recursive: true, force: true });
}
