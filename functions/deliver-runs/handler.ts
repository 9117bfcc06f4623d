import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { startInvocation } from '../../shared/lambda/invocation.js';
import { parseDeliveryMessage, SqsDeliveryQueue, secondsToWait } from '../../shared/queue/sqs-queue.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { type DeliverySettings, deliverRun, deliverySettingsFromEnv } from '../../shared/services/delivery.js';

/**
 * The SQS consumer that delivers runs to webhooks. The records of a batch are delivered all at
 * once (a slow endpoint holds up no other run), and only the records whose delivery threw
 * (the store or the queue failed) are reported back, so SQS retries those alone. An
 * endpoint's error is no throw: deliverRun records it and queues the next attempt itself.
 */
export const createHandler =
  (deps: Deps, settings: DeliverySettings = deliverySettingsFromEnv()) =>
  async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    await startInvocation(deps.log, context);
    const failures: SQSBatchItemFailure[] = [];
    const handle = async (record: SQSRecord): Promise<void> => {
      const message = parseDeliveryMessage(record.body);
      if (!message) {
        // Retrying cannot make it readable: log and let it go.
        deps.log.error('Unreadable delivery message, dropped', { message_id: record.messageId });
        return;
      }
      try {
        const wait = secondsToWait(message, deps.clock.now().getTime());
        if (wait > 0) await deps.deliveries.enqueue(message.run_id, wait);
        else await deliverRun(deps, message.run_id, settings);
      } catch (error) {
        deps.log.error('Delivery failed; SQS will try again', {
          run_id: message.run_id,
          error: (error as Error).name,
          message: (error as Error).message,
        });
        failures.push({ itemIdentifier: record.messageId });
      }
    };
    try {
      await Promise.all(event.Records.map(handle));
    } finally {
      deps.metrics.flush();
    }
    return { batchItemFailures: failures };
  };

export const handler = createHandler(defaultDeps({ remoteDeliveries: SqsDeliveryQueue.forUrl }));
