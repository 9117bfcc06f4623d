import { SqsDeliveryQueue } from '../../shared/queue/sqs-queue.js';
import { defaultDeps } from '../../shared/runtime.js';
import { dispatchDueRuns } from '../../shared/services/dispatcher.js';

/**
 * Started every minute by EventBridge: creates the run of every occurrence that is due and
 * queues it for delivery. A failure throws, so the invocation is retried; a retry writes the
 * same runs (their ids derive from Knap and occurrence), never new ones.
 */
export const handler = async (): Promise<{ created: number; claimed: number }> => {
  const deps = defaultDeps({ remoteDeliveries: SqsDeliveryQueue.forUrl });
  const result = await dispatchDueRuns(deps);
  if (result.created + result.claimed > 0) deps.log.info('Dispatched due runs', { ...result });
  return result;
};
