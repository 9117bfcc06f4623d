/**
 * The deployed fan-out: one SQS message per worker share, `{"shards": [..], "by": ISO}`, on the
 * dispatch queue (DISPATCH_QUEUE_URL, lib/runs.ts), whose event source starts a dispatcher
 * invocation per message, at most maxConcurrency at once. Sent as the delivery queue sends
 * (shared/queue/sqs-queue.ts): the SDK's SQS client, each send bounded.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { sendMessage, sharedSqsClient } from '../../shared/queue/sqs-queue.js';
import type { DispatchFanOut, DispatchMessage } from '../../shared/services/dispatcher.js';

export class SqsDispatchFanOut implements DispatchFanOut {
  constructor(
    readonly url: string,
    /** The client to send with: the container's one when not given. */
    private client?: SQSClient,
  ) {}

  async send(message: DispatchMessage): Promise<void> {
    this.client ??= sharedSqsClient();
    await sendMessage(this.client, this.url, JSON.stringify(message));
  }
}
