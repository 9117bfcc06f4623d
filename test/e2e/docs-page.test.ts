/**
 * The API reference page rendered by a real browser: Debian's chromium, headless. On a laptop
 * without it (`apt-get install chromium`) the test is skipped; under CI, where .ci/run installs
 * it, it always runs.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium as playwright } from 'playwright-core';
import { startTestApi, type TestApi } from '../support/api.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = promisify(execFile);
const browserTest = existsSync(CHROMIUM) || process.env.CI ? test : test.skip;

let api: TestApi;
let dir: string;
beforeAll(async () => {
  api = await startTestApi();
  dir = mkdtempSync(join(tmpdir(), 'knap-docs-page-'));
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Flags for a closed network: no background connections, no first-run work. */
const chromium = (...args: string[]) =>
  run(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${join(dir, 'profile')}`,
      '--window-size=1280,1600',
      '--virtual-time-budget=10000',
      ...args,
    ],
    { timeout: 60_000, maxBuffer: 32 * 1024 * 1024 },
  );

browserTest(
  `GET /api/docs renders every route in ${CHROMIUM}, offline`,
  async () => {
    const { stdout: dom } = await chromium('--dump-dom', `${api.url}/api/docs`);
    // Swagger UI drew these from /api/openapi.json: the page's own HTML names none of them.
    for (const text of ['Knap API', '/api/studio/knap-tools/{uuid}', '/api/studio/schedules/preview', '/api/oauth/token']) {
      expect(dom).toContain(text);
    }
    const screenshot = join(dir, 'docs.png');
    await chromium(`--screenshot=${screenshot}`, `${api.url}/api/docs`);
    expect(readFileSync(screenshot).subarray(1, 4).toString()).toBe('PNG');
    expect(readFileSync(screenshot).length).toBeGreaterThan(50_000);
  },
  120_000,
);

browserTest(
  'GET /api/docs: a Content-Security-Policy under which the page still renders, with no violation; never framed',
  async () => {
    const answer = await fetch(`${api.url}/api/docs`);
    const policy = answer.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
    const browser = await playwright.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
      env: { ...process.env, TMPDIR: dir, HOME: dir },
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const messages: string[] = [];
      page.on('console', (message) => messages.push(message.text()));
      // Every violation the page reports, also those that log nothing.
      await page.addInitScript(
        "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));",
      );
      await page.goto(`${api.url}/api/docs`);
      await page.getByText('/api/oauth/token', { exact: true }).first().waitFor({ timeout: 30_000 });
      await page.getByText('/api/studio/knap-tools/{uuid}', { exact: true }).first().waitFor();
      // Open one operation: its schema and examples render too.
      await page.getByText('/api/oauth/token', { exact: true }).first().click();
      await page.getByText('Request body').first().waitFor();
      expect(await page.evaluate('window.violations')).toEqual([]);
      expect(messages.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);

      // Framed by another page (here: one of another origin), the browser refuses to show it.
      const framing = await browser.newPage();
      const refusals: string[] = [];
      framing.on('console', (message) => refusals.push(message.text()));
      await framing.setContent(`<iframe src="${api.url}/api/docs"></iframe>`);
      await framing.waitForTimeout(500);
      const framed = framing.frames().find((frame) => frame.url().startsWith(api.url));
      const shown = framed ? await framed.evaluate('document.body ? document.body.innerText : ""').catch(() => '') : '';
      expect(shown).not.toContain('Knap API');
      expect(refusals.some((text) => text.includes("frame-ancestors 'none'"))).toBe(true);
    } finally {
      await browser.close();
    }
  },
  120_000,
);
