import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { startInvocation } from '../../shared/lambda/invocation.js';
import { lazySqsDeliveryQueue } from '../../shared/queue/lazy-sqs.js';
import { parseQueueMessage, secondsToWait } from '../../shared/queue/messages.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { scopedDeps } from '../../shared/scoped-deps.js';
import { type DeliverySettings, deliverySettingsFromEnv, handleDelivery } from '../../shared/services/delivery.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { DeliveryStore } from '../../shared/store/delivery-store.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { RunEventStore } from '../../shared/store/run-event-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';
import { WebhookStore } from '../../shared/store/webhook-store.js';

/** Time kept back from the Lambda timeout to report the batch's failures. */
const DEADLINE_MARGIN_MS = 1_000;

/**
 * The SQS consumer that delivers runs to webhooks: a run's start (one message per endpoint that
 * takes it is queued) or one attempt at one endpoint. The records of a batch are handled all at
 * once (a slow endpoint holds up no other; a batch holds at most 10, so at most 10 sockets), and only the records whose delivery threw
 * (the store or the queue failed) are reported back, so SQS retries those alone. An
 * endpoint's error is no throw: deliverRun records it and queues the next attempt itself.
 *
 * The queue also carries the rest of large meeting reports (`meeting_fan_out` messages): each
 * makes a page of runs and queues the next page (services/meeting-fan-out.ts).
 *
 * The batch's DynamoDB calls have a deadline, a second before the Lambda timeout: a stalled
 * DynamoDB fails the records it holds (reported back, so SQS delivers them again later), and
 * the function returns before its timeout instead of being cut off with nothing reported.
 */
export const createHandler =
  (functionDeps: Deps, settings: DeliverySettings = deliverySettingsFromEnv()) =>
  async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    await startInvocation(functionDeps.log, context);
    const deps = context
      ? scopedDeps(functionDeps, { deadline: Date.now() + context.getRemainingTimeInMillis() - DEADLINE_MARGIN_MS })
      : functionDeps;
    const failures: SQSBatchItemFailure[] = [];
    const handle = async (record: SQSRecord): Promise<void> => {
      const parsed = parseQueueMessage(record.body);
      if (!parsed) {
        // Retrying cannot make it readable: log and let it go.
        deps.log.error('Unreadable delivery message, dropped', { message_id: record.messageId });
        return;
      }
      if ('fanOut' in parsed) {
        try {
          // Only large meeting reports send these: their code loads with the first one.
          const { continueMeetingFanOut } = await import('../../shared/services/meeting-fan-out.js');
          await continueMeetingFanOut(deps, parsed.fanOut);
        } catch (error) {
          deps.log.error('Making meeting runs failed; SQS will try again', {
            meeting_id: parsed.fanOut.meeting.meeting_id,
            error: (error as Error).name,
            message: (error as Error).message,
          });
          failures.push({ itemIdentifier: record.messageId });
        }
        return;
      }
      const message = parsed.delivery;
      try {
        const wait = secondsToWait(message, deps.clock.now().getTime());
        // The organization is the local queue's lane only: SQS messages do not carry it.
        const target = message.endpoint_id ? { endpointId: message.endpoint_id, orgName: '' } : undefined;
        if (wait > 0) await deps.deliveries.enqueue(message.run_id, wait, target);
        else await handleDelivery(deps, message.run_id, message.endpoint_id, settings);
      } catch (error) {
        deps.log.error('Delivery failed; SQS will try again', {
          run_id: message.run_id,
          endpoint_id: message.endpoint_id,
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

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = {
  knaps: KnapStore,
  runs: RunStore,
  runEvents: RunEventStore,
  webhooks: WebhookStore,
  deliveries: DeliveryStore,
  // An endpoint disabled for failing is audited (actor `system`).
  admins: AdminStore,
};
// The token keys seal each message's report token.
export const handler = createHandler(defaultDeps({ stores, tokenKeys: keyringFromEnv, remoteDeliveries: lazySqsDeliveryQueue }));
