/**
 * The console's webhook endpoint page in a real browser (Debian's chromium, driven by
 * playwright-core): from the webhooks list an admin opens an endpoint and sees its attempts from
 * real deliveries to a local receiver (a 2xx, and a 500 whose body is shown as text, never as
 * markup), disables and enables it, changes its event types, rotates its secret (shown once),
 * sends a test and recovers what failed; at 1280x800 and at 390x844 without sideways scrolling,
 * the switch worked from the keyboard there. Every wait is for a state of the page or the table.
 * On a laptop without chromium (`apt-get install chromium`) it is skipped; under CI it runs.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import type { WebhookEndpoint } from '../../shared/domain/webhooks.js';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { RETRY_POLICY } from '../../shared/webhooks/retry.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { type Receiver, startReceiver, waitFor, waitForRunStatus } from '../support/deliveries.js';
import { body as json } from '../support/json.js';
import { testTmpDir } from '../support/tmp.js';

// The test send reaches the receiver on 127.0.0.1, as under npm start (restored after).
const allowLocalhost = process.env.WEBHOOKS_ALLOW_LOCALHOST;
process.env.WEBHOOKS_ALLOW_LOCALHOST = 'true';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runs = existsSync(CHROMIUM) || Boolean(process.env.CI);
if (!runs) console.log(`console browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);
const browserTest = runs ? test : test.skip;

const PASSWORD = 'a long enough passphrase';
/** What the receiver answers the failed run: markup, which the page must show as text. */
const FAILED_BODY = '<b>database down</b> retry later';

let api: TestApi;
let receiver: Receiver;
let context: BrowserContext;
let profile: string;
let endpoint: WebhookEndpoint;
let delivered = '';
let failed = '';

/** A manual Knap's run, once its delivery is over with `status`. */
const runOnce = async (access: string, name: string, status: 'delivered' | 'failed'): Promise<string> => {
  // A minute apart, so that newest first is one order.
  api.clock.advance(60);
  const created = await createKnap(api.url, access, { name, schedule_type: 'manual' });
  expect(created.status).toBe(201);
  const uuid = (await json(created)).uuid as string;
  const started = await fetch(`${api.url}/api/studio/knap-tools/${uuid}/runs`, { method: 'POST', headers: bearer(access) });
  expect(started.status).toBe(202);
  const runId = (await json(started)).run_id as string;
  await waitForRunStatus(api.deps.repo, runId, status);
  return runId;
};

beforeAll(async () => {
  if (!runs) return;
  // One attempt per run: the 500 is final at once (no retry waits on the real clock); D far away.
  api = await startTestApi({
    admins: true,
    deliveries: { settings: { retry: { ...RETRY_POLICY, maxAttempts: 1 }, disableAfterSeconds: 1e9 } },
  });
  api.clock.set('2026-11-23T10:00:05Z');
  // Request 1 (the first run) is taken, request 2 (the second) refused with a body; the rest taken.
  receiver = await startReceiver((request) =>
    request === 1 ? { status: 200, body: 'ok' } : request === 2 ? { status: 500, body: FAILED_BODY } : { status: 204 },
  );
  await createAdmin(api.deps, { orgName: 'acme', email: 'ada@acme.example', password: PASSWORD });
  endpoint = await addWebhook(
    api.deps,
    { orgName: 'acme', url: `${receiver.url}?channel=ops`, eventTypes: ['knap.run'], description: 'Ops receiver' },
    { allowLocalhost: true },
  );
  const access = (await getToken(api.url, await api.newClient({ orgName: 'acme', rateLimit: 100_000 }))).access_token;
  delivered = await runOnce(access, 'Daily digest', 'delivered');
  failed = await runOnce(access, 'CRM sync', 'failed');
  expect(receiver.received).toHaveLength(2);

  profile = mkdtempSync(join(testTmpDir(), 'console-endpoint-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    env: { ...process.env, TMPDIR: profile, HOME: profile },
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(15_000);
}, 90_000);

afterAll(async () => {
  await context?.close();
  await receiver?.close();
  await api?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (allowLocalhost === undefined) delete process.env.WEBHOOKS_ALLOW_LOCALHOST;
  else process.env.WEBHOOKS_ALLOW_LOCALHOST = allowLocalhost;
});

const page = (): Page => context.pages()[0] as Page;
const attemptRow = (messageId: string, attempt = 1) => page().locator(`tr[data-attempt="${messageId}/${attempt}"]`);
const noSidewaysScroll = () =>
  page().evaluate('document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth') as Promise<boolean>;
const stored = async () => {
  const found = await api.deps.repo.getWebhookEndpoint(endpoint.endpointId);
  if (!found) throw new Error('the endpoint is gone');
  return found;
};

describe("the console's webhook endpoint page", () => {
  browserTest(
    'attempts, enable switch, event types, rotation, test send and recovery; at 1280x800 and 390x844',
    async () => {
      await page().goto(`${api.url}/console#webhooks`);
      await page().getByRole('button', { name: 'Sign in' }).click();
      await page().getByLabel('Email').fill('ada@acme.example');
      await page().getByLabel('Password').fill(PASSWORD);
      await page().getByRole('button', { name: 'Sign in' }).click();
      await page().getByRole('heading', { name: 'Webhook endpoints' }).waitFor();

      // From the list to the endpoint's page.
      await page()
        .getByRole('link', { name: `Attempts and settings of ${endpoint.url}` })
        .click();
      await page().getByRole('heading', { name: 'Webhook endpoint', exact: true }).waitFor();
      expect(page().url()).toContain(`#webhooks/${endpoint.endpointId}`);
      expect(await page().getByTestId('endpoint-url').textContent()).toBe(endpoint.url);
      await page().getByText('Ops receiver').waitFor();
      expect(await page().getByTestId('endpoint-types').textContent()).toBe('knap.run');
      expect(await page().getByTestId('endpoint-state').textContent()).toBe('Enabled');
      expect(await page().getByTestId('endpoint-streak').textContent()).toMatch(/^1 since /);

      // The attempts, newest first: the 500 with its body as text, then the 200.
      await attemptRow(failed).waitFor();
      const rows = await page()
        .locator('tr[data-attempt]')
        .evaluateAll((found) => found.map((row) => row.getAttribute('data-attempt')));
      expect(rows).toEqual([`${failed}/1`, `${delivered}/1`]);
      const refused = attemptRow(failed);
      expect(await refused.locator('td[data-label="HTTP status"]').textContent()).toBe('500');
      expect(await refused.locator('td[data-label="Result"]').textContent()).toMatch(
        /^Failed HTTP 500 from http:\/\/127\.0\.0\.1:\d+$/,
      );
      expect(await refused.locator('pre.answer').textContent()).toBe(FAILED_BODY);
      expect(await refused.locator('pre.answer b').count()).toBe(0);
      expect(await refused.locator('td[data-label="Duration"]').textContent()).toMatch(/^\d+ ms$/);
      const taken = attemptRow(delivered);
      expect(await taken.locator('td[data-label="HTTP status"]').textContent()).toBe('200');
      expect(await taken.locator('td[data-label="Result"]').textContent()).toBe('Delivered');
      expect(await taken.locator('pre.answer').textContent()).toBe('ok');
      // The query's secret stays in the endpoint's item: no attempt names it.
      expect(await page().locator('table.attempts-list').textContent()).not.toContain('channel=ops');
      await page().screenshot({ path: 'docs/console/endpoint-1280.png', fullPage: true });

      // Disabled, stored; enabled again.
      const enabled = page().getByRole('switch', { name: /Enabled/ });
      expect(await enabled.isChecked()).toBe(true);
      await enabled.click();
      await page().getByTestId('endpoint-state').getByText('Disabled').waitFor();
      expect(await enabled.isChecked()).toBe(false);
      expect((await stored()).disabled).toBe(true);
      await enabled.click();
      await page().getByTestId('endpoint-state').getByText('Enabled').waitFor();
      expect((await stored()).disabled).toBe(false);

      // Event types: one more, then every type (null).
      const types = page().getByRole('group', { name: 'Event types' });
      await types.getByRole('checkbox', { name: 'knap.run.failed' }).check();
      await page().getByRole('button', { name: 'Save event types' }).click();
      await page().getByTestId('endpoint-types').getByText('knap.run, knap.run.failed').waitFor();
      expect((await stored()).eventTypes).toEqual(['knap.run', 'knap.run.failed']);
      await page().getByRole('status').getByText('Event types saved').waitFor();
      await types.getByRole('checkbox', { name: /Every type/ }).check();
      expect(await types.getByRole('checkbox', { name: 'webhook.test' }).isDisabled()).toBe(true);
      await page().getByRole('button', { name: 'Save event types' }).click();
      await page().getByTestId('endpoint-types').getByText('Every type').waitFor();
      expect((await stored()).eventTypes ?? null).toBeNull();

      // Rotation: asked first, the new secret shown once, then gone from the page.
      const before = (await stored()).secret;
      await page().getByRole('button', { name: 'Rotate secret' }).click();
      await page().getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
      const secret = (await page().getByTestId('secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(before);
      expect((await stored()).secret).toBe(secret);
      await page().getByRole('dialog').getByText('it will not be shown again').waitFor();
      await page().getByRole('dialog').getByRole('button', { name: 'Copy secret' }).waitFor();
      await page().getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      await page().getByRole('dialog').waitFor({ state: 'detached' });
      expect(await page().content()).not.toContain(secret);

      // A test send: its answer on the page, the receiver got a signed webhook.test.
      await page().getByRole('button', { name: 'Send a test' }).click();
      await page()
        .getByTestId('test-result')
        .getByText(/^Test delivered: HTTP 204 in \d+ ms$/)
        .waitFor();
      const test = receiver.received.at(-1);
      expect(JSON.parse(test?.body ?? '{}').type).toBe('webhook.test');

      // Recovery since an hour before the failed run: 202 shown, the run delivered again.
      await page().getByLabel('Recover failed runs since (your time)').fill('2026-11-23T09:00:00');
      await page().getByRole('button', { name: 'Recover', exact: true }).click();
      await page()
        .getByTestId('recover-result')
        .getByText(/^Recovery started/)
        .waitFor();
      expect(await page().getByTestId('recover-result').locator('time').getAttribute('datetime')).toBe('2026-11-23T09:00:00Z');
      await waitForRunStatus(api.deps.repo, failed, 'delivered');
      await waitFor('the recovered run at the receiver', () =>
        receiver.received.some((received, index) => index >= 2 && received.headers['webhook-id'] === failed) ? true : undefined,
      );
      await page().getByRole('button', { name: 'Refresh' }).click();
      await attemptRow(failed, 2).locator('td[data-label="Result"]').getByText('Delivered').waitFor();

      // A phone: cards, nothing wider than the screen; the switch works from the keyboard.
      await page().setViewportSize({ width: 390, height: 844 });
      await page().getByRole('link', { name: 'All endpoints' }).click();
      await page().getByRole('heading', { name: 'Webhook endpoints' }).waitFor();
      expect(await noSidewaysScroll()).toBe(true);
      await page()
        .getByRole('link', { name: `Attempts and settings of ${endpoint.url}` })
        .click();
      await attemptRow(failed, 2).waitFor();
      await attemptRow(delivered).locator('pre.answer').getByText('ok').waitFor();
      expect(await noSidewaysScroll()).toBe(true);
      await page().screenshot({ path: 'docs/console/endpoint-390.png', fullPage: true });
      const onPhone = page().getByRole('switch', { name: /Enabled/ });
      await onPhone.focus();
      await page().keyboard.press('Space');
      await page().getByTestId('endpoint-state').getByText('Disabled').waitFor();
      expect((await stored()).disabled).toBe(true);
      expect(await noSidewaysScroll()).toBe(true);

      // Another organization's endpoint id: the API's 404, as its detail.
      await page().goto(`${api.url}/console#webhooks/we_000000000000000000000000`);
      await page()
        .getByRole('alert')
        .getByText('No webhook endpoint with id we_000000000000000000000000 in your organization')
        .waitFor();
    },
    120_000,
  );
});
