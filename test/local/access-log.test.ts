import { startLocalIdentity } from '../../local/oidc/provider.js';
import { type ApiServer, startApiServer } from '../../local/server.js';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { signIn } from '../support/admin-sign-in.js';
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

describe('local access log of the admin sign-in (/oidc)', () => {
  let withIdentity: ApiServer;
  let identityDeps: ReturnType<TestTable['deps']>;
  beforeAll(async () => {
    const deps = table.deps();
    identityDeps = deps;
    withIdentity = await startApiServer({
      deps,
      accessLog: true,
      mount: (url) => startLocalIdentity({ issuer: `${url}/oidc`, deps, redirectUris: [`${url}/console`] }),
    });
  });
  afterAll(() => withIdentity?.close());

  test('a whole sign-in (authorization code + PKCE): every /oidc line says the status sent, none 404', async () => {
    await createAdmin(identityDeps, { orgName: 'acme', email: 'ada@acme.example', password: 'a long enough passphrase' });
    const result = await signIn(withIdentity.url, `${withIdentity.url}/console`, 'ada@acme.example', 'a long enough passphrase');
    expect(result.tokens).toBeDefined();
    // Every exchange's line is written once its answer went out.
    const deadline = Date.now() + 5_000;
    while (!logged.some((line) => line.includes(' /oidc/token ')) && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const oidc = logged.filter((line) => line.includes(' /oidc'));
    expect(oidc.length).toBeGreaterThanOrEqual(3);
    expect(oidc.filter((line) => / 404 /.test(line))).toEqual([]);
    expect(oidc.find((line) => line.includes(' /oidc/token '))).toMatch(/ POST \/oidc\/token 200 /);
  });

  test('the status the browser got, not a 404 written before the provider answered', async () => {
    const response = await fetch(`${withIdentity.url}/oidc/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const deadline = Date.now() + 5_000;
    while (logged.length === 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^\S+ GET \/oidc\/\.well-known\/openid-configuration 200 \d+ms$/);
  });
});
