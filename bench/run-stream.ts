/**
 * From a report to a waiting stream, under `npm start` (`npm run bench` runs it after the token
 * bench; `npm run bench -- --run-stream [--stream-reports 200]` runs it alone).
 *
 * `npm start` in a child process (bench/local-server.ts) on a dynalite of its own process,
 * through a counting proxy (every DynamoDB call the server makes, by operation); a webhook
 * receiver here takes each `knap.run` message and keeps its report URL and token, as an
 * executor does. The server runs with its default stream settings (a wait of up to 10 s, the
 * chain read every 500 ms).
 *
 * - Latency: for each of `--stream-reports` reports (50 `progress` per run, under the 100
 *   events a run takes), a client's stream resumed at the run's last event waits (its lease is
 *   seen taken in the table), then, after a random 0-500 ms so the report lands anywhere in the
 *   stream's poll, the executor posts the report. Timed: the report's own answer (201), and
 *   from sending the report to the waiting stream's answer read in full. Median and p99.
 * - Reads per waiting stream: a stream with nothing new, held for its whole wait; the DynamoDB
 *   calls the server made meanwhile, counted at the proxy by operation, over the wait's length.
 */
import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../shared/services/admin-service.js';
import { addWebhook } from '../shared/services/webhook-admin.js';
import { GetCommand } from '../shared/store/commands.js';
import { createDocumentClient } from '../shared/store/dynamo-client.js';
import { key } from '../shared/store/keys.js';
import { DEFAULT_TABLE_NAME } from '../shared/store/table.js';
import { startStackProcess, tokenForm } from './local-server.js';
import { startDynaliteProcess } from './processes.js';

export interface StreamBenchOptions {
  reports: number;
  /** A DynamoDB to use (the token bench's dynalite); else one of its own. */
  dynamodbEndpoint?: string;
}

export interface StreamBenchReport {
  reports: number;
  runs: number;
  report_answer_ms: { median: number; p99: number; max: number };
  report_to_stream_ms: { median: number; p99: number; max: number };
  goal_p99_under_ms: number;
  waiting_stream: {
    /** Its answer's status: 200 with no events. */
    status: number;
    /** How long a stream with nothing new held its answer. */
    wait_s: number;
    /** DynamoDB calls the server made for it, by operation. */
    calls: Record<string, number>;
    /** Query and GetItem calls over the wait's length. */
    reads_per_s: number;
    /** Of those, the chain reads of the waiting loop alone (the Queries after the first). */
    poll_reads_per_s: number;
  }[];
}

/** A DynamoDB endpoint in front of `upstream` that counts every call by operation. */
const startCountingProxy = async (upstream: string) => {
  const target = new URL(upstream);
  let counts: Record<string, number> = {};
  const server: Server = createServer((request, response) => {
    const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? 'unknown';
    counts[operation] = (counts[operation] ?? 0) + 1;
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take: (): Record<string, number> => {
      const taken = counts;
      counts = {};
      return taken;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};
const round1 = (value: number) => Math.round(value * 10) / 10;
const summary = (values: number[]) => ({
  median: round1(percentile(values, 50)),
  p99: round1(percentile(values, 99)),
  max: round1(Math.max(...values)),
});

const until = async <T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await sleep(10);
  }
};

const REPORTS_PER_RUN = 50;

export const runStreamBench = async (options: StreamBenchOptions): Promise<StreamBenchReport> => {
  const own = options.dynamodbEndpoint ? undefined : await startDynaliteProcess();
  const upstream = options.dynamodbEndpoint ?? (own?.endpoint as string);
  const proxy = await startCountingProxy(upstream);
  // Straight to the table, past the proxy: the bench's own reads are not counted.
  const direct = createDocumentClient({ endpoint: upstream });
  const stack = await startStackProcess({ DISPATCH_INTERVAL_MS: '0' }, { dynamodbEndpoint: proxy.endpoint });
  const messages = new Map<string, { url: string; token: string }>();
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const run = JSON.parse(Buffer.concat(chunks).toString()).data.run;
      messages.set(run.run_id, { url: run.report_url, token: run.report_token });
      response.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  try {
    const org = `bench-stream-${randomInt(1e9)}`;
    await addWebhook(
      stack.deps,
      { orgName: org, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` },
      { allowLocalhost: true },
    );
    const client = await createApiClient(stack.deps, { orgName: org, name: 'stream bench', rateLimit: 1_000_000 });
    const granted = await fetch(`${stack.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenForm(client),
    });
    const { access_token: access } = (await granted.json()) as { access_token: string };
    const auth = { authorization: `Bearer ${access}` };
    const created = await fetch(`${stack.url}/api/studio/knap-tools`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Stream bench', schedule_type: 'manual' }),
    });
    const { uuid } = (await created.json()) as { uuid: string };

    /** A delivered run: its id, report URL and token, and its last event's id. */
    const newRun = async () => {
      const started = await fetch(`${stack.url}/api/studio/knap-tools/${uuid}/runs`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { bench: true } }),
      });
      const { run_id: runId } = (await started.json()) as { run_id: string };
      const message = await until('knap.run message', () => messages.get(runId));
      const last = await until('delivered event', async () => {
        const listed = (await (await fetch(`${stack.url}/api/studio/runs/${runId}/events`, { headers: auth })).json()) as {
          events: unknown[];
        };
        return listed.events.length >= 2 ? listed.events.length : undefined;
      });
      return { runId, ...message, last };
    };
    const stream = (runId: string, after: number) =>
      fetch(`${stack.url}/api/studio/runs/${runId}/events`, {
        headers: { ...auth, accept: 'text/event-stream', 'last-event-id': String(after) },
      });
    const waiting = async () => {
      const slots = (
        await direct.send(
          new GetCommand({ TableName: DEFAULT_TABLE_NAME, Key: key.streamSlots(client.clientId), ConsistentRead: true }),
        )
      ).Item;
      const now = Date.now();
      return Number(slots?.s0) > now || Number(slots?.s1) > now ? true : undefined;
    };

    const answerMs: number[] = [];
    const toStreamMs: number[] = [];
    let runs = 0;
    let run = await newRun();
    runs += 1;
    for (let index = 0; index < options.reports; index += 1) {
      if (index > 0 && index % REPORTS_PER_RUN === 0) {
        run = await newRun();
        runs += 1;
      }
      const answered = stream(run.runId, run.last);
      await until('the stream to wait', waiting);
      await sleep(randomInt(500));
      const sent = performance.now();
      const reported = await fetch(run.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${run.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'progress', message: `report ${index + 1}` }),
      });
      await reported.arrayBuffer();
      answerMs.push(performance.now() - sent);
      if (reported.status !== 201) throw new Error(`report ${index + 1}: ${reported.status}`);
      const text = await (await answered).text();
      toStreamMs.push(performance.now() - sent);
      run.last += 1;
      if (!text.includes(`id: ${run.last}\n`))
        throw new Error(`report ${index + 1}: the stream answered without event ${run.last}`);
      if ((index + 1) % 50 === 0) process.stderr.write(`report-to-stream: ${index + 1}/${options.reports}\n`);
    }

    // A stream with nothing new, three times, each alone: what it reads while it waits.
    const held: StreamBenchReport['waiting_stream'] = [];
    for (let index = 0; index < 3; index += 1) {
      await sleep(200);
      proxy.take();
      const started = performance.now();
      const answer = await stream(run.runId, run.last);
      await answer.text();
      const seconds = (performance.now() - started) / 1000;
      const calls = proxy.take();
      const reads = (calls.Query ?? 0) + (calls.GetItem ?? 0) + (calls.BatchGetItem ?? 0);
      held.push({
        status: answer.status,
        wait_s: round1(seconds),
        calls,
        reads_per_s: round1(reads / seconds),
        // The first Query is the answer-at-once read any request makes; the rest are the polls.
        poll_reads_per_s: round1(Math.max(0, (calls.Query ?? 0) - 1) / seconds),
      });
    }

    return {
      reports: options.reports,
      runs,
      report_answer_ms: summary(answerMs),
      report_to_stream_ms: summary(toStreamMs),
      goal_p99_under_ms: 1000,
      waiting_stream: held,
    };
  } finally {
    receiver.closeAllConnections();
    receiver.close();
    direct.destroy();
    await stack.stop();
    await proxy.close();
    await own?.stop();
  }
};

/** The report's lines, as run.ts prints them. */
export const printStreamBench = (report: StreamBenchReport): void => {
  console.log(
    `\nFrom a report to a waiting stream, under npm start (default stream settings: wait up to 10 s, read every 500 ms), ${report.reports} reports over ${report.runs} runs:\n`,
  );
  console.log('| per report | median (ms) | p99 (ms) | max (ms) |');
  console.log('|---|---|---|---|');
  const row = (name: string, value: { median: number; p99: number; max: number }) =>
    console.log(`| ${name} | ${value.median} | ${value.p99} | ${value.max} |`);
  row('the report answered (POST .../events, 201)', report.report_answer_ms);
  row('the report on the waiting stream (report sent -> stream answer read)', report.report_to_stream_ms);
  const met = report.report_to_stream_ms.p99 < report.goal_p99_under_ms;
  console.log(`\nGoal: p99 under ${report.goal_p99_under_ms} ms: ${met ? 'met' : 'NOT met'}.`);
  console.log('\nA waiting stream with nothing new (DynamoDB calls the server made for it, counted at a proxy):\n');
  console.log('| answer | wait (s) | calls by operation | reads per second | of which polls per second |');
  console.log('|---|---|---|---|---|');
  for (const held of report.waiting_stream) {
    const calls = Object.entries(held.calls)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([operation, count]) => `${operation} ${count}`)
      .join(', ');
    console.log(`| ${held.status} | ${held.wait_s} | ${calls} | ${held.reads_per_s} | ${held.poll_reads_per_s} |`);
  }
};
