/**
 * Rotating a webhook endpoint's signing secret (issue 44): the new secret is shown once; the
 * old one keeps signing beside it for SECRET_OVERLAP_SECONDS (two `v1,` signatures in
 * `webhook-signature`), so a receiver can switch over without dropping a message.
 */
import { newWebhookSecret, SECRET_OVERLAP_SECONDS } from '../domain/webhooks.js';
import type { Deps } from '../runtime.js';
import { recordAudit } from './audit-log.js';
import { knownId, notFound } from './org-admin.js';
import type { OrgAdmin } from './request-state.js';

/**
 * One conditional write of this organization's endpoint (another's is a 404, with no read),
 * audited as webhook.rotate_secret. Rotating again within the overlap drops the oldest secret:
 * the one being replaced is the one that keeps signing.
 */
export const rotateOrgWebhookSecret = async (deps: Deps, admin: OrgAdmin, endpointId: string): Promise<{ secret: string }> => {
  knownId(endpointId, 'webhook endpoint');
  const secret = newWebhookSecret();
  const expiresAt = new Date(deps.clock.now().getTime() + SECRET_OVERLAP_SECONDS * 1000).toISOString();
  const rotated = await deps.repo.rotateWebhookSecret(endpointId, admin.orgName, { secret, previousSecretExpiresAt: expiresAt });
  if (!rotated) throw notFound('webhook endpoint', endpointId);
  await recordAudit(deps, admin.actor, admin.orgName, 'webhook.rotate_secret', { type: 'webhook', id: endpointId });
  return { secret };
};
