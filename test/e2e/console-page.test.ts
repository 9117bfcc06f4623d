/**
 * The console's page and files over HTTP (no browser): the page names each file by the version
 * the function serves it under, so a browser keeps it for good, and anything else is revalidated.
 */
import { startTestApi, type TestApi } from '../support/api.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ admins: true });
});
afterAll(() => api.close());

test('each file the page names is served immutable at that version, and no-cache at any other', async () => {
  const page = await fetch(`${api.url}/console`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const named = [...html.matchAll(/\/console\?asset=(app\.(?:js|css))&amp;v=([0-9a-f]{12})/g)];
  expect(named.map(([, file]) => file).sort()).toEqual(['app.css', 'app.js']);
  for (const [, file, version] of named) {
    const current = await fetch(`${api.url}/console?asset=${file}&v=${version}`);
    expect({ file, status: current.status, cache: current.headers.get('cache-control') }).toEqual({
      file,
      status: 200,
      cache: 'public, max-age=31536000, immutable',
    });
    const stale = await fetch(`${api.url}/console?asset=${file}&v=000000000000`);
    expect({ file, cache: stale.headers.get('cache-control') }).toEqual({ file, cache: 'no-cache' });
  }
  expect((await fetch(`${api.url}/console?asset=app.js.map`)).status).toBe(404);
});
