/**
 * An endpoint's attempts (GET /api/admin/webhooks/{endpoint_id}/attempts): its deliveries, the
 * one attempted last first (one Query of gsi2 a page), each message's recorded attempts newest
 * first. Bounded: delivery items expire with their run or message.
 */
import { isMessageId } from '../domain/webhooks.js';
import type { Deps } from '../runtime.js';
import type { WebhookAttempt, WebhookAttemptPage } from '../schemas/webhook-attempts.js';
import { knownId, notFound } from './org-admin.js';
import { webhookView } from './org-webhooks.js';
import { readPage } from './paging.js';
import type { OrgAdmin } from './request-state.js';

export const listWebhookAttempts = async (
  deps: Deps,
  admin: OrgAdmin,
  endpointId: string,
  page: { limit: number; cursor?: string },
): Promise<WebhookAttemptPage> => {
  knownId(endpointId, 'webhook endpoint');
  const endpoint = await deps.repo.getWebhookEndpoint(endpointId);
  if (!endpoint || endpoint.orgName !== admin.orgName) throw notFound('webhook endpoint', endpointId);
  const found = await readPage(() => deps.repo.endpointDeliveries(endpointId, page));
  const attempts: WebhookAttempt[] = [];
  for (const { delivery, messageType } of found.deliveries) {
    const message = isMessageId(delivery.runId);
    const { log } = delivery;
    // The ring holds the last attempts in order: the newest is number `attempts`.
    for (let index = log.length - 1; index >= 0; index--) {
      const entry = log[index];
      if (!entry) continue;
      attempts.push({
        at: entry.at,
        message_id: delivery.runId,
        run_id: message ? null : delivery.runId,
        type: messageType ?? (message ? null : 'knap.run'),
        attempt: Math.max(1, delivery.attempts - (log.length - 1 - index)),
        status: entry.status,
        error: entry.error,
        response_status: entry.response_status,
        duration_ms: entry.duration_ms,
        response_body: entry.response_body,
        delivery_status: delivery.status,
      });
    }
  }
  return {
    endpoint: {
      ...webhookView(endpoint),
      fail_streak: endpoint.failStreak ?? 0,
      fail_streak_since: endpoint.failStreakSince ?? null,
    },
    attempts,
    next_cursor: found.next,
  };
};
