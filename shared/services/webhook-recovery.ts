/**
 * Recovery (POST /api/admin/webhooks/{endpoint_id}/recover): every `knap.run` whose delivery to
 * one endpoint finally failed since a moment is sent to it again, with the same webhook-id (the
 * run id). The route only checks the endpoint and queues the first page; each page (a queue
 * message the deliverer handles, RECOVERY_PAGE_SIZE runs read from the endpoint's sparse index
 * of failed deliveries) starts those runs' deliveries to this endpoint alone, then queues the
 * next page: bounded work per request and per message, however much failed.
 *
 * A page rides the delivery queue as an ordinary delivery message naming the endpoint, its
 * run id `rcv_` and the page's place (base64url JSON): no new kind of message, so SQS, the
 * local queue and the deliverer's parsing stay as they are.
 */
import { isoSeconds } from '../domain/clock.js';
import { RUN_RETENTION_SECONDS } from '../domain/runs.js';
import type { Deps } from '../runtime.js';
import type { RecoverWebhookRequest, WebhookRecovery } from '../schemas/webhook-recovery.js';
import { recordAudit } from './audit-log.js';
import { knownId, notFound } from './org-admin.js';
import type { OrgAdmin } from './request-state.js';

/** Runs restarted per queue message. */
export const RECOVERY_PAGE_SIZE = 25;

const PAGE_PREFIX = 'rcv_';

interface RecoveryPage {
  since: string;
  cursor?: string;
}

export const isRecoveryPage = (id: string): boolean => id.startsWith(PAGE_PREFIX);

const pageId = (page: RecoveryPage): string => `${PAGE_PREFIX}${Buffer.from(JSON.stringify(page)).toString('base64url')}`;

const readPage = (id: string): RecoveryPage | null => {
  try {
    const value = JSON.parse(Buffer.from(id.slice(PAGE_PREFIX.length), 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof value.since !== 'string') return null;
    return typeof value.cursor === 'string' ? { since: value.since, cursor: value.cursor } : { since: value.since };
  } catch {
    return null;
  }
};

/** The route: the endpoint must be the admin's organization's (else 404); its first page queued; audited. */
export const recoverOrgWebhook = async (
  deps: Deps,
  admin: OrgAdmin,
  endpointId: string,
  request: RecoverWebhookRequest,
): Promise<WebhookRecovery> => {
  knownId(endpointId, 'webhook endpoint');
  const endpoint = await deps.repo.getWebhookEndpoint(endpointId);
  if (!endpoint || endpoint.orgName !== admin.orgName) throw notFound('webhook endpoint', endpointId);
  // The index's sort keys are seconds (`<at>#<run>`): compared as text, to the second.
  const since = isoSeconds(new Date(request.since));
  await deps.deliveries.enqueue(pageId({ since }), 0, { endpointId, orgName: admin.orgName });
  await recordAudit(deps, admin.actor, admin.orgName, 'webhook.recover', { type: 'webhook', id: endpointId });
  return { endpoint_id: endpointId, since };
};

/**
 * One page of a recovery (the deliverer): each run in it whose delivery is over is reopened as a
 * redelivery (one conditional write) and its delivery to this endpoint alone started again (a
 * copy of this message starts nothing twice: both writes are conditional). Returns the runs started.
 * `settle` ends a run reopened for nothing (its delivery was no longer failed: the index lags
 * its items a little), so no run is left pending.
 */
export const continueRecovery = async (
  deps: Deps,
  id: string,
  endpointId: string,
  settle: (runId: string, round: number) => Promise<unknown>,
): Promise<string[]> => {
  const page = readPage(id);
  const endpoint = await deps.repo.getWebhookEndpoint(endpointId);
  if (!page || !endpoint) {
    deps.log.warn('Recovery page dropped', { endpoint_id: endpointId, readable: page !== null });
    return [];
  }
  const { orgName } = endpoint;
  const found = await deps.repo.failedDeliveries(endpointId, page.since, { limit: RECOVERY_PAGE_SIZE, cursor: page.cursor });
  const started: string[] = [];
  for (const runId of found.runIds) {
    if ((await deps.repo.redeliverRun(runId, orgName)) !== 'redelivering') continue;
    const stored = await deps.repo.getRun(runId);
    if (!stored) continue;
    const round = (stored.redeliveries ?? 0) + 1;
    const expiresAt = Math.floor(Date.parse(stored.run.created_at) / 1000) + RUN_RETENTION_SECONDS;
    const now = isoSeconds(deps.clock.now());
    const restarted = await deps.repo.startDeliveries({ runId, orgName, round, all: false, now, expiresAt }, [endpointId]);
    if (restarted.length === 0) await settle(runId, round);
    for (const restartedId of restarted) {
      await deps.deliveries.enqueue(runId, 0, { endpointId: restartedId, orgName });
      started.push(runId);
    }
  }
  deps.log.info('Recovery page', { endpoint_id: endpointId, runs: found.runIds.length, started: started.length });
  if (found.next) await deps.deliveries.enqueue(pageId({ since: page.since, cursor: found.next }), 0, { endpointId, orgName });
  return started;
};
