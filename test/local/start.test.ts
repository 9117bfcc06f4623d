import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../local/ports.js';
import { accepts, type Spawned, spawnStart, tempDir } from './processes.js';

/** `npm start` as people run it: a real process, on free ports and a throwaway data folder. */
const running: Spawned[] = [];
const folders: ReturnType<typeof tempDir>[] = [];

const start = (env: Record<string, string>): Spawned => {
  const spawned = spawnStart({ ACCESS_LOG: 'false', POWERTOOLS_LOG_LEVEL: 'SILENT', ...env });
  running.push(spawned);
  return spawned;
};

const dataDir = (): string => {
  const folder = tempDir('knap-start-');
  folders.push(folder);
  return folder.path;
};

const ports = async () => ({ PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()) });

afterEach(() => {
  for (const spawned of running.splice(0)) spawned.kill();
  for (const folder of folders.splice(0)) folder.remove();
});

describe('npm start', () => {
  test('SIGTERM to npm stops the API and the embedded DynamoDB, and npm exits', async () => {
    const settings = { ...(await ports()), DATA_DIR: dataDir() };
    const server = start(settings);
    await server.waitForStdout(/Knap API listening/);
    expect(await accepts(Number(settings.PORT))).toBe(true);

    process.kill(server.pid, 'SIGTERM');

    expect(await server.exited()).toEqual({ code: 0, signal: null });
    expect(await accepts(Number(settings.PORT))).toBe(false);
    expect(await accepts(Number(settings.DYNAMODB_PORT))).toBe(false);
  }, 90_000);

  test('a second server on the same DATA_DIR says so in one line and exits 1; the first keeps serving', async () => {
    const folder = dataDir();
    const first = { ...(await ports()), DATA_DIR: folder };
    const server = start(first);
    await server.waitForStdout(/Knap API listening/);

    const second = start({ ...(await ports()), DATA_DIR: folder });
    expect(await second.exited()).toEqual({ code: 1, signal: null });
    expect(second.stderr()).toBe(`Another Knap API server is using ${folder}; stop it or set DATA_DIR to another folder.\n`);
    expect(second.stdout()).toBe('');

    const response = await fetch(`http://127.0.0.1:${first.PORT}/api/studio/knap-tools`);
    expect(response.status).toBe(401);
  }, 90_000);

  test('the token signing key is made once in DATA_DIR (mode 600) and kept across restarts', async () => {
    const folder = dataDir();
    const settings = { ...(await ports()), DATA_DIR: folder };
    const first = start(settings);
    await first.waitForStdout(/Knap API listening/);
    const file = join(folder, 'token-signing-key');
    const key = readFileSync(file, 'utf8');
    expect(key.trim().length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    process.kill(first.pid, 'SIGTERM');
    await first.exited();
    const second = start(settings);
    await second.waitForStdout(/Knap API listening/);
    expect(readFileSync(file, 'utf8')).toBe(key);
  }, 90_000);

  test('DISPATCH_INTERVAL_MS that is not a whole number: one line, exit 1', async () => {
    const server = start({ ...(await ports()), DATA_DIR: dataDir(), DISPATCH_INTERVAL_MS: 'soon' });
    expect(await server.exited()).toEqual({ code: 1, signal: null });
    expect(server.stderr()).toBe(
      'DISPATCH_INTERVAL_MS must be a whole number of milliseconds (0 turns the dispatcher off), not "soon"\n',
    );
  }, 90_000);

  test('DYNAMODB_ENDPOINT that does not answer: one line naming it, exit 1', async () => {
    const endpoint = `http://localhost:${await freePort()}`;
    const server = start({ PORT: String(await freePort()), DYNAMODB_ENDPOINT: endpoint });
    expect(await server.exited()).toEqual({ code: 1, signal: null });
    const lines = server.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^DYNAMODB_ENDPOINT=${endpoint} does not answer: .*ECONNREFUSED.*\\. Start that DynamoDB, or unset DYNAMODB_ENDPOINT\\.$`,
      ),
    );
  }, 90_000);

  test("serves the admins' OpenID Connect provider under /oidc on the same port, its sign-in page included", async () => {
    const settings = { ...(await ports()), DATA_DIR: dataDir() };
    const server = start(settings);
    await server.waitForStdout(/Knap API listening/);
    const base = `http://127.0.0.1:${settings.PORT}`;
    const discovery = (await (await fetch(`${base}/oidc/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery).toMatchObject({
      issuer: `${base}/oidc`,
      authorization_endpoint: `${base}/oidc/auth`,
      token_endpoint: `${base}/oidc/token`,
      jwks_uri: `${base}/oidc/jwks`,
      code_challenge_methods_supported: ['S256'],
    });
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    const authorize = await fetch(
      `${base}/oidc/auth?client_id=knap-console&response_type=code&scope=openid&code_challenge=${challenge}&code_challenge_method=S256&redirect_uri=${encodeURIComponent(`${base}/console`)}`,
      { redirect: 'manual' },
    );
    expect(authorize.status).toBe(303);
    expect(authorize.headers.get('location')).toMatch(/^\/oidc\/interaction\//);
    // Nothing on stderr: no warning from the provider on a supported Node.js.
    expect(server.stderr()).toBe('');
  }, 90_000);
});
