/**
 * A request still running when its answer is due (a quarter second before the Lambda timeout)
 * is answered with the API's own 503, whatever it waits for: a call that is not DynamoDB's
 * (those end at the earlier request deadline), in the handler or in a check before it.
 */

import { jest } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { lambdaContext } from '../../local/http-adapter.js';
import type { AdminIdentity } from '../../shared/auth/admin-tokens.js';
import { SWEEP_MS } from '../../shared/deadlines.js';
import { MESSAGES } from '../../shared/errors.js';
import { apiHandler } from '../../shared/http/api-handler.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { httpEvent } from '../support/events.js';
import { sweepOnFakeClock } from '../support/sweep-clock.js';

let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table.close());

const never = () => new Promise<never>(() => {});
const TIMEOUT_MS = 700;
/** When the answer is due: a quarter second before the timeout. */
const DUE_MS = TIMEOUT_MS - 250;

// A fake clock drives the context's remaining time and the watch list's sweep: what is checked
// is when the answer comes, not how busy the machine was.
sweepOnFakeClock();

type Handler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/** The handler invoked as Lambda would, with TIMEOUT_MS left; what it answered by each time asked. */
const invoked = (handler: Handler, event: HttpEvent) => {
  let answer: HttpResult | undefined;
  void handler(event, lambdaContext('stuck', TIMEOUT_MS)).then((result) => {
    answer = result;
  });
  return {
    /** Its answer once the fake clock has moved on `ms` more. */
    after: async (ms: number) => {
      await jest.advanceTimersByTimeAsync(ms);
      return answer;
    },
  };
};

/** No answer until it is due, then the API's own 503 within one sweep: before the timeout. */
const expectOverdue = async (request: ReturnType<typeof invoked>) => {
  expect(await request.after(DUE_MS - 1)).toBeUndefined();
  const answer = await request.after(1 + SWEEP_MS);
  expect(answer?.statusCode).toBe(503);
  expect(JSON.parse(answer?.body ?? '')).toEqual({ detail: MESSAGES.unavailable });
  expect(answer?.headers).toMatchObject({ 'Retry-After': '1', 'X-Request-Id': 'request-id' });
  expect(DUE_MS + SWEEP_MS).toBeLessThan(TIMEOUT_MS);
};

test('a handler waiting on something that never answers gets a 503, before the Lambda timeout', async () => {
  const deps = table.deps(new FakeClock());
  const handler = apiHandler(deps, { body: 'none', auth: 'none', maxBodyBytes: 1024 }, never);
  await expectOverdue(invoked(handler, httpEvent('GET /api/studio/knap-tools')));
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
  return { invoke: () => invoked(handler, event), handled: () => seen.handled };
};

test("a check before the handler (an admin token's key fetch) is bounded as well", async () => {
  const route = adminRoute(never);
  await expectOverdue(route.invoke());
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
  const request = route.invoke();
  await expectOverdue(request);
  await request.after(TIMEOUT_MS);
  expect(verified).toBe(1);
  expect(route.handled()).toBe(false);
});

test('a handler that answers in time is answered as it said, at once', async () => {
  const deps = table.deps(new FakeClock());
  const handler = apiHandler(deps, { body: 'none', auth: 'none', maxBodyBytes: 1024 }, async () => ({
    statusCode: 204,
    body: '',
  }));
  expect((await invoked(handler, httpEvent('GET /api/studio/knap-tools')).after(0))?.statusCode).toBe(204);
});
