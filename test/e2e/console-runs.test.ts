/**
 * The console's runs page in a real browser (Debian's chromium, driven by playwright-core), as
 * an organization admin reads it: each run's Knap name and outcome, each delivery attempt's
 * time to the second with the endpoint's HTTP status, the filters, and a run's detail (its
 * input, output and events) that follows a live run to its end without a reload.
 * On a laptop without chromium (`apt-get install chromium`) it is skipped; under CI it runs.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { addWebhook } from '../../shared/services/webhook-admin.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { type Receiver, startReceiver, waitFor, waitForRunStatus } from '../support/deliveries.js';
import { body as json } from '../support/json.js';
import { testTmpDir } from '../support/tmp.js';

// A waiting stream answers within 1.5 s here (10 s deployed), reading the chain every 100 ms.
process.env.STREAM_WAIT_MS = '1500';
process.env.STREAM_POLL_MS = '100';

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
let access = '';
/** The receiver's second request (the first attempt of the CRM sync run) is refused with a 503. */
const REFUSED_REQUEST = 2;

interface Started {
  uuid: string;
  runId: string;
  report: (body: Record<string, unknown>) => Promise<void>;
}

/** A manual Knap named `name`, run with `input`, once its first delivery attempt is done. */
const run = async (name: string, input: Record<string, unknown>): Promise<Started> => {
  // A minute apart, so that newest first is one order (runs of one second are ordered by id).
  api.clock.advance(60);
  const created = await createKnap(api.url, access, { name, schedule_type: 'manual' });
  expect(created.status).toBe(201);
  const uuid = (await json(created)).uuid as string;
  const started = await fetch(`${api.url}/api/studio/knap-tools/${uuid}/runs`, {
    method: 'POST',
    headers: { ...bearer(access), 'content-type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  expect(started.status).toBe(202);
  const runId = (await json(started)).run_id as string;
  await waitForRunStatus(api.deps.repo, runId, 'delivered');
  const message = await waitFor('the knap.run message', () =>
    receiver.received.findLast((received) => received.headers['webhook-id'] === runId),
  );
  await waitFor('the delivered event', async () => ((await api.deps.repo.runChainHead(runId)).lastId >= 2 ? true : undefined));
  const { report_url: url, report_token: token } = JSON.parse(message.body).data.run as Record<string, string>;
  return {
    uuid,
    runId,
    report: async (body) => {
      const response = await fetch(url as string, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(201);
    },
  };
};

let digest: Started;
let crm: Started;

beforeAll(async () => {
  if (!runs) return;
  api = await startTestApi({ admins: true, deliveries: {} });
  receiver = await startReceiver((request) => (request === REFUSED_REQUEST ? { status: 503 } : { status: 204 }));
  await createAdmin(api.deps, { orgName: 'acme', email: 'ada@acme.example', password: PASSWORD });
  // Runs only: the digest's reported outcome would otherwise send a knap.run.succeeded message
  // between the two runs, and be the receiver's second request.
  await addWebhook(api.deps, { orgName: 'acme', url: receiver.url, eventTypes: ['knap.run'] }, { allowLocalhost: true });
  const client = await api.newClient({ orgName: 'acme', rateLimit: 100_000 });
  access = (await getToken(api.url, client)).access_token;

  digest = await run('Daily digest', { topic: 'inbox' });
  await digest.report({ type: 'running' });
  await digest.report({ type: 'progress', message: 'Read 120 of 300 messages' });
  await digest.report({ type: 'succeeded', output: { summary: '3 new leads' } });
  crm = await run('CRM sync', { since: 'yesterday' });

  profile = mkdtempSync(join(testTmpDir(), 'console-runs-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    env: { ...process.env, TMPDIR: profile, HOME: profile },
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(TIMEOUT);
}, 90_000);

afterAll(async () => {
  await context?.close();
  await receiver?.close();
  await api?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const page = (): Page => context.pages()[0] as Page;
const runItem = (runId: string): Locator => page().locator(`li[data-run="${runId}"]`);
const listedRuns = async (): Promise<string[]> =>
  page()
    .locator('li[data-run]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-run') ?? ''));

/** The API's own view of a run, to compare the page against (as another admin of acme). */
let readerToken: string | undefined;
const adminRun = async (runId: string) => {
  readerToken ??= await api.adminToken('acme', 'reader@acme.example');
  return json(await fetch(`${api.url}/api/admin/runs/${runId}`, { headers: bearer(readerToken) }));
};

/** An element's text: it shows `at` to the second (the browser's time zone is UTC here). */
const expectToTheSecond = async (time: Locator, at: string) => {
  expect(await time.getAttribute('datetime')).toBe(at);
  const [hours, minutes, seconds] = at.slice(11, 19).split(':').map(Number) as [number, number, number];
  const clock = `${hours % 12 === 0 ? 12 : hours % 12}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
  expect(await time.textContent()).toContain(clock);
};

describe("the console's runs", () => {
  browserTest(
    "each run shows its Knap's name, its outcome, and each attempt's time to the second with its HTTP status",
    async () => {
      await page().goto(`${api.url}/console#runs`);
      await page().getByRole('button', { name: 'Sign in' }).click();
      await page().getByLabel('Email').fill('ada@acme.example');
      await page().getByLabel('Password').fill(PASSWORD);
      await page().getByRole('button', { name: 'Sign in' }).click();
      await page().getByRole('heading', { name: 'Runs', exact: true }).waitFor();

      await runItem(digest.runId).locator('.knap-name').getByText('Daily digest', { exact: true }).waitFor();
      await runItem(digest.runId).getByText('Succeeded', { exact: true }).waitFor();
      await runItem(crm.runId).locator('.knap-name').getByText('CRM sync', { exact: true }).waitFor();
      await runItem(crm.runId).getByText('No report', { exact: true }).waitFor();

      // The CRM run's first attempt was refused (503), its retry taken (204).
      const attempts = (await adminRun(crm.runId)).delivery_attempts as { at: string; http_status: number }[];
      expect(attempts.map((attempt) => attempt.http_status)).toEqual([503, 204]);
      await runItem(crm.runId).getByText('Delivery attempts').click();
      const lines = runItem(crm.runId).locator('ol.attempts > li');
      await lines.nth(1).waitFor();
      expect(await lines.count()).toBe(2);
      for (const [index, attempt] of attempts.entries()) {
        await lines.nth(index).getByText(`HTTP ${attempt.http_status}`, { exact: true }).waitFor();
        await expectToTheSecond(lines.nth(index).locator('time'), attempt.at);
      }
    },
    90_000,
  );

  browserTest('the filters keep the runs of a Knap, a delivery status, an outcome', async () => {
    expect(await listedRuns()).toEqual([crm.runId, digest.runId]);
    await page().getByLabel('Outcome').selectOption({ label: 'Succeeded' });
    await runItem(crm.runId).waitFor({ state: 'detached' });
    expect(await listedRuns()).toEqual([digest.runId]);
    await page().getByLabel('Outcome').selectOption({ label: 'Failed' });
    await page().getByRole('heading', { name: 'No runs match these filters' }).waitFor();
    await page().getByLabel('Outcome').selectOption({ label: 'Any outcome' });
    await page().getByLabel('Knap').selectOption({ label: 'CRM sync' });
    // The list may be empty while both reads are under way (the last filter matched nothing):
    // the Knap's run shown is the answer of the newest, which no earlier answer replaces.
    await runItem(crm.runId).waitFor();
    await runItem(digest.runId).waitFor({ state: 'detached' });
    expect(await listedRuns()).toEqual([crm.runId]);
    await page().getByLabel('Delivery').selectOption({ label: 'Failed' });
    await page().getByRole('heading', { name: 'No runs match these filters' }).waitFor();
    await page().getByLabel('Delivery').selectOption({ label: 'Delivered' });
    await runItem(crm.runId).waitFor();
    await page().getByLabel('Knap').selectOption({ label: 'All Knaps' });
    await page().getByLabel('Delivery').selectOption({ label: 'Any delivery' });
    await runItem(digest.runId).waitFor();
  });

  browserTest("a run's detail shows its input, output and every event", async () => {
    await runItem(digest.runId).getByRole('button', { name: 'Details' }).click();
    const detail = page().locator(`[data-run-detail="${digest.runId}"]`);
    await detail.getByRole('heading', { name: 'Daily digest' }).waitFor();
    await detail.getByTestId('run-outcome').getByText('Succeeded', { exact: true }).waitFor();
    await detail.getByTestId('run-output').getByText('"summary": "3 new leads"').waitFor();
    await detail.getByText('"topic": "inbox"').waitFor();
    const events = detail.getByRole('list', { name: 'Events' }).locator('li');
    await events.nth(4).waitFor();
    expect(await events.evaluateAll((items) => items.map((item) => item.getAttribute('data-event')))).toEqual([
      'created',
      'delivered',
      'running',
      'progress',
      'succeeded',
    ]);
    await detail.getByText('Read 120 of 300 messages').waitFor();
    const stored = (await adminRun(digest.runId)).events as { at: string }[];
    for (const [index, event] of stored.entries()) await expectToTheSecond(events.nth(index).locator('time'), event.at);
    await page().getByRole('button', { name: 'Back to runs' }).click();
    await runItem(digest.runId).waitFor();
  });

  browserTest('the detail of a live run follows it to its end without a reload', async () => {
    const live = await run('Live one', { step: 1 });
    await page().getByRole('button', { name: 'Refresh' }).click();
    await runItem(live.runId).getByRole('button', { name: 'Details' }).click();
    const detail = page().locator(`[data-run-detail="${live.runId}"]`);
    await detail.getByTestId('run-outcome').getByText('No report', { exact: true }).waitFor();
    await detail.getByText('following live').waitFor();

    await live.report({ type: 'running' });
    await detail.getByTestId('run-outcome').getByText('Running', { exact: true }).waitFor();
    await live.report({ type: 'progress', message: 'Halfway there' });
    await detail.getByText('Halfway there').waitFor();
    await live.report({ type: 'succeeded', output: { answer: 42 } });
    await detail.getByTestId('run-outcome').getByText('Succeeded', { exact: true }).waitFor();
    await detail.getByTestId('run-output').getByText('"answer": 42').waitFor();
    // The stream ended with the terminal event: the page stops following.
    await detail.getByText('following live').waitFor({ state: 'detached' });
    const types = await detail
      .getByRole('list', { name: 'Events' })
      .locator('li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-event')));
    expect(types).toEqual(['created', 'delivered', 'running', 'progress', 'succeeded']);
  });
});
