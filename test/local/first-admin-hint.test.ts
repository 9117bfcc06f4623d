import { randomBytes } from 'node:crypto';
import { type LocalStack, startLocalStack } from '../../local/stack.js';
import { defaultDeps } from '../../shared/runtime.js';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { Browser, openSignInPage, pkce, signIn } from '../support/admin-sign-in.js';

/**
 * A newcomer who opens the console under `npm start` before making an admin: the sign-in page
 * says there is none and gives the command that makes one (with the embedded DynamoDB's
 * endpoint, which the CLI must reach), until one exists.
 */
let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    tableName: `knap-first-admin-${randomBytes(4).toString('hex')}`,
    accessLog: false,
    dispatchIntervalMs: false,
  });
});
afterAll(async () => {
  await stack.close();
});

const signInPage = async () => {
  const browser = new Browser(stack.api.url);
  return openSignInPage(browser, `${stack.api.url}/console`, pkce().challenge);
};

/** The page's text, tags dropped and entities of the command read back. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, ' ');

test('with no admin yet, the sign-in page says so and names the command that makes one', async () => {
  const page = await signInPage();
  expect(page.status).toBe(200);
  expect(text(page.html)).toContain('No admin exists yet.');
  expect(text(page.html)).toContain(
    `DYNAMODB_ENDPOINT=${stack.dynamodbEndpoint} npm run -s admin -- create-admin --org acme --email you@acme.example`,
  );
  // The form is still there (the hint does not replace it).
  expect(page.action).toMatch(/\/oidc\/interaction\/[^/]+\/login$/);
});

test('a failed sign-in with no admin says it again; once an admin exists the page no longer does', async () => {
  const refused = await signIn(stack.api.url, `${stack.api.url}/console`, 'ada@example.com', 'a long passphrase');
  expect(refused.status).toBe(401);
  expect(text(refused.page ?? '')).toContain('No admin exists yet.');

  await createAdmin(defaultDeps(), { orgName: 'acme', email: 'ada@example.com', password: 'a long passphrase' });
  const page = await signInPage();
  expect(page.status).toBe(200);
  expect(page.html).not.toContain('No admin exists yet');
  expect(page.html).not.toContain('create-admin');
  const signedIn = await signIn(stack.api.url, `${stack.api.url}/console`, 'ada@example.com', 'a long passphrase');
  expect(signedIn.tokens?.access_token).toEqual(expect.any(String));
});
