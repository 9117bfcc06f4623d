/**
 * Organization admins sign in to the local OpenID Connect provider as a browser would
 * (authorization code + PKCE, the provider's own sign-in page), and the access token they get
 * is verified by the code the admin functions use.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_TOKEN_TTL_SECONDS, CONSOLE_CLIENT_ID, type LocalIdentity, startLocalIdentity } from '../../local/oidc/provider.js';
import { AdminTokenError, adminTokenVerifier } from '../../shared/auth/admin-tokens.js';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
let server: Server;
let identity: LocalIdentity;
let base: string;
const clock = new FakeClock(new Date());
const REDIRECT = 'http://127.0.0.1:9/console/callback';

beforeAll(async () => {
  table = await startTestTable();
  server = createServer((request, response) => {
    if (identity.owns(new URL(request.url ?? '/', 'http://x').pathname)) void identity.handle(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  identity = startLocalIdentity({ issuer: `${base}/oidc`, deps: table.deps(clock), redirectUris: [REDIRECT] });
  await createAdmin(table.deps(clock), { orgName: 'acme', email: 'ada@example.com', password: 'the right password' });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await table.close();
});

/** A browser's cookies for this test's one origin. */
class Browser {
  readonly cookies = new Map<string, string>();
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(new URL(url, base), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = (pair as string).split('=');
      this.cookies.set(name as string, value.join('='));
    }
    return response;
  }
  postForm(url: string, fields: Record<string, string>): Promise<Response> {
    return this.go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** Up to the sign-in page: where its form posts. */
const startSignIn = async (browser: Browser, challenge: string) => {
  const authorize = await browser.go(
    `/oidc/auth?${new URLSearchParams({
      client_id: CONSOLE_CLIENT_ID,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid email admin',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'state-1',
    })}`,
  );
  expect(authorize.status).toBe(303);
  const page = await browser.go(authorize.headers.get('location') as string);
  expect(page.status).toBe(200);
  const body = await page.text();
  for (const label of ['<label for="email">Email</label>', '<label for="password">Password</label>', '>Sign in</button>'])
    expect(body).toContain(label);
  return /action="([^"]+)"/.exec(body)?.[1] as string;
};

const signIn = async (email: string, password: string) => {
  const browser = new Browser();
  const { verifier, challenge } = pkce();
  const action = await startSignIn(browser, challenge);
  const submitted = await browser.postForm(action, { email, password });
  if (submitted.status !== 303) return { status: submitted.status, page: await submitted.text() };
  const resumed = await browser.go(submitted.headers.get('location') as string);
  const callback = new URL(resumed.headers.get('location') as string);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
  expect(callback.searchParams.get('state')).toBe('state-1');
  const token = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') as string,
      redirect_uri: REDIRECT,
      client_id: CONSOLE_CLIENT_ID,
      code_verifier: verifier,
    }).toString(),
  });
  expect(token.status).toBe(200);
  return { status: 200, tokens: (await token.json()) as { access_token: string; expires_in: number } };
};

const auditOf = async () =>
  (await table.deps().repo.listAuditEvents('acme', { limit: 50 })).events.map(({ action, actor }) => `${action} ${actor}`);

test('an admin signs in with authorization code + PKCE and gets a short-lived JWT the admin API accepts', async () => {
  const result = await signIn('Ada@Example.com', 'the right password');
  const token = result.tokens?.access_token as string;
  expect(token.split('.')).toHaveLength(3);
  expect(result.tokens?.expires_in).toBe(ADMIN_TOKEN_TTL_SECONDS);
  const verify = adminTokenVerifier(identity.settings);
  expect(await verify(token)).toEqual({ actor: 'ada@example.com', orgName: 'acme', subject: 'ada@example.com' });
  expect((await auditOf())[0]).toBe('admin.sign_in ada@example.com');
});

test('a token altered, of another issuer or audience, or an API client token is refused', async () => {
  const { tokens } = await signIn('ada@example.com', 'the right password');
  const token = tokens?.access_token as string;
  const verify = adminTokenVerifier(identity.settings);
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  const otherOrg = Buffer.from(JSON.stringify({ ...claims, org: 'umbrella' })).toString('base64url');
  for (const bad of [`${header}.${otherOrg}.${signature}`, `${token}A`, token.slice(0, -2), 'knap_at_AQ', '']) {
    await expect(verify(bad)).rejects.toThrow(AdminTokenError);
  }
  await expect(adminTokenVerifier({ ...identity.settings, audience: 'another-api' })(token)).rejects.toThrow(AdminTokenError);
  await expect(adminTokenVerifier({ ...identity.settings, issuer: `${base}/elsewhere` })(token)).rejects.toThrow(AdminTokenError);
});

test('a wrong password is refused and audited; five failures lock the account for 15 minutes, a right password then too', async () => {
  await createAdmin(table.deps(clock), { orgName: 'acme', email: 'bob@example.com', password: 'bob the right one' });
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const failed = await signIn('bob@example.com', 'a wrong password');
    expect(failed.status).toBe(401);
    expect(failed.page).toContain('Wrong email or password.');
  }
  const locked = await signIn('bob@example.com', 'bob the right one');
  expect(locked.status).toBe(429);
  expect(locked.page).toContain('Too many failed sign-ins');
  expect((await signIn('nobody@example.com', 'whatever it is')).status).toBe(401);
  clock.advance(15 * 60 + 1);
  expect((await signIn('bob@example.com', 'bob the right one')).status).toBe(200);
  const audit = await auditOf();
  expect(audit.filter((line) => line === 'admin.sign_in_failed bob@example.com')).toHaveLength(5);
  expect(audit[0]).toBe('admin.sign_in bob@example.com');
});
