/**
 * Automatic disabling: an endpoint whose last AUTO_DISABLE_STREAK messages all finally failed,
 * the first of them at least `disableAfterSeconds` ago, is disabled, audited as `system`, and
 * announced as `endpoint.disabled` to the organization's other endpoints. The streak is a
 * counter on the endpoint's item (bounded, one UpdateItem per final outcome), not a query of
 * its deliveries.
 */
import { SYSTEM_ACTOR } from '../domain/audit.js';
import { isoSeconds } from '../domain/clock.js';
import { AUTO_DISABLE_STREAK, type WebhookEndpoint } from '../domain/webhooks.js';
import type { Deps } from '../runtime.js';
import { describeUrlText } from '../webhooks/urls.js';
import { recordAudit } from './audit-log.js';
import { emitEvent } from './webhook-messages.js';

/** Deployed: 5 days (the contract's D); WEBHOOK_DISABLE_AFTER_SECONDS sets it (npm start: 0). */
export const DEFAULT_DISABLE_AFTER_SECONDS = 5 * 24 * 3600;

export const disableAfterSecondsFromEnv = (env: NodeJS.ProcessEnv = process.env): number => {
  const value = Number(env.WEBHOOK_DISABLE_AFTER_SECONDS);
  return env.WEBHOOK_DISABLE_AFTER_SECONDS !== undefined && env.WEBHOOK_DISABLE_AFTER_SECONDS !== '' && value >= 0
    ? value
    : DEFAULT_DISABLE_AFTER_SECONDS;
};

/**
 * After a message's delivery to an endpoint ended: `delivered` ends its streak (a write only
 * when there is one); `failed` (a real final failure, not one that sent nothing) counts it
 * and may disable the endpoint. Never throws: the attempt is recorded already, and a failure
 * here only delays the disabling to the next final failure.
 */
export const noteEndpointOutcome = async (
  deps: Deps,
  endpoint: WebhookEndpoint | null,
  outcome: 'delivered' | 'failed',
  disableAfterSeconds: number,
): Promise<void> => {
  if (!endpoint) return;
  try {
    if (outcome === 'delivered') {
      if ((endpoint.failStreak ?? 0) > 0) await deps.repo.clearEndpointFailures(endpoint.endpointId);
      return;
    }
    const now = deps.clock.now();
    const streak = await deps.repo.noteEndpointFailure(endpoint.endpointId, isoSeconds(now));
    if (!streak || streak.streak < AUTO_DISABLE_STREAK || endpoint.disabled) return;
    const startedBy = isoSeconds(new Date(now.getTime() - disableAfterSeconds * 1000));
    if (streak.since > startedBy) return;
    const disabled = await deps.repo.disableFailingEndpoint(endpoint.endpointId, isoSeconds(now), AUTO_DISABLE_STREAK, startedBy);
    if (!disabled) return;
    deps.log.warn('Webhook endpoint disabled: its messages keep failing', {
      endpoint_id: disabled.endpointId,
      streak: streak.streak,
      since: streak.since,
    });
    await recordAudit(deps, SYSTEM_ACTOR, disabled.orgName, 'webhook.auto_disable', { type: 'webhook', id: disabled.endpointId });
    await emitEvent(
      deps,
      disabled.orgName,
      'endpoint.disabled',
      { endpoint_id: disabled.endpointId, url: describeUrlText(disabled.url) },
      disabled.endpointId,
    );
  } catch (error) {
    deps.log.warn('Endpoint failure streak not recorded', { endpoint_id: endpoint.endpointId, error: (error as Error).name });
  }
};
