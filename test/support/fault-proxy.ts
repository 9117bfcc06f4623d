import { once } from 'node:events';
import {
  type ClientRequest,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * - `up`: forward to DynamoDB
 * - `down`: drop every connection (as if DynamoDB were unreachable)
 * - `throttle`: answer every call with ProvisionedThroughputExceededException
 * - `hang`: accept and never answer
 * - `fail-writes`: forward reads, throttle PutItem
 */
export type FaultMode = 'up' | 'down' | 'throttle' | 'hang' | 'fail-writes';

export interface FaultProxy {
  endpoint: string;
  mode: FaultMode;
  /**
   * The next call whose operation (`PutItem`) and JSON body `match` reaches DynamoDB and is
   * applied, but its answer is lost: the connection is cut instead, and the SDK sends it
   * again. Resolves once that call has been applied.
   */
  loseNextAnswer(match: (operation: string, body: string) => boolean): Promise<void>;
  close(): Promise<void>;
}

const THROTTLED = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message: 'The level of configured provisioned throughput for the table was exceeded.',
});

/** Sends a request on to `target` and its answer back; the caller writes the body into what this returns. */
export const forwardTo = (target: URL, request: IncomingMessage, response: ServerResponse): ClientRequest => {
  const forward = httpRequest(
    { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
    (upstreamResponse) => {
      response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
      upstreamResponse.pipe(response);
    },
  );
  forward.on('error', () => response.destroy());
  return forward;
};

/** A DynamoDB endpoint in front of a real one, that a test can break and mend. */
export const startFaultProxy = async (upstream: string): Promise<FaultProxy> => {
  const target = new URL(upstream);
  const hanging = new Set<IncomingMessage>();
  const losses: { match: (operation: string, body: string) => boolean; lost: () => void }[] = [];
  const proxy: FaultProxy = {
    endpoint: '',
    mode: 'up',
    loseNextAnswer: (match) => new Promise<void>((lost) => losses.push({ match, lost })),
    close: async () => undefined,
  };

  /** Sends the call on, reads DynamoDB's whole answer, then cuts the caller's connection. */
  const applyAndLose = (request: IncomingMessage, body: Buffer, lost: () => void): void => {
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
      (upstream) => {
        upstream.resume();
        upstream.on('end', () => {
          request.socket.destroy();
          lost();
        });
      },
    );
    forward.on('error', () => request.socket.destroy());
    forward.end(body);
  };

  const server: Server = createServer((request, response) => {
    const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    if (losses.length > 0 && proxy.mode === 'up') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const index = losses.findIndex((loss) => loss.match(operation, body.toString('utf8')));
        if (index >= 0) {
          const [loss] = losses.splice(index, 1);
          return applyAndLose(request, body, (loss as (typeof losses)[number]).lost);
        }
        forwardTo(target, request, response).end(body);
      });
      return;
    }
    const mode = proxy.mode === 'fail-writes' ? (operation === 'PutItem' ? 'throttle' : 'up') : proxy.mode;
    if (mode === 'down') return request.socket.destroy();
    if (mode === 'hang') return void hanging.add(request);
    if (mode === 'throttle') {
      request.resume();
      response.writeHead(400, {
        'content-type': 'application/x-amz-json-1.0',
        'x-amzn-errortype': 'ProvisionedThroughputExceededException',
      });
      return void response.end(THROTTLED);
    }
    request.pipe(forwardTo(target, request, response));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const request of hanging) request.socket.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
};
