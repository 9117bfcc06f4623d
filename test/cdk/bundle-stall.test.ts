/**
 * Every synthesized bundle, run as Lambda runs it (the asset's index.mjs in a fresh node
 * process, the deployed environment but for the endpoint), against a DynamoDB that accepts
 * connections and never answers: every route that calls DynamoDB answers 503 with a detail and
 * Retry-After before its Lambda timeout, sampled by X-Ray or not; the jobs settle before theirs.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jobs } from '../../functions/jobs.js';
import { FUNCTIONS, type FunctionId, routesOf } from '../../functions/routes.js';
import { functionLogicalId, ROUTE_TABLE_ACCESS } from '../../lib/functions.js';
import { actionsOf } from '../../lib/table-access.js';
import {
  FIXTURE_ADMIN_AUDIENCE,
  FIXTURE_ADMIN_ISSUER,
  FIXTURE_ADMIN_ORG_CLAIM,
  INVOKE_TOKEN_KEY,
} from '../../scripts/fixtures.js';
import { EVENTS_DIR, serveFixtureJwks } from '../../scripts/invoke-core.js';
import { measureBundles } from '../../scripts/measure-bundles.js';
import { SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

const run = promisify(execFile);

/** The Lambda timeout each invocation is given (context.getRemainingTimeInMillis): shorter than deployed, so the suite is quick. */
const TIMEOUT_MS = 3000;
/** A job's: its deadline comes from the same context. */
const JOB_TIMEOUT_MS = 5000;
/** Containers a function's stalled invocations are shared between (see the HTTP functions' test). */
const CONTAINERS = 4;

let stalled: Server;
let endpoint: string;
const sockets = new Set<Socket>();
let jwks: Awaited<ReturnType<typeof serveFixtureJwks>>;
let bundles: Map<string, { assetPath: string }>;

beforeAll(async () => {
  // Accepts every connection, reads what comes, answers nothing.
  stalled = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
  jwks = await serveFixtureJwks();
  const { outdir } = await synthesized();
  bundles = new Map(measureBundles(outdir, 1).bundles.map((bundle) => [bundle.logicalId, bundle]));
}, SYNTH_TIMEOUT_MS);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => stalled.close(() => resolve()));
  await jwks.close();
});

/** Each route that calls DynamoDB, with the first fixture event its route answers 2xx to. */
const dynamoRoutes = (fn: FunctionId) =>
  routesOf(fn)
    .filter((route) => actionsOf(ROUTE_TABLE_ACCESS[route.id] ?? {}).length > 0)
    .map((route) => {
      const name = readdirSync(join(EVENTS_DIR, route.id))
        .filter((file) => /^2\d\d-.*\.json$/.test(file))
        .sort()[0] as string;
      return { route: route.id, event: JSON.parse(readFileSync(join(EVENTS_DIR, route.id, name), 'utf8')) as unknown };
    });

const SAMPLED = 'Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8;Sampled=1';

/**
 * Runs a function's bundle in a fresh node process, as a warm container would take the
 * invocations one after another; each result: its status, headers, body and how long it took.
 */
const invokeBundle = async (
  functionId: string,
  invocations: { event: unknown; sampled: boolean }[],
  timeoutMs: number,
): Promise<{ status?: number; headers?: Record<string, string>; body?: string; error?: string; ms: number }[]> => {
  const assetPath = bundles.get(functionLogicalId(functionId))?.assetPath;
  if (!assetPath) throw new Error(`no bundle for ${functionId}`);
  const script = `
    const m = await import(process.argv[1]);
    const invocations = JSON.parse(process.argv[2]);
    const results = [];
    for (const { event, sampled } of invocations) {
      // The runtime sets the trace header of each invocation in the environment.
      if (sampled) process.env._X_AMZN_TRACE_ID = ${JSON.stringify(SAMPLED)}; else delete process.env._X_AMZN_TRACE_ID;
      const started = Date.now();
      const context = {
        awsRequestId: 'stall-' + results.length, functionName: 'f', functionVersion: '1', memoryLimitInMB: '256',
        invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:f',
        getRemainingTimeInMillis: () => started + ${timeoutMs} - Date.now(),
      };
      try {
        const r = await m.handler(event, context);
        results.push({ status: r?.statusCode, headers: r?.headers, body: r?.body, ms: Date.now() - started, batchItemFailures: r?.batchItemFailures });
      } catch (error) {
        results.push({ error: String(error?.name ?? error), ms: Date.now() - started });
      }
    }
    process.stdout.write('\\n' + JSON.stringify(results));
    process.exit(0);`;
  const { stdout } = await run(
    process.execPath,
    ['--input-type=module', '-e', script, join(assetPath, 'index.mjs'), JSON.stringify(invocations)],
    {
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: 'AKIDSTALLTEST',
        AWS_SECRET_ACCESS_KEY: 'stall-test-secret',
        AWS_LAMBDA_FUNCTION_NAME: 'f',
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
        LAMBDA_TASK_ROOT: assetPath,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        TABLE_NAME: 'knap',
        DYNAMODB_ENDPOINT: endpoint,
        DYNAMODB_TIMEOUT_MS: '2000',
        TOKEN_SIGNING_KEYS: INVOKE_TOKEN_KEY,
        STORED_TOKENS_UNTIL: '2100-01-01T00:00:00Z',
        ADMIN_ISSUER: FIXTURE_ADMIN_ISSUER,
        ADMIN_AUDIENCE: FIXTURE_ADMIN_AUDIENCE,
        ADMIN_ORG_CLAIM: FIXTURE_ADMIN_ORG_CLAIM,
        ADMIN_JWKS_URI: jwks.uri,
        // A queue that never answers either: what is sent there must be bounded too.
        DELIVERY_QUEUE_URL: `${endpoint}/123456789012/deliveries`,
        POWERTOOLS_LOG_LEVEL: 'CRITICAL',
        POWERTOOLS_METRICS_DISABLED: 'true',
      },
      maxBuffer: 16 * 1024 * 1024,
      // A process whose handler never settles is killed well after every invocation should have.
      timeout: invocations.length * timeoutMs + 20_000,
    },
  );
  return JSON.parse(stdout.split('\n').at(-1) ?? '[]');
};

const httpFunctions = FUNCTIONS.filter((fn) =>
  routesOf(fn.id).some((route) => actionsOf(ROUTE_TABLE_ACCESS[route.id] ?? {}).length > 0),
);

describe.each(httpFunctions.map((fn) => [fn.id] as const))('%s bundle, DynamoDB stalled', (functionId) => {
  test('every route that calls DynamoDB: 503 {"detail"} with Retry-After before the timeout, sampled or not', async () => {
    const cases = dynamoRoutes(functionId).flatMap(({ route, event }) =>
      [false, true].map((sampled) => ({ route, sampled, event })),
    );
    // A few warm containers side by side, each taking its share of the invocations one after
    // another: the waits are idle time, so the suite takes a quarter as long for the same checks.
    const share = Math.ceil(cases.length / CONTAINERS);
    const shares = Array.from({ length: Math.ceil(cases.length / share) }, (_, index) =>
      cases.slice(index * share, (index + 1) * share),
    );
    const results = (
      await Promise.all(
        shares.map((part) =>
          invokeBundle(
            functionId,
            part.map(({ event, sampled }) => ({ event, sampled })),
            TIMEOUT_MS,
          ),
        ),
      )
    ).flat();
    const seen = cases.map(({ route, sampled }, index) => {
      const result = results[index];
      const headers = Object.fromEntries(
        Object.entries(result?.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
      );
      return {
        route,
        sampled,
        status: result?.status ?? result?.error,
        detail: typeof (JSON.parse(result?.body ?? '{}') as { detail?: unknown }).detail,
        retryAfter: /^\d+$/.test(String(headers['retry-after'])),
        inTime: (result?.ms ?? Number.POSITIVE_INFINITY) < TIMEOUT_MS,
      };
    });
    expect(seen).toEqual(
      cases.map(({ route, sampled }) => ({ route, sampled, status: 503, detail: 'string', retryAfter: true, inTime: true })),
    );
  }, 180_000);
});

describe.each(jobs.map((job) => [job.id] as const))('%s bundle, DynamoDB stalled', (jobId) => {
  test('settles before its timeout, sampled or not', async () => {
    const [file] = readdirSync(join(EVENTS_DIR, jobId))
      .filter((name) => name.endsWith('.json'))
      .sort();
    const event = JSON.parse(readFileSync(join(EVENTS_DIR, jobId, file as string), 'utf8')) as unknown;
    const results = await invokeBundle(
      jobId,
      [false, true].map((sampled) => ({ event, sampled })),
      JOB_TIMEOUT_MS,
    );
    expect(results.map((result) => result.ms < JOB_TIMEOUT_MS)).toEqual([true, true]);
  }, 180_000);
});
