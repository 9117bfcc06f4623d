import { Agent, request } from 'node:http';
import { bearer, getToken, startTestApi, type TestApi } from '../support/api.js';

/**
 * The local server reads a body only when the request says it has one (Content-Length or
 * Transfer-Encoding, as HTTP/1.1 frames a request), and a request that says none keeps its
 * connection for the next.
 */
let api: TestApi;
let token: string;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  api = await startTestApi();
  token = (await getToken(api.url, await api.newClient({ orgName: 'bodies' }))).access_token;
});
afterAll(async () => {
  agent.destroy();
  await api.close();
});

interface Answer {
  status: number;
  body: string;
  reusedSocket: boolean;
}

const send = (method: string, path: string, headers: Record<string, string>, chunks: string[] = []): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const outgoing = request(`${api.url}${path}`, { method, headers, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, reusedSocket: outgoing.reusedSocket }));
    });
    outgoing.on('error', reject);
    for (const chunk of chunks) outgoing.write(chunk);
    outgoing.end();
  });

// Over the 64 KB a route that reads no body accepts (MAX_IGNORED_BODY_BYTES): seen only if read.
const large = 'x'.repeat(70_000);

test('a GET that sends a body by its length has it read, and refused when too large', async () => {
  const answer = await send('GET', '/api/studio/knap-tools', { ...bearer(token), 'content-length': String(large.length) }, [
    large,
  ]);
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body)).toEqual({ detail: expect.stringMatching(/limit/) });
});

test('a GET that sends a chunked body has it read too', async () => {
  const answer = await send('GET', '/api/studio/knap-tools', { ...bearer(token), 'transfer-encoding': 'chunked' }, [
    large.slice(0, 35_000),
    large.slice(35_000),
  ]);
  expect(answer.status).toBe(413);
});

test('requests that say they have no body are answered, one after another on one connection', async () => {
  const first = await send('GET', '/api/studio/knap-tools', bearer(token));
  const second = await send('GET', '/api/studio/knap-tools', bearer(token));
  const created = await send('POST', '/api/studio/knap-tools', {
    ...bearer(token),
    'content-type': 'application/json',
    'content-length': '0',
  });
  expect([first.status, second.status]).toEqual([200, 200]);
  expect(second.reusedSocket).toBe(true);
  // An empty body is a body the route reads: not a JSON object.
  expect(created.status).toBe(400);
  expect(created.reusedSocket).toBe(true);
});
