import { isoSeconds } from '../domain/clock.js';
import { RUN_RETENTION_SECONDS } from '../domain/runs.js';
import { toJson } from '../domain/storable-json.js';
import { type EndpointDelivery, newMessageId, signingSecrets, takesEvent, type WebhookEventType } from '../domain/webhooks.js';
import type { Deps } from '../runtime.js';
import { signedHeaders } from '../webhooks/message.js';
import { type SendResult, sendWebhook } from '../webhooks/send.js';
import type { DeliverySettings } from './delivery.js';
import { judgedAttempt } from './endpoint-attempt.js';
import { disableAfterSecondsFromEnv, noteEndpointOutcome } from './endpoint-health.js';

/**
 * Sends a message of `type` with `data` to the organization's endpoints that take it (but
 * `except`); returns its id, or null when no endpoint takes it (nothing is stored then).
 */
export const emitEvent = async (
  deps: Deps,
  orgName: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  except?: string,
): Promise<string | null> => {
  const endpoints = (await deps.repo.listWebhookEndpoints(orgName)).filter(
    (endpoint) => endpoint.endpointId !== except && takesEvent(endpoint, type),
  );
  if (endpoints.length === 0) return null;
  const now = deps.clock.now();
  const messageId = newMessageId();
  const expiresAt = Math.floor(now.getTime() / 1000) + RUN_RETENTION_SECONDS;
  const body = toJson({ type, timestamp: now.toISOString(), data });
  await deps.repo.putMessage({ messageId, orgName, type, body, createdAt: isoSeconds(now) }, expiresAt);
  const started = await deps.repo.startDeliveries(
    { runId: messageId, orgName, round: 1, all: false, now: isoSeconds(now), expiresAt, messageType: type },
    endpoints.map((endpoint) => endpoint.endpointId),
  );
  for (const endpointId of started) await deps.deliveries.enqueue(messageId, 0, { endpointId, orgName });
  deps.log.info('Webhook message', { message_id: messageId, type, endpoints: started.length });
  return messageId;
};

/**
 * One attempt of a message at one endpoint: as a run's (deliverToEndpoint), recorded once on
 * its delivery item, the next attempt queued after a failure. A removed or disabled endpoint
 * ends the delivery unsent.
 */
export const deliverMessageToEndpoint = async (
  deps: Deps,
  messageId: string,
  endpointId: string,
  settings: DeliverySettings,
): Promise<EndpointDelivery | null> => {
  const [delivery, message, endpoint] = await Promise.all([
    deps.repo.getDelivery(messageId, endpointId),
    deps.repo.getMessage(messageId),
    deps.repo.getWebhookEndpoint(endpointId),
  ]);
  if (delivery?.status !== 'pending' || !message) return delivery;
  const startedAt = deps.clock.now();
  const at = isoSeconds(startedAt);
  const number = delivery.attempts + 1;
  let result: SendResult;
  let hopeless = false;
  if (!endpoint || endpoint.orgName !== message.orgName || !takesEvent(endpoint, message.type)) {
    result = { ok: false, status: null, error: 'The endpoint was removed, disabled, or no longer takes this type' };
    hopeless = true;
  } else {
    result = await sendWebhook(
      {
        url: endpoint.url,
        body: message.body,
        headers: signedHeaders(signingSecrets(endpoint, startedAt), messageId, startedAt, message.body),
      },
      settings,
    );
  }
  const { record, delay } = judgedAttempt(
    result,
    { number, retryBase: delivery.retryBase, hopeless, endpointId, at, startedAt },
    settings,
  );
  const { entry, status } = record;
  const updated = await deps.repo.recordEndpointAttempt(messageId, endpointId, record);
  if (!updated) return null;
  deps.log.info('Webhook message attempt', {
    message_id: messageId,
    endpoint_id: endpointId,
    status,
    attempts: number,
    response_status: result.status,
    error: entry.error,
  });
  if (delay !== null) await deps.deliveries.enqueue(messageId, delay, { endpointId, orgName: message.orgName });
  else if (!hopeless)
    await noteEndpointOutcome(
      deps,
      endpoint,
      status as 'delivered' | 'failed',
      settings.disableAfterSeconds ?? disableAfterSecondsFromEnv(),
    );
  return updated;
};
