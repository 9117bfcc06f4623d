/**
 * The console's Knaps page in a real browser (Debian's chromium, driven by playwright-core): an
 * admin lists the organization's Knaps (private ones too) with their schedule in English, next
 * run and last run, switches one off (its next run goes, and it does not run), deletes one, and
 * finds both in the audit log; at 1280 px as a table and at 390 px as cards, without sideways
 * scrolling. It refreshes docs/console/knaps-1280.png and knaps-390.png.
 * On a laptop without chromium (`apt-get install chromium`) it is skipped; under CI it runs.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { dispatchDueRuns } from '../../shared/services/dispatcher.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { type Body, body as json } from '../support/json.js';
import { testTmpDir } from '../support/tmp.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runs = existsSync(CHROMIUM) || Boolean(process.env.CI);
if (!runs) console.log(`console browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);
const browserTest = runs ? test : test.skip;

const PASSWORD = 'a long enough passphrase';
let api: TestApi;
let context: BrowserContext;
let profile: string;
let access = '';
const made = {} as Record<'digest' | 'standup' | 'cleanup', Body>;

const newKnap = async (token: string, body: Record<string, unknown>) => {
  const response = await createKnap(api.url, token, body);
  expect(response.status).toBe(201);
  return json(response);
};

beforeAll(async () => {
  if (!runs) return;
  api = await startTestApi({ admins: true });
  api.clock.set('2026-11-23T10:00:05Z'); // a Monday
  await createAdmin(api.deps, { orgName: 'acme', email: 'ada@acme.example', password: PASSWORD });
  access = (await getToken(api.url, await api.newClient({ orgName: 'acme', rateLimit: 100_000 }))).access_token;
  const colleague = (await getToken(api.url, await api.newClient({ orgName: 'acme', rateLimit: 100_000 }))).access_token;
  made.digest = await newKnap(access, {
    name: 'Weekday digest',
    schedule_type: 'scheduled',
    visibility: 'acme',
    tool_metadata: { schedule_description: 'every weekday at 10:30 Europe/Berlin' },
  });
  made.standup = await newKnap(access, { name: 'Standup notes', schedule_type: 'post_meeting_transcription' });
  made.cleanup = await newKnap(colleague, { name: 'Old cleanup', visibility: 'private' });
  const run = await fetch(`${api.url}/api/studio/knap-tools/${made.standup.uuid}/runs`, {
    method: 'POST',
    headers: bearer(access),
  });
  expect(run.status).toBe(202);

  profile = mkdtempSync(join(testTmpDir(), 'console-knaps-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    env: { ...process.env, TMPDIR: profile, HOME: profile },
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(15_000);
}, 90_000);

afterAll(async () => {
  await context?.close();
  await api?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const page = (): Page => context.pages()[0] as Page;
const row = (name: string) => page().locator('tr', { hasText: name });
const fitsWidth = () => page().evaluate('document.documentElement.scrollWidth <= window.innerWidth') as Promise<boolean>;

describe("the console's Knaps", () => {
  browserTest(
    'an admin lists the Knaps, switches one off and deletes one, and finds both in the audit log; at 1280 and 390 px',
    async () => {
      await page().goto(`${api.url}/console#knaps`);
      await page().getByRole('button', { name: 'Sign in' }).click();
      await page().getByLabel('Email').fill('ada@acme.example');
      await page().getByLabel('Password').fill(PASSWORD);
      await page().getByRole('button', { name: 'Sign in' }).click();
      await page().getByRole('heading', { name: 'Knaps', exact: true }).waitFor();

      // Every Knap of the organization, the colleague's private one too.
      await row('Old cleanup').waitFor();
      await row('Weekday digest')
        .getByText(/Every weekday at 10:30/)
        .waitFor();
      await row('Standup notes').getByText('After each meeting').waitFor();
      await row('Standup notes').getByText('No report').waitFor();
      expect(await row('Weekday digest').locator('td[data-label="Next run"] time').getAttribute('datetime')).toBe(
        made.digest.next_run_at,
      );
      await page().screenshot({ path: 'docs/console/knaps-1280.png', fullPage: true });

      // Off: no next run, and past its time the dispatcher makes no run of it.
      const toggle = row('Weekday digest').getByRole('switch');
      expect(await toggle.isChecked()).toBe(true);
      await toggle.click();
      await row('Weekday digest').getByText('Off', { exact: true }).waitFor();
      await row('Weekday digest').locator('td[data-label="Next run"]').getByText('None').waitFor();
      const admin = await api.adminToken('acme', 'reader@acme.example');
      const read = await json(await fetch(`${api.url}/api/admin/knaps/${made.digest.uuid}`, { headers: bearer(admin) }));
      expect(read).toMatchObject({ is_active: false, next_run_at: null });
      // It was due on Tuesday at 09:30 UTC (10:30 in Berlin).
      expect(made.digest.next_run_at).toBe('2026-11-24T09:30:00Z');
      api.clock.set('2026-11-24T09:31:00Z');
      await dispatchDueRuns(api.deps);
      expect((await api.deps.repo.listRuns(made.digest.uuid, { limit: 10 })).runs).toEqual([]);

      // The Knap's runs, under its row.
      await row('Standup notes').getByRole('button', { name: 'Runs' }).click();
      await page().getByRole('list', { name: 'Runs of Standup notes' }).getByText('manual').waitFor();

      // Delete, confirmed.
      await row('Old cleanup').getByRole('button', { name: 'Delete' }).click();
      await page().getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await row('Old cleanup').waitFor({ state: 'detached' });
      const gone = await fetch(`${api.url}/api/admin/knaps/${made.cleanup.uuid}`, { headers: bearer(admin) });
      expect(gone.status).toBe(404);

      // At 390 px: cards, nothing wider than the screen.
      await page().setViewportSize({ width: 390, height: 844 });
      await row('Weekday digest').waitFor();
      expect(await fitsWidth()).toBe(true);
      await page().screenshot({ path: 'docs/console/knaps-390.png', fullPage: true });
      await page().setViewportSize({ width: 1280, height: 900 });

      // Both changes in the audit log, with the Knaps' uuids.
      const audit = await json(await fetch(`${api.url}/api/admin/audit-events`, { headers: bearer(admin) }));
      const mine = audit.events.filter((event: Body) => event.target?.type === 'knap');
      expect(mine.map((event: Body) => [event.action, event.target.id])).toEqual([
        ['knap.delete', made.cleanup.uuid],
        ['knap.update', made.digest.uuid],
      ]);
      await page().getByRole('link', { name: 'Audit log' }).click();
      await page().getByRole('heading', { name: 'Audit log' }).waitFor();
      await page().getByText(made.cleanup.uuid).first().waitFor();
      await page().getByText(made.digest.uuid).first().waitFor();
    },
    90_000,
  );
});
