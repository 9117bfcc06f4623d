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
  const proxy: FaultProxy = { endpoint: '', mode: 'up', close: async () => undefined };

  const server: Server = createServer((request, response) => {
    const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1];
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
