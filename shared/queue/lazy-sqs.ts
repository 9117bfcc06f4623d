/**
 * The delivery queue of a function that sends to it only now and then (the deliverer: a retry,
 * a long wait, the next page of a meeting report; the dispatcher: a minute with runs due): the
 * SQS client is a file beside the bundle, loaded by the first message sent, so an invocation
 * that sends none never reads it.
 */
import type { DeliveryQueue } from '../domain/webhooks.js';

export const lazySqsDeliveryQueue = (url: string): DeliveryQueue => {
  let opening: Promise<DeliveryQueue> | undefined;
  const queue = (): Promise<DeliveryQueue> => {
    opening ??= import('./sqs-queue.js').then(
      ({ SqsDeliveryQueue }) => SqsDeliveryQueue.forUrl(url),
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    );
    return opening;
  };
  return {
    enqueue: async (runId, delaySeconds, target) => (await queue()).enqueue(runId, delaySeconds, target),
    enqueueMeetingFanOut: async (task) => (await queue()).enqueueMeetingFanOut(task),
  };
};
