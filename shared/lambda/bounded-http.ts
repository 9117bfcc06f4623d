/**
 * The HTTP handler of every AWS SDK client here (DynamoDB, SQS, Secrets Manager): keep-alive
 * sockets, and attempts that really end at their timeouts. Without `throwOnRequestTimeout` the
 * SDK's `requestTimeout` only logs a warning and waits on, so a service that accepts the
 * connection and never answers would hold a call until the Lambda timeout instead of being
 * retried. `socketTimeout` bounds an answer that stops halfway.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { NodeHttpHandler } from '@smithy/node-http-handler';

export const boundedHttpHandler = <Handler extends NodeHttpHandler = NodeHttpHandler>(
  timeoutMs: number,
  HandlerClass: new (options: ConstructorParameters<typeof NodeHttpHandler>[0]) => Handler = NodeHttpHandler as never,
): Handler =>
  new HandlerClass({
    connectionTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    throwOnRequestTimeout: true,
    httpAgent: new HttpAgent({ keepAlive: true, maxSockets: 50 }),
    httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: 50 }),
  });
