/**
 * What operators and integrators see of a request besides its answer: the X-Request-Id header
 * on every response, the same id on every log line written for it, and the CloudWatch
 * embedded-metric (EMF) lines the functions print, as the Lambda log agent reads them.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { createHandler as createKnapHandler } from '../../functions/create-knap/handler.js';
import { dispatcherMetrics, createHandler as dispatchHandler } from '../../functions/dispatch-runs/handler.js';
import { createHandler as listKnapsHandler } from '../../functions/knaps/list-knaps.js';
import { createHandler as tokenHandler } from '../../functions/token/handler.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import { EmfMetrics } from '../../shared/lambda/metrics.js';
import { KnapLogger } from '../../shared/logger.js';
import { createApiClient } from '../../shared/services/admin-service.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { context, httpEvent } from '../support/events.js';
import { failingRepo } from '../support/failing-repo.js';

let table: TestTable;
let clock: FakeClock;
let deps: ReturnType<TestTable['deps']>;

beforeAll(async () => {
  table = await startTestTable();
  clock = new FakeClock();
  deps = table.deps(clock);
});
afterAll(() => table.close());

/** An event as API Gateway sends it, with a request id of its own. */
const withId = (event: HttpEvent, requestId: string): HttpEvent => ({
  ...event,
  requestContext: { ...event.requestContext, requestId },
});

const tokenRequest = (fields: Record<string, string>, requestId: string) =>
  withId(
    httpEvent('POST /api/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }),
    requestId,
  );

const grantFields = (client: { clientId: string; clientSecret: string }) => ({
  grant_type: 'client_credentials',
  client_id: client.clientId,
  client_secret: client.clientSecret,
});

/** Runs `work` and returns what it printed, line by line (Powertools writes errors to stderr, the rest to stdout). */
const stdoutOf = async (work: () => Promise<unknown>): Promise<string[]> => {
  const written: string[] = [];
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof stream.write;
  }
  try {
    await work();
  } finally {
    streams.forEach((stream, index) => {
      stream.write = writes[index] as typeof stream.write;
    });
  }
  return written.join('').split('\n').filter(Boolean);
};

interface EmfLine {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

const emfLines = (lines: string[]): EmfLine[] =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line): line is EmfLine => '_aws' in line);

/** Each metric printed, with its dimensions' values and its value. */
const metricsIn = (lines: string[]) =>
  emfLines(lines).flatMap((line) =>
    line._aws.CloudWatchMetrics.flatMap((directive) =>
      directive.Metrics.map((metric) => ({
        namespace: directive.Namespace,
        name: metric.Name,
        unit: metric.Unit,
        value: line[metric.Name],
        dimensions: Object.fromEntries((directive.Dimensions[0] ?? []).map((name) => [name, line[name]])),
      })),
    ),
  );

const header = (result: HttpResult) => result.headers?.['X-Request-Id'];

describe('X-Request-Id: API Gateway request id on every response', () => {
  test('on a 200, a 401, a 429 and a 500, errors included', async () => {
    const client = await createApiClient(deps, { orgName: 'telemetry', name: 'headers', rateLimit: 2 });
    const token = tokenHandler(deps);
    const ok = await token(tokenRequest(grantFields(client), 'req-200'), context());
    expect(ok.statusCode).toBe(200);
    expect(header(ok)).toBe('req-200');

    const wrong = await token(tokenRequest({ ...grantFields(client), client_secret: 'knap_cs_wrong' }, 'req-401'), context());
    expect(wrong.statusCode).toBe(401);
    expect(header(wrong)).toBe('req-401');

    await token(tokenRequest(grantFields(client), 'req-second'), context());
    const limited = await token(tokenRequest(grantFields(client), 'req-429'), context());
    expect(limited.statusCode).toBe(429);
    expect(header(limited)).toBe('req-429');

    const { access_token } = JSON.parse(ok.body ?? '{}');
    const roomy = await createApiClient(deps, { orgName: 'telemetry', name: 'roomy', rateLimit: 1000 });
    const roomyToken = JSON.parse((await token(tokenRequest(grantFields(roomy), 'req-roomy'), context())).body ?? '{}');
    const failing = createKnapHandler({ ...deps, repo: failingRepo(deps.repo, 'putKnap') });
    deps.log.lines.length = 0;
    const broken = await failing(
      withId(
        httpEvent('POST /api/studio/knap-tools', {
          headers: { authorization: `Bearer ${roomyToken.access_token}`, 'content-type': 'application/json' },
          body: '{"name":"x"}',
        }),
        'req-500',
      ),
      context(),
    );
    expect(broken.statusCode).toBe(500);
    expect(header(broken)).toBe('req-500');
    // The log lines written for that request carry its id.
    expect(deps.log.lines.length).toBeGreaterThan(0);
    for (const line of deps.log.lines) expect(line.correlation_id).toBe('req-500');
    expect(access_token).toMatch(/^knap_at_/);
  });

  test('a 400 for a malformed body and a 401 without a token carry it too', async () => {
    const list = await listKnapsHandler(deps)(withId(httpEvent('GET /api/studio/knap-tools'), 'req-no-token'), context());
    expect(list.statusCode).toBe(401);
    expect(header(list)).toBe('req-no-token');
    const bad = await tokenHandler(deps)(tokenRequest({ grant_type: 'password' }, 'req-400'), context());
    expect(bad.statusCode).toBe(400);
    expect(header(bad)).toBe('req-400');
  });
});

describe('log lines: the Lambda context and the correlation id', () => {
  test('every line a request writes is JSON with its correlation_id and the function it ran in', async () => {
    const log = new KnapLogger(new Logger({ serviceName: 'knap-api', logLevel: 'INFO' }));
    const failing = createKnapHandler({ ...deps, log, repo: failingRepo(deps.repo, 'putKnap') });
    const client = await createApiClient(deps, { orgName: 'telemetry', name: 'logs', rateLimit: 1000 });
    const granted = JSON.parse((await tokenHandler(deps)(tokenRequest(grantFields(client), 'grant'), context())).body ?? '{}');
    const lines = await stdoutOf(() =>
      failing(
        withId(
          httpEvent('POST /api/studio/knap-tools', {
            headers: { authorization: `Bearer ${granted.access_token}`, 'content-type': 'application/json' },
            body: '{"name":"x"}',
          }),
          'req-logged',
        ),
        context('CreateKnap'),
      ),
    );
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) {
      expect(line).toMatchObject({ correlation_id: 'req-logged', function_name: 'CreateKnap', service: 'knap-api' });
      expect(typeof line.function_request_id).toBe('string');
      expect(typeof line.cold_start).toBe('boolean');
    }
    expect(JSON.stringify(logged)).not.toContain(granted.access_token);
  });

  test('each line names the invocation that wrote it, and only the first is the cold start', async () => {
    // Powertools counts a cold start only in an on-demand Lambda (not a provisioned one, nor a test).
    const initialization = process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
    process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
    const log = new KnapLogger(new Logger({ serviceName: 'knap-api', logLevel: 'INFO' }));
    if (initialization === undefined) delete process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
    else process.env.AWS_LAMBDA_INITIALIZATION_TYPE = initialization;
    // Lambda's context is a class instance: keep it one, with a request id of each invocation's own.
    const invocation = (id: string) => Object.assign(context('Logged'), { awsRequestId: id });
    const lines = await stdoutOf(async () => {
      log.addContext(invocation('first'));
      log.info('one');
      log.addContext(invocation('second'));
      log.addContext(invocation('third'));
      log.within({ correlationId: 'req-3' }).warn('three');
      log.info('three again');
      log.addContext(invocation('fourth'));
      log.within({ correlationId: 'req-4' }).error('four');
    });
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.map((line) => [line.message, line.function_request_id, line.cold_start, line.function_name])).toEqual([
      ['one', 'first', true, 'Logged'],
      ['three', 'third', false, 'Logged'],
      ['three again', 'third', false, 'Logged'],
      ['four', 'fourth', false, 'Logged'],
    ]);
  });

  test('Powertools is made with the first line: the cold start is still the first invocation, whichever writes first', async () => {
    const initialization = process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
    process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
    let made = 0;
    const lazily = () =>
      new KnapLogger(() => {
        made += 1;
        return new Logger({ serviceName: 'knap-api', logLevel: 'INFO' });
      });
    const invocation = (id: string) => Object.assign(context('Lazy'), { awsRequestId: id });
    const quietFirst = lazily();
    const writesFirst = lazily();
    let lines: string[];
    try {
      lines = await stdoutOf(async () => {
        // The first invocation writes nothing: no Logger is made.
        quietFirst.addContext(invocation('first'));
        quietFirst.within({ correlationId: 'req-1' });
        expect(made).toBe(0);
        quietFirst.addContext(invocation('second'));
        quietFirst.within({ correlationId: 'req-2' }).info('two');
        quietFirst.info('two again');
        quietFirst.addContext(invocation('third'));
        quietFirst.warn('three');
        expect(made).toBe(1);
        writesFirst.addContext(invocation('one'));
        writesFirst.within({ correlationId: 'req-one' }).error('one');
        writesFirst.addContext(invocation('two'));
        writesFirst.info('two');
      });
    } finally {
      if (initialization === undefined) delete process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
      else process.env.AWS_LAMBDA_INITIALIZATION_TYPE = initialization;
    }
    expect(made).toBe(2);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.map((line) => [line.message, line.function_request_id, line.cold_start, line.correlation_id])).toEqual([
      ['two', 'second', false, 'req-2'],
      ['two again', 'second', false, undefined],
      ['three', 'third', false, undefined],
      ['one', 'one', true, 'req-one'],
      ['two', 'two', false, undefined],
    ]);
  });

  test('outside a request a line has no correlation id', async () => {
    const log = new KnapLogger(new Logger({ serviceName: 'knap-api', logLevel: 'INFO' }));
    const [line] = await stdoutOf(async () => log.info('between requests'));
    expect(JSON.parse(line ?? '{}')).not.toHaveProperty('correlation_id');
  });
});

describe('metrics: CloudWatch embedded metric format, namespace KnapApi', () => {
  test('a token grant, a 401 and a 429 print TokensIssued, Unauthorized by reason and RateLimited', async () => {
    const metrics = new EmfMetrics({ serviceName: 'knap-api' });
    const token = tokenHandler({ ...deps, metrics });
    const client = await createApiClient(deps, { orgName: 'telemetry', name: 'metrics', rateLimit: 2 });
    const lines = await stdoutOf(async () => {
      await token(tokenRequest(grantFields(client), 'm-1'), context());
      await token(tokenRequest({ ...grantFields(client), client_secret: 'knap_cs_wrong' }, 'm-2'), context());
      await token(tokenRequest(grantFields(client), 'm-3'), context());
      await token(tokenRequest(grantFields(client), 'm-4'), context());
    });
    // One flush per invocation: a line for each invocation that counted something.
    expect(emfLines(lines)).toHaveLength(4);
    const printed = metricsIn(lines);
    for (const metric of printed) expect(metric.namespace).toBe('KnapApi');
    expect(printed).toEqual([
      {
        namespace: 'KnapApi',
        name: 'TokensIssued',
        unit: 'Count',
        value: 1,
        dimensions: { service: 'knap-api', grant_type: 'client_credentials' },
      },
      {
        namespace: 'KnapApi',
        name: 'Unauthorized',
        unit: 'Count',
        value: 1,
        dimensions: { service: 'knap-api', reason: 'invalid_client' },
      },
      {
        namespace: 'KnapApi',
        name: 'TokensIssued',
        unit: 'Count',
        value: 1,
        dimensions: { service: 'knap-api', grant_type: 'client_credentials' },
      },
      { namespace: 'KnapApi', name: 'RateLimited', unit: 'Count', value: 1, dimensions: { service: 'knap-api' } },
    ]);
    expect(lines.join('\n')).not.toContain(client.clientSecret);
  });

  test('a Knap created counts KnapsCreated; the in-memory port sees the same names', async () => {
    const client = await createApiClient(deps, { orgName: 'telemetry', name: 'creator', rateLimit: 1000 });
    const granted = JSON.parse((await tokenHandler(deps)(tokenRequest(grantFields(client), 'grant'), context())).body ?? '{}');
    const before = deps.metrics.total('KnapsCreated');
    const created = await createKnapHandler(deps)(
      httpEvent('POST /api/studio/knap-tools', {
        headers: { authorization: `Bearer ${granted.access_token}`, 'content-type': 'application/json' },
        body: '{"name":"counted"}',
      }),
      context(),
    );
    expect(created.statusCode).toBe(201);
    expect(deps.metrics.total('KnapsCreated')).toBe(before + 1);
    expect(deps.metrics.total('TokensIssued', { grant_type: 'client_credentials' })).toBeGreaterThan(0);
  });
});

describe('DispatcherLagSeconds: one metric, dimension service=dispatch-runs, on every pass', () => {
  const lagOf = (lines: string[]) => {
    const printed = metricsIn(lines).filter((metric) => metric.name === 'DispatcherLagSeconds');
    expect(printed).toHaveLength(1);
    const [lag] = printed;
    expect(lag).toMatchObject({ namespace: 'KnapApi', unit: 'Seconds', dimensions: { service: 'dispatch-runs' } });
    // Exactly the one dimension the alarm in lib/monitoring.ts names.
    const [line] = emfLines(lines);
    expect(line?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service']]);
    return lag?.value;
  };

  test('0 when nothing is due; then now minus the oldest due occurrence', async () => {
    const dispatcher = dispatchHandler({ ...deps, metrics: dispatcherMetrics({ AWS_LAMBDA_FUNCTION_NAME: 'DispatchRuns' }) });
    clock.set('2026-11-23T10:00:05Z');
    // Whatever earlier tests left due is dispatched first.
    await stdoutOf(() => dispatcher());
    expect(lagOf(await stdoutOf(() => dispatcher()))).toBe(0);

    const client = await createApiClient(deps, { orgName: 'telemetry', name: 'scheduler', rateLimit: 1000 });
    const granted = JSON.parse((await tokenHandler(deps)(tokenRequest(grantFields(client), 'grant'), context())).body ?? '{}');
    const created = await createKnapHandler(deps)(
      httpEvent('POST /api/studio/knap-tools', {
        headers: { authorization: `Bearer ${granted.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'daily',
          schedule_type: 'scheduled',
          tool_metadata: { schedule_description: 'every day at 11:00 UTC' },
        }),
      }),
      context(),
    );
    expect(created.statusCode).toBe(201);
    clock.set('2026-11-23T11:02:05Z');
    expect(lagOf(await stdoutOf(() => dispatcher()))).toBe(125);
    // Claimed: the next pass finds nothing due.
    expect(lagOf(await stdoutOf(() => dispatcher()))).toBe(0);
  });
});
