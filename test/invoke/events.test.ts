import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, relative } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { matchPath, routes } from '../../functions/routes.js';
import { isTextContentType } from '../../local/http-adapter.js';
import { generatedEvents } from '../../scripts/generate-events.js';
import {
  expectedStatus,
  type InvokeEnvironment,
  invokeFile,
  listEventFiles,
  PROJECT_ROOT,
  readEvent,
  routeById,
  startInvokeEnvironment,
} from '../../scripts/invoke-core.js';

/**
 * Every event in events/ goes through the same code path as `npm run invoke` (the
 * function's module from the route table, a Lambda context, the fixtures) and must give
 * the status its file name starts with.
 */
const files = await listEventFiles();

let env: InvokeEnvironment;
beforeAll(async () => {
  // A fresh table of our own: in memory, or on TEST_DYNAMODB_ENDPOINT as the other suites do.
  if (process.env.TEST_DYNAMODB_ENDPOINT) process.env.DYNAMODB_ENDPOINT = process.env.TEST_DYNAMODB_ENDPOINT;
  else delete process.env.DYNAMODB_ENDPOINT;
  env = await startInvokeEnvironment({ tableName: `knap-invoke-${randomBytes(4).toString('hex')}` });
});
afterAll(() => env?.close());

/** Public routes without path parameters: nothing to refuse but an oversized body, so no refusal event. */
const NOTHING_TO_REFUSE = new Set(['openapi', 'docs']);

const name = (file: string) => relative(PROJECT_ROOT, file);
const headerOf = (result: APIGatewayProxyStructuredResultV2, header: string): string | undefined =>
  Object.entries(result.headers ?? {})
    .find(([key]) => key.toLowerCase() === header)?.[1]
    ?.toString();

describe('the events folder', () => {
  test('every function has events, at least one success and one refusal', () => {
    for (const route of routes) {
      const statuses = files.filter((entry) => entry.routeId === route.id).map((entry) => expectedStatus(entry.file));
      expect(statuses.some((status) => status !== null && status < 300)).toBe(true);
      if (!NOTHING_TO_REFUSE.has(route.id)) expect(statuses.some((status) => status !== null && status >= 400)).toBe(true);
    }
  });

  test('every file is named for its status: <status>-<case>.json', () => {
    for (const { file } of files) expect(basename(file)).toMatch(/^[1-5]\d\d-[a-z0-9-]+\.json$/);
  });

  test('the files are what scripts/generate-events.ts writes (edit its cases, then run it)', async () => {
    for (const { file, event } of generatedEvents()) {
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(event);
    }
  });
});

describe.each(files.map(({ routeId, file }) => [name(file), routeId, file] as const))('%s', (_name, routeId, file) => {
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
    const result = invocation.result as APIGatewayProxyStructuredResultV2;
    if (invocation.status === 204) {
      // No content: an empty body, and nothing to give a type to.
      expect(result.body ?? '').toBe('');
      expect(headerOf(result, 'content-type')).toBeUndefined();
      return;
    }
    const type = contentTypeOf(routeId, invocation.status, event);
    expect(headerOf(result, 'content-type')).toMatch(type);
    if (!type.test('application/json')) {
      expect(result.body?.length).toBeGreaterThan(0);
      return;
    }
    const body = JSON.parse(result.body ?? 'null') as Record<string, unknown>;
    if (invocation.status >= 400) {
      // Every refusal: {"detail": "..."}, never a stack trace.
      expect(Object.keys(body)).toEqual(['detail']);
      expect(typeof body.detail).toBe('string');
      expect(String(body.detail)).not.toMatch(/\n\s+at /);
    }
    if (invocation.status === 401 && routeId !== 'token') expect(headerOf(result, 'www-authenticate')).toMatch(/^Bearer/);
    if (invocation.status === 429) {
      expect(Number(headerOf(result, 'retry-after'))).toBeGreaterThan(0);
      expect(headerOf(result, 'ratelimit-remaining')).toBe('0');
    }
    if (routeId === 'token') expect(headerOf(result, 'cache-control')).toBe('no-store');
    if (routeId === 'token' && invocation.status === 200) {
      expect(body).toEqual(expect.objectContaining({ token_type: 'Bearer', expires_in: 3600 }));
    }
    // One Knap: its ETag is its version, and it is the Knap the path names.
    if ((routeId === 'get-knap' || routeId === 'update-knap') && invocation.status === 200) {
      expect(headerOf(result, 'etag')).toMatch(/^"\d+"$/);
      expect(body.uuid).toBe(event.pathParameters?.uuid);
    }
    if (routeId === 'preview-schedule' && invocation.status === 200) {
      expect(Object.keys(body).sort()).toEqual(['description', 'next_runs', 'schedule_info']);
    }
    if (routeId === 'openapi') expect(String(body.openapi)).toMatch(/^3\.1\./);
  });
});

/** The content type a response must have: JSON, but for the reference page and its files. */
function contentTypeOf(routeId: string, status: number, event: APIGatewayProxyEventV2): RegExp {
  if (status >= 300) return /^application\/json/;
  if (routeId === 'docs') return /^text\/html/;
  if (routeId === 'docs-asset') return event.pathParameters?.file?.endsWith('.css') ? /^text\/css/ : /^text\/javascript/;
  return /^application\/json/;
}
