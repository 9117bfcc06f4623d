/**
 * Automatic disabling: an endpoint whose last AUTO_DISABLE_STREAK messages all finally failed,
 * the first of them at least `disableAfterSeconds` ago, is disabled, audited as `system`, and
 * announced as `endpoint.disabled` to the organization's other endpoints. The endpoint's item
 * keeps its failure record (domain/webhooks.ts FailureRecord: the streak, and the times of its
 * last AUTO_DISABLE_STREAK final failures, bounded), one conditional UpdateItem per final
 * failure, not a query of its deliveries. The age is that of the first of the last ten, not of
 * the streak's start: a streak of 15 that began 6 days ago but whose 6th failure is an hour old
 * is not disabled with D = 5 days.
 */
import { SYSTEM_ACTOR } from '../domain/audit.js';
import { isoSeconds } from '../domain/clock.js';
import {
  AUTO_DISABLE_STREAK,
  type FailureRecord,
  failureRecordOf,
  isDisableDue,
  newFailureRev,
  type WebhookEndpoint,
  withFinalFailure,
} from '../domain/webhooks.js';
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
 * Writers at one endpoint at once (its deliveries finish side by side) each lose a try only to
 * another's success: this many tries record up to this many failures landing together.
 */
const RECORD_TRIES = 25;

/**
 * Counts one more final failure on the endpoint's record: one conditional write on the record
 * as read (with the attempt's read of the endpoint first), counted again from the record as it
 * is when another write came first. The record written; null when the endpoint is gone (or,
 * beyond every try, not written: logged, and the next failure counts again).
 */
const recordFailure = async (deps: Deps, endpoint: WebhookEndpoint, at: string): Promise<FailureRecord | null> => {
  let seen = failureRecordOf(endpoint);
  for (let attempt = 0; attempt < RECORD_TRIES; attempt += 1) {
    const next = withFinalFailure(seen, at, newFailureRev());
    const result = await deps.repo.noteEndpointFailure(endpoint.endpointId, seen.rev, next);
    if (result === 'applied') return next;
    if (result === null) return null;
    seen = result;
  }
  deps.log.warn('Endpoint failure not counted: too many at once', { endpoint_id: endpoint.endpointId });
  return null;
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
    const record = await recordFailure(deps, endpoint, isoSeconds(now));
    if (!record || endpoint.disabled) return;
    const startedBy = isoSeconds(new Date(now.getTime() - disableAfterSeconds * 1000));
    if (!isDisableDue(record, startedBy)) return;
    const disabled = await deps.repo.disableFailingEndpoint(endpoint.endpointId, isoSeconds(now), AUTO_DISABLE_STREAK, startedBy);
    if (!disabled) return;
    deps.log.warn('Webhook endpoint disabled: its messages keep failing', {
      endpoint_id: disabled.endpointId,
      streak: record.streak,
      since: record.since,
      first_of_last: record.recent[0],
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
