import type { DeliveryQueue } from '../domain/webhooks.js';

/** Placeholder until the SQS queue lands: deployed delivery needs DELIVERY_QUEUE_URL and this class. */
export class SqsDeliveryQueue implements DeliveryQueue {
  private constructor(readonly url: string) {}

  static forUrl(url: string): SqsDeliveryQueue {
    return new SqsDeliveryQueue(url);
  }

  async enqueue(_runId: string, _delaySeconds: number): Promise<void> {
    throw new Error(`SQS delivery to ${this.url} is not built yet`);
  }
}
