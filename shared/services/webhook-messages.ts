import { isoSeconds } from '../domain/clock.js';
import { RUN_RETENTION_SECONDS } from '../domain/runs.js';
import { toJson } from '../domain/storable-json.js';
import {
  type EndpointDelivery,
  newMessageId,
  outcomeMessageId,
  signingSecrets,
  takesEvent,
  type WebhookEventType,
} from '../domain/webhooks.js';
import type { Deps } from '../runtime.js';
import { signedHeaders } from '../webhooks/message.js';
import { type SendResult, sendWebhook } from '../webhooks/send.js';
import type { DeliverySettings } from './delivery.js';
import { judgedAttempt } from './endpoint-attempt.js';
import { disableAfterSecondsFromEnv, noteEndpointOutcome } from './endpoint-health.js';
import { outcomeMessageType, readOutcomeJob } from './run-outcomes.js';

/**
 * Sends a message of `type` with `data` to the organization's endpoints that take it (but
 * `except`); returns its id, or null when no endpoint takes it (nothing is stored then).
 * `messageId`: the message's own fixed id (a run's outcome message) instead of a new one; sent
 * again with it (a queue retry after a failure half way), it stores nothing twice and starts
 * only the endpoints the earlier try did not.
 */
export const emitEvent = async (
  deps: Deps,
  orgName: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  except?: string,
  messageId: string = newMessageId(),
): Promise<string | null> => {
  const endpoints = (await deps.repo.listWebhookEndpoints(orgName)).filter(
    (endpoint) => endpoint.endpointId !== except && takesEvent(endpoint, type),
  );
  if (endpoints.length === 0) return null;
  const now = deps.clock.now();
  const expiresAt = Math.floor(now.getTime() / 1000) + RUN_RETENTION_SECONDS;
  const body = toJson({ type, timestamp: now.toISOString(), data });
  let targets = endpoints.map((endpoint) => endpoint.endpointId);
  if (!(await deps.repo.putMessage({ messageId, orgName, type, body, createdAt: isoSeconds(now) }, expiresAt))) {
    // Stored by an earlier try: the message stands as it was; only endpoints it did not start get it.
    const begun = new Set((await deps.repo.runDeliveries(messageId)).map((delivery) => delivery.endpointId));
    targets = targets.filter((endpointId) => !begun.has(endpointId));
    if (targets.length === 0) return messageId;
  }
  const started = await deps.repo.startDeliveries(
    { runId: messageId, orgName, round: 1, all: false, now: isoSeconds(now), expiresAt, messageType: type },
    targets,
  );
  for (const endpointId of started) await deps.deliveries.enqueue(messageId, 0, { endpointId, orgName });
  deps.log.info('Webhook message', { message_id: messageId, type, endpoints: started.length });
  return messageId;
};

/**
 * A run's outcome message (a queue job, services/run-outcomes.ts): `knap.run.succeeded` or
 * `knap.run.failed`, `data.run` the run as stored, to the endpoints that take it, under the
 * run's one outcome message id. Throws when the store or the queue fails: the queue tries the
 * job again, and the fixed id keeps that from sending anything twice.
 */
export const sendOutcomeMessage = async (deps: Deps, jobId: string): Promise<void> => {
  const job = readOutcomeJob(jobId);
  if (!job) {
    deps.log.warn('Unreadable run outcome job, dropped', { job_id: jobId });
    return;
  }
  const stored = await deps.repo.getRun(job.runId);
  if (!stored) return;
  const type = outcomeMessageType(job.reason, stored.run.outcome);
  if (!type) {
    deps.log.warn('Run outcome message not sent: the run has no outcome', { run_id: job.runId, reason: job.reason });
    return;
  }
  await emitEvent(deps, stored.orgName, type, { reason: job.reason, run: stored.run }, undefined, outcomeMessageId(job.runId));
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
