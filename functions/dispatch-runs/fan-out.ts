/**
 * The deployed fan-out: one SQS message per worker share, `{"shards": [..], "by": ISO}`, on the
 * dispatch queue (DISPATCH_QUEUE_URL, lib/runs.ts), whose event source starts a dispatcher
 * invocation per message, at most maxConcurrency at once. Sent over SQS's JSON protocol as the
 * delivery queue sends (shared/queue/sqs-queue.ts): one signed call, no SDK client.
 */
import { createHash } from 'node:crypto';
import { callAwsJson, type JsonCallTarget } from '../../shared/aws/json-call.js';
import { queueTarget, SEND_TIMEOUT_MS } from '../../shared/queue/sqs-queue.js';
import type { DispatchFanOut, DispatchMessage } from '../../shared/services/dispatcher.js';

export class SqsDispatchFanOut implements DispatchFanOut {
  constructor(
    readonly url: string,
    private target?: JsonCallTarget,
  ) {}

  async send(message: DispatchMessage): Promise<void> {
    this.target ??= queueTarget(this.url);
    const body = JSON.stringify(message);
    const answer = (await callAwsJson(this.target, {
      service: 'sqs',
      target: 'AmazonSQS.SendMessage',
      jsonVersion: '1.0',
      body: { QueueUrl: this.url, MessageBody: body },
      timeoutMs: SEND_TIMEOUT_MS,
    })) as { MD5OfMessageBody?: unknown };
    const md5 = createHash('md5').update(body).digest('hex');
    if (answer.MD5OfMessageBody !== md5) {
      throw new Error(`SQS stored a message body other than the one sent (MD5 ${String(answer.MD5OfMessageBody)}, not ${md5})`);
    }
  }
}
