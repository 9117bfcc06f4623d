/**
 * `npm run screenshots`: the pictures in docs/, taken from the product as it is today. It
 * starts the local API the way the tests do (over an in-memory table, with the local OpenID
 * Connect provider under /oidc), fills it with a plausible organization, opens each page in
 * Debian's chromium (headless, driven by playwright-core) and writes one PNG per page and
 * width. Not part of `npm test`: run it after changing a page, and commit the pictures.
 *
 * - docs/api-docs-page.png: the API docs, asked for at SHOWN_ORIGIN through the API as an HTTP
 *   proxy, so the page names http://127.0.0.1:3000 as under `npm start`.
 * - docs/console/*.png: the admin console at 1280 and 390 px, signed in as ada@acme.example of
 *   acme. Its data is written through the services and the repository, with the test clock
 *   moved over the last two weeks (runs and their delivery attempts written directly, so the
 *   chart does not wait for real deliveries). Nothing the console shows names the port.
 */
import '../local/quiet-sdk-warning.js';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { type Browser, type Page as BrowserPage, chromium } from 'playwright-core';
import type { Actor } from '../shared/domain/audit.js';
import { isoSeconds } from '../shared/domain/clock.js';
import type { Knap } from '../shared/domain/knaps.js';
import { type DeliveryAttemptEntry, newRun, type RunTrigger, runId } from '../shared/domain/runs.js';
import { createAdmin } from '../shared/services/admin-accounts.js';
import { recordAudit } from '../shared/services/audit-log.js';
import { createOrgClient, regenerateOrgClientSecret, revokeOrgClient, updateOrgClient } from '../shared/services/org-clients.js';
import { redeliverOrgRun } from '../shared/services/org-runs.js';
import type { OrgAdmin } from '../shared/services/request-state.js';
import { addWebhook } from '../shared/services/webhook-admin.js';
import { nominalDelaySeconds, RETRY_POLICY } from '../shared/webhooks/retry.js';
import { describeUrl } from '../shared/webhooks/urls.js';
import { getToken, startTestApi, type TestApi } from '../test/support/api.js';
import { putTestKnap } from '../test/support/deliveries.js';
import { ensureConsoleBuilt } from './build-console.js';

export interface Page {
  /** Where the picture goes, from the repository's root; `{width}` is replaced (needed with more than one width). */
  file: string;
  /** The page, on the local API. */
  path: string;
  /** CSS pixels, one picture each. */
  widths: number[];
  /** A CSS selector the page shows once it is drawn: the picture is taken then. */
  ready: string;
  /** A CSS selector: the picture ends a little above where this element begins (default: the whole page). */
  until?: string;
}

/** Pages shown without signing in. The console's pictures are taken by `consolePictures` below. */
export const PAGES: Page[] = [
  // Swagger UI draws the routes from /api/openapi.json after the page loads; the schemas below them are left out.
  { file: 'docs/api-docs-page.png', path: '/api/docs', widths: [1280], ready: '.opblock', until: '.models' },
];

/** The console's widths: a laptop and a phone. */
const CONSOLE_WIDTHS = [1280, 390];
const CONSOLE_DIR = 'docs/console';

/** The address the pictures show: the one `npm start` serves on, whatever port the server here took. */
const SHOWN_ORIGIN = 'http://127.0.0.1:3000';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '..');
const TIMEOUT_MS = 30_000;

const ORG = 'acme';
const EMAIL = 'ada@acme.example';
const PASSWORD = 'a long enough passphrase';
/** Where ada worked from before today (a documentation address, RFC 5737); today's sign-in is the browser's own. */
const ADA: Actor = { name: EMAIL, sourceIp: '203.0.113.24' };
const ADMIN: OrgAdmin = { orgName: ORG, actor: ADA };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const written: string[] = [];

const save = async (page: BrowserPage, file: string, options: { fullPage?: boolean; height?: number } = {}) => {
  const path = join(ROOT, file);
  mkdirSync(dirname(path), { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const png = await page.screenshot({
    path,
    animations: 'disabled',
    caret: 'hide',
    ...(options.height ? { fullPage: true, clip: { x: 0, y: 0, width, height: options.height } } : {}),
    ...(options.fullPage ? { fullPage: true } : {}),
  });
  written.push(file);
  console.log(`${relative(ROOT, path)}: ${width} px wide, ${png.readUInt32BE(20)} px tall`);
};

/** The pages of PAGES, asked for at SHOWN_ORIGIN through the local API as a proxy. */
const publicPictures = async (browser: Browser, api: TestApi) => {
  for (const shot of PAGES) {
    for (const width of shot.widths) {
      if (shot.widths.length > 1 && !shot.file.includes('{width}'))
        throw new Error(`${shot.file}: name {width} in it, for several widths`);
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        deviceScaleFactor: 1,
        isMobile: width < 600,
        proxy: { server: api.url },
      });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(TIMEOUT_MS);
        await page.goto(`${SHOWN_ORIGIN}${shot.path}`);
        await page.locator(shot.ready).first().waitFor();
        await page.waitForLoadState('load');
        await page.waitForTimeout(500); // fonts and the last layout
        const height = shot.until
          ? Math.ceil(
              await page
                .locator(shot.until)
                .first()
                .evaluate((element) => element.getBoundingClientRect().top),
            )
          : undefined;
        if (shot.until && !(height && height > 0)) throw new Error(`${shot.path} has no ${shot.until} to end the picture at`);
        await save(page, shot.file.replaceAll('{width}', String(width)), height ? { height } : { fullPage: true });
      } finally {
        await context.close();
      }
    }
  }
};

/** The HTTP status an attempt's error names (`HTTP 503 from ...`), or null (a timeout, a refused connection). */
const httpStatusOf = (error: string | null): number | null => {
  const status = /^HTTP (\d{3})\b/.exec(error ?? '')?.[1];
  return status ? Number(status) : null;
};

/** A run of `knap` made `at`, with its delivery attempts (each: when, and what each endpoint did). */
const putRun = async (
  api: TestApi,
  knap: Knap,
  at: Date,
  trigger: RunTrigger,
  attempts: { delay: number; entries: [string, 'delivered' | 'failed', string | null][] }[],
  finalStatus: 'delivered' | 'failed' | 'pending',
): Promise<string> => {
  const createdAt = isoSeconds(at);
  const meetingId = trigger === 'post_meeting_transcription' ? `mtg_${randomUUID().slice(0, 8)}` : null;
  const run = newRun({
    run_id:
      trigger === 'scheduled'
        ? runId.scheduled(knap.uuid, createdAt)
        : trigger === 'manual'
          ? runId.manual()
          : runId.meeting(knap.uuid, meetingId ?? ''),
    knap_uuid: knap.uuid,
    trigger,
    scheduled_for: trigger === 'scheduled' ? createdAt : null,
    meeting_id: meetingId,
    created_at: createdAt,
    ...(meetingId
      ? {
          meeting: {
            meeting_id: meetingId,
            title: 'Acme x Globex: quarterly review',
            occurred_at: createdAt,
            transcript_url: null,
            user_id: null,
          },
        }
      : {}),
  });
  if (!(await api.deps.repo.putRun({ run, orgName: ORG, deliveredTo: [], knapName: knap.name }))) throw new Error('run exists');
  let when = at.getTime();
  for (const [index, attempt] of attempts.entries()) {
    when += attempt.delay;
    const attemptAt = isoSeconds(new Date(when));
    const entries: DeliveryAttemptEntry[] = attempt.entries.map(([endpointId, status, error]) => ({
      at: attemptAt,
      endpoint_id: endpointId,
      status,
      error,
      response_status: status === 'delivered' ? 204 : httpStatusOf(error),
      duration_ms: null,
      response_body: null,
      http_status: status === 'delivered' ? 204 : httpStatusOf(error),
    }));
    const errors = entries.flatMap((entry) => (entry.error ? [entry.error] : []));
    const last = index === attempts.length - 1;
    const status = errors.length === 0 ? 'delivered' : last ? finalStatus : 'pending';
    const recorded = await api.deps.repo.recordDeliveryAttempt(
      run.run_id,
      {
        number: index + 1,
        id: randomUUID(),
        at: attemptAt,
        deliveredTo: entries.filter((entry) => entry.status === 'delivered').map((entry) => entry.endpoint_id as string),
        error: errors.length ? errors.join('; ') : null,
        entries,
      },
      status,
    );
    if (!recorded) throw new Error(`attempt ${index + 1} of ${run.run_id} not recorded`);
  }
  return run.run_id;
};

/**
 * acme as it might look after two weeks: ada made its clients (one with its own rate limit,
 * one revoked, some used today) and two endpoints; one endpoint answered 500 for two days,
 * and ada redelivered a run it missed. The clock moves as each thing happens.
 */
const seed = async (api: TestApi, now: Date): Promise<void> => {
  const { deps, clock } = api;
  const at = (daysAgo: number, hour: number, minute = 0): Date => {
    const day = new Date(now.getTime() - daysAgo * DAY);
    return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour, minute, 7));
  };
  const signIn = (when: Date) => {
    clock.set(when);
    return recordAudit(deps, ADA, ORG, 'admin.sign_in', { type: 'admin', id: EMAIL });
  };

  clock.set(at(13, 8, 52));
  await createAdmin(deps, { orgName: ORG, email: EMAIL, password: PASSWORD });
  await signIn(at(13, 9, 4));
  clock.set(at(13, 9, 6));
  const billing = await createOrgClient(deps, ADMIN, {
    name: 'Billing sync',
    description: 'Nightly export of meeting hours to NetSuite',
  });
  clock.set(at(13, 9, 11));
  const crm = await createOrgClient(deps, ADMIN, {
    name: 'Salesforce connector',
    description: 'Creates Knaps for new opportunities',
    rate_limit: 600,
  });
  clock.set(at(13, 9, 15));
  const legacy = await createOrgClient(deps, ADMIN, { name: 'Legacy reporting' });
  clock.set(at(12, 10, 2));
  const hooks = await addWebhook(
    deps,
    { orgName: ORG, url: 'https://hooks.acme.example/knap/runs' },
    { allowLocalhost: false },
    ADA,
  );
  await signIn(at(6, 14, 20));
  clock.set(at(6, 14, 25));
  const slack = await createOrgClient(deps, ADMIN, {
    name: 'Slack digest bot',
    description: 'Posts run summaries to #sales-updates',
  });
  clock.set(at(6, 14, 31));
  const crmHook = await addWebhook(
    deps,
    { orgName: ORG, url: 'https://crm.acme.example/webhooks/knap' },
    { allowLocalhost: false },
    ADA,
  );
  clock.set(at(6, 14, 40));
  await updateOrgClient(deps, ADMIN, crm.client_id, { rate_limit: 1200 });

  // Tokens: when each client was last used.
  const use = async (client: { client_id: string; client_secret: string }, when: Date) => {
    clock.set(when);
    await getToken(api.url, { clientId: client.client_id, clientSecret: client.client_secret });
  };
  await use(legacy, at(9, 7, 30));
  await signIn(at(5, 16, 2));
  clock.set(at(5, 16, 5));
  await revokeOrgClient(deps, ADMIN, legacy.client_id);
  clock.set(at(5, 16, 9));
  const slackSecret = await regenerateOrgClientSecret(deps, ADMIN, slack.client_id);
  await use({ ...slack, client_secret: slackSecret.client_secret }, new Date(now.getTime() - 47 * MINUTE));
  await use(billing, at(1, 2, 0));
  await use(crm, new Date(now.getTime() - 12 * MINUTE));

  // Runs: three Knaps, scheduled, by hand and after meetings.
  const owner = { orgName: ORG, creatorClientId: crm.client_id };
  const weekly = await putTestKnap(deps.repo, owner, { name: 'Weekly pipeline summary' });
  const followUp = await putTestKnap(deps.repo, owner, { name: 'Meeting follow-up' });
  const churn = await putTestKnap(deps.repo, owner, { name: 'Churn risk alert' });
  const crmUrl = describeUrl(new URL(crmHook.url));
  const down = `HTTP 500 from ${crmUrl}`;
  const both = (seconds = 2) => ({
    delay: seconds * 1000,
    entries: [
      [hooks.endpointId, 'delivered', null],
      [crmHook.endpointId, 'delivered', null],
    ] as [string, 'delivered', null][],
  });
  const one = { delay: 2000, entries: [[hooks.endpointId, 'delivered', null]] as [string, 'delivered', null][] };
  /** The first attempt reaches hooks, the CRM answers 500; `retries` more attempts to the CRM alone. */
  const crmDown = (retries: number) => [
    {
      delay: 2000,
      entries: [
        [hooks.endpointId, 'delivered', null],
        [crmHook.endpointId, 'failed', down],
      ] as [string, 'delivered' | 'failed', string | null][],
    },
    ...Array.from({ length: retries }, (_, index) => ({
      delay: nominalDelaySeconds(index + 1) * 750,
      entries: [[crmHook.endpointId, 'failed', down]] as [string, 'failed', string][],
    })),
  ];
  // Before the CRM endpoint: to hooks alone.
  await putRun(api, weekly, at(11, 7), 'scheduled', [one], 'delivered');
  await putRun(api, followUp, at(9, 10, 18), 'post_meeting_transcription', [one], 'delivered');
  await putRun(api, churn, at(9, 15, 42), 'manual', [one], 'delivered');
  await putRun(api, followUp, at(7, 11, 3), 'post_meeting_transcription', [one], 'delivered');
  await putRun(api, weekly, at(6, 16), 'manual', [both()], 'delivered');
  await putRun(api, followUp, at(6, 16, 48), 'post_meeting_transcription', [both()], 'delivered');
  await putRun(api, churn, at(5, 13, 27), 'manual', [both()], 'delivered');
  // The CRM answers 500 for two days: those runs reach hooks, and fail after every retry.
  const failed = crmDown(RETRY_POLICY.maxAttempts - 1);
  await putRun(api, weekly, at(4, 7), 'scheduled', failed, 'failed');
  await putRun(api, followUp, at(4, 14, 40), 'post_meeting_transcription', failed, 'failed');
  await putRun(api, followUp, at(4, 17, 55), 'post_meeting_transcription', failed, 'failed');
  const missed = await putRun(api, churn, at(3, 9, 12), 'manual', failed, 'failed');
  await putRun(api, followUp, at(3, 14, 40), 'post_meeting_transcription', failed, 'failed');
  // The CRM is back: ada sends it a run it missed, and it arrives.
  await signIn(at(2, 9, 30));
  clock.set(at(2, 9, 34));
  await redeliverOrgRun(deps, ADMIN, missed);
  const redelivered = await deps.repo.getRun(missed);
  const redeliveredAt = isoSeconds(new Date(clock.now().getTime() + 2000));
  await deps.repo.recordDeliveryAttempt(
    missed,
    {
      number: (redelivered?.run.attempts ?? 0) + 1,
      id: randomUUID(),
      at: redeliveredAt,
      deliveredTo: [crmHook.endpointId],
      error: null,
      entries: [
        {
          at: redeliveredAt,
          endpoint_id: crmHook.endpointId,
          status: 'delivered',
          error: null,
          response_status: 204,
          duration_ms: null,
          response_body: null,
          http_status: 204,
        },
      ],
    },
    'delivered',
  );
  await putRun(api, followUp, at(2, 11, 5), 'post_meeting_transcription', [both()], 'delivered');
  await putRun(api, weekly, at(1, 7), 'scheduled', [both()], 'delivered');
  await putRun(api, followUp, at(1, 10, 30), 'post_meeting_transcription', [both()], 'delivered');
  await putRun(api, churn, at(1, 15, 48), 'manual', [both(3)], 'delivered');
  // Today: one delivered, one whose CRM delivery is being retried (500 again).
  await putRun(api, followUp, new Date(now.getTime() - 3 * HOUR), 'post_meeting_transcription', [both()], 'delivered');
  await putRun(api, churn, new Date(now.getTime() - 6 * MINUTE), 'manual', crmDown(1), 'pending');
  clock.set(now);
};

/** The console signed out, the provider's sign-in page, then each page signed in as ada, at each width. */
const consolePictures = async (browser: Browser, api: TestApi) => {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT_MS);
  const widths = async (name: string, sizes = CONSOLE_WIDTHS) => {
    for (const width of sizes) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.waitForTimeout(300);
      await save(page, `${CONSOLE_DIR}/${name}-${width}.png`, { fullPage: true });
    }
  };
  try {
    await page.goto(`${api.url}/console`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await widths('signed-out');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Password').waitFor();
    // The provider's page (local/oidc/login-page.ts) at 1280 only: at 390 its card is wider than the screen.
    await widths('sign-in', [1280]);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API clients', exact: true }).waitFor();
    for (const [link, name, heading] of [
      ['Clients', 'clients', 'API clients'],
      ['Webhooks', 'webhooks', 'Webhook endpoints'],
      ['Runs', 'runs', 'Runs'],
      ['Audit log', 'audit', 'Audit log'],
    ] as const) {
      await page.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
      // The newest run's attempts shown: a delivery, and the CRM's 500 being retried.
      if (name === 'runs') await page.locator('ul.runs > li').first().locator('summary').click();
      await page.mouse.move(0, 0);
      await widths(name);
    }
    // The secret of a new client, shown once; the list behind it.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Clients' }).click();
    await page.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Create client' }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByLabel('Name').fill('Data warehouse export');
    await dialog.getByLabel('Description (optional)').fill('Hourly load of runs into BigQuery');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('it will not be shown again').waitFor();
    await page.locator('tr', { hasText: 'Data warehouse export' }).waitFor();
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    await save(page, `${CONSOLE_DIR}/clients-new-secret-1280.png`);
  } finally {
    await context.close();
  }
};

const main = async (): Promise<void> => {
  await ensureConsoleBuilt();
  const api = await startTestApi({ admins: true });
  // Chromium writes beside its profile (and HOME): a folder of its own, removed at the end.
  const scratch = mkdtempSync(join(tmpdir(), 'knap-screenshots-'));
  let browser: Browser | undefined;
  try {
    const now = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
    await seed(api, now);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
      env: { ...process.env, TMPDIR: scratch, HOME: scratch },
    });
    await publicPictures(browser, api);
    await consolePictures(browser, api);
  } finally {
    await browser?.close();
    await api.close();
    rmSync(scratch, { recursive: true, force: true });
  }
};

await main();
