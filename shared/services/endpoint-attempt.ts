/**
 * One attempt at one endpoint, judged the same way for a run's `knap.run` message and for any
 * other message: whether it is retried and when, and the record the admin API shows.
 */
import { randomUUID } from 'node:crypto';
import type { EndpointAttemptInput } from '../domain/repository.js';
import { retryDelaySeconds } from '../webhooks/retry.js';
import type { SendResult } from '../webhooks/send.js';
import type { DeliverySettings } from './delivery.js';

/**
 * The attempt numbered `number` (its delivery's retries counted from `retryBase`), sent at
 * `startedAt` (`at`, to the second): delivered, pending a retry, or failed for good
 * (`hopeless`: nothing more can come of it), and the seconds to its retry.
 */
export const judgedAttempt = (
  result: SendResult,
  attempt: { number: number; retryBase: number; hopeless: boolean; endpointId: string; at: string; startedAt: Date },
  settings: DeliverySettings,
): { record: EndpointAttemptInput; delay: number | null } => {
  const { number, retryBase, hopeless, endpointId, at, startedAt } = attempt;
  const delay = result.ok || hopeless ? null : retryDelaySeconds(number - retryBase, settings.random, settings.retry);
  const record: EndpointAttemptInput = {
    number,
    id: randomUUID(),
    status: result.ok ? 'delivered' : delay === null ? 'failed' : 'pending',
    nextAt: delay === null ? null : new Date(startedAt.getTime() + delay * 1000).toISOString(),
    entry: {
      at,
      endpoint_id: endpointId,
      status: result.ok ? 'delivered' : 'failed',
      error: result.ok ? null : result.error,
      response_status: result.status,
      duration_ms: result.durationMs ?? null,
      response_body: result.snippet ?? null,
      http_status: result.status,
    },
  };
  // `delay`: seconds to the retry, null when there is none.
  return { record, delay };
};
