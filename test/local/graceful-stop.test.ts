/**
 * Issue 23, defect 6: a graceful stop of `npm start`. After SIGTERM a request that reaches
 * the server on a keep-alive connection opened before it is answered (a 503 that closes the
 * connection will do) or never read; a connection is never closed under a request the
 * server took without answering it, nothing runs after the embedded DynamoDB has closed, and
 * the database closes promptly (never its 5 s last resort).
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { startEmbeddedDynamo } from '../../local/dynamodb.js';
import { freePort } from '../../local/ports.js';
import { type Spawned, spawnStart, tempDir } from './processes.js';

const running: Spawned[] = [];
const folders: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const spawned of running.splice(0)) spawned.kill();
  for (const folder of folders.splice(0)) folder.remove();
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The body at the start of `text`, by Content-Length or chunked; with the length it took, or
 * undefined when it has not all come yet.
 */
const readBody = (text: string, headers: Record<string, string>): { body: string; length: number } | undefined => {
  if (headers['transfer-encoding'] !== 'chunked') {
    const length = Number(headers['content-length'] ?? 0);
    return text.length < length ? undefined : { body: text.slice(0, length), length };
  }
  let body = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(text.slice(at, lineEnd), 16);
    const chunkEnd = lineEnd + 2 + size;
    if (text.length < chunkEnd + 2) return undefined;
    body += text.slice(lineEnd + 2, chunkEnd);
    at = chunkEnd + 2;
    if (size === 0) return { body, length: at };
  }
};

/** Bytes back, split into HTTP/1.1 responses (interim 1xx ones included). */
const parseResponses = (text: string): RawResponse[] => {
  const responses: RawResponse[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return responses;
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine.split(' ')[1]);
    const body = status < 200 ? { body: '', length: 0 } : readBody(rest.slice(end + 4), headers);
    if (!body) return responses;
    responses.push({ status, headers, body: body.body });
    rest = rest.slice(end + 4 + body.length);
  }
};

/** One TCP connection spoken to by hand, so the test decides what is sent when, and sees everything that comes back. */
class RawConnection {
  private text = '';
  /** The server closed its side (a FIN, or a reset). */
  ended = false;
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.text += chunk;
    });
    socket.on('end', () => {
      this.ended = true;
    });
    // A reset is an end too; the assertions say whether it was a clean one.
    socket.on('error', () => {
      this.ended = true;
    });
    this.closed = once(socket, 'close').then(() => undefined);
  }

  static async open(port: number): Promise<RawConnection> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return new RawConnection(socket);
  }

  write(text: string): void {
    this.socket.write(text);
  }

  responses(): RawResponse[] {
    return parseResponses(this.text);
  }

  /** Final (non-1xx) responses. */
  answers(): RawResponse[] {
    return this.responses().filter((response) => response.status >= 200);
  }

  async waitFor(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; received: ${JSON.stringify(this.text)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

const get = (path: string, headers: Record<string, string> = {}): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

/**
 * Every request sent on the connection was answered, or the last answer said `Connection:
 * close` (the server's way to say it reads nothing more): never a connection closed under
 * a request it took. A 503 of a stopping server closes the connection and says why.
 */
const expectAnsweredOrRefused = (connection: RawConnection, requestsSent: number): void => {
  const answers = connection.answers();
  expect(answers.length).toBeLessThanOrEqual(requestsSent);
  if (answers.length < requestsSent) expect(answers.at(-1)?.headers.connection).toBe('close');
  for (const answer of answers.filter((response) => response.status === 503)) {
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({ detail: expect.any(String) });
  }
};

describe('SIGTERM to npm start', () => {
  test('a request sent after it on a keep-alive connection opened before it is answered or cleanly refused; the process exits promptly', async () => {
    const folder = tempDir('knap-stop-');
    folders.push(folder);
    const port = await freePort();
    const server = spawnStart({
      PORT: String(port),
      DYNAMODB_PORT: String(await freePort()),
      DATA_DIR: folder.path,
      ACCESS_LOG: 'false',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      DISPATCH_INTERVAL_MS: '0',
    });
    running.push(server);
    await server.waitForStdout(/Knap API listening/);

    // Idle at the signal: one exchange done, the connection kept alive.
    const idle = await RawConnection.open(port);
    idle.write(get('/api/studio/knap-tools'));
    await idle.waitFor('the first answer', () => idle.answers().length === 1);
    expect(idle.answers()[0]?.headers.connection).toBe('keep-alive');

    // Busy at the signal: a token request the server has taken (its 100 Continue says so),
    // whose body is still coming.
    const busy = await RawConnection.open(port);
    const form = 'grant_type=client_credentials&client_id=knap_ci_nobody&client_secret=not-a-secret';
    busy.write(
      'POST /api/oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        `Content-Length: ${form.length}\r\nExpect: 100-continue\r\n\r\n${form.slice(0, 10)}`,
    );
    await busy.waitFor('100 Continue', () => busy.responses().some((response) => response.status === 100));

    process.kill(server.pid, 'SIGTERM');
    await server.waitForStdout(/SIGTERM: stopping/);

    // After the signal: the rest of the body and, right behind it on the same connection, a
    // request for a function not loaded yet (so it cannot be over before the first answer).
    busy.write(form.slice(10) + get('/api/studio/knap-tools/no-such-knap', { Authorization: 'Bearer not-a-token' }));
    const sentAt = Date.now();

    await Promise.all([busy.closed, idle.closed]);
    const exit = await server.exited(10_000);
    const stoppedAfter = Date.now() - sentAt;
    expect(exit).toEqual({ code: 0, signal: null });

    // The request under way at the signal is answered; the one behind it is refused, not run.
    expect(busy.answers().map((response) => response.status)).toEqual([401, 503]);
    expectAnsweredOrRefused(busy, 2);
    // The idle connection was closed by the server, with nothing of ours unanswered.
    expect(idle.ended).toBe(true);
    expectAnsweredOrRefused(idle, 1);
    expect(server.stderr()).toBe('');
    // Well under the 5 s the stop used to wait for the database, with room for a loaded machine.
    expect(stoppedAfter).toBeLessThan(4500);
  }, 90_000);
});

describe('the embedded DynamoDB', () => {
  /** What `work` printed with console.error (where close() says it had to stop the worker). */
  const errorsDuring = async (work: () => Promise<void>): Promise<string[]> => {
    const lines: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => {
      lines.push(args.join(' '));
    };
    try {
      await work();
    } finally {
      console.error = original;
    }
    return lines;
  };

  /** A DynamoDB request (ListTables) whose body is still coming: under way until the rest is sent. */
  const halfSentListTables = async (port: number) => {
    const connection = await RawConnection.open(port);
    const body = '{}';
    connection.write(
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n' +
        'X-Amz-Target: DynamoDB_20120810.ListTables\r\nAuthorization: AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0\r\n' +
        `X-Amz-Date: 20260101T000000Z\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await connection.waitFor('100 Continue', () => connection.responses().some((response) => response.status === 100));
    return { connection, rest: body };
  };

  test('closes at once when a request under way finishes: its answer closes its connection (no 5 s keep-alive wait)', async () => {
    const dynamo = await startEmbeddedDynamo();
    const port = Number(new URL(dynamo.endpoint).port);
    const { connection, rest } = await halfSentListTables(port);

    const started = Date.now();
    const errors = await errorsDuring(async () => {
      const closing = dynamo.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      connection.write(rest);
      await closing;
    });
    const took = Date.now() - started;
    expect(errors).toEqual([]);

    expect(connection.answers()).toHaveLength(1);
    expect(connection.answers()[0]?.status).toBe(200);
    expect(connection.answers()[0]?.headers.connection).toBe('close');
    expect(took).toBeLessThan(4000);
  });

  test('a request that never finishes holds the close up for a moment, not for the 5 s last resort', async () => {
    const dynamo = await startEmbeddedDynamo();
    const port = Number(new URL(dynamo.endpoint).port);
    const { connection } = await halfSentListTables(port);

    const started = Date.now();
    expect(await errorsDuring(() => dynamo.close())).toEqual([]);
    expect(Date.now() - started).toBeLessThan(4500);
    await connection.closed;
  });
});
