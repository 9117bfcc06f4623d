/**
 * The whole loop of a run that reports what happened, under `npm start` as people run it (a
 * child process on free ports, the admin CLI beside it): a client starts a run with input; the
 * organization's webhook receiver (this test's) gets it signed, with `data.run.input`,
 * `report_url` and `report_token`, and reports `running`, `progress` and `succeeded` with an
 * output; the client reads the run, its events as JSON, and follows it as Server-Sent Events
 * from the start, resuming with Last-Event-ID, to the stream's end. Then an organization admin
 * follows a live run to its end in the console's run detail (Chromium), without a reload.
 *
 * Nothing here shortens the server's settings: streams wait as they do by default (10 s, read
 * every 500 ms). No assertion depends on speed; each wait has a generous deadline.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../../local/ports.js';
import { GetCommand } from '../../shared/store/commands.js';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { key } from '../../shared/store/keys.js';
import { DEFAULT_TABLE_NAME } from '../../shared/store/table.js';
import { waitFor } from '../support/deliveries.js';
import { cleanEnv, type Spawned, spawnNpm, spawnStart, tempDir } from './processes.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const withChromium = existsSync(CHROMIUM) || Boolean(process.env.CI);
if (!withChromium) console.log(`console browser test skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);
const browserTest = withChromium ? test : test.skip;

const PASSWORD = 'a long enough passphrase';
const ORG = 'loop';
/** Generous: the machine is shared, and a stream that waits answers after up to ~9 s. */
const WAIT_MS = 30_000;

interface Delivered {
  headers: IncomingHttpHeaders;
  body: string;
  payload: { type: string; data: { run: Record<string, unknown>; knap: Record<string, unknown> } };
}

/** The organization's executor: verifies each message's signature, answers 204, reports through its report URL. */
class Executor {
  readonly delivered: Delivered[] = [];
  readonly unsigned: string[] = [];
  private server: Server | undefined;
  secret = '';

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        try {
          const payload = new Webhook(this.secret).verify(
            body,
            request.headers as Record<string, string>,
          ) as Delivered['payload'];
          this.delivered.push({ headers: request.headers, body, payload });
          response.writeHead(204).end();
        } catch {
          this.unsigned.push(body);
          response.writeHead(400).end();
        }
      });
    });
    this.server.listen(0, '127.0.0.1');
    await new Promise((resolve) => this.server?.once('listening', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/knap`;
  }

  message(runId: string): Promise<Delivered> {
    return waitFor(
      `the knap.run message of ${runId}`,
      () => this.delivered.find((delivered) => delivered.payload.data.run.run_id === runId),
      WAIT_MS,
    );
  }

  /** Reports one event of the run as its executor does: to the message's report URL with its report token. */
  async report(runId: string, event: Record<string, unknown>): Promise<Response> {
    const { report_url: url, report_token: token } = (await this.message(runId)).payload.data.run as Record<string, string>;
    return fetch(url as string, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }
}

let server: Spawned | undefined;
let base = '';
let db: ReturnType<typeof createDocumentClient> | undefined;
const executor = new Executor();
const folders: ReturnType<typeof tempDir>[] = [];
let cliEnv: NodeJS.ProcessEnv;
let clientId = '';
let access = '';

/** `npm run -s admin -- <argv> --json` against the server's table; its JSON answer. */
const admin = async (...argv: string[]): Promise<Record<string, string>> => {
  const spawned = spawnNpm(['run', '-s', 'admin', '--', ...argv, '--json'], cliEnv);
  try {
    const { code } = await spawned.exited(90_000);
    if (code !== 0) throw new Error(`knap-admin ${argv[0]} exited ${code}: ${spawned.stderr()}`);
    return JSON.parse(spawned.stdout());
  } finally {
    spawned.kill();
  }
};

beforeAll(async () => {
  const [port, dynamodbPort] = [await freePort(), await freePort()];
  const data = tempDir('knap-run-loop-');
  folders.push(data);
  server = spawnStart({
    PORT: String(port),
    DYNAMODB_PORT: String(dynamodbPort),
    DATA_DIR: data.path,
    ACCESS_LOG: 'false',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  });
  await server.waitForStdout(/Knap API listening on \S+/, 60_000);
  base = (/Knap API listening on (\S+)/.exec(server.stdout()) as RegExpExecArray)[1] as string;
  const dynamodbEndpoint = `http://127.0.0.1:${dynamodbPort}`;
  db = createDocumentClient({ endpoint: dynamodbEndpoint });
  cliEnv = cleanEnv({ DYNAMODB_ENDPOINT: dynamodbEndpoint });

  const receiverUrl = await executor.start();
  const [client, webhook] = await Promise.all([
    admin('create-client', '--org', ORG, '--name', 'Loop client', '--rate-limit', '10000'),
    admin('add-webhook', '--org', ORG, '--url', receiverUrl),
    admin('create-admin', '--org', ORG, '--email', 'ada@loop.example', '--password', PASSWORD),
  ]);
  executor.secret = (webhook as Record<string, string>).secret as string;
  clientId = (client as Record<string, string>).client_id as string;
  const granted = await fetch(`${base}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: (client as Record<string, string>).client_secret as string,
    }).toString(),
  });
  expect(granted.status).toBe(200);
  access = ((await granted.json()) as { access_token: string }).access_token;
}, 180_000);

afterAll(async () => {
  db?.destroy();
  server?.kill();
  await executor.close();
  for (const folder of folders.splice(0)) folder.remove();
});

const bearer = () => ({ authorization: `Bearer ${access}` });
const studio = (path: string, init: RequestInit = {}) =>
  fetch(`${base}/api/studio${path}`, { ...init, headers: { ...bearer(), ...(init.headers as Record<string, string>) } });

/** A manual Knap, run now with `input`; its run id. */
const startRun = async (name: string, input: Record<string, unknown>): Promise<string> => {
  const created = await studio('/knap-tools', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, schedule_type: 'manual' }),
  });
  expect(created.status).toBe(201);
  const { uuid } = (await created.json()) as { uuid: string };
  const started = await studio(`/knap-tools/${uuid}/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  expect(started.status).toBe(202);
  const run = (await started.json()) as { run_id: string; input: unknown };
  expect(run.input).toEqual(input);
  return run.run_id;
};

interface SseEvent {
  id: number;
  event: string;
  data: Record<string, unknown>;
}
const parseSse = (text: string): SseEvent[] =>
  text
    .split('\n\n')
    .filter((block) => block.startsWith('id:'))
    .map((block) => {
      const lines = Object.fromEntries(
        block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      return { id: Number(lines.id), event: lines.event as string, data: JSON.parse(lines.data as string) };
    });

interface Answer {
  status: number;
  lastEventId: number | undefined;
  events: SseEvent[];
  retry: string | undefined;
  contentType: string | null;
}

/**
 * A server-side SSE client: reads the stream, and whenever an answer ends, resumes it with the
 * last id it got (at once: the answer's `retry:` is for after errors); stops at a 204.
 */
const follow = (runId: string) => {
  const answers: Answer[] = [];
  const done = (async () => {
    let last: number | undefined;
    for (;;) {
      const response = await studio(`/runs/${runId}/events`, {
        headers: { accept: 'text/event-stream', ...(last === undefined ? {} : { 'last-event-id': String(last) }) },
      });
      const text = await response.text();
      const events = response.status === 200 ? parseSse(text) : [];
      answers.push({
        status: response.status,
        lastEventId: last,
        events,
        retry: /^retry: (\d+)$/m.exec(text)?.[1],
        contentType: response.headers.get('content-type'),
      });
      if (response.status !== 200 || answers.length > 100) return;
      last = events.at(-1)?.id ?? last;
    }
  })();
  return { answers, done, seen: () => answers.flatMap((answer) => answer.events) };
};

/** Whether one of the client's two stream leases is held now: a stream of it is waiting. */
const streamWaiting = async (): Promise<true | undefined> => {
  const slots = (
    await db?.send(new GetCommand({ TableName: DEFAULT_TABLE_NAME, Key: key.streamSlots(clientId), ConsistentRead: true }))
  )?.Item;
  const now = Date.now();
  return Number(slots?.s0) > now || Number(slots?.s1) > now ? true : undefined;
};

describe('a run that reports what happened, under npm start', () => {
  test('input reaches the receiver signed; its reports show in the run, its JSON events and a resumed stream that ends', async () => {
    const input = { messages: [{ role: 'user', content: 'Summarize the inbox' }], chat_id: 'c-1' };
    const runId = await startRun('Inbox digest', input);

    const { headers, payload } = await executor.message(runId);
    expect(executor.unsigned).toEqual([]);
    expect(headers['webhook-id']).toBe(runId);
    expect(payload.type).toBe('knap.run');
    expect(payload.data.run).toMatchObject({ run_id: runId, input, report_url: `${base}/api/studio/runs/${runId}/events` });
    expect(payload.data.run.report_token).toMatch(/^knap_rpt_[A-Za-z0-9_-]+$/);

    // The delivery is recorded: events 1 and 2 exist before anything is reported.
    await waitFor(
      'the delivered event',
      async () => {
        const listed = (await (await studio(`/runs/${runId}/events`)).json()) as { events: { type: string }[] };
        return listed.events.length >= 2 ? true : undefined;
      },
      WAIT_MS,
    );

    // A client follows the run from the start; each report reaches its waiting stream.
    const stream = follow(runId);
    const reports = [
      { type: 'running' },
      { type: 'progress', message: 'Read 120 of 300 messages' },
      { type: 'succeeded', output: { summary: '3 new leads', leads: [1, 2, 3] } },
    ];
    for (const [index, event] of reports.entries()) {
      await waitFor('the stream to wait', streamWaiting, WAIT_MS);
      const reported = await executor.report(runId, event);
      expect(reported.status).toBe(201);
      expect(await reported.json()).toMatchObject({ id: index + 3, ...event });
      await waitFor('the event on the stream', () => (stream.seen().length >= index + 3 ? true : undefined), WAIT_MS);
    }
    await stream.done;

    const expected = [
      { id: 1, type: 'created' },
      { id: 2, type: 'delivered', endpoint_id: expect.any(String) },
      { id: 3, type: 'running' },
      { id: 4, type: 'progress', message: 'Read 120 of 300 messages' },
      { id: 5, type: 'succeeded', output: { summary: '3 new leads', leads: [1, 2, 3] } },
    ];
    // Every event once, in order; each answer resumed from the last id of the one before.
    expect(stream.seen().map((event) => [event.id, event.event])).toEqual(expected.map((event) => [event.id, event.type]));
    expect(stream.seen().map((event) => event.data)).toMatchObject(
      expected.map((event) => ({ ...event, at: expect.any(String) })),
    );
    const { answers } = stream;
    for (const answer of answers.slice(0, -1)) {
      expect(answer.status).toBe(200);
      expect(answer.contentType).toMatch(/^text\/event-stream/);
      expect(answer.retry).toMatch(/^\d+$/);
    }
    expect(answers[0]?.lastEventId).toBeUndefined();
    for (const [index, answer] of answers.entries()) {
      if (index > 0)
        expect(answer.lastEventId).toBe(
          answers
            .slice(0, index)
            .flatMap((a) => a.events)
            .at(-1)?.id,
        );
    }
    // The stream ended after the terminal event: the answer that carried it was the last with
    // events, and the resume from it is a 204.
    expect(answers.at(-2)?.events.at(-1)?.event).toBe('succeeded');
    expect(answers.at(-1)).toMatchObject({ status: 204, lastEventId: 5 });
    expect((await executor.report(runId, { type: 'progress' })).status).toBe(409);

    const run = (await (await studio(`/runs/${runId}`)).json()) as Record<string, unknown>;
    expect(run).toMatchObject({
      run_id: runId,
      status: 'delivered',
      input,
      outcome: 'succeeded',
      output: { summary: '3 new leads', leads: [1, 2, 3] },
      error: null,
    });
    expect(run.finished_at).toBe(stream.seen().at(-1)?.data.at);
    expect(JSON.stringify(run)).not.toContain('knap_rpt_');

    const listed = (await (await studio(`/runs/${runId}/events`)).json()) as { events: unknown[] };
    expect(listed.events).toEqual(stream.seen().map((event) => event.data));

    // Resumed from the middle: the rest, at once, ending with the terminal event; from it: 204.
    const middle = await studio(`/runs/${runId}/events`, { headers: { accept: 'text/event-stream', 'last-event-id': '3' } });
    expect(parseSse(await middle.text()).map((event) => event.event)).toEqual(['progress', 'succeeded']);
    const after = await studio(`/runs/${runId}/events`, { headers: { accept: 'text/event-stream', 'last-event-id': '5' } });
    expect(after.status).toBe(204);
    expect(await after.text()).toBe('');
  }, 120_000);

  describe("the console's run detail", () => {
    let context: BrowserContext | undefined;
    let profile = '';
    afterAll(async () => {
      await context?.close();
    });

    browserTest(
      'follows a live run to its end without a reload',
      async () => {
        const runId = await startRun('Live CRM sync', { since: 'yesterday' });
        await executor.message(runId);

        const made = tempDir('knap-run-loop-chromium-');
        folders.push(made);
        profile = made.path;
        context = await chromium.launchPersistentContext(profile, {
          executablePath: CHROMIUM,
          headless: true,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
          ],
          env: { ...process.env, TMPDIR: profile, HOME: profile },
          viewport: { width: 1280, height: 900 },
          locale: 'en-US',
          timezoneId: 'UTC',
        });
        context.setDefaultTimeout(WAIT_MS);
        const page = context.pages()[0] as Page;
        await page.goto(`${base}/console#runs`);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByLabel('Email').fill('ada@loop.example');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Runs', exact: true }).waitFor();

        const item = page.locator(`li[data-run="${runId}"]`);
        await item.locator('.knap-name').getByText('Live CRM sync', { exact: true }).waitFor();
        await item.getByRole('button', { name: 'Details' }).click();
        const detail = page.locator(`[data-run-detail="${runId}"]`);
        await detail.getByText('"since": "yesterday"').waitFor();
        await detail.getByText('following live').waitFor();
        const types = () =>
          detail
            .getByRole('list', { name: 'Events' })
            .locator('li')
            .evaluateAll((items) => items.map((li) => li.getAttribute('data-event')));
        await waitFor('the delivered event on the page', async () => ((await types()).length >= 2 ? true : undefined), WAIT_MS);
        expect(await types()).toEqual(['created', 'delivered']);

        expect((await executor.report(runId, { type: 'running' })).status).toBe(201);
        await detail.getByTestId('run-outcome').getByText('Running', { exact: true }).waitFor();
        expect((await executor.report(runId, { type: 'progress', message: 'Synced 40 of 80 contacts' })).status).toBe(201);
        await detail.getByText('Synced 40 of 80 contacts').waitFor();
        expect((await executor.report(runId, { type: 'succeeded', output: { synced: 80 } })).status).toBe(201);
        await detail.getByTestId('run-outcome').getByText('Succeeded', { exact: true }).waitFor();
        await detail.getByTestId('run-output').getByText('"synced": 80').waitFor();
        // The stream ended with the terminal event: the page stops following.
        await detail.getByText('following live').waitFor({ state: 'detached' });
        expect(await types()).toEqual(['created', 'delivered', 'running', 'progress', 'succeeded']);
      },
      120_000,
    );
  });
});
