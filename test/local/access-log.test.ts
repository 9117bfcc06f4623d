import { type ApiServer, startApiServer } from '../../local/server.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
let api: ApiServer;
const logged: string[] = [];
const originalLog = console.log;

beforeAll(async () => {
  table = await startTestTable();
  api = await startApiServer({ deps: table.deps(), accessLog: true });
  // The access log goes to stdout through console.log; read what it writes.
  console.log = (...args: unknown[]) => {
    logged.push(args.join(' '));
  };
});

afterAll(async () => {
  console.log = originalLog;
  await api.close();
  await table.close();
});

beforeEach(() => {
  logged.length = 0;
});

describe('local access log', () => {
  test.each([
    [
      'GET',
      '/api/studio/knap-tools?access_token=knap_at_SECRET1&limit=5',
      /^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/api\/studio\/knap-tools 401 \d+ms fn=knaps route=list-knaps request_id=\S+$/,
    ],
    [
      'POST',
      '/api/oauth/token?client_id=knap_ci_x&client_secret=knap_cs_SECRET2',
      /^\d{4}-\d\d-\d\dT[\d:.]+Z POST \/api\/oauth\/token 4\d\d \d+ms fn=token route=token request_id=\S+$/,
    ],
    ['GET', '/nowhere?refresh_token=knap_rt_SECRET3', /^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/nowhere 404 \d+ms$/],
  ])('%s %s: when, the path, status, function and request id, never the query string', async (method, target, line) => {
    const response = await fetch(`${api.url}${target}`, { method });
    await response.arrayBuffer();
    // The line is written after the response ends; wait for it rather than for a fixed time.
    const deadline = Date.now() + 5_000;
    while (logged.length === 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(line);
    expect(logged.join('\n')).not.toMatch(/SECRET|knap_(at|cs|rt|ci)_|\?/);
  });
});
