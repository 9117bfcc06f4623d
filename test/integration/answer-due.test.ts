/**
 * A request still running when its answer is due (a quarter second before the Lambda timeout)
 * is answered with the API's own 503, whatever it waits for: a call that is not DynamoDB's
 * (those end at the earlier request deadline), in the handler or in a check before it.
 */

import type { Context } from 'aws-lambda';
import { lambdaContext } from '../../local/http-adapter.js';
import type { AdminIdentity } from '../../shared/auth/admin-tokens.js';
import { MESSAGES } from '../../shared/errors.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { httpEvent } from '../support/events.js';

let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table.close());

const never = () => new Promise<never>(() => {});
const TIMEOUT_MS = 700;

/** The handler invoked as Lambda would with TIMEOUT_MS left: its answer, and how long it took. */
const timed = async (handler: (event: HttpEvent, context: Context) => Promise<HttpResult>, event: HttpEvent) => {
  // Taken before the context is made, so the time measured is never shorter than the one it had.
  const started = Date.now();
  const result = await handler(event, lambdaContext('stuck', TIMEOUT_MS));
  return { result, ms: Date.now() - started };
};

const expectOverdue = ({ result, ms }: { result: HttpResult; ms: number }) => {
  expect(result.statusCode).toBe(503);
  expect(JSON.parse(result.body ?? '')).toEqual({ detail: MESSAGES.unavailable });
  expect(result.headers).toMatchObject({ 'Retry-After': '1', 'X-Request-Id': 'request-id' });
  // Not before its answer is due (a quarter second before the timeout), and before the timeout.
  expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 250);
  expect(ms).toBeLessThan(TIMEOUT_MS);
};

test('a handler waiting on something that never answers gets a 503, before the Lambda timeout', async () => {
  const deps = table.deps(new FakeClock());
  const handler = apiHandler(deps, { body: 'none', auth: 'none', maxBodyBytes: 1024 }, never);
  expectOverdue(await timed(handler, httpEvent('GET /api/studio/knap-tools')));
  expect(deps.log.lines.at(-1)).toMatchObject({ level: 'error', message: 'Answer overdue', correlation_id: 'request-id' });
});

/** An admin route whose token check is `adminTokens`: its handler, and whether the route's work started. */
const adminRoute = (adminTokens: () => Promise<AdminIdentity>) => {
  const seen = { handled: false };
  const handler = apiHandler(
    { ...table.deps(new FakeClock()), adminTokens },
    { body: 'none', auth: 'admin', maxBodyBytes: 1024 },
    async () => {
      seen.handled = true;
      return { statusCode: 200, body: '' };
    },
  );
  const event = httpEvent('GET /api/admin/clients', { headers: { authorization: 'Bearer some.admin.token' } });
  return { invoke: () => timed(handler, event), handled: () => seen.handled };
};

test("a check before the handler (an admin token's key fetch) is bounded as well", async () => {
  const route = adminRoute(never);
  expectOverdue(await route.invoke());
  expect(route.handled()).toBe(false);
});

test("a check that answers after the request was answered does not start the route's work", async () => {
  let verified = 0;
  const route = adminRoute(
    () =>
      new Promise<AdminIdentity>((resolve) =>
        setTimeout(() => {
          verified += 1;
          resolve({ orgName: 'late', actor: 'someone', subject: 'someone' });
        }, TIMEOUT_MS),
      ),
  );
  expectOverdue(await route.invoke());
  await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS));
  expect(verified).toBe(1);
  expect(route.handled()).toBe(false);
});

test('a handler that answers in time is answered as it said', async () => {
  const deps = table.deps(new FakeClock());
  const handler = apiHandler(deps, { body: 'none', auth: 'none', maxBodyBytes: 1024 }, async () => ({
    statusCode: 204,
    body: '',
  }));
  const { result, ms } = await timed(handler, httpEvent('GET /api/studio/knap-tools'));
  expect(result.statusCode).toBe(204);
  expect(ms).toBeLessThan(TIMEOUT_MS - 250);
});
