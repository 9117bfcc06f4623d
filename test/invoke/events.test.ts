import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, relative } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, ScheduledEvent, SQSEvent } from 'aws-lambda';
import { jobs } from '../../functions/jobs.js';
import { matchPath, routes } from '../../functions/routes.js';
import { isTextContentType } from '../../local/http-adapter.js';
import {
  ADMIN_TOKENS,
  ADMINS,
  CLIENTS,
  FIXTURE_ADMIN_AUDIENCE,
  FIXTURE_ADMIN_ISSUER,
  FIXTURE_ADMIN_ORG_CLAIM,
  FIXTURE_KNAPS,
  FIXTURE_RUNS,
  FIXTURE_WEBHOOKS,
  OTHER_ORG,
  RUNS,
} from '../../scripts/fixtures.js';
import { generatedEvents } from '../../scripts/generate-events.js';
import {
  expectedStatus,
  type InvokeEnvironment,
  invokeFile,
  jobById,
  listEventFiles,
  md5Of,
  PROJECT_ROOT,
  type QueuedDelivery,
  readEvent,
  readJobEvent,
  routeById,
  startInvokeEnvironment,
} from '../../scripts/invoke-core.js';
import { AdminTokenError, adminTokenVerifier } from '../../shared/auth/admin-tokens.js';
import { runId as runIdOf } from '../../shared/domain/runs.js';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';

/**
 * Every event in events/ goes through the same code path as `npm run invoke` (the
 * function's module from the route table or the job list, a Lambda context, the fixtures):
 * a route's event must give the status its file name starts with, a job's event what the
 * job returns (see checkJobResult).
 */
const files = await listEventFiles();
const jobIds = new Set(jobs.map((job) => job.id));
const routeFiles = files.filter(({ functionId }) => !jobIds.has(functionId));
const jobFiles = files.filter(({ functionId }) => jobIds.has(functionId));

let env: InvokeEnvironment;
beforeAll(async () => {
  // A fresh table of our own: in memory, or on TEST_DYNAMODB_ENDPOINT as the other suites do.
  if (process.env.TEST_DYNAMODB_ENDPOINT) process.env.DYNAMODB_ENDPOINT = process.env.TEST_DYNAMODB_ENDPOINT;
  else delete process.env.DYNAMODB_ENDPOINT;
  env = await startInvokeEnvironment({ tableName: `knap-invoke-${randomBytes(4).toString('hex')}` });
});
afterAll(() => env?.close());

/** The invoke table, read as the functions read it. */
const store = () => {
  const documents = createDocumentClient({ endpoint: env.endpoint, region: env.region });
  return { repo: new DynamoRepository(documents, env.tableName), close: () => documents.destroy() };
};

/** Public routes without path parameters: nothing to refuse but an oversized body, so no refusal event. */
const NOTHING_TO_REFUSE = new Set(['openapi', 'docs', 'oauth-metadata']);
/** Client-authenticated (form or Basic), not bearer routes: no Bearer challenge, never cached. */
const OAUTH_ENDPOINTS = ['token', 'revoke-token', 'introspect-token'];

const name = (file: string) => relative(PROJECT_ROOT, file);
const headerOf = (result: APIGatewayProxyStructuredResultV2, header: string): string | undefined =>
  Object.entries(result.headers ?? {})
    .find(([key]) => key.toLowerCase() === header)?.[1]
    ?.toString();

describe('the events folder', () => {
  test('every route has events, at least one success and one refusal', () => {
    for (const route of routes) {
      const statuses = files.filter((entry) => entry.functionId === route.id).map((entry) => expectedStatus(entry.file));
      expect(statuses.some((status) => status !== null && status < 300)).toBe(true);
      if (!NOTHING_TO_REFUSE.has(route.id)) expect(statuses.some((status) => status !== null && status >= 400)).toBe(true);
    }
  });

  test('the admin functions verify the fixture admin tokens by the JWKS the environment serves', async () => {
    expect(process.env).toEqual(
      expect.objectContaining({
        ADMIN_ISSUER: FIXTURE_ADMIN_ISSUER,
        ADMIN_AUDIENCE: FIXTURE_ADMIN_AUDIENCE,
        ADMIN_ORG_CLAIM: FIXTURE_ADMIN_ORG_CLAIM,
        ADMIN_JWKS_URI: env.adminJwksUri,
      }),
    );
    expect(new URL(env.adminJwksUri).hostname).toBe('127.0.0.1');
    // The fixture issuer is on a reserved name no deployment can have.
    expect(new URL(FIXTURE_ADMIN_ISSUER).hostname).toMatch(/\.invalid$/);
    const jwks = (await (await fetch(env.adminJwksUri)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) expect(key.d).toBeUndefined();
    const verify = adminTokenVerifier({
      issuer: FIXTURE_ADMIN_ISSUER,
      audience: FIXTURE_ADMIN_AUDIENCE,
      orgClaim: FIXTURE_ADMIN_ORG_CLAIM,
      jwksUri: env.adminJwksUri,
    });
    expect(await verify(ADMIN_TOKENS.main)).toEqual({ actor: ADMINS.main.email, orgName: 'acme', subject: ADMINS.main.email });
    expect((await verify(ADMIN_TOKENS.otherOrg)).orgName).toBe(OTHER_ORG);
    await expect(verify(ADMIN_TOKENS.expired)).rejects.toThrow('Admin access token has expired');
    await expect(verify(ADMIN_TOKENS.tampered)).rejects.toThrow(AdminTokenError);
  });

  test('every job has events too', () => {
    for (const job of jobs) expect(jobFiles.filter((entry) => entry.functionId === job.id).length).toBeGreaterThan(0);
  });

  test("a route's files are named for their status: <status>-<case>.json", () => {
    for (const { file } of routeFiles) expect(basename(file)).toMatch(/^[1-5]\d\d-[a-z0-9-]+\.json$/);
  });

  test("a job's files are named for what they are, not for a status: <case>.json", () => {
    for (const { file } of jobFiles) expect(basename(file)).toMatch(/^[a-z][a-z0-9-]*\.json$/);
  });

  test('no file is left over from a case that is gone (or written by hand)', () => {
    const written = new Set([...generatedEvents()].map(({ file }) => file));
    for (const { file } of files) expect(written.has(file)).toBe(true);
  });

  test('the files are what scripts/generate-events.ts writes (edit its cases, then run it)', async () => {
    for (const { file, event } of generatedEvents()) {
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(event);
    }
  });
});

describe.each(routeFiles.map(({ functionId, file }) => [name(file), functionId, file] as const))('%s', (_name, routeId, file) => {
  let event: APIGatewayProxyEventV2;
  beforeAll(async () => {
    event = await readEvent(file);
  });

  test('is an API Gateway HTTP API payload 2.0 event, as AWS sends it', () => {
    const route = routeById(routeId);
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe(`${route.method} ${route.path}`);
    // rawPath is the concrete path; pathParameters are what it holds, and absent when the route has none.
    const parameters = matchPath(route, event.rawPath);
    expect(parameters).not.toBeNull();
    if (Object.keys(parameters ?? {}).length === 0) expect(event.pathParameters).toBeUndefined();
    else expect(event.pathParameters).toEqual(parameters);
    expect(typeof event.rawQueryString).toBe('string');
    expect(event.requestContext.routeKey).toBe(event.routeKey);
    expect(event.requestContext.stage).toBe('$default');
    expect(event.requestContext.http).toEqual(
      expect.objectContaining({ method: route.method, path: event.rawPath, protocol: 'HTTP/1.1' }),
    );
    expect(typeof event.requestContext.requestId).toBe('string');
    expect(event.requestContext.time).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
    expect(typeof event.requestContext.timeEpoch).toBe('number');
    for (const header of Object.keys(event.headers)) expect(header).toBe(header.toLowerCase());
    expect(typeof event.isBase64Encoded).toBe('boolean');
    if (event.rawQueryString === '') expect(event.queryStringParameters).toBeUndefined();
    else expect(event.queryStringParameters).toEqual(Object.fromEntries(new URLSearchParams(event.rawQueryString)));
    if (event.body === undefined) {
      expect(event.isBase64Encoded).toBe(false);
      expect(event.headers['content-length']).toBeUndefined();
    } else {
      expect(typeof event.body).toBe('string');
      const bytes = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body);
      expect(event.headers['content-length']).toBe(String(bytes.length));
      // AWS passes JSON as text and base64-encodes a form body (and application/merge-patch+json).
      const type = event.headers['content-type'] ?? '';
      expect(event.isBase64Encoded).toBe(!isTextContentType(type));
    }
  });

  test('gives the status its name says', async () => {
    const invocation = await invokeFile(env, routeId, file);
    expect(invocation.status).toBe(invocation.expected);
    expect(invocation.problem).toBeNull();
    const status = invocation.status as number;
    const result = invocation.result as APIGatewayProxyStructuredResultV2;
    if (routeId === 'revoke-token' && status === 200) {
      // RFC 7009: the answer is the status; the body is empty (typed as JSON for client libraries).
      expect(result.body ?? '').toBe('');
      expect(headerOf(result, 'content-type')).toBe('application/json');
      return;
    }
    if (status === 204) {
      // No content: an empty body, and nothing to give a type to.
      expect(result.body ?? '').toBe('');
      expect(headerOf(result, 'content-type')).toBeUndefined();
      return;
    }
    const type = contentTypeOf(routeId, status, event);
    expect(headerOf(result, 'content-type')).toMatch(type);
    if (!type.test('application/json')) {
      expect(result.body?.length).toBeGreaterThan(0);
      return;
    }
    const body = JSON.parse(result.body ?? 'null') as Record<string, unknown>;
    if (status >= 400) {
      // Every refusal: {"detail": "..."}, never a stack trace.
      expect(Object.keys(body)).toEqual(['detail']);
      expect(typeof body.detail).toBe('string');
      expect(String(body.detail)).not.toMatch(/\n\s+at /);
    }
    if (status === 401 && !OAUTH_ENDPOINTS.includes(routeId)) expect(headerOf(result, 'www-authenticate')).toMatch(/^Bearer/);
    if (status === 429) {
      expect(Number(headerOf(result, 'retry-after'))).toBeGreaterThan(0);
      expect(headerOf(result, 'ratelimit-remaining')).toBe('0');
    }
    if (OAUTH_ENDPOINTS.includes(routeId)) expect(headerOf(result, 'cache-control')).toBe('no-store');
    if (routeId === 'token' && status === 200) {
      expect(body).toEqual(expect.objectContaining({ token_type: 'Bearer', expires_in: 3600 }));
    }
    // One Knap: its ETag is its version, and it is the Knap the path names.
    if ((routeId === 'get-knap' || routeId === 'update-knap') && status === 200) {
      expect(headerOf(result, 'etag')).toMatch(/^"\d+"$/);
      expect(body.uuid).toBe(event.pathParameters?.uuid);
    }
    if (routeId === 'preview-schedule' && status === 200) {
      expect(Object.keys(body).sort()).toEqual(['description', 'next_runs', 'schedule_info']);
    }
    if (routeId === 'openapi') expect(String(body.openapi)).toMatch(/^3\.1\./);
    // Runs: only new ones (and a redelivered one, and a recovery's first page) are queued, nothing else queues any.
    if (status >= 300 || !['start-run', 'report-meeting', 'admin-redeliver-run', 'admin-recover-webhook'].includes(routeId)) {
      expect(invocation.queued).toEqual([]);
    }
    if (routeId === 'admin-recover-webhook' && status === 202) {
      expect(invocation.queued).toEqual([{ runId: expect.stringMatching(/^rcv_/), delaySeconds: 0 }]);
    }
    if (routeId === 'start-run' && status === 202) {
      expect(body).toEqual(
        expect.objectContaining({ knap_uuid: event.pathParameters?.uuid, trigger: 'manual', status: 'pending', attempts: 0 }),
      );
      expect(invocation.queued).toEqual([{ runId: body.run_id, delaySeconds: 0 }]);
    }
    if (routeId === 'list-runs' && status === 200) await expectHistory(body, event);
    if (routeId.startsWith('admin-')) await expectAdminAnswer(routeId, status, result, body, event, invocation.queued);
    if (routeId === 'report-meeting' && status === 202) await expectMeetingRuns(file, body, event, invocation.queued);
  });
});

/** Every field name in a JSON value, however deep. */
const fieldNames = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(fieldNames);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, inner]) => [name, ...fieldNames(inner)]);
};

/** The organization an admin event acts in: the other organization's admin's, or the fixture one's. */
const orgOfEvent = (event: APIGatewayProxyEventV2): string =>
  event.headers.authorization === `Bearer ${ADMIN_TOKENS.otherOrg}` ? OTHER_ORG : CLIENTS.main.orgName;

/**
 * The admin API (contract, "Organization admins"): never cached, no secret or hash but in the
 * answer that made a secret, and only the admin's own organization.
 */
async function expectAdminAnswer(
  routeId: string,
  status: number,
  result: APIGatewayProxyStructuredResultV2,
  body: Record<string, unknown>,
  event: APIGatewayProxyEventV2,
  queued: QueuedDelivery[],
): Promise<void> {
  expect(headerOf(result, 'cache-control')).toBe('no-store');
  if (status >= 300) return;
  const org = orgOfEvent(event);
  const listing = ['admin-list-clients', 'admin-list-webhooks', 'admin-list-runs', 'admin-audit-events'].includes(routeId);
  // Listings carry no field whose name contains "secret" or "hash" (an audit action may name one).
  if (listing) expect(fieldNames(body).filter((field) => /secret|hash/i.test(field))).toEqual([]);
  if (routeId === 'admin-list-clients') {
    const ids = (body.clients as { client_id: string }[]).map((client) => client.client_id);
    const own = Object.values(CLIENTS).filter((client) => client.orgName === org);
    for (const client of own) expect(ids).toContain(client.clientId);
    for (const client of Object.values(CLIENTS).filter((other) => other.orgName !== org))
      expect(ids).not.toContain(client.clientId);
  }
  if (routeId === 'admin-create-client') expect(String(body.client_secret)).toMatch(/^knap_cs_/);
  if (routeId === 'admin-regenerate-secret') {
    expect(body).toEqual({ client_id: event.pathParameters?.client_id, client_secret: expect.stringMatching(/^knap_cs_/) });
  }
  if (routeId === 'admin-update-client') expect(body.client_id).toBe(event.pathParameters?.client_id);
  if (routeId === 'admin-list-webhooks') {
    const ids = (body.endpoints as { endpoint_id: string }[]).map((endpoint) => endpoint.endpoint_id);
    // The fixture organization has no endpoint (its deliveries are no_endpoint); the other one has the fixtures'.
    if (org === OTHER_ORG) expect(ids).toContain(FIXTURE_WEBHOOKS.otherOrg.endpointId);
    else expect(ids).toEqual([]);
  }
  if (routeId === 'admin-add-webhook') {
    expect(body).toEqual(
      expect.objectContaining({ endpoint_id: expect.stringMatching(/^we_/), secret: expect.stringMatching(/^whsec_/) }),
    );
  }
  if (routeId === 'admin-list-runs') {
    const runs = body.runs as RunBody[];
    expect(runs.length).toBeGreaterThan(0);
    const created = runs.map((run) => String(run.created_at));
    expect(created).toEqual([...created].sort().reverse());
    const theirs = new Set(RUNS.filter((stored) => stored.orgName !== org).map((stored) => stored.run.run_id));
    for (const run of runs) expect(theirs.has(run.run_id)).toBe(false);
    for (const run of runs) expect(Array.isArray(run.delivery_attempts)).toBe(true);
  }
  if (routeId === 'admin-list-runs' && event.queryStringParameters?.status) {
    for (const run of body.runs as RunBody[]) expect(run.status).toBe(event.queryStringParameters.status);
  }
  if (routeId === 'admin-get-run') {
    expect(body).toMatchObject({ run_id: event.pathParameters?.run_id, knap_name: expect.anything() });
    expect(Array.isArray(body.delivery_attempts)).toBe(true);
    expect((body.events as { id: number }[]).map((runEvent) => runEvent.id)[0]).toBe(1);
  }
  if (routeId === 'admin-redeliver-run') {
    // Found failed again (resetFixtureRun), so it is sent again, once, with its own id.
    const runId = event.pathParameters?.run_id as string;
    expect(body).toEqual({ run_id: runId, status: 'pending' });
    expect(queued).toEqual([{ runId, delaySeconds: 0 }]);
  }
  if (routeId === 'admin-audit-events') {
    expect(Object.keys(body).sort()).toEqual(['events', 'next_cursor']);
    const limit = Number(event.queryStringParameters?.limit ?? Number.POSITIVE_INFINITY);
    expect((body.events as unknown[]).length).toBeLessThanOrEqual(limit);
  }
}

/** Runs, as the contract shows them. */
type RunBody = Record<string, unknown> & { run_id: string };

/** withHistory's fixture runs, newest first: no event adds to them. */
const HISTORY = RUNS.filter((stored) => stored.run.knap_uuid === FIXTURE_KNAPS.withHistory.knap.uuid)
  .map((stored) => stored.run)
  .sort((a, b) => b.created_at.localeCompare(a.created_at));

async function expectHistory(body: Record<string, unknown>, event: APIGatewayProxyEventV2): Promise<void> {
  expect(Object.keys(body).sort()).toEqual(['next_cursor', 'runs']);
  const limit = Number(event.queryStringParameters?.limit ?? HISTORY.length);
  expect(body.runs).toEqual(HISTORY.slice(0, limit));
  if (limit < HISTORY.length) expect(typeof body.next_cursor).toBe('string');
  else expect(body.next_cursor).toBeNull();
}

/**
 * A meeting report runs every active after-meeting Knap the caller sees (the fixture's, and
 * those create-knap events made), once per meeting: reporting it again answers the same runs
 * and queues nothing.
 */
async function expectMeetingRuns(
  file: string,
  body: Record<string, unknown>,
  event: APIGatewayProxyEventV2,
  queued: QueuedDelivery[],
): Promise<void> {
  const meetingId = (JSON.parse(event.body ?? '{}') as { meeting_id: string }).meeting_id;
  expect(body.meeting_id).toBe(meetingId);
  const runs = body.runs as RunBody[];
  for (const run of runs)
    expect(run).toEqual(expect.objectContaining({ trigger: 'post_meeting_transcription', meeting_id: meetingId }));
  const { afterMeeting } = FIXTURE_KNAPS;
  const ids = runs.map((run) => run.run_id);
  expect(ids).toContain(runIdOf.meeting(afterMeeting.knap.uuid, meetingId));
  // Only runs this report made are queued (a repeated meeting's runs were queued the first time).
  for (const { runId } of queued) expect(ids).toContain(runId);
  const again = await invokeFile(env, 'report-meeting', file);
  expect(again.status).toBe(202);
  expect(JSON.parse((again.result as APIGatewayProxyStructuredResultV2).body ?? 'null')).toEqual(body);
  expect(again.queued).toEqual([]);
}

describe.each(jobFiles.map(({ functionId, file }) => [name(file), functionId, file] as const))('%s', (_name, jobId, file) => {
  test('is the event AWS sends the job', async () => {
    const job = jobById(jobId);
    const event = await readJobEvent(file);
    if (job.trigger === 'schedule') {
      const scheduled = event as ScheduledEvent;
      expect(Object.keys(scheduled).sort()).toEqual(
        ['account', 'detail', 'detail-type', 'id', 'region', 'resources', 'source', 'time', 'version'].sort(),
      );
      expect(scheduled).toEqual(
        expect.objectContaining({ version: '0', 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} }),
      );
      expect(scheduled.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // On the minute, in the ISO form EventBridge writes (no milliseconds).
      expect(scheduled.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
      expect(scheduled.resources).toEqual([
        expect.stringMatching(new RegExp(`^arn:aws:events:${scheduled.region}:${scheduled.account}:rule/`)),
      ]);
      return;
    }
    const { Records } = event as SQSEvent;
    expect(Records.length).toBeGreaterThanOrEqual(1);
    expect(Records.length).toBeLessThanOrEqual(10);
    expect(new Set(Records.map((record) => record.messageId)).size).toBe(Records.length);
    for (const record of Records) {
      expect(record).toEqual(
        expect.objectContaining({
          eventSource: 'aws:sqs',
          messageAttributes: {},
          md5OfBody: md5Of(record.body),
          eventSourceARN: expect.stringMatching(/^arn:aws:sqs:[a-z0-9-]+:\d{12}:/),
          awsRegion: expect.any(String),
        }),
      );
      expect(typeof record.receiptHandle).toBe('string');
      expect(Object.keys(record.attributes).sort()).toEqual(
        ['ApproximateFirstReceiveTimestamp', 'ApproximateReceiveCount', 'SenderId', 'SentTimestamp'].sort(),
      );
    }
  });

  test('returns what the job promises, however often it runs', async () => {
    // Twice: each event finds the fixtures it names as seeded (a due Knap, pending runs).
    for (const time of [1, 2]) {
      const invocation = await invokeFile(env, jobId, file);
      expect(invocation.status).toBeNull();
      expect(invocation.problem).toBeNull();
      if (jobId === 'dispatch-runs') await expectDispatch(invocation.result, invocation.queued, time);
      if (jobId === 'deliver-runs') {
        expect(invocation.result).toEqual({ batchItemFailures: [] });
        await expectDelivered(file);
      }
    }
  });
});

/**
 * The due fixture Knap: each dispatcher event finds its occurrence due again, claims it and
 * queues its run; that run is made once per table (its id derives from the occurrence).
 */
async function expectDispatch(result: unknown, queued: QueuedDelivery[], time: number): Promise<void> {
  const { created, claimed } = result as { created: number; claimed: number };
  expect(claimed).toBeGreaterThanOrEqual(1);
  if (time > 1) expect(created).toBe(0);
  const { due } = FIXTURE_KNAPS;
  const occurrence = due.knap.next_run_at as string;
  const id = runIdOf.scheduled(due.knap.uuid, occurrence);
  expect(queued).toContainEqual({ runId: id, delaySeconds: 0 });
  const { repo, close } = store();
  try {
    expect((await repo.getRun(id))?.run).toEqual(
      expect.objectContaining({ knap_uuid: due.knap.uuid, trigger: 'scheduled', scheduled_for: occurrence }),
    );
    // Claimed: the next occurrence is after now.
    const after = await repo.getKnap(CLIENTS[due.owner].orgName, due.knap.uuid);
    expect(Date.parse(after?.knap.next_run_at ?? '')).toBeGreaterThan(Date.now());
  } finally {
    close();
  }
}

/**
 * The fixture runs a batch names were put back pending before the event, and each had one
 * attempt: with no webhook endpoint in the fixture organization, recorded as no_endpoint.
 */
async function expectDelivered(file: string): Promise<void> {
  const { Records } = (await readJobEvent(file)) as SQSEvent;
  const named = new Set(Records.map((record) => record.body));
  const fixtures = RUNS.filter((stored) => named.has(JSON.stringify({ run_id: stored.run.run_id })));
  const { repo, close } = store();
  try {
    for (const fixture of fixtures) {
      expect((await repo.getRun(fixture.run.run_id))?.run).toEqual({
        ...fixture.run,
        status: 'no_endpoint',
        attempts: 1,
        last_attempt_at: expect.any(String),
        last_error: expect.any(String),
      });
    }
  } finally {
    close();
  }
}

test('the delivery batch names the fixture runs that wait for delivery', async () => {
  const batch = jobFiles.find(({ file }) => basename(file) === 'sqs-batch.json');
  expect(batch).toBeDefined();
  const { Records } = (await readJobEvent(batch!.file)) as SQSEvent;
  expect(Records.map((record) => JSON.parse(record.body))).toEqual([
    { run_id: FIXTURE_RUNS.awaitingDelivery.run.run_id },
    { run_id: FIXTURE_RUNS.awaitingDeliveryToo.run.run_id },
  ]);
  for (const { run } of [FIXTURE_RUNS.awaitingDelivery, FIXTURE_RUNS.awaitingDeliveryToo]) expect(run.status).toBe('pending');
});

/** The content type a response must have: JSON, but for the reference page and its files. */
function contentTypeOf(routeId: string, status: number, event: APIGatewayProxyEventV2): RegExp {
  if (status >= 300) return /^application\/json/;
  if (routeId === 'docs') return /^text\/html/;
  // A run's events as Server-Sent Events, when asked for.
  if (['list-run-events', 'admin-list-run-events'].includes(routeId) && event.headers?.accept === 'text/event-stream')
    return /^text\/event-stream/;
  if (routeId === 'docs-asset') return event.pathParameters?.file?.endsWith('.css') ? /^text\/css/ : /^text\/javascript/;
  if (routeId === 'console') {
    const asset = event.queryStringParameters?.asset;
    if (asset === undefined) return /^text\/html/;
    return asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/;
  }
  return /^application\/json/;
}
