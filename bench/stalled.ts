/**
 * `npm run bench -- --fairness --stalled [--minutes 2] [--knaps 20] [--stall accept,read,reset] [--every 5] [--project-dir DIR]`
 *
 * One organization's stalled webhook endpoints beside another's healthy one, under the real
 * `npm start` (a child process: its dispatcher timer, its delivery queue, its embedded
 * dynalite; no clock faked). Organization X has 20 endpoints (its default quota) and `--knaps`
 * every-minute Knaps, and also runs each of them by hand every 30 s, so its deliveries keep all
 * 20 endpoints busy: 20 runs x 20 endpoints every 30 s, where a stalled endpoint takes an
 * attempt 10 s (the delivery timeout). Organization Y has one healthy endpoint, one
 * every-minute Knap, and runs it by hand every `--every` seconds.
 *
 * Y's lateness: when its `knap.run` message reaches its receiver, minus when the bench asked
 * for the run (a manual run) or the run's `scheduled_for` (a scheduled one). A run whose
 * message has not come 20 s after the window counts as never (Infinity).
 *
 * Phases, each on a fresh stack, one after another: `healthy` (the baseline: X's endpoints
 * answer 204 at once, the same load otherwise), then one per `--stall` kind of X's receiver:
 * `accept` (takes the TCP connection and never reads it), `read` (reads the request and never
 * answers), `reset` (takes the connection and resets it at once: X's attempts fail fast and
 * retry, the most work for the deliverer). Each stalled phase's median and worst are shown as
 * ratios to the baseline's.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import type { Knap } from '../shared/domain/knaps.js';
import { newWebhookSecret } from '../shared/domain/webhooks.js';
import { describeSchedule } from '../shared/schedules/index.js';
import { createApiClient } from '../shared/services/admin-service.js';
import { startStackProcess, tokenForm } from './local-server.js';

export const STALL_KINDS = ['accept', 'read', 'reset'] as const;
export type StallKind = (typeof STALL_KINDS)[number];
type PhaseKind = 'healthy' | StallKind;

export interface StalledOptions {
  minutes: number;
  /** X's every-minute Knaps (each also run by hand every 30 s). */
  knaps: number;
  kinds: StallKind[];
  /** Seconds between Y's manual runs. */
  every: number;
  projectDir?: string;
}

/** X's endpoints: the default quota's 20. */
const X_ENDPOINTS = 20;
const X_EVERY_MS = 30_000;
/** How long after the window Y's last runs may still arrive. */
const DRAIN_MS = 20_000;

export interface PhaseResult {
  phase: PhaseKind;
  yRuns: number;
  yReceived: number;
  medianSeconds: number;
  worstSeconds: number;
  /** Seconds of each of Y's runs, in the order asked (Infinity: never received). */
  yLatenessSeconds: number[];
  /** Y's runs never received, counted by what became of them. */
  yMissing: Record<string, number>;
  /** X's receiver: connections taken, and most held open at once (what the stall cost in sockets). */
  xConnections: number;
  xMostOpen: number;
  xRunsAsked: number;
  /** os.loadavg() at the phase's end: the machine is shared. */
  loadAverage: number[];
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0
    ? Number.NaN
    : sorted.length % 2
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const tenth = (value: number): number => Math.round(value * 10) / 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Y's receiver: answers 204 at once and notes when each run's knap.run arrived. */
const startYReceiver = async (received: Map<string, number>) => {
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      try {
        const message = JSON.parse(Buffer.concat(chunks).toString()) as { type: string; data: { run?: { run_id?: string } } };
        const runId = message.data.run?.run_id;
        if (message.type === 'knap.run' && runId && !received.has(runId)) received.set(runId, at);
      } catch {
        // not a message of ours
      }
      response.writeHead(204).end();
    });
  });
  return listen(server, () => server.closeAllConnections());
};

/** X's receiver of the given kind, counting connections and the most open at once. */
const startXReceiver = async (kind: PhaseKind) => {
  const stats = { connections: 0, open: 0, most: 0 };
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const count = (socket: Socket) => {
    stats.connections += 1;
    stats.open += 1;
    stats.most = Math.max(stats.most, stats.open);
    sockets.add(socket);
    socket.on('close', () => {
      stats.open -= 1;
      sockets.delete(socket);
    });
    socket.on('error', () => {});
  };
  let server: Server;
  if (kind === 'accept') {
    // Never reads: the request sits in the socket's buffers.
    server = createTcpServer({ pauseOnConnect: true }, count);
  } else if (kind === 'reset') {
    server = createTcpServer((socket) => {
      count(socket);
      socket.resetAndDestroy();
    });
  } else {
    const http = createHttpServer((request, response) => {
      request.resume();
      request.on('end', () => {
        if (kind === 'healthy') response.writeHead(204).end();
        else hanging.add(response);
      });
    });
    http.on('connection', count);
    server = http;
  }
  const listening = await listen(server, () => {
    for (const response of hanging) response.destroy();
    for (const socket of sockets) socket.destroy();
  });
  return { ...listening, stats };
};

const listen = async (server: Server, beforeClose: () => void) => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: async () => {
      beforeClose();
      server.close();
    },
  };
};

const everyMinute = (name: string, now: Date, firstRun: string): Knap => {
  const { schedule_info } = describeSchedule('every minute', { now });
  const at = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    uuid: randomUUID(),
    name,
    creation_user_id: 1,
    schedule_type: 'scheduled',
    is_active: true,
    visibility: 'private',
    can_toggle_default_active: false,
    active_by_default: true,
    tool_metadata: { schedule_description: 'every minute' },
    creation_timestamp: at,
    updated_at: at,
    schedule_info,
    next_run_at: firstRun,
  };
};

const runPhase = async (kind: PhaseKind, options: StalledOptions): Promise<PhaseResult> => {
  const received = new Map<string, number>();
  const y = await startYReceiver(received);
  const x = await startXReceiver(kind);
  const stack = await startStackProcess({ WEBHOOKS_ALLOW_LOCALHOST: 'true' }, { projectDir: options.projectDir });
  const { deps } = stack;
  const { repo } = deps;
  const loops: NodeJS.Timeout[] = [];
  try {
    await repo.setOrgQuotas('x-org', { subhourly: options.knaps + 100, knaps: options.knaps + 100 }).catch(() => {});
    const client = async (orgName: string) => {
      const created = await createApiClient(deps, { orgName, name: `bench ${orgName}`, rateLimit: 1_000_000 });
      const answer = await fetch(`${stack.url}/api/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: tokenForm(created),
      });
      const { access_token } = (await answer.json()) as { access_token: string };
      return { clientId: created.clientId, bearer: `Bearer ${access_token}` };
    };
    const [xClient, yClient] = [await client('x-org'), await client('y-org')];
    const endpoint = (orgName: string, url: string) => ({
      endpointId: `we_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      orgName,
      url,
      secret: newWebhookSecret(),
      createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    });
    await repo.putWebhookEndpoint(endpoint('y-org', y.url));
    for (let n = 0; n < X_ENDPOINTS; n += 1) await repo.putWebhookEndpoint(endpoint('x-org', `${x.url}/${n}`));
    const now = new Date();
    // Every Knap's first due minute: the next one at least 10 s away.
    const first = new Date(Math.ceil((now.getTime() + 10_000) / 60_000) * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const xKnaps = Array.from({ length: options.knaps }, (_, n) => everyMinute(`x ${n}`, now, first));
    for (const knap of xKnaps) await repo.putKnap(knap, { orgName: 'x-org', creatorClientId: xClient.clientId });
    const yKnap = everyMinute('y', now, first);
    await repo.putKnap(yKnap, { orgName: 'y-org', creatorClientId: yClient.clientId });

    const start = (uuid: string, bearer: string) =>
      fetch(`${stack.url}/api/studio/knap-tools/${uuid}/runs`, { method: 'POST', headers: { authorization: bearer } });
    /** Y's runs: when each was asked for (manual) or due (scheduled). */
    const asked = new Map<string, number>();
    let xRunsAsked = 0;
    const startX = () => {
      for (const knap of xKnaps) {
        xRunsAsked += 1;
        start(knap.uuid, xClient.bearer).catch(() => {});
      }
    };
    const startY = async () => {
      const at = Date.now();
      try {
        const answer = await start(yKnap.uuid, yClient.bearer);
        const run = (await answer.json()) as { run_id?: string };
        if (run.run_id) asked.set(run.run_id, at);
      } catch {
        // counted as missing below: nothing was asked
      }
    };
    // X's stall first, so Y's first run already has it beside it.
    startX();
    loops.push(setInterval(startX, X_EVERY_MS));
    await sleep(2_000);
    const windowEnd = Date.now() + options.minutes * 60_000;
    loops.push(setInterval(() => void startY(), options.every * 1000));
    void startY();
    await sleep(windowEnd - Date.now());
    for (const loop of loops) clearInterval(loop);
    await sleep(DRAIN_MS);

    // Y's scheduled runs that became due in the window, by their message's scheduled_for.
    const scheduled = await repo.listRuns(yKnap.uuid, { limit: 100 }).catch(() => undefined);
    for (const run of scheduled?.runs ?? []) {
      if (run.trigger === 'scheduled' && run.scheduled_for && Date.parse(run.scheduled_for) < windowEnd)
        asked.set(run.run_id, Date.parse(run.scheduled_for));
    }
    // What became of Y's runs that never arrived: the run's status and its delivery's last error.
    const missing: Record<string, number> = {};
    for (const [runId] of asked) {
      if (received.has(runId)) continue;
      const stored = await repo.getRun(runId).catch(() => null);
      const deliveries = await repo.runDeliveries(runId).catch(() => []);
      const last = deliveries[0]?.log.at(-1);
      const why = `${stored?.run.status ?? 'no run'}; ${deliveries.length === 0 ? 'no delivery started' : `${deliveries[0]?.attempts} attempt(s), last: ${last?.error ?? last?.status ?? 'none'}`}`;
      missing[why] = (missing[why] ?? 0) + 1;
    }
    const lateness = [...asked].map(([runId, at]) => {
      const arrived = received.get(runId);
      return arrived === undefined ? Number.POSITIVE_INFINITY : (arrived - at) / 1000;
    });
    return {
      phase: kind,
      yRuns: asked.size,
      yReceived: lateness.filter(Number.isFinite).length,
      medianSeconds: tenth(median(lateness)),
      worstSeconds: tenth(Math.max(...lateness)),
      yLatenessSeconds: lateness.map(tenth),
      yMissing: missing,
      xConnections: x.stats.connections,
      xMostOpen: x.stats.most,
      xRunsAsked,
      loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
    };
  } finally {
    for (const loop of loops) clearInterval(loop);
    await stack.stop();
    await y.close();
    await x.close();
  }
};

export const runStalledBench = async (options: StalledOptions) => {
  const phases: PhaseResult[] = [];
  for (const kind of ['healthy', ...options.kinds] as PhaseKind[]) {
    process.stderr.write(`stalled bench: phase ${kind} (${options.minutes} min)\n`);
    phases.push(await runPhase(kind, options));
  }
  const baseline = phases[0] as PhaseResult;
  // Null when either side never arrived (Infinity) or was not measured: no ratio to show.
  const ratio = (value: number, base: number) =>
    Number.isFinite(value) && Number.isFinite(base) ? Math.round((value / Math.max(base, 0.1)) * 100) / 100 : null;
  return {
    checkout: options.projectDir ?? 'this one',
    minutes: options.minutes,
    xKnaps: options.knaps,
    xEndpoints: X_ENDPOINTS,
    yEverySeconds: options.every,
    phases: phases.map((phase) => ({
      ...phase,
      medianRatio: ratio(phase.medianSeconds, baseline.medianSeconds),
      worstRatio: ratio(phase.worstSeconds, baseline.worstSeconds),
    })),
  };
};

/** The table the docs quote. */
export const printStalledBench = (result: Awaited<ReturnType<typeof runStalledBench>>, command: string): void => {
  console.log(`\n$ ${command}`);
  console.log(
    `X: ${result.xEndpoints} endpoints, ${result.xKnaps} every-minute Knaps each also run by hand every 30 s; Y: one healthy endpoint, a run by hand every ${result.yEverySeconds} s and an every-minute Knap; ${result.minutes} minute(s) per phase (${result.checkout})\n`,
  );
  console.log(
    "| X's receiver | Y's runs (received) | Y median (s) | Y worst (s) | median / baseline | worst / baseline | X's connections (most open) | load average |",
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const phase of result.phases) {
    console.log(
      `| ${phase.phase === 'healthy' ? 'healthy (baseline)' : phase.phase} | ${phase.yRuns} (${phase.yReceived}) | ${phase.medianSeconds} | ${phase.worstSeconds} | ${phase.medianRatio ?? '-'}x | ${phase.worstRatio ?? '-'}x | ${phase.xConnections} (${phase.xMostOpen}) | ${phase.loadAverage.join(', ')} |`,
    );
  }
  for (const phase of result.phases)
    for (const [why, count] of Object.entries(phase.yMissing))
      console.log(`${phase.phase}: ${count} of Y's runs never arrived (${why})`);
  const stalled = result.phases.slice(1);
  const worst = Math.max(...stalled.map((phase) => phase.worstSeconds));
  if (stalled.length > 0)
    console.log(`\nGoal: Y's worst under 5 s beside the stall: ${worst < 5 ? 'met' : 'NOT met'} (worst ${worst} s)`);
};
