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
