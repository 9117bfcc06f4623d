import { type ApiServer, startApiServer } from '../../local/server.js';
import { systemClock } from '../../shared/domain/clock.js';
import { MemoryMetrics } from '../../shared/metrics.js';
import { createApiClient } from '../../shared/services/admin-service.js';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';
import { createKnap, getToken, listKnaps, postToken } from '../support/api.js';
import { MemoryLog, RecordingQueue, startTestTable, type TestTable } from '../support/dynamo.js';
import { type FaultMode, type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { body } from '../support/json.js';
import { testKeyring } from '../support/token-keys.js';

const LAMBDA_TIMEOUT_MS = 3_000;

let table: TestTable;
let proxy: FaultProxy;
let api: ApiServer;
const log = new MemoryLog();
let client: { clientId: string; clientSecret: string };
let token: string;

beforeAll(async () => {
  table = await startTestTable();
  proxy = await startFaultProxy(table.endpoint);
  const deps = {
    repo: new DynamoRepository(createDocumentClient({ endpoint: proxy.endpoint }), table.tableName),
    clock: systemClock,
    log,
    metrics: new MemoryMetrics(),
    defaultRateLimit: 100,
    deliveries: new RecordingQueue(),
    tokenKeys: testKeyring,
  };
  api = await startApiServer({ deps, lambdaTimeoutMs: LAMBDA_TIMEOUT_MS });
  client = await createApiClient(deps, { orgName: 'faults', name: 'faulty', rateLimit: 10_000 });
  ({ access_token: token } = await getToken(api.url, client));
});
afterAll(async () => {
  await api.close();
  await proxy.close();
  await table.close();
});
afterEach(() => {
  proxy.mode = 'up';
});

const grant = () =>
  postToken(api.url, { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret });

const timed = async (request: () => Promise<Response>) => {
  const started = Date.now();
  const response = await request();
  return { response, ms: Date.now() - started };
};

describe('DynamoDB failing mid-request', () => {
  test.each<FaultMode>(['down', 'throttle', 'hang'])(
    '%s: 503 {"detail"} inside the Lambda timeout, the cause logged; back to normal with no restart',
    async (mode) => {
      log.lines.length = 0;
      proxy.mode = mode;
      for (const request of [
        grant,
        () => listKnaps(api.url, token),
        () => createKnap(api.url, token, { name: 'during outage' }),
      ]) {
        const { response, ms } = await timed(request);
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('1');
        expect(await body(response)).toEqual({ detail: 'The service is temporarily unavailable. Please retry.' });
        expect(ms).toBeLessThan(LAMBDA_TIMEOUT_MS);
      }
      expect(log.lines.filter((line) => line.level === 'error' && line.message === 'DynamoDB unavailable')).toHaveLength(3);

      proxy.mode = 'up';
      expect((await grant()).status).toBe(200);
      const listing = await listKnaps(api.url, token);
      expect(listing.status).toBe(200);
      expect(JSON.stringify(await body(listing))).not.toContain('during outage');
    },
    20_000,
  );

  test('a failed write leaves nothing behind: 500, and the Knap is not listed once DynamoDB is back', async () => {
    proxy.mode = 'fail-writes';
    const failed = await createKnap(api.url, token, { name: 'half written?' });
    expect(failed.status).toBe(500);
    expect(Object.keys(await body(failed))).toEqual(['detail']);

    proxy.mode = 'up';
    // The SDK's throttling backoff can schedule a retry past the request's deadline: give any
    // such retry time to fire (it must not reach the table once the request was answered).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const listing = await body(await listKnaps(api.url, token));
    expect(JSON.stringify(listing)).not.toContain('half written?');
    expect((await createKnap(api.url, token, { name: 'after recovery' })).status).toBe(201);
  }, 20_000);
});
