/**
 * The console's side of "Credentials without downtime", in a real browser: scopes chosen on
 * create and changed on the client's page, and "Rotate secret" (add, see both with their last
 * use, retire the old). Skipped without chromium, as test/e2e/console.test.ts is.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { postToken, startTestApi, type TestApi } from '../support/api.js';
import { testTmpDir } from '../support/tmp.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runs = existsSync(CHROMIUM) || Boolean(process.env.CI);
const browserTest = runs ? test : test.skip;
const PASSWORD = 'a long enough passphrase';

let api: TestApi;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!runs) return;
  api = await startTestApi({ admins: true });
  await createAdmin(api.deps, { orgName: 'acme', email: 'ada@acme.example', password: PASSWORD });
  profile = mkdtempSync(join(testTmpDir(), 'console-credentials-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    env: { ...process.env, TMPDIR: profile, HOME: profile },
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(15_000);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await api?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const page = (): Page => context.pages()[0] as Page;
const dialog = () => page().locator('dialog[open]');

const grant = async (clientId: string, clientSecret: string) => {
  const response = await postToken(api.url, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  return { status: response.status, scope: response.ok ? ((await response.json()) as { scope: string }).scope : null };
};

browserTest(
  'scopes on create and on the client page; rotate a secret, see both, retire the old',
  async () => {
    await page().goto(`${api.url}/console`);
    await page().getByRole('button', { name: 'Sign in' }).click();
    await page().getByLabel('Email').fill('ada@acme.example');
    await page().getByLabel('Password').fill(PASSWORD);
    await page().getByRole('button', { name: 'Sign in' }).click();
    await page().getByRole('heading', { name: 'API clients', exact: true }).waitFor();

    await page().getByRole('button', { name: 'Create client' }).click();
    await dialog().getByLabel('Name').fill('Dashboard');
    await dialog()
      .getByRole('checkbox', { name: /write:knaps/ })
      .uncheck();
    await dialog().getByRole('button', { name: 'Create' }).click();
    await dialog().getByText('it will not be shown again').waitFor();
    const secret = (await dialog().getByTestId('secret').textContent()) as string;
    const clientId = (await dialog().locator('code').first().textContent()) as string;
    expect(await grant(clientId, secret)).toEqual({ status: 200, scope: 'read:knaps' });
    await dialog().getByRole('button', { name: 'Done' }).click();

    const row = page().locator('tr', { hasText: clientId });
    await row.getByText('read:knaps').waitFor();
    await row.getByRole('button', { name: 'Manage' }).click();
    await dialog()
      .getByRole('checkbox', { name: /write:knaps/ })
      .check();
    await dialog().getByRole('button', { name: 'Save scopes' }).click();
    await dialog().getByText('Scopes saved.').waitFor();
    expect((await grant(clientId, secret)).scope).toBe('read:knaps write:knaps');

    api.clock.advance(60);
    await dialog().getByRole('button', { name: 'Rotate secret' }).click();
    await dialog().getByText('shown only this once').waitFor();
    const rotated = (await dialog().locator('code.secret').textContent()) as string;
    expect(rotated).toMatch(/^knap_cs_/);
    await dialog().locator('tr[data-secret]').nth(1).waitFor();
    expect(await dialog().locator('tr[data-secret]').count()).toBe(2);
    expect((await grant(clientId, rotated)).status).toBe(200);
    await page().reload();
    await page().getByRole('heading', { name: 'API clients', exact: true }).waitFor();
    await page().locator('tr', { hasText: clientId }).getByRole('button', { name: 'Manage' }).click();
    // The old secret was used (a last-use time), the new one too; retire the old (the first listed).
    await dialog().locator('tr[data-secret]').nth(1).waitFor();
    await dialog().locator('tr[data-secret]').first().getByRole('button', { name: 'Retire' }).click();
    await dialog().locator('tr[data-secret]').nth(1).waitFor({ state: 'detached' });
    expect((await grant(clientId, secret)).status).toBe(401);
    expect((await grant(clientId, rotated)).status).toBe(200);
  },
  120_000,
);
