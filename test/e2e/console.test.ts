/**
 * The admin console in a real browser (Debian's chromium, driven by playwright-core): an
 * organization admin signs in through the local provider, manages clients and webhook
 * endpoints, watches a run arrive and redelivers it, reads the audit log, stays signed in
 * across a reload and signs out; another organization's admin sees none of it. The page asks
 * nothing of any other origin, and reads at 1280 and 390 px without sideways scrolling.
 * On a laptop without chromium (`apt-get install chromium`) it is skipped; under CI it runs.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { getToken, postToken, startTestApi, type TestApi } from '../support/api.js';
import { putTestKnap, type Receiver, startReceiver, waitFor } from '../support/deliveries.js';
import { testTmpDir } from '../support/tmp.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runs = existsSync(CHROMIUM) || Boolean(process.env.CI);
if (!runs) console.log(`console browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);
const browserTest = runs ? test : test.skip;

const PASSWORD = 'a long enough passphrase';
const TIMEOUT = 15_000;

let api: TestApi;
let receiver: Receiver;
let context: BrowserContext;
let profile: string;
/** Every URL the browser asked for. */
const requested: string[] = [];
const allowLocalhost = process.env.WEBHOOKS_ALLOW_LOCALHOST;

beforeAll(async () => {
  if (!runs) return;
  process.env.WEBHOOKS_ALLOW_LOCALHOST = 'true';
  api = await startTestApi({ admins: true, deliveries: {} });
  receiver = await startReceiver();
  await createAdmin(api.deps, { orgName: 'acme', email: 'ada@acme.example', password: PASSWORD });
  await createAdmin(api.deps, { orgName: 'umbrella', email: 'eve@umbrella.example', password: PASSWORD });
  profile = mkdtempSync(join(testTmpDir(), 'console-browser-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    env: { ...process.env, TMPDIR: profile, HOME: profile },
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(TIMEOUT);
  context.on('request', (request) => requested.push(request.url()));
}, 60_000);

afterAll(async () => {
  if (allowLocalhost === undefined) delete process.env.WEBHOOKS_ALLOW_LOCALHOST;
  else process.env.WEBHOOKS_ALLOW_LOCALHOST = allowLocalhost;
  await context?.close();
  await receiver?.close();
  await api?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const page = (): Page => context.pages()[0] as Page;
const dialog = () => page().locator('dialog[open]');

const signIn = async (email: string) => {
  await page().goto(`${api.url}/console`);
  await page().getByRole('button', { name: 'Sign in' }).click();
  await page().getByLabel('Email').fill(email);
  await page().getByLabel('Password').fill(PASSWORD);
  await page().getByRole('button', { name: 'Sign in' }).click();
  await page().getByRole('heading', { name: 'API clients', exact: true }).waitFor();
};

const row = (text: string) => page().locator('tr', { hasText: text });

/** No sideways scrolling at the page's width. */
const fitsWidth = () =>
  // Runs in the page (whose DOM types this project's Node-only settings do not load).
  page().evaluate('document.documentElement.scrollWidth <= window.innerWidth') as Promise<boolean>;

describe('the admin console', () => {
  browserTest(
    'an admin signs in, makes a client and uses its secret, regenerates, sets a limit and revokes it',
    async () => {
      await signIn('ada@acme.example');
      // The code and state of the sign-in are gone from the address bar; no token is in it.
      expect(new URL(page().url()).search).toBe('');
      await page().getByText('ada@acme.example').waitFor();
      await page().getByRole('heading', { name: 'No API clients yet' }).waitFor();

      await page().getByRole('button', { name: 'Create client' }).click();
      await dialog().getByLabel('Name').fill('Billing sync');
      await dialog().getByRole('button', { name: 'Create' }).click();
      await dialog().getByText('it will not be shown again').waitFor();
      const secret = (await dialog().getByTestId('secret').textContent()) as string;
      const clientId = (await dialog().locator('code').first().textContent()) as string;
      expect(secret).toMatch(/^knap_cs_/);
      const tokens = await getToken(api.url, { clientId, clientSecret: secret });
      await dialog().getByRole('button', { name: 'Done' }).click();
      await row('Billing sync').getByText('Active').waitFor();

      await row('Billing sync').getByRole('button', { name: 'Regenerate secret' }).click();
      await dialog().getByRole('button', { name: 'Regenerate secret' }).click();
      await dialog().getByText('it will not be shown again').waitFor();
      const rotated = (await dialog().getByTestId('secret').textContent()) as string;
      expect(rotated).toMatch(/^knap_cs_/);
      expect(rotated).not.toBe(secret);
      await dialog().getByRole('button', { name: 'Done' }).click();
      const old = await fetch(`${api.url}/api/studio/knap-tools`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(old.status).toBe(401);
      await getToken(api.url, { clientId, clientSecret: rotated });

      await row('Billing sync').getByRole('button', { name: 'Set rate limit' }).click();
      await dialog().getByLabel('Requests per minute').fill('30');
      await dialog().getByRole('button', { name: 'Save' }).click();
      await row('Billing sync').getByText('30/min').waitFor();

      await row('Billing sync').getByRole('button', { name: 'Revoke' }).click();
      await dialog().getByRole('button', { name: 'Revoke client' }).click();
      await row('Billing sync').getByText('Revoked').waitFor();
      const refused = await postToken(api.url, { grant_type: 'client_credentials', client_id: clientId, client_secret: rotated });
      expect(refused.status).toBe(401);
      expect(await fitsWidth()).toBe(true);
    },
    90_000,
  );

  browserTest(
    'webhook endpoints, a run that arrives and is redelivered with the same webhook-id, the audit log',
    async () => {
      await page().getByRole('link', { name: 'Webhooks' }).click();
      await page().getByRole('heading', { name: 'No webhook endpoints yet' }).waitFor();
      await page().getByRole('button', { name: 'Add endpoint' }).click();
      await dialog().getByLabel('URL').fill(receiver.url);
      await dialog().getByRole('button', { name: 'Add' }).click();
      expect(await dialog().getByTestId('secret').textContent()).toMatch(/^whsec_/);
      await dialog().getByRole('button', { name: 'Done' }).click();
      await row(receiver.url).waitFor();

      const client = await api.newClient();
      const { access_token: token } = await getToken(api.url, client);
      const knap = await putTestKnap(api.deps.repo, { orgName: 'acme', creatorClientId: client.clientId });
      const started = await fetch(`${api.url}/api/studio/knap-tools/${knap.uuid}/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      const { run_id: runId } = (await started.json()) as { run_id: string };
      const arrivals = () => receiver.received.filter((message) => message.headers['webhook-id'] === runId).length;
      await waitFor('the run to arrive', () => (arrivals() === 1 ? true : undefined));

      await page().getByRole('link', { name: 'Runs' }).click();
      const item = page().locator(`li[data-run="${runId}"]`);
      await item.locator('.run-head').getByText('Delivered', { exact: true }).waitFor();
      await page()
        .getByRole('img', { name: /Runs per day: \d{4}-\d\d-\d\d: 1/ })
        .waitFor();
      await item.getByRole('button', { name: 'Redeliver' }).click();
      await page().getByRole('status').getByText(`Run ${runId} is being delivered again.`).waitFor();
      await waitFor('the run to arrive again', () => (arrivals() === 2 ? true : undefined));

      await page().getByRole('link', { name: 'Audit log' }).click();
      for (const action of [
        'Created client',
        'Regenerated secret',
        'Revoked client',
        'Added endpoint',
        'Redelivered run',
        'Signed in',
      ]) {
        await page().locator('tr', { hasText: action }).filter({ hasText: 'ada@acme.example' }).first().waitFor();
      }
    },
    90_000,
  );

  browserTest(
    'a reload keeps the admin signed in; at 390 px every page reads without sideways scrolling',
    async () => {
      await page().reload();
      await page().getByRole('heading', { name: 'Audit log' }).waitFor();
      expect(new URL(page().url()).search).toBe('');
      await page().setViewportSize({ width: 390, height: 844 });
      for (const [link, heading] of [
        ['Clients', 'API clients'],
        ['Webhooks', 'Webhook endpoints'],
        ['Runs', 'Runs'],
        ['Audit log', 'Audit log'],
      ] as const) {
        await page().getByRole('link', { name: link }).click();
        await page().getByRole('heading', { name: heading, exact: true }).waitFor();
        await page().locator('[aria-busy="true"]').waitFor({ state: 'detached' });
        expect({ link, fits: await fitsWidth() }).toEqual({ link, fits: true });
      }
      await page().setViewportSize({ width: 1280, height: 900 });
    },
    60_000,
  );

  browserTest(
    "signing out ends the provider's session with no question; another organization's admin sees none of acme's",
    async () => {
      await page().getByRole('button', { name: 'Sign out' }).click();
      await page().getByRole('button', { name: 'Sign in' }).waitFor();
      expect(new URL(page().url()).pathname).toBe('/console');
      // The provider's session is gone: signing in asks for the password again.
      await page().getByRole('button', { name: 'Sign in' }).click();
      await page().getByLabel('Password').waitFor();

      await page().getByLabel('Email').fill('eve@umbrella.example');
      await page().getByLabel('Password').fill(PASSWORD);
      await page().getByRole('button', { name: 'Sign in' }).click();
      await page().getByRole('heading', { name: 'No API clients yet' }).waitFor();
      await page().getByRole('link', { name: 'Webhooks' }).click();
      await page().getByRole('heading', { name: 'No webhook endpoints yet' }).waitFor();
      await page().getByRole('link', { name: 'Runs' }).click();
      await page().getByRole('heading', { name: 'No runs yet' }).waitFor();
      await page().getByRole('link', { name: 'Audit log' }).click();
      await page().locator('tr', { hasText: 'Signed in' }).first().waitFor();
      expect(await page().locator('main').textContent()).not.toContain('ada@acme.example');
    },
    60_000,
  );

  browserTest('the page asked nothing of another origin, ran no inline script, and was never framed', async () => {
    const origin = new URL(api.url).origin;
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    const response = await fetch(`${api.url}/console`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    const signInPage = await fetch(`${api.url}/oidc/.well-known/openid-configuration`);
    expect(signInPage.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
