import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardTo } from './fault-proxy.js';

/** One DynamoDB call as it went over the wire: its operation and its JSON body. */
export interface RecordedCall {
  operation: string;
  body: Record<string, unknown>;
}

export interface RecordingProxy {
  endpoint: string;
  /** Calls since the last `take()`. */
  take(): RecordedCall[];
  close(): Promise<void>;
}

/** A DynamoDB endpoint in front of a real one that notes every call it forwards. */
export const startRecordingProxy = async (upstream: string): Promise<RecordingProxy> => {
  const target = new URL(upstream);
  let calls: RecordedCall[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      calls.push({ operation, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      forwardTo(target, request, response).end(text);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take: () => {
      const taken = calls;
      calls = [];
      return taken;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
