/**
 * `npm run screenshots`: the pictures in docs/, taken from the product as it is today. It
 * starts the local API the way the tests do (over an in-memory table), opens each page below
 * in Debian's chromium, headless, and writes one PNG per page and width. Not part of
 * `npm test`: run it after changing a page, and commit the pictures it writes.
 *
 * Chromium is driven over its DevTools protocol on a pipe (--remote-debugging-pipe), so a
 * picture is as tall as its page (or ends where `until` starts), whatever the width.
 */
import '../local/quiet-sdk-warning.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApi } from '../test/support/api.js';

export interface Page {
  /** Where the picture goes, from the repository's root; `{width}` is replaced (needed with more than one width). */
  file: string;
  /** The page, on the local API. */
  path: string;
  /** CSS pixels, one picture each; a width under 600 is drawn as on a phone (mobile viewport). */
  widths: number[];
  /** A CSS selector the page shows once it is drawn: the picture is taken then. */
  ready: string;
  /** A CSS selector: the picture ends a little above where this element begins (default: the whole page). */
  until?: string;
}

/** Every picture docs/ shows. Console pages (docs/console/, 1280 and 390 px) go here too. */
export const PAGES: Page[] = [
  // Swagger UI draws the routes from /api/openapi.json after the page loads; the schemas below them are left out.
  { file: 'docs/api-docs-page.png', path: '/api/docs', widths: [1280], ready: '.opblock', until: '.models' },
];

/** The address the pictures show: the one `npm start` serves on, whatever port the server here took. */
const SHOWN_ORIGIN = 'http://127.0.0.1:3000';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '..');
const TIMEOUT_MS = 30_000;

/** Chromium's DevTools protocol over fds 3 (to it) and 4 (from it): JSON messages ended by a NUL byte. */
class DevTools {
  #next = 0;
  #pending = new Map<number, { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  #buffer = '';
  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      this.#buffer += chunk;
      for (let end = this.#buffer.indexOf('\0'); end >= 0; end = this.#buffer.indexOf('\0')) {
        const message = JSON.parse(this.#buffer.slice(0, end)) as { id?: number; result?: object; error?: { message: string } };
        this.#buffer = this.#buffer.slice(end + 1);
        const waiting = message.id === undefined ? undefined : this.#pending.get(message.id);
        if (!waiting || message.id === undefined) continue;
        this.#pending.delete(message.id);
        if (message.error) waiting.reject(new Error(message.error.message));
        else waiting.resolve((message.result ?? {}) as Record<string, unknown>);
      }
    });
  }
  send(method: string, params: object = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = ++this.#next;
    this.input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }
}

/** The value of a page expression. */
const evaluate = async (devtools: DevTools, session: string, expression: string): Promise<unknown> => {
  const { result } = (await devtools.send('Runtime.evaluate', { expression, returnByValue: true }, session)) as {
    result: { value?: unknown };
  };
  return result.value;
};

const shoot = async (devtools: DevTools, apiUrl: string, page: Page, width: number): Promise<Buffer> => {
  const { targetId } = await devtools.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = (await devtools.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
  try {
    const mobile = width < 600;
    const metrics = { width, height: 900, deviceScaleFactor: 1, mobile };
    await devtools.send('Emulation.setDeviceMetricsOverride', metrics, sessionId);
    await devtools.send('Page.navigate', { url: `${SHOWN_ORIGIN}${page.path}` }, sessionId);
    const deadline = Date.now() + TIMEOUT_MS;
    const readyCheck = `document.readyState === 'complete' && !!document.querySelector(${JSON.stringify(page.ready)})`;
    while (!(await evaluate(devtools, sessionId, readyCheck))) {
      if (Date.now() > deadline)
        throw new Error(`${apiUrl}${page.path} did not show ${page.ready} within ${TIMEOUT_MS / 1000} s`);
      await sleep(100);
    }
    await sleep(500); // fonts and the last layout
    const heightOf = page.until
      ? `Math.ceil(document.querySelector(${JSON.stringify(page.until)})?.getBoundingClientRect().top ?? 0)`
      : 'document.documentElement.scrollHeight';
    const height = Number(await evaluate(devtools, sessionId, heightOf));
    if (!(height > 0)) throw new Error(`${page.path} has no ${page.until} to end the picture at`);
    await devtools.send('Emulation.setDeviceMetricsOverride', { ...metrics, height }, sessionId);
    const { data } = (await devtools.send(
      'Page.captureScreenshot',
      { format: 'png', captureBeyondViewport: false },
      sessionId,
    )) as {
      data: string;
    };
    return Buffer.from(data, 'base64');
  } finally {
    await devtools.send('Target.closeTarget', { targetId });
  }
};

const fileFor = (page: Page, width: number): string => {
  if (page.widths.length > 1 && !page.file.includes('{width}'))
    throw new Error(`${page.file}: name {width} in it, for several widths`);
  return join(ROOT, page.file.replaceAll('{width}', String(width)));
};

const main = async (): Promise<void> => {
  if (!existsSync(CHROMIUM)) {
    console.error(`chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
    process.exit(1);
  }
  const api = await startTestApi();
  const profile = mkdtempSync(join(tmpdir(), 'knap-screenshots-'));
  let browser: ChildProcess | undefined;
  try {
    // The browser reaches the API through it as an HTTP proxy (loopback included), so the
    // pages are asked for at SHOWN_ORIGIN and name it, as under `npm start`.
    browser = spawn(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--hide-scrollbars',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        `--proxy-server=${api.url}`,
        '--proxy-bypass-list=<-loopback>',
        '--remote-debugging-pipe',
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    browser.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<never>((_, reject) =>
      browser?.once('exit', (code) => reject(new Error(`chromium exited (${code}): ${stderr.trim().split('\n').at(-1) ?? ''}`))),
    );
    exited.catch(() => undefined);
    const devtools = new DevTools(browser.stdio[3] as Writable, browser.stdio[4] as Readable);
    for (const page of PAGES) {
      for (const width of page.widths) {
        const file = fileFor(page, width);
        const png = await Promise.race([shoot(devtools, api.url, page, width), exited]);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, png);
        console.log(`${relative(ROOT, file)}: ${page.path} at ${width} px, ${png.readUInt32BE(20)} px tall`);
      }
    }
  } finally {
    // Its profile folder is removed once it has stopped writing to it.
    if (browser && browser.exitCode === null && browser.signalCode === null) {
      const gone = once(browser, 'exit');
      browser.kill();
      await gone;
    }
    await api.close();
    rmSync(profile, { recursive: true, force: true });
  }
};

await main();
