/**
 * `npm run bench:dispatch [-- --knaps 10000]`
 *
 * Loads N active scheduled Knaps, all due in the same minute, into an in-memory dynalite,
 * then times one dispatcher pass that creates and claims a run for each (runs/s). Beside it,
 * in the same run, the peer: the same number of plain conditional PutItems on the same
 * dynalite, the least any design must write per run. The ratio is what the dispatcher costs
 * over that floor; absolute numbers drift with this shared machine.
 *
 * `npm run bench:dispatch -- --workers 1,2 --knaps 20000`: the shard workers, as deployed
 * (one dispatcher invocation per shard group, lib/runs.ts), on Amazon's DynamoDB Local (many
 * threads; dynalite has one). For each worker count W: a fresh table with N Knaps due at once,
 * spread over the shards by uuid; W worker processes (each its own SDK client), worker i over
 * the shards s with s % W = i, started together; then a scan checks that every Knap has
 * exactly one run and was claimed, and that no run was queued twice. Prints one Markdown row
 * per W: runs/s overall and per worker, and the max lateness (from the start of the pass to
 * the last run queued: the pass starts at the due minute).
 *
 * `npm run bench:dispatch -- --minutes 0,500,20000 [--concurrency 2]`: the deployed minute, on
 * DynamoDB Local. For each N: a fresh table with N Knaps due at once; a coordinator process
 * calls the dispatch-runs handler with the every-minute rule's event and a Lambda context of
 * 55 s, its fan-out handing each message to one of `--concurrency` worker processes (each a
 * queue-triggered invocation, started beforehand: no cold start is counted), which call the
 * same handler with the SQS event. Minutes repeat until nothing is due (each minute's pass
 * ends at its window, as deployed); then the exactly-once check. One Markdown row per minute:
 * invocations, their seconds and CPU, runs created, left due, and what the minute costs at
 * 1,769 MB on arm64.
 */
import '../local/quiet-sdk-warning.js';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { COORDINATED, createHandler } from '../functions/dispatch-runs/handler.js';
import { DISPATCHER_MEMORY_MB, DISPATCHER_TIMEOUT } from '../lib/runs.js';
import { ensureTable } from '../local/ensure-table.js';
import { openLocalTable } from '../local/local-table.js';
import { freePort } from '../local/ports.js';
import { startDynamoDbLocal } from '../scripts/dynamodb-local.js';
import { DEFAULT_RATE_LIMIT } from '../shared/domain/clients.js';
import type { Knap } from '../shared/domain/knaps.js';
import { DUE_SHARDS } from '../shared/domain/runs.js';
import { staticKeyring } from '../shared/domain/sealed-tokens.js';
import { noMetrics } from '../shared/metrics.js';
import type { Deps } from '../shared/runtime.js';
import { describeSchedule } from '../shared/schedules/index.js';
import { allShards, type DispatchMessage, dispatchDueRuns } from '../shared/services/dispatcher.js';
import { PutCommand, ScanCommand } from '../shared/store/commands.js';
import { createDocumentClient, createDynamoClient } from '../shared/store/dynamo-client.js';
import { DynamoRepository } from '../shared/store/dynamo-repository.js';

const { values } = parseArgs({
  options: {
    knaps: { type: 'string', default: '10000' },
    workers: { type: 'string' },
    // Internal: a shard worker process started by the --workers bench.
    worker: { type: 'boolean', default: false },
    endpoint: { type: 'string' },
    table: { type: 'string' },
    shards: { type: 'string' },
    minutes: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    // Internal: a coordinator or worker process started by the --minutes bench.
    role: { type: 'string' },
  },
});
const count = Number(values.knaps);
const tableName = 'knap-bench-dispatch';

/** Monday 09:00 UTC: every Knap is due at once, the hot minute of the scale question. */
const DUE = '2026-11-30T09:00:00Z';
const AFTER = new Date('2026-11-30T09:00:01Z');

const inBatches = async <T>(items: T[], size: number, work: (item: T) => Promise<unknown>): Promise<void> => {
  for (let start = 0; start < items.length; start += size) await Promise.all(items.slice(start, start + size).map(work));
};

/** The dispatcher's dependencies on a repository, its clock at the due minute; `onQueued` sees every run queued. */
const benchDeps = (repo: DynamoRepository, onQueued: (runId: string) => void): Deps => ({
  repo,
  clock: { now: () => AFTER },
  log: console,
  metrics: noMetrics,
  defaultRateLimit: DEFAULT_RATE_LIMIT,
  deliveries: {
    enqueue: async (runId: string) => {
      onQueued(runId);
    },
    enqueueMeetingFanOut: async () => undefined,
  },
  // The dispatcher seals no tokens.
  tokenKeys: staticKeyring([randomBytes(32)]),
});

/** N active scheduled Knaps, every one due at DUE. */
const dueKnaps = (n: number): Knap[] => {
  const { schedule_info } = describeSchedule('every Monday at 9am', { now: new Date('2026-11-29T12:00:00Z') });
  return Array.from({ length: n }, (_, index) => ({
    uuid: randomUUID(),
    name: `bench ${index}`,
    creation_user_id: 1,
    schedule_type: 'scheduled',
    is_active: true,
    visibility: 'private',
    can_toggle_default_active: false,
    active_by_default: true,
    tool_metadata: { schedule_description: 'every Monday at 9am' },
    creation_timestamp: '2026-11-29T12:00:00.000Z',
    updated_at: '2026-11-29T12:00:00.000Z',
    schedule_info,
    next_run_at: DUE,
  }));
};

/** What a shard worker reports on its last line of output. */
interface WorkerReport {
  created: number;
  claimed: number;
  queued: string[];
  /** Epoch ms: the pass began (the go signal's time), the pass ended, the last run was queued. */
  go: number;
  ended: number;
  lastQueued: number;
  /** CPU time of the worker process during the pass. */
  cpuMs: number;
}

/** A shard worker: says `ready`, waits for a `go <epoch ms>` line, runs one pass over its shards, prints its report. */
const worker = async (): Promise<void> => {
  const shards = (values.shards ?? '').split(',').map(Number);
  const documents = createDocumentClient({ endpoint: values.endpoint });
  const queued: string[] = [];
  let lastQueued = 0;
  const deps = benchDeps(new DynamoRepository(documents, values.table as string), (runId) => {
    queued.push(runId);
    lastQueued = Date.now();
  });
  const lines = createInterface({ input: process.stdin });
  console.log('ready');
  const goLine: string = await new Promise((resolve) => lines.once('line', resolve));
  lines.close();
  const go = Number(goLine.replace(/^go /, ''));
  const cpuBefore = process.cpuUsage();
  const result = await dispatchDueRuns(deps, shards);
  const cpu = process.cpuUsage(cpuBefore);
  const report: WorkerReport = {
    created: result.created,
    claimed: result.claimed,
    queued,
    go,
    ended: Date.now(),
    lastQueued,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  console.log(`report ${JSON.stringify(report)}`);
  documents.destroy();
};

/** Starts a shard worker process over the given shards; resolves once it is ready, with its report to come. */
const startWorker = async (endpoint: string, table: string, shards: number[]) => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/dispatch.ts', '--worker', '--endpoint', endpoint, '--table', table, '--shards', shards.join(',')],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const report = new Promise<WorkerReport>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') ready();
      else if (line.startsWith('report ')) resolve(JSON.parse(line.slice('report '.length)) as WorkerReport);
      else console.log(`[worker ${shards.join(',')}] ${line}`);
    });
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`worker ${shards.join(',')} exited with ${code}`))));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await Promise.race([isReady, report.then(() => undefined)]);
  return { go: (at: number) => child.stdin.end(`go ${at}\n`), report, exited };
};

/** Every run item of the table, by Knap, and the Knaps still due: what the exactly-once check reads. */
const tally = async (documents: ReturnType<typeof createDocumentClient>, table: string) => {
  const runsByKnap = new Map<string, number>();
  const stillDue: string[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({
        TableName: table,
        ProjectionExpression: '#type, knap_uuid, #uuid, next_run_at',
        ExpressionAttributeNames: { '#type': 'type', '#uuid': 'uuid' },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (item.type === 'run') runsByKnap.set(item.knap_uuid, (runsByKnap.get(item.knap_uuid) ?? 0) + 1);
      else if (item.uuid && item.next_run_at === DUE) stillDue.push(item.uuid);
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return { runsByKnap, stillDue };
};

/** The machine's CPU time so far, busy and total, in clock ticks (/proc/stat: every core, every process). */
const machineCpu = (): { busy: number; total: number } => {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, ticks) => sum + ticks, 0);
  // idle and iowait are fields 4 and 5 of the cpu line.
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
};

interface Row {
  workers: number;
  runs: number;
  seconds: number;
  perWorkerRate: number;
  maxLatenessSeconds: number;
  cpuMsPerRun: number;
  /** Share of the machine's CPU (every core) in use during the pass: workers, DynamoDB Local and the rest. */
  machineBusy: number;
  duplicates: number;
  missing: number;
}

/** One worker count: a fresh table, N due Knaps, W workers started together, the check. */
const shardRound = async (endpoint: string, workers: number, count: number): Promise<Row> => {
  const table = `knap-bench-shards-${workers}-${Date.now()}`;
  const admin = createDynamoClient({ endpoint });
  await ensureTable(admin, table);
  admin.destroy();
  const documents = createDocumentClient({ endpoint });
  try {
    const repo = new DynamoRepository(documents, table);
    const knaps = dueKnaps(count);
    const loadStarted = performance.now();
    await inBatches(knaps, 50, (knap) => repo.putKnap(knap, { orgName: 'bench', creatorClientId: 'knap_ci_bench' }));
    console.log(
      `${workers} worker(s): loaded ${count} Knaps due at ${DUE} in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );

    const groups = Array.from({ length: workers }, (_, index) => allShards().filter((shard) => shard % workers === index));
    const started = await Promise.all(groups.map((shards) => startWorker(endpoint, table, shards)));
    const cpuBefore = machineCpu();
    const go = Date.now();
    for (const each of started) each.go(go);
    const reports = await Promise.all(started.map((each) => each.report));
    const cpuAfter = machineCpu();
    await Promise.all(started.map((each) => each.exited));

    const { runsByKnap, stillDue } = await tally(documents, table);
    const queued = reports.flatMap((report) => report.queued);
    const queuedTwice = queued.length - new Set(queued).size;
    const knapsWithTwoRuns = [...runsByKnap.values()].filter((runs) => runs > 1).length;
    const missing = knaps.filter((knap) => !runsByKnap.has(knap.uuid)).length + stillDue.length;
    const created = reports.reduce((sum, report) => sum + report.created, 0);
    const claimed = reports.reduce((sum, report) => sum + report.claimed, 0);
    if (created !== count || claimed !== count || queued.length !== count) {
      console.log(
        `expected ${count} runs created, claimed and queued; got ${JSON.stringify({ created, claimed, queued: queued.length })}`,
      );
    }
    const seconds = (Math.max(...reports.map((report) => report.ended)) - go) / 1000;
    const perWorker = reports.map((report) => report.created / ((report.ended - go) / 1000));
    return {
      workers,
      runs: created,
      seconds,
      perWorkerRate: perWorker.reduce((sum, rate) => sum + rate, 0) / perWorker.length,
      maxLatenessSeconds: (Math.max(...reports.map((report) => report.lastQueued)) - go) / 1000,
      cpuMsPerRun: reports.reduce((sum, report) => sum + report.cpuMs, 0) / Math.max(created, 1),
      machineBusy: (cpuAfter.busy - cpuBefore.busy) / Math.max(cpuAfter.total - cpuBefore.total, 1),
      duplicates: queuedTwice + knapsWithTwoRuns,
      missing,
    };
  } finally {
    documents.destroy();
  }
};

/** Knaps of the untimed warm-up round. */
const WARM_UP_KNAPS = 2000;

const shardBench = async (workerCounts: number[]): Promise<void> => {
  for (const workers of workerCounts) {
    if (!Number.isInteger(workers) || workers < 1 || workers > DUE_SHARDS) throw new Error(`--workers: 1 to ${DUE_SHARDS} each`);
  }
  const dynamo = await startDynamoDbLocal(await freePort());
  const rows: Row[] = [];
  try {
    // Untimed: the JVM compiles DynamoDB Local's hot paths first, so no timed round pays for that.
    await shardRound(dynamo.endpoint, Math.max(...workerCounts), WARM_UP_KNAPS);
    for (const workers of workerCounts) rows.push(await shardRound(dynamo.endpoint, workers, count));
  } finally {
    await dynamo.stop();
  }
  console.log(`\n${count} Knaps due at once, ${DUE_SHARDS} shards, DynamoDB Local (in memory), this machine:\n`);
  console.log(
    '| workers | runs | seconds | runs/s | per-worker runs/s | max lateness (s) | worker CPU ms/run | machine CPU busy | duplicates | missing |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.workers} | ${row.runs} | ${row.seconds.toFixed(1)} | ${(row.runs / row.seconds).toFixed(0)} | ${row.perWorkerRate.toFixed(0)} | ${row.maxLatenessSeconds.toFixed(1)} | ${row.cpuMsPerRun.toFixed(2)} | ${(row.machineBusy * 100).toFixed(0)} % | ${row.duplicates} | ${row.missing} |`,
    );
  }
  const failed = rows.filter((row) => row.duplicates > 0 || row.missing > 0 || row.runs !== count);
  if (failed.length > 0) {
    process.exitCode = 1;
    console.log(`\nNOT exactly once with ${failed.map((row) => row.workers).join(', ')} worker(s).`);
  } else {
    console.log(`\nEvery one of the ${count} Knaps ran exactly once with every worker count: duplicates 0, missing 0.`);
  }
};

const peerBench = async (): Promise<void> => {
  const table = await openLocalTable({ tableName });
  const documents = createDocumentClient({ endpoint: table.endpoint });
  const repo = new DynamoRepository(documents, tableName);
  let queued = 0;
  const deps = benchDeps(repo, () => {
    queued += 1;
  });
  try {
    const knaps = dueKnaps(count);
    const loadStarted = performance.now();
    await inBatches(knaps, 50, (knap) => repo.putKnap(knap, { orgName: 'bench', creatorClientId: 'knap_ci_bench' }));
    console.log(`Loaded ${count} Knaps due at ${DUE} in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

    const peerStarted = performance.now();
    await inBatches(knaps, 50, (knap) =>
      documents.send(
        new PutCommand({
          TableName: tableName,
          Item: { pk: `PEER#${knap.uuid}`, sk: 'PEER', at: DUE },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
    const peerSeconds = (performance.now() - peerStarted) / 1000;

    const started = performance.now();
    const result = await dispatchDueRuns(deps);
    const seconds = (performance.now() - started) / 1000;
    if (result.created !== count || result.claimed !== count || queued !== count) {
      throw new Error(`expected ${count} runs created, claimed and queued; got ${JSON.stringify({ ...result, queued })}`);
    }
    const again = await dispatchDueRuns(deps);
    if (again.created !== 0) throw new Error(`a second pass created ${again.created} runs`);

    const rows = [
      ['dispatcher: run + claim + queue per Knap', seconds, count / seconds],
      ['peer: one conditional PutItem per Knap', peerSeconds, count / peerSeconds],
    ] as const;
    console.log('\n| what | seconds | per second |\n|---|---|---|');
    for (const [name, secs, rate] of rows) console.log(`| ${name} | ${secs.toFixed(2)} | ${rate.toFixed(0)} |`);
    console.log(
      `\nDispatcher / peer time: ${(seconds / peerSeconds).toFixed(2)}x (2 writes and a share of the index reads per run, against 1 write)`,
    );
    console.log(`Every one of the ${count} Knaps ran exactly once; a second pass created none.`);
  } finally {
    documents.destroy();
    await table.close();
  }
};

// --- The deployed minute: one coordinator, workers on demand ---

/** What a coordinator or worker process reports when its invocation ends. */
interface InvocationReport {
  role: 'coordinator' | 'worker';
  created: number;
  claimed: number;
  queued: string[];
  /** Epoch ms: the invocation began and ended. */
  started: number;
  ended: number;
  cpuMs: number;
  /** The coordinator's plan, from its log line (undefined when nothing was due). */
  plan?: { due: number; own: number[]; fannedOut: number[][]; stopped: boolean };
  error?: string;
}

/** A Lambda context whose timeout is the dispatcher's, from now. */
const lambdaContext = () => {
  const end = Date.now() + DISPATCHER_TIMEOUT.toSeconds() * 1000;
  return { getRemainingTimeInMillis: () => end - Date.now() };
};

/** A coordinator (`go`, then the rule's event) or a worker (`message <json>` as its SQS event, or `none`). */
const minuteRole = async (): Promise<void> => {
  const documents = createDocumentClient({ endpoint: values.endpoint });
  const queued: string[] = [];
  const lines: { message: string; extra: Record<string, unknown>[] }[] = [];
  const deps: Deps = {
    ...benchDeps(new DynamoRepository(documents, values.table as string), (runId) => queued.push(runId)),
    log: {
      info: (message, ...extra) => lines.push({ message, extra }),
      warn: (message, ...extra) => lines.push({ message, extra }),
      error: (message, ...extra) => lines.push({ message, extra }),
    },
  };
  const input = createInterface({ input: process.stdin });
  console.log('ready');
  const line: string = await new Promise((resolve) => input.once('line', resolve));
  input.close();
  if (line === 'none') {
    documents.destroy();
    return;
  }
  const role = values.role as 'coordinator' | 'worker';
  const fanOut = {
    send: async (message: DispatchMessage) => {
      console.log(`send ${JSON.stringify(message)}`);
    },
  };
  const event =
    role === 'coordinator'
      ? { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} }
      : { Records: [{ messageId: randomUUID(), body: line.slice('message '.length), eventSource: 'aws:sqs' }] };
  const handler = createHandler(deps, { fanOut, workers: Number(values.concurrency) });
  const cpuBefore = process.cpuUsage();
  const started = Date.now();
  let error: string | undefined;
  let result = { created: 0, claimed: 0 };
  try {
    result = await handler(event, lambdaContext());
  } catch (failure) {
    error = (failure as Error).message;
  }
  const cpu = process.cpuUsage(cpuBefore);
  const report: InvocationReport = {
    role,
    created: result.created,
    claimed: result.claimed,
    queued,
    started,
    ended: Date.now(),
    cpuMs: (cpu.user + cpu.system) / 1000,
    plan: lines.find((each) => each.message === COORDINATED)?.extra[0] as InvocationReport['plan'],
    ...(error ? { error } : {}),
  };
  console.log(`report ${JSON.stringify(report)}`);
  documents.destroy();
};

/** Starts a coordinator or worker process; `start(line)` hands it its go or its message; `sends` are a coordinator's messages. */
const startInvocation = async (
  endpoint: string,
  table: string,
  role: 'coordinator' | 'worker',
  onSend: (body: string) => void,
) => {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/dispatch.ts',
      '--role',
      role,
      '--endpoint',
      endpoint,
      '--table',
      table,
      '--concurrency',
      values.concurrency as string,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const report = new Promise<InvocationReport | null>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') ready();
      else if (line.startsWith('send ')) onSend(line.slice('send '.length));
      else if (line.startsWith('report ')) resolve(JSON.parse(line.slice('report '.length)) as InvocationReport);
      else console.log(`[${role}] ${line}`);
    });
    child.once('exit', (code) => (code === 0 ? resolve(null) : reject(new Error(`${role} exited with ${code}`))));
  });
  await isReady;
  return { start: (line: string) => child.stdin.end(`${line}\n`), report };
};

interface MinuteRow {
  knaps: number;
  minute: number;
  invocations: number;
  messages: number;
  coordinatorSeconds: number;
  coordinatorCpuMs: number;
  /** Seconds from the coordinator's start to the last invocation's end. */
  seconds: number;
  invocationSeconds: number;
  /** CPU time of every invocation of the minute. */
  cpuMs: number;
  created: number;
  leftDue: number;
  errors: string[];
}

/** arm64 Lambda, us-east-1: per GB-second and per request. */
const GB_SECOND = 0.0000133334;
const PER_REQUEST = 0.0000002;
/** SQS standard: send, receive and delete per message. */
const SQS_PER_MESSAGE = 3 * 0.0000004;

/** The minute's cost: its invocations' billed time at the dispatcher's memory, their requests, its messages. */
const minuteCost = (row: MinuteRow): number =>
  row.invocationSeconds * (DISPATCHER_MEMORY_MB / 1024) * GB_SECOND +
  row.invocations * PER_REQUEST +
  row.messages * SQS_PER_MESSAGE;

/** One minute: the coordinator, and a worker per message it sends (at most --concurrency). */
const oneMinute = async (
  endpoint: string,
  table: string,
  knaps: number,
  minute: number,
): Promise<{ row: MinuteRow; queued: string[] }> => {
  const concurrency = Number(values.concurrency);
  const workers = await Promise.all(
    Array.from({ length: concurrency }, () => startInvocation(endpoint, table, 'worker', () => {})),
  );
  let next = 0;
  const coordinator = await startInvocation(endpoint, table, 'coordinator', (body) => {
    const worker = workers[next];
    next += 1;
    if (!worker) throw new Error(`more messages than --concurrency ${concurrency}`);
    worker.start(`message ${body}`);
  });
  coordinator.start('go');
  const main = await coordinator.report;
  for (const worker of workers.slice(next)) worker.start('none');
  const reports = [main, ...(await Promise.all(workers.map((worker) => worker.report)))].filter(
    (report): report is InvocationReport => report !== null,
  );
  if (!main) throw new Error('the coordinator reported nothing');
  const documents = createDocumentClient({ endpoint });
  const { stillDue } = await tally(documents, table);
  documents.destroy();
  return {
    row: {
      knaps,
      minute,
      invocations: reports.length,
      messages: next,
      coordinatorSeconds: (main.ended - main.started) / 1000,
      coordinatorCpuMs: main.cpuMs,
      seconds: (Math.max(...reports.map((report) => report.ended)) - main.started) / 1000,
      invocationSeconds: reports.reduce((sum, report) => sum + (report.ended - report.started) / 1000, 0),
      cpuMs: reports.reduce((sum, report) => sum + report.cpuMs, 0),
      created: reports.reduce((sum, report) => sum + report.created, 0),
      leftDue: stillDue.length,
      errors: reports.flatMap((report) => (report.error ? [report.error] : [])),
    },
    queued: reports.flatMap((report) => report.queued),
  };
};

const minuteBench = async (counts: number[]): Promise<void> => {
  const dynamo = await startDynamoDbLocal(await freePort());
  const rows: MinuteRow[] = [];
  const failures: string[] = [];
  try {
    // Untimed: the JVM compiles DynamoDB Local's hot paths first.
    await shardRound(dynamo.endpoint, 1, WARM_UP_KNAPS);
    for (const knaps of counts) {
      const table = `knap-bench-minute-${knaps}-${Date.now()}`;
      const admin = createDynamoClient({ endpoint: dynamo.endpoint });
      await ensureTable(admin, table);
      admin.destroy();
      const documents = createDocumentClient({ endpoint: dynamo.endpoint });
      const repo = new DynamoRepository(documents, table);
      const due = dueKnaps(knaps);
      await inBatches(due, 50, (knap) => repo.putKnap(knap, { orgName: 'bench', creatorClientId: 'knap_ci_bench' }));
      const queued: string[] = [];
      for (let minute = 1; ; minute += 1) {
        const { row, queued: those } = await oneMinute(dynamo.endpoint, table, knaps, minute);
        rows.push(row);
        queued.push(...those);
        console.log(`${knaps} due, minute ${minute}: ${JSON.stringify(row)}`);
        if (row.leftDue === 0 || minute >= 5) break;
      }
      const { runsByKnap, stillDue } = await tally(documents, table);
      documents.destroy();
      const twice = [...runsByKnap.values()].filter((runs) => runs > 1).length + queued.length - new Set(queued).size;
      const missing = due.filter((knap) => !runsByKnap.has(knap.uuid)).length + stillDue.length;
      if (twice > 0 || missing > 0) failures.push(`${knaps} due: ${twice} twice, ${missing} missing`);
    }
  } finally {
    await dynamo.stop();
  }
  console.log(
    `\nThe deployed minute: coordinator + at most ${values.concurrency} workers, DynamoDB Local (in memory), this machine:\n`,
  );
  console.log(
    '| due | minute | invocations | messages | coordinator s | coordinator CPU ms | minute s (last end) | runs created | left due | CPU ms per run | cost of the minute |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.knaps} | ${row.minute} | ${row.invocations} | ${row.messages} | ${row.coordinatorSeconds.toFixed(2)} | ${row.coordinatorCpuMs.toFixed(0)} | ${row.seconds.toFixed(1)} | ${row.created} | ${row.leftDue} | ${row.created > 0 ? (row.cpuMs / row.created).toFixed(2) : '-'} | $${minuteCost(row).toFixed(6)} |${row.errors.length ? ` errors: ${row.errors.join('; ')}` : ''}`,
    );
  }
  if (failures.length > 0) {
    process.exitCode = 1;
    console.log(`\nNOT exactly once: ${failures.join(', ')}`);
  } else {
    console.log('\nEvery Knap ran exactly once (one run, claimed, queued once): duplicates 0, missing 0.');
  }
};

if (values.role) await minuteRole();
else if (values.minutes) await minuteBench(values.minutes.split(',').map(Number));
else if (values.worker) await worker();
else if (values.workers) await shardBench(values.workers.split(',').map(Number));
else await peerBench();
