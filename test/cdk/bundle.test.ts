import { execFile, execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { jobs } from '../../functions/jobs.js';
import { FUNCTIONS, type FunctionId, routes, routesOf } from '../../functions/routes.js';
import { createHandler as tokenHandler } from '../../functions/token/handler.js';
import { functionLogicalId } from '../../lib/functions.js';
import { ESM_REQUIRE_BANNER } from '../../lib/knap-function.js';
import { CHUNKS } from '../../scripts/lambda-bundle.mjs';
import { type BundleMeasurement, measureBundles } from '../../scripts/measure-bundles.js';
import { createApiClient, revokeClient } from '../../shared/services/admin-service.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { context, formEvent, httpEvent } from '../support/events.js';
import { runWithModule } from '../support/run-module.js';
import { TEST_TOKEN_KEY } from '../support/token-keys.js';
import { sampleOneCharacterAway } from '../support/token-variants.js';
import { SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

/** The real bundles, built once by the local esbuild exactly as `npm run synth` builds them. */
const ONE_MB = 1024 * 1024;
let bundles: Map<string, BundleMeasurement>;

beforeAll(async () => {
  const { outdir } = await synthesized();
  bundles = new Map(measureBundles(outdir, 1).bundles.map((measurement) => [measurement.logicalId, measurement]));
}, SYNTH_TIMEOUT_MS);

/** A cold start's environment, as in Lambda but for the function's own name. */
const BUNDLE_ENV = {
  PATH: process.env.PATH,
  TABLE_NAME: 'knap',
  AWS_REGION: 'eu-west-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** Every function, with the files its routes copy beside the bundle (the docs page's script and style, the console). */
const functionsWithAssets = [
  ...FUNCTIONS.map(
    (fn) =>
      [
        fn.id,
        functionLogicalId(fn.id),
        [...new Set(routesOf(fn.id).flatMap((route) => route.assets ?? []))].map((asset) => basename(asset)),
      ] as const,
  ),
  ...jobs.map((job) => [job.id, functionLogicalId(job.id), [] as string[]] as const),
];

/** The files of CHUNKS, built beside a bundle (scripts/bundle-chunks.mjs). */
const BESIDE = CHUNKS.map((chunk) => chunk.file);
/** Functions that read no table and handle no token: no SDK at all. */
const PUBLIC = ['pages'];
/** Functions that queue runs for delivery (or redeliver one), the only ones with the SQS client. */
const QUEUES_RUNS = ['knaps', 'admin', 'dispatch-runs', 'deliver-runs'];
/** Functions that schedule Knaps (or say their schedules back, the admins') but not on every request: the parser is beside the bundle. */
const SCHEDULES_BESIDE = ['create-knap', 'knaps', 'admin'];
/** Functions that parse schedules: chrono-node, which only words a rejection, is beside the bundle. */
const PARSES = [...SCHEDULES_BESIDE];
/** The dispatcher handles no token: no Secrets Manager client (the deliverer seals each message's report token). */
const JOBS = jobs.map((job) => job.id).filter((id) => id !== 'deliver-runs');
/** Organization admins' functions verify a JWT of the admin issuer, never an API token: no Secrets Manager client either. */
const ADMIN = ['admin'];

/** Functions that seal or open API tokens: the token keys' Secrets Manager read. */
const READS_TOKEN_KEYS = functionsWithAssets
  .map(([id]) => id)
  .filter((id) => !PUBLIC.includes(id) && !JOBS.includes(id) && !ADMIN.includes(id));

describe.each(functionsWithAssets)('%s bundle', (id, logicalId, assets) => {
  const bundle = () => bundles.get(logicalId)!;
  /** index.mjs and the files esbuild split from it: what dynamic imports load, and code both share. */
  const splitFiles = () =>
    readdirSync(bundle().assetPath).filter((file) => file.endsWith('.mjs') && !BESIDE.includes(file) && file !== 'index.mjs');
  /** The function's code: the bundle and the files split from it (not the files of CHUNKS beside it). */
  const code = () =>
    ['index.mjs', ...splitFiles()].map((file) => readFileSync(join(bundle().assetPath, file), 'utf8')).join('\n');
  /** Runs `script` in a fresh node process, with the bundle imported as `m`; what it prints. */
  const runWithBundle = (script: string, env: Record<string, string> = {}) =>
    runWithModule(join(bundle().assetPath, 'index.mjs'), script, { ...BUNDLE_ENV, ...env });

  test('the asset is the bundle and the files split from it with their maps, the tracer beside the DynamoDB functions, Powertools and lossless-json beside every function, the code under 1 MB, and the files the route declares', () => {
    const split = splitFiles();
    // esbuild's names: `<module>-<hash>.mjs` for a module loaded by import(), `chunk-<hash>.mjs` for code shared.
    for (const file of split) expect(file).toMatch(/^[\w-]+-[A-Z0-9]{8}\.mjs$/);
    const files = readdirSync(bundle().assetPath);
    // An index.mjs that only re-exports the file its cold start's modules share
    // (scripts/bundle-function.mjs) has no code of its own, so no map.
    const indexMapped = files.includes('index.mjs.map');
    if (!indexMapped) expect(statSync(join(bundle().assetPath, 'index.mjs')).size).toBeLessThan(1024);
    const code = [
      'index.mjs',
      ...(indexMapped ? ['index.mjs.map'] : []),
      ...split,
      // A file split from the SDK alone has no map: the map keeps our code only.
      ...split.map((file) => `${file}.map`).filter((map) => files.includes(map)),
      ...(PUBLIC.includes(id) ? [] : ['tracing.mjs', 'tracing.mjs.map']),
      'powertools.cjs',
      'powertools.cjs.map',
      'lossless-json.cjs',
      'lossless-json.cjs.map',
      ...(SCHEDULES_BESIDE.includes(id) ? ['schedules.mjs', 'schedules.mjs.map'] : []),
      ...(PARSES.includes(id) ? ['chrono.cjs', 'chrono.cjs.map'] : []),
    ];
    expect(readdirSync(bundle().assetPath).sort()).toEqual([...code, ...assets].sort());
    // The code under 1 MB, and its maps (read only to format an error's stack) under half that.
    const bytesOf = (names: string[]) => names.reduce((sum, file) => sum + statSync(join(bundle().assetPath, file)).size, 0);
    expect(bytesOf(code.filter((file) => !file.endsWith('.map')))).toBeLessThan(ONE_MB);
    expect(bytesOf(code.filter((file) => file.endsWith('.map')))).toBeLessThan(ONE_MB / 2);
  });

  test('ESM with the createRequire banner; the AWS SDK inside where the function uses it, only the parts it uses', () => {
    const text = code();
    for (const file of ['index.mjs', ...splitFiles()]) {
      const fileText = readFileSync(join(bundle().assetPath, file), 'utf8');
      expect(fileText.slice(0, ESM_REQUIRE_BANNER.length)).toBe(ESM_REQUIRE_BANNER);
      // ASCII only: one other character (a regex's curly quote) and V8 holds the whole file as two-byte text.
      expect([file, fileText.match(/\P{ASCII}/gu)]).toEqual([file, null]);
    }
    // No import of the SDK is left for the runtime to resolve (it may still be named in error messages).
    expect(text.match(/\bfrom\s*["']@aws-sdk\/[^"']*|\bimport\s*\(\s*["']@aws-sdk\/[^"']*/g)).toBeNull();
    const uses = (service: string) => (PUBLIC.includes(id) ? false : service !== 'sqs' || QUEUES_RUNS.includes(id));
    expect(text.includes('DynamoDB_20120810')).toBe(uses('dynamodb'));
    expect(text.includes('AmazonSQS')).toBe(uses('sqs'));
    expect(text.includes('secretsmanager')).toBe(READS_TOKEN_KEYS.includes(id));
    // The SDK's own clients make every call: no other file beside the bundle holds one.
    expect(text).not.toContain('"./sdk-clients.mjs"');
    // Credentials come from the environment: none of the default chain's other providers.
    expect(text).not.toMatch(/child_process|AWS_SSO_|credential_process/);
    const index = readFileSync(join(bundle().assetPath, 'index.mjs'), 'utf8');
    expect(index.slice(-40)).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
  });

  test('a cold start reads what every invocation needs; what only some routes need loads with their first request', () => {
    // The files a cold start reads: index.mjs and what it imports statically, file by file.
    const read = new Set<string>();
    const next = ['index.mjs'];
    for (let file = next.pop(); file !== undefined; file = next.pop()) {
      if (read.has(file)) continue;
      read.add(file);
      const text = readFileSync(join(bundle().assetPath, file), 'utf8');
      for (const [, imported] of text.matchAll(/(?:^|[;}\n])import\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([\w.-]+\.mjs)["']/g)) {
        next.push(imported as string);
      }
    }
    const atColdStart = [...read].map((file) => readFileSync(join(bundle().assetPath, file), 'utf8')).join('\n');
    // What a cold start parses (a bare DocumentClient bundle is 188 KB): docs/performance.md, "Cold start".
    // The deliverer's is the largest: every message type, endpoint health and rotation are its work.
    expect(Buffer.byteLength(atColdStart)).toBeLessThan((id === 'deliver-runs' ? 384 : 360) * 1024);
    // No function sends to SQS on every invocation: the routes that queue runs, the dispatcher
    // (a minute with nothing due sends nothing) and the deliverer's retries load the client when they first send.
    expect(atColdStart.includes('AmazonSQS')).toBe(false);
    expect(code().includes('AmazonSQS')).toBe(QUEUES_RUNS.includes(id));
    // A container reads the token keys once in five minutes: the Secrets Manager client loads with that read.
    expect(atColdStart.includes('secretsmanager')).toBe(false);
    // Most requests write no log line and count nothing: Powertools' Logger and Metrics load with the first that does.
    expect(atColdStart).not.toMatch(/POWERTOOLS_LOG_LEVEL|POWERTOOLS_METRICS_NAMESPACE/);
    const beside = readFileSync(join(bundle().assetPath, 'powertools.cjs'), 'utf8');
    expect(beside).toMatch(/POWERTOOLS_LOG_LEVEL/);
    expect(beside).toMatch(/POWERTOOLS_METRICS_NAMESPACE/);
    // Most JSON is read and written natively: lossless-json loads with the first that needs it
    // (storable-json.ts). One of its parser's messages marks its code.
    expect(atColdStart).not.toContain('Quoted object key expected');
    expect(readFileSync(join(bundle().assetPath, 'lossless-json.cjs'), 'utf8')).toContain('Quoted object key expected');
    // An area's routes are files of their own, none read at a cold start.
    const area = FUNCTIONS.find((fn) => fn.id === id)?.greedy !== undefined;
    const routeFiles = splitFiles().filter((file) =>
      routesOf(id as FunctionId).some((route) => file.startsWith(`${basename(route.entry, '.ts')}-`)),
    );
    expect(routeFiles.length).toBe(area ? routesOf(id as FunctionId).length : 0);
    for (const file of routeFiles) expect(read.has(file)).toBe(false);
    // The route table comes without its prose (scripts/bundle-function.mjs, test/cdk/route-table-source.test.ts);
    // the OpenAPI document, loaded by its own request, may say the same words.
    for (const route of routes) expect(atColdStart).not.toContain(route.description);
    // What every request of a DynamoDB function needs is read at a cold start: the client and the store.
    if (!PUBLIC.includes(id)) expect(atColdStart).toContain('DynamoDB_20120810');
  });

  test('schemas keep their descriptions only in the function that serves the OpenAPI document (bundle-function.mjs)', () => {
    // A run id's description, in the run schema that the OpenAPI document and the runs routes share.
    expect(code().includes('32 base64url characters')).toBe(id === 'pages');
  });

  test('X-Ray is not in the bundle: the DynamoDB functions have it beside, for the first sampled invocation', () => {
    // The X-Ray SDK's daemon setting names it; Powertools' Tracer class is in no bundle either.
    expect(code()).not.toMatch(/AWS_XRAY_DAEMON_ADDRESS|captureAWSv3Client/);
    if (PUBLIC.includes(id)) return;
    const tracer = readFileSync(join(bundle().assetPath, 'tracing.mjs'), 'utf8');
    expect(tracer).toMatch(/AWS_XRAY_DAEMON_ADDRESS/);
    expect(tracer).toMatch(/captureAWSv3Client/);
    expect(code()).toContain('"./tracing.mjs"');
  });

  test('the schedule parser is beside the bundle where only some requests need it', () => {
    // Our own rejection text marks the parser's code.
    const parser = /Could not understand/;
    if (!SCHEDULES_BESIDE.includes(id)) {
      expect(code().includes('"./schedules.mjs"')).toBe(false);
      return;
    }
    expect(code()).not.toMatch(parser);
    expect(code()).toContain('"./schedules.mjs"');
    expect(readFileSync(join(bundle().assetPath, 'schedules.mjs'), 'utf8')).toMatch(parser);
    // It stands alone: the file the bundle imports reads a schedule, and loads chrono-node beside it to word a rejection.
    const described = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { describeSchedule } = await import(process.argv[1]);
         const now = new Date('2026-11-23T10:00:00Z');
         let rejected;
         try { describeSchedule('next month at 9', { now }); } catch (error) { rejected = error.detail; }
         process.stdout.write(JSON.stringify({ ...describeSchedule('every weekday at 9am', { timezone: 'Europe/Berlin', now }), rejected }));`,
        join(bundle().assetPath, 'schedules.mjs'),
      ],
      { env: BUNDLE_ENV, encoding: 'utf8' },
    );
    expect(JSON.parse(described)).toMatchObject({
      schedule_info: { schedule_type: 'weekly', schedule_time: '09:00', days_of_week: [1, 2, 3, 4, 5] },
      next_run_at: '2026-11-24T08:00:00Z',
      rejected: expect.stringContaining('one-off dates such as "next month at 9" are not supported'),
    });
  });

  test('chrono-node is beside the functions that parse schedules, in no bundle or parser file', () => {
    // A word only chrono-node's English dates hold.
    const chrono = /overmorrow/;
    expect(code()).not.toMatch(chrono);
    if (SCHEDULES_BESIDE.includes(id)) {
      expect(readFileSync(join(bundle().assetPath, 'schedules.mjs'), 'utf8')).not.toMatch(chrono);
    }
    if (!PARSES.includes(id)) return;
    expect(readFileSync(join(bundle().assetPath, 'chrono.cjs'), 'utf8')).toMatch(chrono);
  });

  test('the source maps cover our code only, named from the project root', () => {
    const maps = readdirSync(bundle().assetPath).filter((file) => file.endsWith('.map'));
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(bundle().assetPath, file), 'utf8')) as {
        sources: string[];
        sourcesContent?: unknown;
      };
      expect(map.sources.length).toBeGreaterThan(0);
      // package.json: the OpenAPI document's version is the package's.
      expect(map.sources.filter((source) => !/^((functions|shared)\/[\w/.-]+\.ts|package\.json)$/.test(source))).toEqual([]);
      expect(map.sourcesContent).toBeUndefined();
    }
  });

  test('node:http is never imported as ESM: on Node 22 its namespace loads undici (BUNDLE_ALIASES)', () => {
    for (const file of readdirSync(bundle().assetPath).filter((name) => /\.[mc]?js$/.test(name))) {
      const text = readFileSync(join(bundle().assetPath, file), 'utf8');
      // `from "node:http"`, `import "http"`, `import("node:http")`; a CommonJS require builds no namespace.
      const imports = text.match(/\b(?:from|import)\s*\(?\s*["'](?:node:)?http["']/g);
      expect({ file, imports }).toEqual({ file, imports: null });
    }
  });

  test('loads in a fresh node process and exports the handler', () => {
    const type = runWithBundle('process.stdout.write(typeof m.handler);');
    expect(type).toBe('function');
  });

  if (id === 'deliver-runs') {
    test("a container's first log line loads Powertools from beside the bundle: JSON lines, the first invocation the cold start", () => {
      // An unreadable message is logged and dropped before any I/O.
      const invoke = `
        const context = (id) => ({ awsRequestId: id, functionName: 'f', functionVersion: '1', memoryLimitInMB: '256', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:f', getRemainingTimeInMillis: () => 10000 });
        // Lambda keeps both streams; the lines are read from one.
        process.stderr.write = process.stdout.write.bind(process.stdout);
        for (const id of ['one', 'two']) await m.handler({ Records: [{ messageId: 'm-' + id, body: 'not a message' }] }, context(id));`;
      const printed = runWithBundle(invoke, { AWS_LAMBDA_FUNCTION_NAME: 'f', AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' });
      const lines = printed
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((line) => [line.level, line.message, line.message_id, line.function_request_id, line.cold_start])).toEqual(
        [
          ['ERROR', 'Unreadable delivery message, dropped', 'm-one', 'one', true],
          ['ERROR', 'Unreadable delivery message, dropped', 'm-two', 'two', false],
        ],
      );
    });
  }

  // The HTTP functions only: a job's handler reaches DynamoDB before anything that could throw.
  if (!FUNCTIONS.some((fn) => fn.id === id)) return;
  test('an error inside the bundle is traced to our source lines, without --enable-source-maps', () => {
    // No context: the first thing that reads it (the correlation id) throws a TypeError in our code.
    const stack = runWithBundle('try { await m.handler({}, undefined); } catch (error) { process.stdout.write(error.stack); }');
    expect(stack).toMatch(/^TypeError: /);
    expect(stack).toMatch(/\((shared\/http|functions)\/[\w-]+\.ts:\d+:\d+\)/);
    expect(stack).not.toContain('node_modules');
  });

  if (PUBLIC.includes(id)) return;
  test('deployed, a sampled invocation loads the tracer from beside the bundle, an unsampled one does not', () => {
    // A request to one of its routes refused before any I/O (no credentials); cls-hooked, under
    // the X-Ray SDK, keeps its namespaces on `process`.
    const route = routesOf(id as FunctionId)[0]!;
    const path = route.path.replace(/\{\w+\}/g, 'x');
    const invoke = `
      const event = { version: '2.0', routeKey: '${route.method} ${route.path}', rawPath: '${path}', headers: {}, requestContext: { requestId: 'r', stage: '$default', http: { method: '${route.method}', path: '${path}' } } };
      const context = { awsRequestId: 'a', functionName: 'f', functionVersion: '1', memoryLimitInMB: '256', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:f', getRemainingTimeInMillis: () => 10000 };
      const { statusCode } = await m.handler(event, context);
      process.stdout.write('\\n' + JSON.stringify({ statusCode, tracer: Boolean(process.namespaces?.AWSXRay) }));`;
    const lambda = (sampled: 0 | 1) => ({
      AWS_LAMBDA_FUNCTION_NAME: 'f',
      POWERTOOLS_SERVICE_NAME: 'knap-api',
      LAMBDA_TASK_ROOT: bundle().assetPath,
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
      _X_AMZN_TRACE_ID: `Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8;Sampled=${sampled}`,
    });
    for (const sampled of [0, 1] as const) {
      // The last line: the metrics' EMF lines come before it.
      const lines = runWithBundle(invoke, lambda(sampled)).split('\n');
      const outcome = JSON.parse(lines.at(-1) ?? '{}') as { statusCode?: number; tracer?: boolean };
      expect(outcome.statusCode).toBeGreaterThanOrEqual(400);
      expect(outcome.statusCode).toBeLessThan(500);
      expect(outcome.tracer).toBe(sampled === 1);
      // A 401 is counted: Powertools' Metrics, loaded from beside the bundle, wrote it as EMF.
      const emf = lines.filter((line) => line.includes('"_aws"')).map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(emf.map((line) => [line.Unauthorized, line.service])).toEqual(outcome.statusCode === 401 ? [[1, 'knap-api']] : []);
    }
  });
});

/** A deployed function's environment, over a local table, for the asset at `assetPath`. */
const deployedEnv = (table: TestTable, assetPath: string) => ({
  ...BUNDLE_ENV,
  TABLE_NAME: table.tableName,
  DYNAMODB_ENDPOINT: table.endpoint,
  TOKEN_SIGNING_KEYS: TEST_TOKEN_KEY.toString('utf8'),
  AWS_LAMBDA_FUNCTION_NAME: 'f',
  LAMBDA_TASK_ROOT: assetPath,
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
});

describe('token bundle, deployed, with X-Ray', () => {
  let table: TestTable;
  beforeAll(async () => {
    table = await startTestTable();
  });
  afterAll(() => table.close());

  test("a sampled invocation's DynamoDB calls are subsegments, made through the SDK beside the bundle; an unsampled one's none", async () => {
    // A stand-in for the X-Ray daemon: each UDP message is a header line and a (sub)segment.
    const daemon = createSocket('udp4');
    const received: { name?: string; trace_id?: string; aws?: { operation?: string } }[] = [];
    daemon.on('message', (message) => received.push(JSON.parse(message.toString('utf8').split('\n')[1] ?? '{}')));
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    try {
      const client = await createApiClient(table.deps(), { orgName: 'traced', name: 'x-ray' });
      const event = formEvent('POST /api/oauth/token', {
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
      });
      const assetPath = bundles.get(functionLogicalId('token'))!.assetPath;
      // An unsampled grant, a sampled one, an unsampled one again: each Root names its sampling.
      const script = `
        const m = await import(process.argv[1]);
        const context = { awsRequestId: 'a', functionName: 'f', functionVersion: '1', memoryLimitInMB: '256', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:f', getRemainingTimeInMillis: () => 10000 };
        for (const sampled of [0, 1, 0]) {
          process.env._X_AMZN_TRACE_ID = 'Root=1-67891233-abcdef01234567891234567' + sampled + ';Parent=53995c3f42cd8ad8;Sampled=' + sampled;
          const { statusCode } = await m.handler(${JSON.stringify(event)}, context);
          process.stdout.write('\\nSTATUS ' + statusCode + '\\n');
        }
        // A turn of the event loop for the daemon's last datagram before the process ends.
        await new Promise((resolve) => setTimeout(resolve, 200));`;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--input-type=module', '-e', script, join(assetPath, 'index.mjs')],
        {
          env: {
            ...deployedEnv(table, assetPath),
            AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
          },
          encoding: 'utf8',
        },
      );
      // (The metrics' EMF lines come between.)
      expect([...stdout.matchAll(/^STATUS (\d+)$/gm)].map((match) => match[1])).toEqual(['200', '200', '200']);
      // The grant's two calls (the client's counter, the grant), recorded when they end.
      for (let waited = 0; received.length < 2 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      expect(received.map((segment) => [segment.name, segment.trace_id, segment.aws?.operation]).sort()).toEqual([
        ['DynamoDB', '1-67891233-abcdef012345678912345671', 'PutItem'],
        ['DynamoDB', '1-67891233-abcdef012345678912345671', 'UpdateItem'],
      ]);
    } finally {
      daemon.close();
    }
  }, 60_000);
});

describe('create-knap bundle, deployed', () => {
  let table: TestTable;
  beforeAll(async () => {
    table = await startTestTable();
  });
  afterAll(() => table.close());

  /**
   * Grants a token, then runs one request through a function's real bundle, in a fresh node
   * process (`before` the request, `env` beside the table's).
   */
  const requestThrough = async (
    functionId: string,
    routeKey: string,
    body: unknown,
    {
      env = {},
      before,
      presented = (token) => token,
      raw,
    }: {
      env?: Record<string, string>;
      before?: (clientId: string) => Promise<unknown>;
      /** The token as the request presents it (altered by an attacker's test). */
      presented?: (token: string) => string;
      /** The body's text as sent, when JSON.stringify cannot write it (a number no double holds). */
      raw?: string;
    } = {},
  ) => {
    const deps = table.deps();
    const client = await createApiClient(deps, { orgName: 'bundled', name: `cold-start ${functionId}` });
    const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret };
    const granted = await tokenHandler(deps)(formEvent('POST /api/oauth/token', form), context());
    const { access_token: token } = JSON.parse(granted.body ?? '{}') as { access_token: string };
    await before?.(client.clientId);
    const event = httpEvent(routeKey, {
      headers: { authorization: `Bearer ${presented(token)}`, 'content-type': 'application/json' },
      body: raw ?? JSON.stringify(body),
    });
    // Not execFileSync: a test's own server (Secrets Manager's stand-in) answers the bundle meanwhile.
    const { stdout: printed } = await promisify(execFile)(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(process.argv[1]); const r = await m.handler(${JSON.stringify(event)}, { awsRequestId: 'a', getRemainingTimeInMillis: () => 10000 });
         process.stdout.write('\\n' + JSON.stringify({ status: r.statusCode, body: JSON.parse(r.body), text: r.body }));`,
        join(bundles.get(functionLogicalId(functionId))!.assetPath, 'index.mjs'),
      ],
      {
        env: {
          ...BUNDLE_ENV,
          DYNAMODB_ENDPOINT: table.endpoint,
          TABLE_NAME: table.tableName,
          TOKEN_SIGNING_KEYS: TEST_TOKEN_KEY.toString('utf8'),
          ...env,
        },
        encoding: 'utf8',
      },
    );
    return JSON.parse(printed.split('\n').at(-1) ?? '{}') as { status: number; body: Record<string, unknown>; text: string };
  };

  test('a number no double holds keeps its digits through the bundle: lossless-json loads from beside it', async () => {
    const raw = '{"name":"big ids","schedule_type":"manual","tool_metadata":{"id":12345678901234567890,"ratio":0.1,"n":1e400}}';
    const created = await requestThrough('create-knap', 'POST /api/studio/knap-tools', undefined, { raw });
    expect(created.status).toBe(201);
    expect(created.text).toContain('"tool_metadata":{"id":12345678901234567890,"ratio":0.1,"n":1e400}');
  }, 60_000);

  test('a scheduled Knap is created through the parser beside the bundle, a manual one without it', async () => {
    const create = (body: unknown) => requestThrough('create-knap', 'POST /api/studio/knap-tools', body);
    const scheduled = await create({
      name: 'weekday mornings',
      schedule_type: 'scheduled',
      tool_metadata: { schedule_description: 'every weekday at 9am', timezone: 'Europe/Berlin' },
    });
    expect(scheduled.status).toBe(201);
    expect(scheduled.body.schedule_info).toMatchObject({ schedule_type: 'weekly', schedule_time: '09:00' });
    expect(scheduled.body.next_run_at).toEqual(expect.any(String));
    const manual = await create({ name: 'by hand', schedule_type: 'manual', tool_metadata: {} });
    expect(manual.status).toBe(201);
    expect(manual.body.schedule_info).toBeNull();
  }, 60_000);

  test("the SDK's client in the bundle makes the calls; its refusals are the store's own exceptions", async () => {
    const manual = await requestThrough('create-knap', 'POST /api/studio/knap-tools', {
      name: 'through the SDK',
      schedule_type: 'manual',
      tool_metadata: {},
    });
    expect(manual.status).toBe(201);
    // A revoked client's token: the metering write's condition fails in the SDK's copy of the
    // exception class, which the store must still know for a refusal (401), not a fault (500).
    const revoked = await requestThrough(
      'create-knap',
      'POST /api/studio/knap-tools',
      { name: 'refused', schedule_type: 'manual', tool_metadata: {} },
      { before: (clientId) => revokeClient(table.deps(), clientId) },
    );
    expect(revoked.status).toBe(401);
  }, 60_000);

  test('an altered, truncated or extended token is refused by the bundle as by the source', async () => {
    // The variants test/e2e/exact-tokens.test.ts tries at length: the end cut or extended first, then a spread.
    const VARIANTS = 8;
    for (let variant = 0; variant < VARIANTS; variant += 1) {
      const refused = await requestThrough(
        'create-knap',
        'POST /api/studio/knap-tools',
        { name: 'refused', schedule_type: 'manual', tool_metadata: {} },
        { presented: (token) => sampleOneCharacterAway(token, VARIANTS)[variant] as string },
      );
      expect([variant, refused.status, typeof refused.body.detail]).toEqual([variant, 401, 'string']);
    }
  }, 60_000);

  test('deployed, the token keys come from Secrets Manager through the client loaded beside the bundle: a genuine token is taken, an altered one refused', async () => {
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:knap-token-keys';
    const reads: { target: unknown; secretId: unknown }[] = [];
    // Secrets Manager's stand-in: GetSecretValue answers the test key as `current`.
    const secrets = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      request.on('end', () => {
        reads.push({ target: request.headers['x-amz-target'], secretId: (JSON.parse(body) as { SecretId?: unknown }).SecretId });
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        response.end(
          JSON.stringify({
            ARN: arn,
            Name: 'knap-token-keys',
            SecretString: JSON.stringify({ current: TEST_TOKEN_KEY.toString('utf8') }),
          }),
        );
      });
    });
    await new Promise<void>((resolve) => secrets.listen(0, '127.0.0.1', resolve));
    try {
      const env = {
        TOKEN_SIGNING_KEYS: '',
        TOKEN_KEYS_SECRET_ARN: arn,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(secrets.address() as AddressInfo).port}`,
        AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
        AWS_SECRET_ACCESS_KEY: 'example-secret',
      };
      const body = { name: 'keys from the secret', schedule_type: 'manual', tool_metadata: {} };
      const created = await requestThrough('create-knap', 'POST /api/studio/knap-tools', body, { env });
      expect(created.status).toBe(201);
      const altered = await requestThrough('create-knap', 'POST /api/studio/knap-tools', body, {
        env,
        presented: (token) => sampleOneCharacterAway(token, 1)[0] as string,
      });
      expect([altered.status, typeof altered.body.detail]).toEqual([401, 'string']);
      // One read, of the secret the environment names: the cut token is refused before any key is read.
      expect(reads).toEqual([{ target: 'secretsmanager.GetSecretValue', secretId: arn }]);
    } finally {
      secrets.close();
    }
  }, 60_000);

  test('a preview rejecting a one-off date names it, with chrono-node loaded from beside the bundle', async () => {
    const preview = await requestThrough('knaps', 'POST /api/studio/schedules/preview', {
      schedule_description: 'next month at 9',
    });
    expect(preview.status).toBe(400);
    expect(preview.body.detail).toContain('one-off dates such as "next month at 9" are not supported');
  }, 60_000);
});
