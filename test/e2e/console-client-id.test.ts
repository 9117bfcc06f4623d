/**
 * The client id on the console's client page ("Manage"): it stays inside the dialog at 390 px
 * (a phone) as at 1280, and its copy button puts it on the clipboard and says so. Skipped
 * without chromium, as test/e2e/console.test.ts is.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { startTestApi, type TestApi } from '../support/api.js';
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
  profile = mkdtempSync(join(testTmpDir(), 'console-client-id-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    env: { ...process.env, TMPDIR: profile, HOME: profile },
    viewport: { width: 1280, height: 900 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
  context.setDefaultTimeout(15_000);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await api?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const page = (): Page => context.pages()[0] as Page;
const dialog = () => page().locator('dialog[open]');

/** How far (px) the id, its button or the page reach past the dialog's or the viewport's right edge. */
// A string: the test's TypeScript has no DOM types (console.test.ts does the same).
const overflow = () =>
  page().evaluate(`(() => {
    const open = document.querySelector('dialog[open]');
    const id = open.querySelector('[data-testid="client-id"]');
    const right = open.getBoundingClientRect().right;
    return {
      id: Math.max(0, id.getBoundingClientRect().right - right),
      button: Math.max(0, id.nextElementSibling.getBoundingClientRect().right - right),
      dialog: Math.max(0, open.scrollWidth - open.clientWidth),
      page: Math.max(0, document.documentElement.scrollWidth - window.innerWidth),
    };
  })()`) as Promise<Record<string, number>>;

browserTest(
  "the client page's id wraps inside the dialog at 390 and 1280 px, and its button copies it",
  async () => {
    await page().goto(`${api.url}/console`);
    await page().getByRole('button', { name: 'Sign in' }).click();
    await page().getByLabel('Email').fill('ada@acme.example');
    await page().getByLabel('Password').fill(PASSWORD);
    await page().getByRole('button', { name: 'Sign in' }).click();
    await page().getByRole('heading', { name: 'API clients', exact: true }).waitFor();
    await page().getByRole('button', { name: 'Create client' }).click();
    await dialog().getByLabel('Name').fill('Dashboard');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await dialog().getByText('it will not be shown again').waitFor();
    const clientId = (await dialog().locator('code').first().textContent()) as string;
    await dialog().getByRole('button', { name: 'Done' }).click();

    for (const width of [1280, 390]) {
      await page().setViewportSize({ width, height: 844 });
      await page().locator('tr', { hasText: clientId }).getByRole('button', { name: 'Manage' }).click();
      expect(await dialog().getByTestId('client-id').textContent()).toBe(clientId);
      // Measured once the page has loaded its secrets (the whole dialog is drawn).
      await dialog().locator('tr[data-secret]').first().waitFor();
      expect(await overflow()).toEqual({ id: 0, button: 0, dialog: 0, page: 0 });
      await dialog().getByRole('button', { name: 'Close' }).click();
    }

    // At 390 px too: the button copies the id and says so.
    await page().locator('tr', { hasText: clientId }).getByRole('button', { name: 'Manage' }).click();
    await dialog().getByRole('button', { name: 'Copy id' }).click();
    await dialog().getByRole('button', { name: 'Copied' }).waitFor();
    await dialog().getByRole('status').filter({ hasText: 'Copied to the clipboard' }).waitFor({ state: 'attached' });
    expect(await page().evaluate('navigator.clipboard.readText()')).toBe(clientId);
  },
  120_000,
);
