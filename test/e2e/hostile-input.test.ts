import AWSXRay from 'aws-xray-sdk-core';
import fc from 'fast-check';
import { createHandler as createKnapHandler } from '../../functions/create-knap/handler.js';
import { createHandler as listKnapsHandler } from '../../functions/knaps/list-knaps.js';
import { createHandler as tokenHandler } from '../../functions/token/handler.js';
import { hashCredential } from '../../shared/domain/credentials.js';
import type { HttpResult } from '../../shared/http/types.js';
import { lambdaTracer, traced } from '../../shared/lambda/tracing.js';
import { createApiClient } from '../../shared/services/admin-service.js';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { context, formEvent, httpEvent } from '../support/events.js';
import { failingRepo } from '../support/failing-repo.js';

let table: TestTable;
let deps: ReturnType<TestTable['deps']>;
let accessToken: string;
let handlers: {
  token: ReturnType<typeof tokenHandler>;
  create: ReturnType<typeof createKnapHandler>;
  list: ReturnType<typeof listKnapsHandler>;
};

beforeAll(async () => {
  table = await startTestTable();
  deps = table.deps(new FakeClock());
  handlers = { token: tokenHandler(deps), create: createKnapHandler(deps), list: listKnapsHandler(deps) };
  const client = await createApiClient(deps, { orgName: 'hostile', name: 'fuzz', rateLimit: 1_000_000 });
  const granted = await handlers.token(
    formEvent('POST /api/oauth/token', {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
    context(),
  );
  accessToken = JSON.parse(granted.body ?? '{}').access_token;
});
afterAll(() => table.close());

/** Never a 5xx; every error is exactly `{"detail": "<non-empty string>"}` in JSON. */
const expectWellFormed = (result: HttpResult, allowed: number[]) => {
  expect(allowed).toContain(result.statusCode);
  expect(result.headers?.['Content-Type']).toBe('application/json');
  const parsed = JSON.parse(result.body ?? '');
  if ((result.statusCode ?? 500) >= 400) {
    expect(Object.keys(parsed)).toEqual(['detail']);
    expect(typeof parsed.detail).toBe('string');
    expect(parsed.detail.length).toBeGreaterThan(0);
  }
};

const contentTypes = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/x-www-form-urlencoded',
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/vnd.api+json',
    '',
  ),
  fc.string({ maxLength: 40 }),
);

const deepJson = fc.integer({ min: 1, max: 3000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
const deepArrays = fc
  .integer({ min: 1, max: 3000 })
  .map((depth) => `{"name":"x","tool_metadata":{"d":${'['.repeat(depth)}${']'.repeat(depth)}}}`);

const bodies = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.json({ maxDepth: 6 }),
  fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify({ name: 'n', tool_metadata: value })),
  fc
    .record(
      {
        name: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer(), fc.constant(null)),
        schedule_type: fc.oneof(fc.constantFrom('manual', 'scheduled', 'post_meeting_transcription'), fc.string()),
        visibility: fc.oneof(fc.constantFrom('private', 'public', 'hostile', 'other'), fc.string()),
        is_active: fc.oneof(fc.boolean(), fc.string()),
        tool_metadata: fc.oneof(
          fc.record(
            { schedule_description: fc.string({ unit: 'grapheme', maxLength: 200 }), timezone: fc.string() },
            { requiredKeys: [] },
          ),
          fc.jsonValue(),
        ),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  deepJson,
  deepArrays,
  fc.constantFrom(
    '{"name":"x"',
    '[]',
    'null',
    '"str"',
    '1e400',
    '{"name":"\\ud800"}',
    '{"__proto__":{"name":1}}',
    '{"name":"x","tool_metadata":{"n":1e400}}',
  ),
  // Integers past 2^53 (users' 64-bit ids): once a 500 on every retry.
  fc
    .bigInt({ min: -(2n ** 70n), max: 2n ** 70n })
    .map((id) => `{"name":"crm","tool_metadata":{"external_id":${id},"ids":[${id},${-id}]}}`),
  fc
    .integer({ min: 1, max: 3 })
    .map((megabytes) => JSON.stringify({ name: 'big', tool_metadata: { x: 'y'.repeat(megabytes * 400_000) } })),
);

describe('hostile input never gets a 5xx', () => {
  test('POST /api/studio/knap-tools: random bodies, content types and encodings', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, contentTypes, fc.boolean(), async (body, contentType, base64) => {
        const result = await handlers.create(
          httpEvent('POST /api/studio/knap-tools', {
            headers: { authorization: `Bearer ${accessToken}`, ...(contentType ? { 'content-type': contentType } : {}) },
            body: base64 ? Buffer.from(body).toString('base64') : body,
            isBase64Encoded: base64,
          }),
          context(),
        );
        expectWellFormed(result, [201, 400, 413, 415]);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  test('POST /api/oauth/token: random forms, bodies, content types and Authorization headers', async () => {
    const formish = fc
      .dictionary(
        fc.oneof(
          fc.constantFrom('grant_type', 'client_id', 'client_secret', 'refresh_token', 'scope'),
          fc.string({ maxLength: 10 }),
        ),
        fc.oneof(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.constantFrom('client_credentials', 'refresh_token')),
      )
      .map((fields) => new URLSearchParams(fields).toString());
    const authorization = fc.oneof(
      fc.constant(undefined),
      fc.string({ maxLength: 60 }).map((raw) => `Basic ${Buffer.from(raw).toString('base64')}`),
      fc.string({ unit: 'binary', maxLength: 60 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(formish, bodies),
        contentTypes,
        authorization,
        fc.boolean(),
        async (body, contentType, auth, base64) => {
          const result = await handlers.token(
            httpEvent('POST /api/oauth/token', {
              headers: {
                ...(contentType ? { 'content-type': contentType } : {}),
                ...(auth !== undefined ? { authorization: auth } : {}),
              },
              body: base64 ? Buffer.from(body).toString('base64') : body,
              isBase64Encoded: base64,
            }),
            context(),
          );
          expectWellFormed(result, [400, 401, 413, 415]);
          expect(result.headers?.['Cache-Control']).toBe('no-store');
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);

  test('the bearer header: unicode, CR/LF injection, huge values, near-miss tokens', async () => {
    const header = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ maxLength: 100 }).map((value) => `Bearer ${value}`),
      fc.string({ maxLength: 50 }).map((value) => `Bearer ${accessToken}\r\n${value}`),
      fc.string({ maxLength: 50 }).map((value) => `Bearer knap_at_${value}`),
      fc.integer({ min: 1, max: 20_000 }).map((size) => `Bearer knap_at_${'a'.repeat(size)}`),
      fc.constantFrom(
        `Bearer ${accessToken.slice(0, -1)}`,
        `Bearer ${accessToken}x`,
        `Bearer  ${accessToken}`,
        `bearer\t${accessToken}`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(header, fc.boolean(), async (authorization, post) => {
        const event = post
          ? httpEvent('POST /api/studio/knap-tools', {
              headers: { authorization, 'content-type': 'application/json' },
              body: '{"name":"x"}',
            })
          : httpEvent('GET /api/studio/knap-tools', { headers: { authorization } });
        const result = await (post ? handlers.create : handlers.list)(event, context());
        expectWellFormed(result, [200, 201, 401]);
        if (result.statusCode === 401) expect(result.headers?.['WWW-Authenticate']).toMatch(/^Bearer realm="knap"/);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  test('GET /api/studio/knap-tools: random and edited cursors are a 400, never a 5xx', async () => {
    const inner = fc
      .dictionary(fc.constantFrom('pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'x'), fc.jsonValue({ maxDepth: 2 }))
      .map((value) => Buffer.from(JSON.stringify(value)).toString('base64url'));
    const cursor = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc
        .record({ mine: fc.oneof(inner, fc.constant(null)), shared: fc.oneof(inner, fc.constant(null)) })
        .map((outer) => Buffer.from(JSON.stringify(outer)).toString('base64url')),
    );
    await fc.assert(
      fc.asyncProperty(cursor, async (value) => {
        const result = await handlers.list(
          httpEvent('GET /api/studio/knap-tools', {
            headers: { authorization: `Bearer ${accessToken}` },
            query: { cursor: value },
          }),
          context(),
        );
        expectWellFormed(result, [200, 400]);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  test('no credential, token or hash of one ever reaches the logs', async () => {
    // Everything logged by the handlers above and below went to this capturing log.
    const client = await createApiClient(deps, { orgName: 'hostile', name: 'secrets', rateLimit: 1_000_000 });
    const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret };
    const post = (fields: Record<string, string>) =>
      handlers.token(
        httpEvent('POST /api/oauth/token', {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        }),
        context(),
      );
    const tokens = JSON.parse((await post(form)).body ?? '{}');
    await post({ ...form, grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    await post({ ...form, client_secret: `${client.clientSecret}x` });
    const failingDeps = { ...deps, repo: failingRepo(deps.repo, 'putKnap') };
    await createKnapHandler(failingDeps)(
      httpEvent('POST /api/studio/knap-tools', {
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
        body: '{"name":"x"}',
      }),
      context(),
    );

    const logged = JSON.stringify(deps.log.lines);
    expect(deps.log.lines.length).toBeGreaterThan(0);
    for (const secret of [client.clientSecret, tokens.access_token, tokens.refresh_token, accessToken]) {
      expect(logged).not.toContain(secret);
      expect(logged).not.toContain(hashCredential(secret));
    }
    expect(logged).not.toMatch(/knap_(cs|at|rt)_/);
  }, 30_000);

  test("nor a trace: the DynamoDB client's X-Ray subsegments, their annotations and metadata", async () => {
    // The Tracer traces only in Lambda; look like one, with the segment Lambda would open.
    process.env.AWS_EXECUTION_ENV = 'AWS_Lambda_nodejs22.x';
    const tracer = lambdaTracer();
    expect(tracer.isTracingEnabled()).toBe(true);
    const segment = new AWSXRay.Segment('knap-api-test');
    segment.flush = () => {}; // no daemon to send it to
    const repo = new DynamoRepository(createDocumentClient({ endpoint: table.endpoint, capture: traced }), table.tableName);
    const tracedDeps = { ...deps, repo };
    const token = tokenHandler(tracedDeps);
    const client = await createApiClient(deps, { orgName: 'hostile', name: 'traced', rateLimit: 1_000_000 });
    const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret };
    const post = (fields: Record<string, string>) =>
      token(
        httpEvent('POST /api/oauth/token', {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        }),
        context(),
      );
    const tokens = await tracer.provider.getNamespace().runPromise(async () => {
      tracer.setSegment(segment);
      const granted = JSON.parse((await post(form)).body ?? '{}');
      await post({ ...form, grant_type: 'refresh_token', refresh_token: granted.refresh_token });
      await post({ ...form, client_secret: `${client.clientSecret}x` });
      const bearer = { authorization: `Bearer ${granted.access_token}`, 'content-type': 'application/json' };
      await createKnapHandler(tracedDeps)(
        httpEvent('POST /api/studio/knap-tools', { headers: bearer, body: '{"name":"t"}' }),
        context(),
      );
      await listKnapsHandler(tracedDeps)(httpEvent('GET /api/studio/knap-tools', { headers: bearer }), context());
      return granted as { access_token: string; refresh_token: string };
    });
    delete process.env.AWS_EXECUTION_ENV;
    segment.close();

    const subsegments = (segment.subsegments ?? []) as unknown as { name: string; aws?: { operation?: string } }[];
    // Every call was traced: the grant's conditional write, the refresh's reads, the Knap's put and query.
    const operations = subsegments.map((subsegment) => subsegment.aws?.operation);
    expect(subsegments.every((subsegment) => subsegment.name === 'DynamoDB')).toBe(true);
    expect(operations).toEqual(expect.arrayContaining(['UpdateItem', 'PutItem', 'Query']));
    const recorded = segment.format();
    for (const secret of [client.clientSecret, tokens.access_token, tokens.refresh_token]) {
      expect(recorded).not.toContain(secret);
      expect(recorded).not.toContain(hashCredential(secret));
    }
    expect(recorded).not.toMatch(/knap_(cs|at|rt)_/);
    // No key of any item (a token id or hash is one): table names and counts only.
    expect(recorded).not.toMatch(/CLIENT#|TOKEN#|REVOKED#|ORG#/);
  }, 30_000);
});

test('a Lambda context the handler cannot read fails as a rejected promise, never a throw', async () => {
  // A copy of the local server's context without its methods (no getRemainingTimeInMillis).
  const unreadable = { ...context() } as unknown as ReturnType<typeof context>;
  let answer: Promise<HttpResult> | undefined;
  expect(() => {
    answer = handlers.list(httpEvent('GET /api/studio/knap-tools', {}), unreadable);
  }).not.toThrow();
  await expect(answer).rejects.toBeInstanceOf(TypeError);
});
