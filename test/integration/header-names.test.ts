/**
 * API Gateway's HTTP API sends header names in lower case; a hand-made event (a test's, an
 * `npm run invoke` file) may not. The handlers read them in lower case whatever they came as.
 */
import { createHandler as createKnapHandler } from '../../functions/create-knap/handler.js';
import { createHandler as tokenHandler } from '../../functions/token/handler.js';
import { createApiClient } from '../../shared/services/admin-service.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';
import { context, formEvent, httpEvent } from '../support/events.js';

let table: TestTable;
let deps: ReturnType<TestTable['deps']>;
let token: string;

beforeAll(async () => {
  table = await startTestTable();
  deps = table.deps(new FakeClock());
  const client = await createApiClient(deps, { orgName: 'headers', name: 'names' });
  const granted = await tokenHandler(deps)(
    formEvent('POST /api/oauth/token', {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
    context(),
  );
  token = (JSON.parse(granted.body ?? '{}') as { access_token: string }).access_token;
});
afterAll(() => table.close());

const create = (headers: Record<string, string>) =>
  createKnapHandler(deps)(httpEvent('POST /api/studio/knap-tools', { headers, body: '{"name":"Named"}' }), context());

test('names in any case are read as their lower case', async () => {
  const created = await create({ Authorization: `Bearer ${token}`, 'CONTENT-TYPE': 'application/json' });
  expect(created.statusCode).toBe(201);
});

test('of two spellings of one name, the later wins', async () => {
  const json = await create({
    authorization: `Bearer ${token}`,
    'content-type': 'text/plain',
    'Content-Type': 'application/json',
  });
  expect(json.statusCode).toBe(201);
  const text = await create({
    authorization: `Bearer ${token}`,
    'Content-Type': 'application/json',
    'content-type': 'text/plain',
  });
  expect(text.statusCode).toBe(415);
});

test('without the Authorization header in any case, 401 before the body is looked at', async () => {
  const refused = await create({ 'Content-Type': 'text/plain' });
  expect(refused.statusCode).toBe(401);
});
