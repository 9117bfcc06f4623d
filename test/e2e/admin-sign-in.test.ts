/**
 * Organization admins sign in to the local OpenID Connect provider as a browser would
 * (authorization code + PKCE, the provider's own sign-in page), and the access token they get
 * is verified by the code the admin functions use.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_TOKEN_TTL_SECONDS, type LocalIdentity, startLocalIdentity } from '../../local/oidc/provider.js';
import { AdminTokenError, adminTokenVerifier } from '../../shared/auth/admin-tokens.js';
import { verifyPassword } from '../../shared/domain/admins.js';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { Browser, openSignInPage, pkce, signIn as signInAs } from '../support/admin-sign-in.js';
import { FakeClock } from '../support/clock.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
let server: Server;
let identity: LocalIdentity;
let base: string;
const clock = new FakeClock(new Date());
const REDIRECT = 'http://127.0.0.1:9/console/callback';
/** Every password check the provider makes, by account hash: the throttle must come before them. */
let passwordChecks = 0;

beforeAll(async () => {
  table = await startTestTable();
  server = createServer((request, response) => {
    if (identity.owns(new URL(request.url ?? '/', 'http://x').pathname)) void identity.handle(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  identity = startLocalIdentity({
    issuer: `${base}/oidc`,
    deps: table.deps(clock),
    redirectUris: [REDIRECT],
    checkPassword: (password, hash) => {
      passwordChecks += 1;
      return verifyPassword(password, hash);
    },
  });
  await createAdmin(table.deps(clock), { orgName: 'acme', email: 'ada@example.com', password: 'the right password' });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await table.close();
});

const signIn = (email: string, password: string) => signInAs(base, REDIRECT, email, password);

const auditOf = async () =>
  (await table.deps().repo.listAuditEvents('acme', { limit: 50 })).events.map(({ action, actor }) => `${action} ${actor}`);

test('an admin signs in with authorization code + PKCE and gets a short-lived JWT the admin API accepts', async () => {
  const page = await openSignInPage(new Browser(base), REDIRECT, pkce().challenge);
  expect(page.status).toBe(200);
  for (const label of ['<label for="email">Email</label>', '<label for="password">Password</label>', '>Sign in</button>'])
    expect(page.html).toContain(label);
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

/** `count` sign-in forms opened one by one, then all posted at once with these passwords: their statuses. */
const guessAtOnce = async (email: string, passwords: string[]): Promise<number[]> => {
  const forms = [];
  for (const _ of passwords) {
    const browser = new Browser(base);
    forms.push({ browser, action: (await openSignInPage(browser, REDIRECT, pkce().challenge)).action });
  }
  const answers = await Promise.all(
    forms.map(({ browser, action }, index) => browser.postForm(action, { email, password: passwords[index] as string })),
  );
  return answers.map((answer) => answer.status);
};

test('30 wrong guesses at once: at most 5 passwords are checked, the rest refused before the hash', async () => {
  await createAdmin(table.deps(clock), { orgName: 'acme', email: 'carol@example.com', password: 'carol the right one' });
  passwordChecks = 0;
  const statuses = await guessAtOnce('carol@example.com', Array(30).fill('a wrong password'));
  expect(passwordChecks).toBe(5);
  expect(statuses.filter((status) => status === 401)).toHaveLength(5);
  expect(statuses.filter((status) => status === 429)).toHaveLength(25);
  // The right password too, now: no check until the window has passed.
  passwordChecks = 0;
  expect((await signIn('carol@example.com', 'carol the right one')).status).toBe(429);
  expect(passwordChecks).toBe(0);
  const audit = await auditOf();
  expect(audit.filter((line) => line === 'admin.sign_in_failed carol@example.com')).toHaveLength(5);
  // An unknown address is throttled the same way, and costs as many hashes.
  passwordChecks = 0;
  const unknown = await guessAtOnce('nobody-at-all@example.com', Array(12).fill('whatever it is'));
  expect(passwordChecks).toBe(5);
  expect(unknown.filter((status) => status === 429)).toHaveLength(7);
});

test('a successful sign-in gives its slot back; earlier failures still count', async () => {
  await createAdmin(table.deps(clock), { orgName: 'acme', email: 'dan@example.com', password: 'dan the right one' });
  // Eight right passwords at once: five checked at a time at most, each giving its slot back.
  const right = await guessAtOnce('dan@example.com', Array(8).fill('dan the right one'));
  expect(right.filter((status) => status === 303).length).toBeGreaterThanOrEqual(5);
  expect(right.every((status) => status === 303 || status === 429)).toBe(true);
  for (let attempt = 0; attempt < 4; attempt += 1) expect((await signIn('dan@example.com', 'wrong')).status).toBe(401);
  expect((await signIn('dan@example.com', 'dan the right one')).status).toBe(200);
  expect((await signIn('dan@example.com', 'wrong again')).status).toBe(401);
  passwordChecks = 0;
  expect((await signIn('dan@example.com', 'dan the right one')).status).toBe(429);
  expect(passwordChecks).toBe(0);
  clock.advance(15 * 60 + 1);
  expect((await signIn('dan@example.com', 'dan the right one')).status).toBe(200);
});

test("signing out asks nothing of the admin's own console, and asks first when another page starts it", async () => {
  const browser = new Browser(base);
  const { tokens } = await signInAs(base, REDIRECT, 'ada@example.com', 'the right password', browser);
  const end = (query: Record<string, string>) => browser.go(`/oidc/session/end?${new URLSearchParams(query)}`);

  // A link from anywhere (no ID token of the admin's): a question and a button, no script.
  const forged = await end({});
  expect(forged.status).toBe(200);
  const question = await forged.text();
  expect(question).toContain('Sign out of the Knap admin console?');
  expect(question).not.toContain('<script');
  expect(forged.headers.get('content-security-policy')).not.toContain('script-src');
  expect(forged.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

  // The console's own request (its ID token): the form submits itself, by its script alone.
  const own = await end({ id_token_hint: tokens?.id_token as string, post_logout_redirect_uri: REDIRECT });
  expect(own.status).toBe(200);
  expect(await own.text()).toContain("<script>document.getElementById('op.logoutForm').submit();</script>");
  expect(own.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
});
