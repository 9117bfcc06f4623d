import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
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

test("a body over API Gateway's 10 MB is refused with 413 before any handler runs", async () => {
  const chunk = 'x'.repeat(1024 * 1024);
  const answer = await send(
    'POST',
    '/api/studio/knap-tools',
    { ...bearer(token), 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    Array.from({ length: 11 }, () => chunk),
  ).catch((error: NodeJS.ErrnoException) => ({ status: 0, body: error.code ?? '', reusedSocket: false }));
  // The server stops reading at the limit: the answer, or a reset while the rest was still going out.
  if (answer.status !== 0) {
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ detail: 'Request body exceeds 10485760 bytes' });
  } else expect(['ECONNRESET', 'EPIPE']).toContain(answer.body);
});

test('a client that goes away in the middle of its body leaves the server answering the next', async () => {
  const errors: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    errors.push(args);
  };
  try {
    const socket = connect(Number(new URL(api.url).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `POST /api/studio/knap-tools HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
    );
    socket.destroy();
    await once(socket, 'close');
    // Answered after the server has seen that connection close (its events come in order).
    const next = await send('GET', '/api/studio/knap-tools', bearer(token));
    expect(next.status).toBe(200);
  } finally {
    console.error = original;
  }
  // Nobody to answer, and no handler failed: nothing to report.
  expect(errors).toEqual([]);
});
