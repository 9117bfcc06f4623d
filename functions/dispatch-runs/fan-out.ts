/**
 * The deployed fan-out: one SQS message per worker share, `{"shards": [..], "by": ISO}`, on the
 * dispatch queue (DISPATCH_QUEUE_URL, lib/runs.ts), whose event source starts a dispatcher
 * invocation per message, at most maxConcurrency at once. Sent as the delivery queue sends
 * (shared/queue/sqs-queue.ts): the SDK's SQS client, each send bounded, loaded with the first
 * fan-out (a minute with little due sends none).
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DispatchFanOut, DispatchMessage } from '../../shared/services/dispatcher.js';

export class SqsDispatchFanOut implements DispatchFanOut {
  constructor(
    readonly url: string,
    /** The client to send with: the container's one when not given. */
    private client?: SQSClient,
  ) {}

  async send(message: DispatchMessage): Promise<void> {
    const { sendMessage, sharedSqsClient } = await import('../../shared/queue/sqs-queue.js');
    this.client ??= sharedSqsClient();
    await sendMessage(this.client, this.url, JSON.stringify(message));
  }
}
